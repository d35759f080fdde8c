/* Remote devices (docs/remote.md): each `remote://HOST:PORT` of OMP2GPU_DEVICES is an
 * `omp2gpu serve` process whose devices become devices of this program, after the ones
 * listed before it. Every device op is one command over the transport (remote_transport.c)
 * answered before the op returns, except a target task's kernel (launch_queued), which is
 * sent and answered later: its command is its event. The code a server runs is
 * the program's device image as a shared object, embedded at link time and registered by
 * __omp2gpu_register_remote_code; it is sent once per device, at the image's first use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pthread.h>
#include <sched.h>
#include <unistd.h>
#include "offload.h"
#include "remote.h"

/* A command sent and not yet answered: a synchronous op's (its caller waits for it) or a
 * queued launch's (its event). Whichever thread reads the server's next answer gives it to
 * its command by sequence number, so commands are pipelined on the link. */
struct command {
    struct remote_request q;
    const void *payload;               /* the caller's, or `kept` (a queued launch's) */
    char *kept;
    void *out;                         /* where the answer's payload goes */
    uint64_t out_bytes;
    struct device *device;
    int state;                         /* 0 sent, 1 answered, -1 the server is gone */
    struct remote_reply r;
    char message[600];
    struct command *next;              /* the server's unanswered commands, in order */
    void *bulk;                        /* its bulk payload's send, until answered */
};
struct server {
    char url[200], host[200];
    int port;
    struct remote_link *link;
    uint64_t sequence, session;
    uint64_t answered;                 /* every answer up to this sequence read (the server forgets them) */
    long reconnections;
    struct command *unanswered, **last;
    int queued;                        /* queued launches unanswered (<= QUEUE_MOST) */
};
/* the server keeps its last REMOTE_ANSWERS_KEPT answers (a resent command's): fewer in flight */
#define QUEUE_MOST (REMOTE_ANSWERS_KEPT / 2)
struct allocation { uintptr_t address; long bytes; };
struct remote_state {
    struct server *server;
    int index;                         /* the device's number on its server */
    int images_loaded;                 /* images.c loads images in their order: the next one's */
    struct allocation *live;
    long live_count, live_capacity;
};
struct blob { const void *data; long size; };

static struct blob blobs[64];
static int blob_count;
/* The links and their commands: taken by ops under the runtime's lock, and by the
 * completion poller and taskwaits without it; held only while sending or reading one
 * answer, never while a kernel runs (UCX's worker is one for the process, single-threaded) */
static pthread_mutex_t links_lock = PTHREAD_MUTEX_INITIALIZER;

/* The device image's shared object (native_link.py), one per image, in the images' order */
void __omp2gpu_register_remote_code(const void *data, long size) {
    if (blob_count < 64) blobs[blob_count++] = (struct blob){data, size};
}

/* The request and its payload out (lock held): 0, or -1 where the link failed. A bulk
 * payload's send is left in `bulk` (finished once answered: the server has it by then), or
 * finished here where `bulk` is NULL. `first`: not a resend (only those count for
 * OMP2GPU_REMOTE_TEST_DROP) */
static int send_request(struct server *server, struct remote_request *q, const void *payload, void **bulk,
                        int first) {
    static long drop_every = -1, commands;      /* tests: a link dropped after every Nth request */
    if (drop_every < 0) drop_every = getenv("OMP2GPU_REMOTE_TEST_DROP") ? atol(getenv("OMP2GPU_REMOTE_TEST_DROP")) : 0;
    q->answered = server->answered;
    q->bulk = remote_payload_tag(q->payload);
    if (!server->link || remote_send_message(server->link, q, sizeof *q, q->bulk, payload, q->payload,
                                             drop_every > 0 && first ? 0 : bulk))   /* tests: finished before a drop */
        return -1;
    if (drop_every > 0 && first && q->op != REMOTE_HELLO && ++commands % drop_every == 0) {
        remote_close(server->link);             /* as a network failure: the answer is lost */
        server->link = 0;
        return -1;
    }
    return 0;
}

/* An answer's payload (lock held, its header read): into `out`, or the message into
 * `message`. 0, or -1 where the link failed or the answer does not fit. */
static int read_payload(struct server *server, const struct remote_reply *r, void *out, uint64_t out_bytes,
                        char *message, size_t message_size) {
    message[0] = 0;
    if (r->status != 0 && r->bulk) return -1;           /* a message is short: never by tag */
    if (r->status != 0) {
        uint64_t left = r->payload;
        size_t keep = left < message_size - 1 ? (size_t)left : message_size - 1;
        if (remote_receive(server->link, message, keep)) return -1;
        message[keep] = 0;
        for (left -= keep; left > 0;) {                   /* a longer message's rest */
            char skip[256];
            uint64_t piece = left < sizeof skip ? left : sizeof skip;
            if (remote_receive(server->link, skip, piece)) return -1;
            left -= piece;
        }
        return 0;
    }
    if (r->payload > out_bytes) {
        snprintf(message, message_size, "it answered out of turn");
        return -1;
    }
    return remote_receive_payload(server->link, out, r->payload, r->bulk);
}

/* HELLO on a new link (nothing else in flight there): the token and the session (so a new
 * link resumes the old one's memory and commands). 0, or -1 with `why`. */
static int hello(struct server *server, void *info, uint64_t info_bytes, struct remote_reply *r, char *why,
                 size_t why_size) {
    const char *token = getenv(REMOTE_DEFAULT_TOKEN_ENV);
    struct remote_request q = {REMOTE_MAGIC, REMOTE_HELLO, 0, 0, server->session, 0, 0, 0};
    if (!token) token = "";
    q.payload = strlen(token);
    why[0] = 0;
    if (send_request(server, &q, token, 0, 0) || remote_receive(server->link, r, sizeof *r)
        || read_payload(server, r, info, info_bytes, why, why_size)) {
        if (!why[0]) snprintf(why, why_size, "no answer");
        return -1;
    }
    return r->status == 0 ? 0 : -1;
}

/* A lost link made again (a few tries, the first at once) and the unanswered commands
 * resent in order with their sequence numbers (the server answers one it had done again,
 * from its copy of the answer). 0, or -1 with every unanswered command given up. */
static int reconnect(struct server *server) {
    struct remote_device_info info[64];
    struct remote_reply r;
    struct command *c;
    char why[512] = "";
    int attempt;
    for (attempt = 0; attempt < 6; attempt++) {
        if (attempt) usleep(1000u << (2 * attempt));         /* 4 ms .. 1 s */
        if (server->link) remote_close(server->link);
        for (c = server->unanswered; c; c = c->next) {      /* their sends ended with the link */
            remote_bulk_finish(0, c->bulk);
            c->bulk = 0;
        }
        why[0] = 0;
        if ((server->link = remote_connect(server->host, server->port, why, sizeof why))
            && hello(server, info, sizeof info, &r, why, sizeof why) == 0) {
            for (c = server->unanswered; c; c = c->next)
                if (send_request(server, &c->q, c->payload, &c->bulk, 0)) break;
            if (c) continue;                                 /* lost again while resending */
            server->reconnections++;
            offload_debug(1, "remote server %s: link made again", server->url);
            return 0;
        }
    }
    for (c = server->unanswered; c; c = c->next) {
        c->state = -1;
        snprintf(c->message, sizeof c->message, "the remote server %s is gone (%s)", server->url,
                 why[0] ? why : "its connection was lost");
    }
    server->unanswered = 0;
    server->last = &server->unanswered;
    server->queued = 0;
    return -1;
}

/* The server's next answer given to its command (lock held): 1 one answered, 0 none yet,
 * -1 the server is gone */
static int take_answer(struct server *server) {
    struct command *c = server->unanswered;
    struct remote_reply r;
    int got;
    if (!c) return 0;
    got = server->link ? remote_poll_receive(server->link, &r, sizeof r) : -1;
    if (got == 0) return 0;
    if (got > 0 && r.sequence != c->q.sequence) {
        snprintf(c->message, sizeof c->message, "it answered out of turn");
        got = -1;
    }
    if (got > 0 && read_payload(server, &r, c->out, c->out_bytes, c->message, sizeof c->message) == 0) {
        remote_bulk_finish(server->link, c->bulk);          /* the server had the payload */
        c->bulk = 0;
        server->answered = c->q.sequence;
        c->r = r;
        c->state = 1;
        server->unanswered = c->next;
        if (!c->next) server->last = &server->unanswered;
        if (c->kept) server->queued--;
        return 1;
    }
    if (c->message[0] && got > 0) {                          /* not a lost link: a broken server */
        for (struct command *other = c->next; other; other = other->next) {
            other->state = -1;
            snprintf(other->message, sizeof other->message, "%s", c->message);
        }
        c->state = -1;
        server->unanswered = 0;
        server->last = &server->unanswered;
        server->queued = 0;
        return -1;
    }
    return reconnect(server) ? -1 : 0;
}

/* A command out (lock held); `c` is filled, its sequence given */
static void post(struct server *server, struct command *c) {
    c->q.magic = REMOTE_MAGIC;
    c->q.sequence = ++server->sequence;
    c->state = 0;
    c->next = 0;
    *server->last = c;
    server->last = &c->next;
    if (c->kept) server->queued++;
    if (send_request(server, &c->q, c->payload, &c->bulk, 1)) reconnect(server);   /* it resends c too */
}

/* Until `c` is answered, reading the server's answers in turn; the lock is let go between
 * polls so other threads send and read meanwhile */
static void wait_answered(struct server *server, struct command *c) {
    for (;;) {
        int got;
        pthread_mutex_lock(&links_lock);
        got = c->state == 0 ? take_answer(server) : 1;
        pthread_mutex_unlock(&links_lock);
        if (c->state != 0) return;
        if (got == 0) sched_yield();
    }
}

/* One command and its answer: 0 done, 1 the server said no (its message in last_error),
 * -1 the server is gone. */
static int call(struct device *d, struct remote_request q, const void *payload, void *out, uint64_t out_bytes,
                struct remote_reply *answer) {
    struct remote_state *s = d->state;
    struct server *server = s->server;
    struct command c = {0};
    c.q = q;
    c.q.a = (uint64_t)s->index;
    c.payload = payload;
    c.out = out;
    c.out_bytes = out_bytes;
    c.device = d;
    pthread_mutex_lock(&links_lock);
    post(server, &c);
    pthread_mutex_unlock(&links_lock);
    wait_answered(server, &c);
    if (c.state < 0) {
        device_error(d, "%s", c.message);
        return -1;
    }
    if (c.r.status != 0 && c.message[0]) device_error(d, "remote server %s: %s", server->url, c.message);
    if (answer) *answer = c.r;
    return c.r.status == 0 ? 0 : 1;
}

static int remote_allocate(struct device *d, long bytes, uintptr_t *address) {
    struct remote_state *s = d->state;
    struct remote_reply r;
    if (call(d, (struct remote_request){.op = REMOTE_ALLOC, .b = (uint64_t)bytes}, 0, 0, 0, &r)) return -1;
    *address = (uintptr_t)r.value;
    if (s->live_count == s->live_capacity) {
        s->live_capacity = s->live_capacity ? 2 * s->live_capacity : 16;
        s->live = realloc(s->live, (size_t)s->live_capacity * sizeof *s->live);
    }
    s->live[s->live_count++] = (struct allocation){*address, bytes};
    return 0;
}

static int remote_release(struct device *d, uintptr_t address) {
    struct remote_state *s = d->state;
    long i;
    for (i = 0; i < s->live_count; i++)
        if (s->live[i].address == address) s->live[i] = s->live[--s->live_count];
    return call(d, (struct remote_request){.op = REMOTE_FREE, .b = address}, 0, 0, 0, 0) ? -1 : 0;
}

/* A copy of at most REMOTE_PIECE_MOST bytes a command (the server's buffers stay that small) */
static int remote_to_device(struct device *d, uintptr_t dst, const void *src, long bytes) {
    long done, piece;
    for (done = 0; done < bytes; done += piece) {
        piece = bytes - done < (long)REMOTE_PIECE_MOST ? bytes - done : (long)REMOTE_PIECE_MOST;
        if (call(d, (struct remote_request){.op = REMOTE_PUT, .b = dst + (uintptr_t)done, .payload = (uint64_t)piece},
                 (const char *)src + done, 0, 0, 0))
            return -1;
    }
    return 0;
}

static int remote_to_host(struct device *d, void *dst, uintptr_t src, long bytes) {
    long done, piece;
    for (done = 0; done < bytes; done += piece) {
        piece = bytes - done < (long)REMOTE_PIECE_MOST ? bytes - done : (long)REMOTE_PIECE_MOST;
        if (call(d, (struct remote_request){.op = REMOTE_GET, .b = src + (uintptr_t)done, .c = (uint64_t)piece}, 0,
                 (char *)dst + done, (uint64_t)piece, 0))
            return -1;
    }
    return 0;
}

static int remote_device_to_device(struct device *d, uintptr_t dst, uintptr_t src, long bytes) {
    if (bytes <= 0) return 0;
    return call(d, (struct remote_request){.op = REMOTE_COPY, .b = dst, .c = src, .d = (uint64_t)bytes}, 0, 0, 0, 0)
               ? -1 : 0;
}

static int remote_load(struct device *d, const struct image_desc *image, void **module) {
    struct remote_state *s = d->state;
    struct remote_reply r;
    int index = s->images_loaded++;
    *module = 0;
    if (image->kernel_count == 0 && image->cpu_global_count == 0) return 0;
    if (index >= blob_count) {
        device_error(d, "the program carries no device image for remote devices (it was linked without one)");
        return -1;
    }
    if (call(d, (struct remote_request){.op = REMOTE_LOAD, .payload = (uint64_t)blobs[index].size},
             blobs[index].data, 0, 0, &r))
        return -1;
    *module = (void *)(uintptr_t)r.value;
    return 0;
}

static int remote_global(struct device *d, void *module, const char *name, uintptr_t *address, long *size) {
    struct remote_reply r;
    if (!module) return -1;
    if (call(d, (struct remote_request){.op = REMOTE_GLOBAL, .b = (uintptr_t)module, .payload = strlen(name) + 1},
             name, 0, 0, &r))
        return -1;
    *address = (uintptr_t)r.value;
    *size = (long)r.d;
    return 0;
}

/* A launch's command: the kernel's name NUL, then each argument's bytes (a pointer's device
 * address, a by-value scalar's value: a complex double's 16) */
static struct command *launch_command(struct device *d, void *module, const struct kernel_desc *kernel, long grid,
                                      long block, void **args, int arg_count) {
    struct remote_state *s = d->state;
    size_t name_length = strlen(kernel->name) + 1, bytes = name_length, at = name_length;
    struct command *c = calloc(1, sizeof *c);
    static long delay = -1;              /* tests: time to kill a server between launches */
    int i;
    if (delay < 0) delay = getenv("OMP2GPU_REMOTE_TEST_DELAY_US") ? atol(getenv("OMP2GPU_REMOTE_TEST_DELAY_US")) : 0;
    if (delay > 0) usleep((useconds_t)delay);
    for (i = 0; i < arg_count; i++) bytes += remote_argument_bytes(kernel, i);
    c->kept = malloc(bytes);
    memcpy(c->kept, kernel->name, name_length);
    for (i = 0; i < arg_count; i++) {
        memcpy(c->kept + at, args[i], remote_argument_bytes(kernel, i));
        at += remote_argument_bytes(kernel, i);
    }
    c->q = (struct remote_request){.op = REMOTE_LAUNCH, .a = (uint64_t)s->index, .b = (uintptr_t)module,
                                   .c = (uint64_t)grid, .d = (uint64_t)block, .payload = bytes};
    c->payload = c->kept;
    c->device = d;
    return c;
}

static void remote_event_release(struct device *d, void *event) {
    struct command *c = event;
    (void)d;
    if (c->state == 0) wait_answered(((struct remote_state *)c->device->state)->server, c);
    free(c->kept);
    free(c);
}

/* 0 the kernel ran, -1 failed or its server is gone (the message set) */
static int remote_event_wait(struct device *d, void *event) {
    struct command *c = event;
    wait_answered(((struct remote_state *)c->device->state)->server, c);
    if (c->state < 0) device_error(d, "%s", c->message);
    else if (c->r.status != 0) device_error(d, "remote server %s: %s", ((struct remote_state *)d->state)->server->url,
                                            c->message[0] ? c->message : "the kernel failed");
    return c->state == 1 && c->r.status == 0 ? 0 : -1;
}

/* from any thread without the runtime's lock (the completion poller): the answers that
 * have come are read, none waited for */
static int remote_event_state(struct device *d, void *event) {
    struct command *c = event;
    struct server *server = ((struct remote_state *)c->device->state)->server;
    (void)d;
    if (pthread_mutex_trylock(&links_lock) == 0) {
        while (c->state == 0 && take_answer(server) > 0) continue;
        pthread_mutex_unlock(&links_lock);
    }
    return c->state == 0 ? 1 : c->state == 1 && c->r.status == 0 ? 0 : -1;
}

static int remote_launch(struct device *d, void *module, const struct kernel_desc *kernel, long grid, long block,
                         void **args, int arg_count, double *micros) {
    double start = micros ? profile_now() : 0;
    struct command *c = launch_command(d, module, kernel, grid, block, args, arg_count);
    struct server *server = ((struct remote_state *)d->state)->server;
    int result;
    pthread_mutex_lock(&links_lock);
    post(server, c);
    pthread_mutex_unlock(&links_lock);
    result = remote_event_wait(d, c);
    remote_event_release(d, c);
    if (micros) *micros = profile_now() - start;
    return result;
}

/* A target task's kernel (target_tasks.c): sent, not waited for. The server runs its
 * client's commands in order, so the kernel follows every earlier command to this server
 * (the `after` events of its devices); another server's events are waited for here. The
 * answer is the event: read by whichever thread next reads the server's answers. */
static int remote_launch_queued(struct device *d, void *module, const struct kernel_desc *kernel, long grid,
                                long block, void **args, int arg_count, void *const *after, int after_count,
                                void **done, int *stream) {
    struct server *server = ((struct remote_state *)d->state)->server;
    struct command *c;
    int i;
    for (i = 0; i < after_count; i++) {
        struct command *earlier = after[i];
        if (((struct remote_state *)earlier->device->state)->server != server && remote_event_wait(d, earlier))
            return -1;
    }
    c = launch_command(d, module, kernel, grid, block, args, arg_count);
    pthread_mutex_lock(&links_lock);
    while (server->queued >= QUEUE_MOST && take_answer(server) >= 0) continue;   /* the server's answers kept */
    post(server, c);
    pthread_mutex_unlock(&links_lock);
    *done = c;
    *stream = 1;
    return 0;
}

static void remote_label(struct device *d, char *buffer, size_t size) { snprintf(buffer, size, "%s", d->name); }

static int remote_holds(struct device *d, uintptr_t address) {
    struct remote_state *s = d->state;
    long i;
    for (i = 0; i < s->live_count; i++)
        if (s->live[i].address <= address && address < s->live[i].address + (uintptr_t)s->live[i].bytes) return 1;
    return 0;
}

static int remote_wait_stream(struct device *d, void *stream) {
    (void)stream;                /* one stream a server: a no-op command follows its queued kernels */
    return call(d, (struct remote_request){.op = REMOTE_PING}, 0, 0, 0, 0) ? -1 : 0;
}

static int remote_accessible(struct device *d, uintptr_t address, long bytes) {
    return remote_holds(d, address) && (bytes <= 0 || remote_holds(d, address + (uintptr_t)bytes - 1));
}

static int remote_interop_handles(struct device *d, void **stream, void **device_handle, void **context) {
    (void)d;
    *stream = *device_handle = *context = 0;
    return 0;
}

#define REMOTE_OPS(kind) { kind, remote_allocate, remote_release, remote_to_device, remote_to_host, \
    remote_device_to_device, remote_load, remote_global, remote_launch, remote_label, remote_holds, \
    remote_wait_stream, 0, 0, 0, 0, 0, 0, remote_accessible, remote_interop_handles, remote_launch_queued, \
    remote_event_state, remote_event_wait, remote_event_release }
static const struct device_ops remote_cpu_ops = REMOTE_OPS("cpu");
static const struct device_ops remote_gpu_ops = REMOTE_OPS("gpu");

int remote_device(const struct device *d) { return d->ops == &remote_cpu_ops || d->ops == &remote_gpu_ops; }

/* omp_target_memcpy from one server's device to another server's: one PUSH command, the
 * bytes going server to server (PoCL-R's migration), not through this process.
 * 1: not two servers' devices (the caller stages through the host); 0 done; -1 failed.
 * OMP2GPU_REMOTE_PEER=0 stages anyway (bench/remote compares the two). */
int remote_peer_copy(struct device *to, uintptr_t destination, struct device *from, uintptr_t source, long bytes) {
    static int enabled = -1;
    struct remote_state *a, *b;
    struct remote_push push = {0};
    if (enabled < 0) enabled = !getenv("OMP2GPU_REMOTE_PEER") || strcmp(getenv("OMP2GPU_REMOTE_PEER"), "0") != 0;
    if (!enabled || !to || !from || !remote_device(to) || !remote_device(from)) return 1;
    a = from->state;
    b = to->state;
    if (a->server == b->server) return 1;                /* a server never pushes to itself */
    push.session = b->server->session;
    push.device = (uint64_t)b->index;
    push.destination = destination;
    snprintf(push.target, sizeof push.target, "%s:%d", b->server->host, b->server->port);
    if (call(from, (struct remote_request){.op = REMOTE_PUSH, .b = source, .d = (uint64_t)bytes,
                                           .payload = sizeof push}, &push, 0, 0, 0))
        return -1;
    offload_debug(1, "%ld bytes from device %d to device %d server to server (%s -> %s)", bytes, from->number,
                  to->number, a->server->url, b->server->url);
    return 0;
}

/* The nth remote://HOST:PORT of OMP2GPU_DEVICES into host, port; 0, or -1 */
static int remote_url(int nth, char *url, size_t url_size, char *host, size_t host_size, int *port) {
    const char *text = getenv("OMP2GPU_DEVICES"), *p = text;
    for (; p && (p = strstr(p, "remote://")); p += 9) {
        size_t length = strcspn(p, ", \t");
        const char *colon;
        if (nth-- > 0) continue;
        snprintf(url, url_size, "%.*s", (int)length, p);
        colon = strrchr(url, ':');
        if (!colon || colon < url + 9 || (size_t)(colon - url - 9) >= host_size || (*port = atoi(colon + 1)) <= 0)
            return -1;
        snprintf(host, host_size, "%.*s", (int)(colon - url - 9), url + 9);
        return 0;
    }
    return -1;
}

/* The devices of the nth remote server named, into slots numbered from `first`; how many
 * (0 with a warning where the server cannot be used) */
int remote_devices_make(int nth, struct device *slots, int room, int first) {
    struct remote_device_info info[64];
    struct server *server = calloc(1, sizeof *server);
    char why[512] = "";
    struct remote_reply r;
    int i, n;
    if (remote_url(nth, server->url, sizeof server->url, server->host, sizeof server->host, &server->port)) {
        offload_report("warning", "OMP2GPU_DEVICES: a remote device is not remote://HOST:PORT; ignored");
        free(server);
        return 0;
    }
    server->session = ((uint64_t)getpid() << 32) ^ (uint64_t)(uintptr_t)server ^ (uint64_t)time(0) ^ (uint64_t)nth;
    server->last = &server->unanswered;
    if (!(server->link = remote_connect(server->host, server->port, why, sizeof why))
        || hello(server, info, sizeof info, &r, why, sizeof why)) {
        offload_report("warning", "remote server %s cannot be used (%s)", server->url, why);
        if (server->link) remote_close(server->link);
        free(server);
        return 0;
    }
    n = (int)(r.payload / sizeof *info);
    for (i = 0; i < n && i < room; i++) {
        struct device *d = &slots[i];
        struct remote_state *s = calloc(1, sizeof *s);
        memset(d, 0, sizeof *d);
        s->server = server;
        s->index = i;
        d->number = first + i;
        d->state = s;
        d->ops = strcmp(info[i].kind, "gpu") == 0 ? &remote_gpu_ops : &remote_cpu_ops;
        info[i].name[sizeof info[i].name - 1] = 0;
        snprintf(d->name, sizeof d->name, "%s/%d (%s)", server->url, i, info[i].name);
        d->max_threads_per_block = info[i].max_threads_per_block;
        d->multiprocessors = info[i].multiprocessors;
        d->usable = 1;
    }
    return i;
}
