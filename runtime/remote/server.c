/* `omp2gpu serve` (docs/remote.md): one machine's devices for remote clients. Each client
 * presents the shared token first (else it is refused before any command runs), then
 * sends device operations (remote.h's wire); its allocations and loaded images are its own
 * (a command naming memory it was not given is refused), and are freed when it goes.
 * Images arrive as shared objects (the program's device image, built at link time) that
 * are dlopened here: their constructor registers the image with this server, and the
 * device's own ops (cpu_device.c, cuda_device.c) load and run it. One thread serves every
 * client, one command at a time. */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "offload.h"
#include "remote.h"

#define MAX_CLIENTS 256

struct range { int device; uintptr_t address; long bytes; int owned; };
struct module { int device; void *handle, *module; const struct image_desc *image; };
struct client {
    struct remote_link *link;          /* NULL: detached, its link lost (kept GRACE seconds) */
    int trusted, refused, peer;        /* peer: another server writing for a client (REMOTE_PUSH) */
    uint64_t session, last_sequence;
    struct answer {                    /* the last answers (sequence % KEPT), sent again for a resent command */
        struct remote_reply r;
        char *payload;
        uint64_t capacity;
    } answers[REMOTE_ANSWERS_KEPT];
    time_t detached_since;
    struct range *ranges;
    long range_count, range_capacity;
    struct module *modules;
    int module_count;
};

static struct client *clients[MAX_CLIENTS];
static char token[REMOTE_TOKEN_MAX];
static const struct image_desc *registered;      /* set by the image being dlopened */

/* The device image's constructor, renamed in its shared object (native_link.py) */
void __omp2gpu_serve_register_image(const struct image_desc *image) { registered = image; }

static void add_range(struct client *c, int device, uintptr_t address, long bytes, int owned) {
    if (c->range_count == c->range_capacity) {
        c->range_capacity = c->range_capacity ? 2 * c->range_capacity : 16;
        c->ranges = realloc(c->ranges, (size_t)c->range_capacity * sizeof *c->ranges);
    }
    c->ranges[c->range_count++] = (struct range){device, address, bytes, owned};
}

/* the client's range holding [address, address + bytes) on `device`, -1: none */
static long owned_range(struct client *c, int device, uintptr_t address, uint64_t bytes) {
    long i;
    for (i = 0; i < c->range_count; i++) {
        struct range *r = &c->ranges[i];
        if (r->device == device && address >= r->address && bytes <= (uint64_t)r->bytes
            && address - r->address <= (uint64_t)r->bytes - bytes)
            return i;
    }
    return -1;
}

/* An answer out: its header in the stream, a bulk payload by tag (sent, then waited for:
 * the client reads it right after the header) */
static int send_answer(struct remote_link *link, struct remote_reply r, const void *payload) {
    r.bulk = remote_payload_tag(r.payload);
    return remote_send_message(link, &r, sizeof r, r.bulk, payload, r.payload, 0);
}

static int reply(struct client *c, const struct remote_request *q, int64_t status, uint64_t value,
                 uint64_t d, const void *payload, uint64_t bytes) {
    struct remote_reply r = {status, q->sequence, value, d, bytes, 0};
    if (q->sequence) {                         /* kept for REMOTE_ANSWERS_KEPT commands more */
        struct answer *kept = &c->answers[q->sequence % REMOTE_ANSWERS_KEPT];
        if (payload != kept->payload) {
            if (bytes > kept->capacity) {
                kept->payload = realloc(kept->payload, bytes);
                kept->capacity = bytes;
            }
            if (bytes) memcpy(kept->payload, payload, bytes);
        }
        kept->r = r;
        c->last_sequence = q->sequence;
    }
    return send_answer(c->link, r, payload);
}

static int refuse(struct client *c, const struct remote_request *q, const char *format, const char *detail) {
    char message[600];
    snprintf(message, sizeof message, format, detail);
    return reply(c, q, -1, 0, 0, message, strlen(message) + 1);
}

/* A resent command that was done: its kept answer again, not redone. -1: not kept (the
 * link is dropped) */
static int resend(struct client *c, const struct remote_request *q) {
    struct answer *kept = &c->answers[q->sequence % REMOTE_ANSWERS_KEPT];
    return kept->r.sequence != q->sequence ? -1 : send_answer(c->link, kept->r, kept->payload);
}

/* Large kept answers the client says it has (`answered`) are let go; the largest one is
 * kept aside for the next large answer (a GET a time step reuses one buffer) */
static char *spare;
static uint64_t spare_capacity;
static void forget_answered(struct client *c, uint64_t answered) {
    int i;
    for (i = 0; i < REMOTE_ANSWERS_KEPT; i++) {
        struct answer *kept = &c->answers[i];
        if (kept->capacity < (1u << 20) || kept->r.sequence > answered) continue;
        if (kept->capacity > spare_capacity) {
            char *swap = spare;
            uint64_t swap_capacity = spare_capacity;
            spare = kept->payload;
            spare_capacity = kept->capacity;
            kept->payload = swap;
            kept->capacity = swap_capacity;
        }
        free(kept->payload);
        kept->payload = 0;
        kept->capacity = 0;
        kept->r.payload = 0;
    }
}

static struct client *session_client(uint64_t session);

/* The kept answer's buffer for command `q`, at least `bytes` long: a GET's answer is read off
 * the device straight into it (one copy, no buffer made a command), kept for a resend.
 * NULL: out of memory. */
static char *kept_buffer(struct client *c, const struct remote_request *q, uint64_t bytes) {
    struct answer *kept = &c->answers[q->sequence % REMOTE_ANSWERS_KEPT];
    if (bytes > kept->capacity && bytes <= spare_capacity) {
        free(kept->payload);
        kept->payload = spare;
        kept->capacity = spare_capacity;
        spare = 0;
        spare_capacity = 0;
    }
    if (bytes > kept->capacity) {
        char *grown = realloc(kept->payload, bytes ? bytes : 1);
        if (!grown) return 0;
        kept->payload = grown;
        kept->capacity = bytes ? bytes : 1;
    }
    return kept->payload;
}

/* Where a PUT's payload for a GPU is received before its copy to the device: page-locked
 * memory of that GPU (the copy then runs at the link's full speed), made at the device's
 * first PUT, REMOTE_PIECE_MOST bytes; plain memory where the device has none. NULL: out of
 * memory. */
static void *staging_for(struct device *d) {
    static void *staging[64];
    if (d->number >= 64) return 0;
    if (!staging[d->number]
        && !(d->ops->allocate_pinned && d->ops->allocate_pinned(d, REMOTE_PIECE_MOST, &staging[d->number]) == 0))
        staging[d->number] = malloc(REMOTE_PIECE_MOST);
    return staging[d->number];
}

/* REMOTE_PUT, its payload still to come: received in place on the CPU device (its memory is
 * this process's), through the device's staging buffer on a GPU (a client sends at most
 * REMOTE_PIECE_MOST bytes a command); a payload that is refused is read and dropped.
 * -1: the link is to be dropped. */
static int put(struct client *c, const struct remote_request *q, struct device *d, int resent) {
    struct client *owner = c->peer ? session_client(q->d) : c;
    int wanted = d && owner && owned_range(owner, d->number, q->b, q->payload) >= 0 && !resent;
    int in_place = wanted && strcmp(d->ops->kind, "cpu") == 0;
    void *into = in_place ? (void *)(uintptr_t)q->b : wanted ? staging_for(d) : malloc(q->payload ? q->payload : 1);
    int received;
    if (q->payload > REMOTE_PIECE_MOST || !into) return -1;
    received = remote_receive_payload(c->link, into, q->payload, q->bulk);
    if (!wanted) free(into);
    if (received) return -1;
    if (resent) return resend(c, q);
    if (!wanted)
        return refuse(c, q, "%s", !d ? "no such device on this server" : "write outside the client's memory");
    if (!in_place && d->ops->to_device(d, q->b, into, (long)q->payload))
        return refuse(c, q, "copy failed: %s", d->last_error);
    return reply(c, q, 0, 0, 0, 0, 0);
}

static struct device *device_of(uint64_t number) {
    struct device *d = number < (uint64_t)device_count() ? device_at((int)number) : 0;
    return d && d->usable ? d : 0;
}

static int load_image(struct client *c, const struct remote_request *q, struct device *d, const char *data) {
    char path[] = "/tmp/omp2gpu-serve-XXXXXX";
    int fd = mkstemp(path);
    void *handle, *module = 0;
    const struct image_desc *image;
    if (fd < 0 || write(fd, data, q->payload) != (ssize_t)q->payload) {
        if (fd >= 0) close(fd);
        return refuse(c, q, "cannot write the image (%s)", "/tmp");
    }
    close(fd);
    registered = 0;
    handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    unlink(path);
    if (!handle) return refuse(c, q, "the image does not load: %s", dlerror());
    image = registered;
    if (!image || image->version != IMAGE_VERSION) {
        dlclose(handle);
        return refuse(c, q, "%s", "the image is not an omp2gpu device image of this version");
    }
    if (d->ops->load(d, image, &module)) {
        dlclose(handle);
        return refuse(c, q, "the device cannot load the image: %s", d->last_error);
    }
    c->modules = realloc(c->modules, (size_t)(c->module_count + 1) * sizeof *c->modules);
    c->modules[c->module_count++] = (struct module){d->number, handle, module, image};
    return reply(c, q, 0, (uint64_t)c->module_count, 0, 0, 0);
}

static struct module *module_of(struct client *c, uint64_t handle, int device) {
    if (handle < 1 || handle > (uint64_t)c->module_count) return 0;
    return c->modules[handle - 1].device == device ? &c->modules[handle - 1] : 0;
}

/* OMP2GPU_SERVE_TRACE=1: each kernel's start and end on stderr (wall-clock microseconds,
 * comparable between servers: tests/remote sees two servers' kernels overlap) */
static int trace;
static double now_micros(void) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int launch(struct client *c, const struct remote_request *q, struct device *d, char *data) {
    struct module *m = module_of(c, q->b, d->number);
    size_t name_length = strnlen(data, q->payload), at, left;
    _Alignas(16) unsigned char slots[64][32];           /* each argument's bytes, aligned for its type */
    void *args[64];
    long i, count = 0;
    const struct kernel_desc *kernel;
    if (!m || name_length >= q->payload) return refuse(c, q, "%s", "bad launch command");
    for (i = 0; i < m->image->kernel_count; i++)
        if (strcmp(m->image->kernels[i].name, data) == 0) break;
    if (i == m->image->kernel_count) return refuse(c, q, "no kernel '%s' in the image", data);
    kernel = &m->image->kernels[i];
    for (at = name_length + 1, left = q->payload - at; left > 0; count++) {
        size_t bytes = remote_argument_bytes(kernel, count);
        if (count == 64 || bytes > sizeof slots[0] || bytes > left) return refuse(c, q, "%s", "bad launch command");
        memcpy(slots[count], data + at, bytes);
        args[count] = slots[count];
        at += bytes;
        left -= bytes;
    }
    double began = now_micros();
    if (d->ops->launch(d, m->module, kernel, (long)q->c, (long)q->d, args, (int)count, 0)
        || (d->ops->finish_launch && d->ops->finish_launch(d)))
        return refuse(c, q, "the kernel failed: %s", d->last_error);
    if (trace) fprintf(stderr, "omp2gpu serve: kernel %s ran from %.0f to %.0f us\n", data, began, now_micros());
    return reply(c, q, 0, 0, 0, 0, 0);
}

static struct client *session_client(uint64_t session) {
    int i;
    for (i = 0; i < MAX_CLIENTS; i++)
        if (clients[i] && clients[i]->trusted && !clients[i]->peer && clients[i]->session == session && session)
            return clients[i];
    return 0;
}

/* Links to other servers, made at a client's first REMOTE_PUSH there (this server their
 * client, with the same token) */
static struct peer { char target[200]; struct remote_link *link; uint64_t sequence; } peers[16];

/* A command to a peer; its answer is read by peer_answer (several may be in flight) */
static int peer_send(struct peer *p, struct remote_request *q, const void *payload, char *why, size_t size) {
    q->bulk = remote_payload_tag(q->payload);
    if (remote_send_message(p->link, q, sizeof *q, q->bulk, payload, q->payload, 0)) {
        snprintf(why, size, "the link to %s was lost", p->target);
        return -1;
    }
    return 0;
}

/* The peer's next answer: 0 done, -1 lost or refused (`why` filled, where empty) */
static int peer_answer(struct peer *p, char *why, size_t size) {
    struct remote_reply r;
    char answer[64 * sizeof(struct remote_device_info)];
    if (remote_receive(p->link, &r, sizeof r) || r.payload > sizeof answer
        || remote_receive_payload(p->link, answer, r.payload, r.bulk)) {
        if (!why[0]) snprintf(why, size, "the link to %s was lost", p->target);
        return -1;
    }
    if (r.status && !why[0])
        snprintf(why, size, "%s: %.*s", p->target, (int)(r.payload ? r.payload : 1), r.payload ? answer : "");
    return r.status ? -1 : 0;
}

static int peer_exchange(struct peer *p, struct remote_request *q, const void *payload, char *why, size_t size) {
    return peer_send(p, q, payload, why, size) ? -1 : peer_answer(p, why, size);
}

static struct peer *peer_link(const char *target, char *why, size_t size) {
    struct peer *free_slot = 0;
    char host[200];
    const char *colon = strrchr(target, ':');
    int i;
    for (i = 0; i < 16; i++) {
        if (peers[i].link && remote_link_failed(peers[i].link)) {
            remote_close(peers[i].link);
            peers[i].link = 0;
        }
        if (peers[i].link && strcmp(peers[i].target, target) == 0) return &peers[i];
        if (!peers[i].link && !free_slot) free_slot = &peers[i];
    }
    if (!free_slot || !colon || (size_t)(colon - target) >= sizeof host) {
        snprintf(why, size, "cannot reach %s", target);
        return 0;
    }
    snprintf(host, sizeof host, "%.*s", (int)(colon - target), target);
    snprintf(free_slot->target, sizeof free_slot->target, "%s", target);
    if (!(free_slot->link = remote_connect(host, atoi(colon + 1), why, size))) return 0;
    struct remote_request q = {REMOTE_MAGIC, REMOTE_HELLO, 0, 0, 0, 1, 0, strlen(token)};
    if (peer_exchange(free_slot, &q, token, why, size)) {
        remote_close(free_slot->link);
        free_slot->link = 0;
        return 0;
    }
    return free_slot;
}

/* REMOTE_PUSH: the client's bytes straight to another server, in pieces sent one after
 * the other without waiting for the peer's answers (read at the end): the peer writes one
 * piece to its device while the next is read off this one and crosses the network */
static int push(struct client *c, const struct remote_request *q, struct device *d, struct remote_push *to) {
    const uint64_t piece = REMOTE_PIECE_MOST;             /* the staging buffer's size */
    char why[600] = "";
    struct peer *p;
    char *buffer;
    uint64_t done, sent = 0;
    to->target[sizeof to->target - 1] = 0;
    if (!(p = peer_link(to->target, why, sizeof why))) return refuse(c, q, "%s", why);
    int in_place = strcmp(d->ops->kind, "cpu") == 0;      /* the CPU device's memory is this process's */
    if (!(buffer = in_place ? 0 : staging_for(d)) && !in_place) return refuse(c, q, "%s", "out of memory");
    for (done = 0; done < q->d && !why[0]; done += piece, sent++) {
        uint64_t bytes = q->d - done < piece ? q->d - done : piece;
        struct remote_request put = {REMOTE_MAGIC, REMOTE_PUT, ++p->sequence, to->device, to->destination + done,
                                     0, to->session, bytes};
        if (!in_place && d->ops->to_host(d, buffer, q->b + done, (long)bytes)) {
            snprintf(why, sizeof why, "%s", d->last_error);
            break;
        }
        if (peer_send(p, &put, in_place ? (const void *)(uintptr_t)(q->b + done) : buffer, why, sizeof why)) break;
    }
    for (; sent > 0 && remote_link_failed(p->link) == 0; sent--) peer_answer(p, why, sizeof why);
    return why[0] ? refuse(c, q, "the push failed: %s", why) : reply(c, q, 0, 0, 0, 0, 0);
}

static int hello(struct client *c, const struct remote_request *q, const char *data) {
    struct remote_device_info info[64];
    int n = device_count(), i, resumed = 0;
    size_t length = strlen(token);
    unsigned char difference = (unsigned char)(q->payload != length);
    for (i = 0; i < (int)q->payload && i < (int)length; i++) difference |= (unsigned char)(data[i] ^ token[i]);
    if (difference) {
        c->refused = 1;                                /* its next command, or its leaving, drops it */
        return refuse(c, q, "%s", "the server refused the token (OMP2GPU_REMOTE_TOKEN or --token-file must "
                                  "match the server's)");
    }
    c->trusted = 1;
    c->session = q->b;
    c->peer = q->c == 1;
    for (i = 0; i < MAX_CLIENTS && !c->peer; i++) {                /* a new link of a known session: resume it */
        struct client *old = clients[i];
        if (!old || old == c || !old->trusted || old->session != q->b || !q->b) continue;
        if (old->link) remote_close(old->link);
        old->link = c->link;
        old->detached_since = 0;
        remote_link_set_user(old->link, old);
        c->link = 0;
        c = old;
        resumed = 1;
        break;
    }
    if (n > 64) n = 64;
    memset(info, 0, sizeof info);
    for (i = 0; i < n; i++) {
        struct device *d = device_at(i);
        d->ops->label(d, info[i].name, sizeof info[i].name);
        snprintf(info[i].kind, sizeof info[i].kind, "%s", d->ops->kind);
        info[i].max_threads_per_block = d->max_threads_per_block;
        info[i].multiprocessors = d->multiprocessors;
    }
    return reply(c, q, 0, (uint64_t)n, 0, info, (uint64_t)n * sizeof *info) ? -1 : resumed ? 2 : 0;
}

/* One command (its header read); -1: the client's link is to be dropped, 2: its link now
 * serves an earlier client of the same session (this one goes) */
static int serve_command(struct client *c, struct remote_request q) {
    char *data = 0;
    struct device *d;
    int result = 0;
    long r;
    if (q.magic != REMOTE_MAGIC || q.payload > (1ull << 40)) return -1;
    if (c->trusted) forget_answered(c, q.answered);
    if (q.op == REMOTE_PUT && c->trusted && !c->refused)
        return put(c, &q, device_of(q.a), q.sequence && q.sequence <= c->last_sequence);
    if (q.payload && (!(data = malloc(q.payload + 1)) || remote_receive_payload(c->link, data, q.payload, q.bulk))) {
        free(data);
        return -1;
    }
    if (data) data[q.payload] = 0;
    if (c->refused || (!c->trusted && q.op != REMOTE_HELLO)) result = -1;        /* nothing before the token */
    else if (c->peer && q.op != REMOTE_PUT) result = -1;                           /* a peer only writes */
    else if (q.op != REMOTE_HELLO && q.sequence && q.sequence <= c->last_sequence) result = resend(c, &q);
    else if (q.op == REMOTE_HELLO) result = hello(c, &q, data ? data : "");
    else if (q.op == REMOTE_PING) result = reply(c, &q, 0, 0, 0, 0, 0);
    else if (!(d = device_of(q.a))) result = refuse(c, &q, "%s", "no such device on this server");
    else switch (q.op) {
    case REMOTE_ALLOC: {
        uintptr_t address;
        if (d->ops->allocate(d, (long)q.b, &address)) result = refuse(c, &q, "allocation failed: %s", d->last_error);
        else {
            add_range(c, d->number, address, (long)q.b, 1);
            result = reply(c, &q, 0, address, 0, 0, 0);
        }
        break;
    }
    case REMOTE_FREE:
        r = owned_range(c, d->number, q.b, 0);
        if (r < 0 || !c->ranges[r].owned || c->ranges[r].address != q.b)
            result = refuse(c, &q, "%s", "free of memory this client was not given");
        else {
            d->ops->release(d, q.b);
            c->ranges[r] = c->ranges[--c->range_count];
            result = reply(c, &q, 0, 0, 0, 0, 0);
        }
        break;
    case REMOTE_GET: {
        char *out = owned_range(c, d->number, q.b, q.c) < 0 || q.c > REMOTE_PIECE_MOST ? 0 : kept_buffer(c, &q, q.c);
        if (!out) result = refuse(c, &q, "%s", "read outside this client's memory");
        else if (d->ops->to_host(d, out, q.b, (long)q.c)) result = refuse(c, &q, "copy failed: %s", d->last_error);
        else result = reply(c, &q, 0, 0, 0, out, q.c);
        break;
    }
    case REMOTE_COPY:
        if (owned_range(c, d->number, q.b, q.d) < 0 || owned_range(c, d->number, q.c, q.d) < 0)
            result = refuse(c, &q, "%s", "copy outside this client's memory");
        else if (d->ops->device_to_device(d, q.b, q.c, (long)q.d)) result = refuse(c, &q, "copy failed: %s", d->last_error);
        else result = reply(c, &q, 0, 0, 0, 0, 0);
        break;
    case REMOTE_LOAD:
        result = q.payload ? load_image(c, &q, d, data) : refuse(c, &q, "%s", "an empty image");
        break;
    case REMOTE_GLOBAL: {
        struct module *m = module_of(c, q.b, d->number);
        uintptr_t address;
        long size;
        if (!m || !data || m->module == 0 || d->ops->global(d, m->module, data, &address, &size))
            result = reply(c, &q, 1, 0, 0, 0, 0);                   /* not there: no message */
        else {
            add_range(c, d->number, address, size, 0);
            result = reply(c, &q, 0, address, (uint64_t)size, 0, 0);
        }
        break;
    }
    case REMOTE_PUSH:
        if (q.payload != sizeof(struct remote_push) || owned_range(c, d->number, q.b, q.d) < 0)
            result = refuse(c, &q, "%s", "push of memory this client was not given");
        else result = push(c, &q, d, (struct remote_push *)data);
        break;
    case REMOTE_LAUNCH:
        result = data ? launch(c, &q, d, data) : refuse(c, &q, "%s", "bad launch command");
        break;
    default:
        result = -1;
    }
    free(data);
    return result;
}

static void drop(int slot) {
    struct client *c = clients[slot];
    long i, freed = 0;
    for (i = 0; i < c->range_count; i++)
        if (c->ranges[i].owned) {
            struct device *d = device_at(c->ranges[i].device);
            if (d) d->ops->release(d, c->ranges[i].address);
            freed++;
        }
    if (c->trusted && !c->peer)
        fprintf(stderr, "omp2gpu serve: a client left; its %ld allocation(s) freed\n", freed);
    for (i = 0; i < c->module_count; i++) dlclose(c->modules[i].handle);
    if (c->link) remote_close(c->link);
    for (i = 0; i < REMOTE_ANSWERS_KEPT; i++) free(c->answers[i].payload);
    free(c->ranges);
    free(c->modules);
    free(c);
    clients[slot] = 0;
}

/* A trusted client's lost link: it may come back with its session (remote_device.c
 * reconnects) within the grace time; others go at once. */
static void detach(int slot) {
    struct client *c = clients[slot];
    if (!c->trusted || c->refused) {
        drop(slot);
        return;
    }
    remote_close(c->link);
    c->link = 0;
    c->detached_since = time(0);
}

static void accepted(struct remote_link *link, void *arg) {
    int slot;
    (void)arg;
    for (slot = 0; slot < MAX_CLIENTS && clients[slot]; slot++) continue;
    if (slot == MAX_CLIENTS) {
        remote_close(link);
        return;
    }
    clients[slot] = calloc(1, sizeof *clients[slot]);
    clients[slot]->link = link;
    remote_link_set_user(link, clients[slot]);
}

/* Every command the client has sent (a client pipelines: several may have come at once,
 * and the transport tells of a link's new data once), until none is waiting. The header's
 * receive stays posted when none has come (remote_poll_receive): serve_all calls again. */
static void serve_waiting(int slot) {
    struct client *c = clients[slot];
    struct remote_request q;
    int got;
    while (c && c->link && (got = remote_poll_receive(c->link, &q, sizeof q)) != 0) {
        switch (got < 0 ? -1 : serve_command(c, q)) {
        case 0: break;
        case 2: c->link = 0; drop(slot); return;           /* resumed by an earlier client */
        default: detach(slot); return;
        }
    }
}

static void ready(struct remote_link *link, void *arg) {
    struct client *c = remote_link_user(link);
    int slot;
    (void)arg;
    for (slot = 0; slot < MAX_CLIENTS && clients[slot] != c; slot++) continue;
    if (slot < MAX_CLIENTS) serve_waiting(slot);
}

static void read_token(const char *file) {
    const char *text = getenv(REMOTE_DEFAULT_TOKEN_ENV);
    if (file) {
        FILE *f = fopen(file, "r");
        size_t n;
        if (!f) {
            fprintf(stderr, "omp2gpu serve: error: cannot read the token file %s\n", file);
            exit(1);
        }
        n = fread(token, 1, sizeof token - 1, f);
        fclose(f);
        token[n] = 0;
        while (n > 0 && (token[n - 1] == '\n' || token[n - 1] == '\r' || token[n - 1] == ' ')) token[--n] = 0;
    } else if (text) {
        snprintf(token, sizeof token, "%s", text);
    }
}

int main(int argc, char **argv) {
    const char *listen = "127.0.0.1:0", *devices = "cpu", *token_file = 0;
    char host[256], why[512];
    struct remote_listener *listener;
    int port, i;
    long idle = 0;
    long grace = getenv("OMP2GPU_SERVE_GRACE") ? atol(getenv("OMP2GPU_SERVE_GRACE")) : 10;
    for (i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--listen") == 0) listen = argv[i + 1];
        else if (strcmp(argv[i], "--devices") == 0) devices = argv[i + 1];
        else if (strcmp(argv[i], "--token-file") == 0) token_file = argv[i + 1];
    }
    const char *colon = strrchr(listen, ':');
    if (!colon || colon == listen || (size_t)(colon - listen) >= sizeof host || (port = atoi(colon + 1)) <= 0) {
        fprintf(stderr, "omp2gpu serve: error: --listen %s is not HOST:PORT\n", listen);
        return 1;
    }
    memcpy(host, listen, (size_t)(colon - listen));
    host[colon - listen] = 0;
    read_token(token_file);
    trace = getenv("OMP2GPU_SERVE_TRACE") && strcmp(getenv("OMP2GPU_SERVE_TRACE"), "0") != 0;
    setenv("OMP2GPU_DEVICES", strcmp(devices, "all") == 0 ? "gpu,cpu" : devices, 1);
    setenv("OMP_TARGET_OFFLOAD", "DEFAULT", 1);
    signal(SIGPIPE, SIG_IGN);
    if (device_count() == 0) {
        fprintf(stderr, "omp2gpu serve: error: no %s device on this machine\n", devices);
        return 1;
    }
    if (!(listener = remote_listen(host, port, why, sizeof why))) {
        fprintf(stderr, "omp2gpu serve: error: %s\n", why);
        return 1;
    }
    printf("omp2gpu serve: listening on %s:%d with %d device(s)\n", host, port, device_count());
    fflush(stdout);
    for (;;) {
        /* busy: poll (a command's latency is the transport's); idle a while: sleep between polls */
        idle = remote_serve_step(listener, accepted, ready, 0) ? 0 : idle + 1;
        if (idle > 2000) remote_wait(1000);       /* the detached clients' grace counted each second */
        for (i = 0; i < MAX_CLIENTS; i++) {
            if (clients[i] && clients[i]->link && !remote_link_failed(clients[i]->link)) serve_waiting(i);
            if (clients[i] && clients[i]->link && remote_link_failed(clients[i]->link)) detach(i);
            if (clients[i] && !clients[i]->link && time(0) - clients[i]->detached_since > grace) drop(i);
        }
    }
}
