/* The remote devices' transport: UCX's UCP stream API (a byte stream per client: commands,
 * answers, small payloads) and its tag API for bulk payloads (zero-copy rendezvous: cross-
 * memory attach on one host, RDMA between hosts, whatever UCX picks), loaded with dlopen as cuda_device.c loads
 * libcuda, so a program that names no remote device never needs UCX. The library is
 * $OMP2GPU_UCX_LIB, else the libucx wheel's that omp2gpu was built with, else the
 * system's libucp.so.0. One worker per process, driven by the caller's thread. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "remote.h"

#if defined(__has_include)
#if __has_include(<ucp/api/ucp.h>)
#define HAVE_UCX 1
#endif
#endif

#ifndef HAVE_UCX
struct remote_link *remote_connect(const char *host, int port, char *why, size_t why_size) {
    (void)host; (void)port;
    snprintf(why, why_size, "this libomp2gpu was built without UCX's headers (pip install libucx-cu12)");
    return 0;
}
struct remote_listener *remote_listen(const char *host, int port, char *why, size_t why_size) {
    return (struct remote_listener *)remote_connect(host, port, why, why_size);
}
int remote_send(struct remote_link *l, const void *d, size_t b) { (void)l; (void)d; (void)b; return -1; }
int remote_receive(struct remote_link *l, void *d, size_t b) { (void)l; (void)d; (void)b; return -1; }
int remote_poll_receive(struct remote_link *l, void *d, size_t b) { (void)l; (void)d; (void)b; return -1; }
void remote_close(struct remote_link *l) { (void)l; }
int remote_link_failed(struct remote_link *l) { (void)l; return 1; }
int remote_serve_step(struct remote_listener *s, void (*a)(struct remote_link *, void *),
                      void (*r)(struct remote_link *, void *), void *arg) { (void)s; (void)a; (void)r; (void)arg; return 0; }
void remote_link_set_user(struct remote_link *l, void *u) { (void)l; (void)u; }
void remote_wait(int milliseconds) { (void)milliseconds; }
void *remote_link_user(struct remote_link *l) { (void)l; return 0; }
uint64_t remote_payload_tag(uint64_t b) { (void)b; return 0; }
int remote_send_message(struct remote_link *l, const void *h, size_t hb, uint64_t t, const void *d, size_t b,
                        void **p) { (void)l; (void)h; (void)hb; (void)t; (void)d; (void)b; (void)p; return -1; }
int remote_bulk_finish(struct remote_link *l, void *h) { (void)l; (void)h; return -1; }
int remote_receive_payload(struct remote_link *l, void *d, size_t b, uint64_t t) { (void)l; (void)d; (void)b; (void)t; return -1; }
#else
#include <ucp/api/ucp.h>

#define UCP_FUNCTIONS(X) X(ucp_config_read) X(ucp_config_release) X(ucp_init_version) X(ucp_worker_create) \
    X(ucp_worker_progress) X(ucp_ep_create) X(ucp_ep_close_nbx) X(ucp_listener_create) X(ucp_stream_send_nbx) \
    X(ucp_stream_recv_nbx) X(ucp_stream_worker_poll) X(ucp_request_check_status) X(ucp_request_free) \
    X(ucs_status_string) X(ucp_worker_get_efd) X(ucp_worker_arm) X(ucp_tag_send_nbx) X(ucp_tag_recv_nbx) \
    X(ucp_request_cancel)
static struct {
#define FIELD(name) __typeof__(name) *name;
    UCP_FUNCTIONS(FIELD)
#undef FIELD
} ucx;
static ucp_context_h context;
static ucp_worker_h worker;

struct remote_link {
    ucp_ep_h ep;
    int failed;
    void *user;
    void *polled;                       /* remote_poll_receive's receive in progress */
    char polled_data[128];
};
struct remote_listener {
    ucp_listener_h listener;
    struct remote_link *pending[64];    /* accepted, not yet given to the loop */
    int pending_count;
};

static int load_ucx(char *why, size_t why_size) {
    static int state;                   /* 0 not tried, 1 loaded, -1 failed */
    static char reason[400];
    const char *candidates[3] = {getenv("OMP2GPU_UCX_LIB"), 0, "libucp.so.0"};
    void *handle = 0;
    int i;
#ifdef OMP2GPU_UCX_DIR
    candidates[1] = OMP2GPU_UCX_DIR "/libucp.so.0";
#endif
    if (state == 0) {
        for (i = 0; i < 3 && !handle; i++)
            if (candidates[i] && candidates[i][0]) handle = dlopen(candidates[i], RTLD_NOW | RTLD_GLOBAL);
        if (!handle) snprintf(reason, sizeof reason, "UCX's libucp cannot be loaded (%s; set OMP2GPU_UCX_LIB or "
                              "pip install libucx-cu12)", dlerror());
#define LOOKUP(name) \
        if (handle && !(ucx.name = (__typeof__(name) *)dlsym(handle, #name))) { \
            snprintf(reason, sizeof reason, "UCX's libucp lacks %s", #name); handle = 0; }
        UCP_FUNCTIONS(LOOKUP)
#undef LOOKUP
        if (handle) {
            ucp_config_t *config;
            ucp_params_t params = {.field_mask = UCP_PARAM_FIELD_FEATURES, .features = UCP_FEATURE_STREAM | UCP_FEATURE_TAG | UCP_FEATURE_WAKEUP};
            ucp_worker_params_t wp = {.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE,
                                      .thread_mode = UCS_THREAD_MODE_SINGLE};
            ucs_status_t status = ucx.ucp_config_read(0, 0, &config);
            if (status == UCS_OK) {
                status = ucx.ucp_init_version(UCP_API_MAJOR, UCP_API_MINOR, &params, config, &context);
                ucx.ucp_config_release(config);
            }
            if (status == UCS_OK) status = ucx.ucp_worker_create(context, &wp, &worker);
            if (status != UCS_OK) {
                snprintf(reason, sizeof reason, "UCX did not start (%s)", ucx.ucs_status_string(status));
                handle = 0;
            }
        }
        state = handle ? 1 : -1;
    }
    if (state < 0) snprintf(why, why_size, "%s", reason);
    return state > 0 ? 0 : -1;
}

static int address_of(const char *host, int port, struct sockaddr_storage *out, socklen_t *length,
                      char *why, size_t why_size) {
    struct addrinfo hints = {0}, *found;
    char service[16];
    int error;
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    snprintf(service, sizeof service, "%d", port);
    if ((error = getaddrinfo(host, service, &hints, &found)) != 0) {
        snprintf(why, why_size, "cannot resolve %s (%s)", host, gai_strerror(error));
        return -1;
    }
    memcpy(out, found->ai_addr, found->ai_addrlen);
    *length = found->ai_addrlen;
    freeaddrinfo(found);
    return 0;
}

static void link_lost(void *arg, ucp_ep_h ep, ucs_status_t status) {
    (void)ep;
    (void)status;
    ((struct remote_link *)arg)->failed = 1;
}

static int finish(struct remote_link *link, void *request) {
    ucs_status_t status;
    if (request == 0) return 0;
    if (UCS_PTR_IS_ERR(request)) {
        link->failed = 1;
        return -1;
    }
    while ((status = ucx.ucp_request_check_status(request)) == UCS_INPROGRESS) ucx.ucp_worker_progress(worker);
    ucx.ucp_request_free(request);
    if (status != UCS_OK) link->failed = 1;
    return status == UCS_OK ? 0 : -1;
}

static ucp_ep_params_t endpoint_params(struct remote_link *link) {
    ucp_ep_params_t params = {0};
    params.field_mask = UCP_EP_PARAM_FIELD_ERR_HANDLER | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE;
    params.err_mode = UCP_ERR_HANDLING_MODE_PEER;
    params.err_handler.cb = link_lost;
    params.err_handler.arg = link;
    return params;
}

struct remote_link *remote_connect(const char *host, int port, char *why, size_t why_size) {
    struct sockaddr_storage address;
    socklen_t length;
    struct remote_link *link;
    ucp_ep_params_t params;
    ucs_status_t status;
    if (load_ucx(why, why_size) || address_of(host, port, &address, &length, why, why_size)) return 0;
    link = calloc(1, sizeof *link);
    params = endpoint_params(link);
    params.field_mask |= UCP_EP_PARAM_FIELD_FLAGS | UCP_EP_PARAM_FIELD_SOCK_ADDR;
    params.flags = UCP_EP_PARAMS_FLAGS_CLIENT_SERVER;
    params.sockaddr.addr = (struct sockaddr *)&address;
    params.sockaddr.addrlen = length;
    status = ucx.ucp_ep_create(worker, &params, &link->ep);
    if (status != UCS_OK) {
        snprintf(why, why_size, "cannot connect to %s:%d (%s)", host, port, ucx.ucs_status_string(status));
        free(link);
        return 0;
    }
    return link;
}

int remote_send(struct remote_link *link, const void *data, size_t bytes) {
    ucp_request_param_t param = {0};
    if (link->failed) return -1;
    if (bytes == 0) return 0;
    return finish(link, ucx.ucp_stream_send_nbx(link->ep, data, bytes, &param));
}

int remote_receive(struct remote_link *link, void *data, size_t bytes) {
    ucp_request_param_t param = {0};
    size_t got = 0;
    void *request;
    if (link->failed) return -1;
    if (bytes == 0) return 0;
    param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    param.flags = UCP_STREAM_RECV_FLAG_WAITALL;
    request = ucx.ucp_stream_recv_nbx(link->ep, data, bytes, &got, &param);
    if (request == 0) return got == bytes ? 0 : -1;
    return finish(link, request);
}

/* A small receive (at most 128 bytes) that does not wait: 1 the bytes are in `data`, 0 not
 * yet (the receive stays posted: call again), -1 the link failed */
int remote_poll_receive(struct remote_link *link, void *data, size_t bytes) {
    ucp_request_param_t param = {0};
    ucs_status_t status;
    size_t got = 0;
    if (link->failed || bytes > sizeof link->polled_data) return -1;
    if (!link->polled) {
        param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
        param.flags = UCP_STREAM_RECV_FLAG_WAITALL;
        link->polled = ucx.ucp_stream_recv_nbx(link->ep, link->polled_data, bytes, &got, &param);
        if (link->polled == 0) {
            memcpy(data, link->polled_data, bytes);
            return got == bytes ? 1 : -1;
        }
        if (UCS_PTR_IS_ERR(link->polled)) {
            link->polled = 0;
            link->failed = 1;
            return -1;
        }
    }
    ucx.ucp_worker_progress(worker);
    if ((status = ucx.ucp_request_check_status(link->polled)) == UCS_INPROGRESS) return 0;
    ucx.ucp_request_free(link->polled);
    link->polled = 0;
    if (status != UCS_OK) {
        link->failed = 1;
        return -1;
    }
    memcpy(data, link->polled_data, bytes);
    return 1;
}

void remote_close(struct remote_link *link) {
    ucp_request_param_t param = {0};
    void *request;
    if (!link) return;
    param.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    param.flags = UCP_EP_CLOSE_FLAG_FORCE;
    request = ucx.ucp_ep_close_nbx(link->ep, &param);
    if (request && !UCS_PTR_IS_ERR(request)) {
        while (ucx.ucp_request_check_status(request) == UCS_INPROGRESS) ucx.ucp_worker_progress(worker);
        ucx.ucp_request_free(request);
    }
    if (link->polled) {                 /* cancelled by the close: its buffer is freed below */
        int rounds;
        for (rounds = 0; rounds < 100000 && ucx.ucp_request_check_status(link->polled) == UCS_INPROGRESS; rounds++)
            ucx.ucp_worker_progress(worker);
        ucx.ucp_request_free(link->polled);
    }
    free(link);
}

int remote_link_failed(struct remote_link *link) { return link->failed; }

/* ---- bulk payloads: UCX's tag API, whose rendezvous moves a large message without copies
 * where it can (cross-memory attach on one host, RDMA between hosts); the stream API
 * copies every fragment, and fragments that arrive before their receive is posted (a
 * payload behind its command's header) are queued and copied again. */

/* For a payload of `bytes`: 0 (in the stream), or a tag no other payload on any link
 * carries (this process's random base and a count) */
uint64_t remote_payload_tag(uint64_t bytes) {
    static uint64_t base, count;
    if (bytes < REMOTE_BULK_MIN) return 0;
    if (!base) {
        FILE *f = fopen("/dev/urandom", "rb");
        if (!f || fread(&base, sizeof base, 1, f) != 1) base = (uint64_t)getpid() << 32 ^ (uint64_t)time(0);
        if (f) fclose(f);
        base |= 1;
    }
    return base + (++count << 1);
}

/* The payload's send started (it ends when the other side receives it: remote_bulk_finish
 * before its buffer is reused); a handle, or NULL where it is done already or failed
 * (link->failed says which) */
static void *bulk_send(struct remote_link *link, const void *data, size_t bytes, uint64_t tag) {
    ucp_request_param_t param = {0};
    void *request;
    if (link->failed) return 0;
    request = ucx.ucp_tag_send_nbx(link->ep, data, bytes, tag, &param);
    if (UCS_PTR_IS_ERR(request)) {
        link->failed = 1;
        return 0;
    }
    return request;
}

/* Until the send is done (or its link lost, which cancels it): 0, or -1. A NULL link: it
 * was closed, which ended the send */
int remote_bulk_finish(struct remote_link *link, void *handle) {
    ucs_status_t status;
    int cancelled = 0;
    if (!handle) return link && link->failed ? -1 : 0;
    while ((status = ucx.ucp_request_check_status(handle)) == UCS_INPROGRESS) {
        if ((!link || link->failed) && !cancelled++) ucx.ucp_request_cancel(worker, handle);
        ucx.ucp_worker_progress(worker);
    }
    ucx.ucp_request_free(handle);
    return status == UCS_OK ? 0 : -1;
}

int remote_send_message(struct remote_link *link, const void *header, size_t header_bytes, uint64_t tag,
                        const void *payload, size_t bytes, void **pending) {
    void *sending;
    if (remote_send(link, header, header_bytes)) return -1;
    if (!tag) return remote_send(link, payload, bytes);
    sending = bulk_send(link, payload, bytes, tag);
    if (!pending) return remote_bulk_finish(link, sending);
    *pending = sending;
    return link->failed ? -1 : 0;
}

/* The payload of `tag` into `data` (exactly `bytes`): 0, or -1 where the link was lost first */
static int bulk_receive(struct remote_link *link, void *data, size_t bytes, uint64_t tag) {
    ucp_request_param_t param = {0};
    ucp_tag_recv_info_t info;
    ucs_status_t status;
    void *request;
    if (link->failed) return -1;
    param.op_attr_mask = UCP_OP_ATTR_FIELD_RECV_INFO;
    param.recv_info.tag_info = &info;
    request = ucx.ucp_tag_recv_nbx(worker, data, bytes, tag, ~(ucp_tag_t)0, &param);
    if (UCS_PTR_IS_ERR(request)) return -1;
    if (!request) return info.length == bytes ? 0 : -1;
    int cancelled = 0;
    while ((status = ucx.ucp_request_check_status(request)) == UCS_INPROGRESS) {
        if (link->failed && !cancelled++) ucx.ucp_request_cancel(worker, request);
        ucx.ucp_worker_progress(worker);
    }
    ucx.ucp_request_free(request);
    return status == UCS_OK ? 0 : -1;
}

int remote_receive_payload(struct remote_link *link, void *data, size_t bytes, uint64_t tag) {
    return tag ? bulk_receive(link, data, bytes, tag) : remote_receive(link, data, bytes);
}

/* Sleep until the worker has something to do (UCX's wakeup file descriptor), at most
 * `milliseconds`: an idle server leaves the core */
void remote_wait(int milliseconds) {
    static int fd = -1;
    struct pollfd entry;
    if (fd < 0 && ucx.ucp_worker_get_efd(worker, &fd) != UCS_OK) fd = -1;
    if (fd < 0 || ucx.ucp_worker_arm(worker) != UCS_OK) return;      /* BUSY: events already waiting */
    entry.fd = fd;
    entry.events = POLLIN;
    poll(&entry, 1, milliseconds);
}
void remote_link_set_user(struct remote_link *link, void *user) { link->user = user; }
void *remote_link_user(struct remote_link *link) { return link->user; }

static void connection_request(ucp_conn_request_h request, void *arg) {
    struct remote_listener *listener = arg;
    struct remote_link *link = calloc(1, sizeof *link);
    ucp_ep_params_t params = endpoint_params(link);
    params.field_mask |= UCP_EP_PARAM_FIELD_CONN_REQUEST | UCP_EP_PARAM_FIELD_USER_DATA;
    params.conn_request = request;
    params.user_data = link;
    if (listener->pending_count >= 64 || ucx.ucp_ep_create(worker, &params, &link->ep) != UCS_OK) {
        free(link);
        return;
    }
    listener->pending[listener->pending_count++] = link;
}

struct remote_listener *remote_listen(const char *host, int port, char *why, size_t why_size) {
    struct sockaddr_storage address;
    socklen_t length;
    struct remote_listener *listener;
    ucp_listener_params_t params = {0};
    ucs_status_t status;
    if (load_ucx(why, why_size) || address_of(host, port, &address, &length, why, why_size)) return 0;
    listener = calloc(1, sizeof *listener);
    params.field_mask = UCP_LISTENER_PARAM_FIELD_SOCK_ADDR | UCP_LISTENER_PARAM_FIELD_CONN_HANDLER;
    params.sockaddr.addr = (struct sockaddr *)&address;
    params.sockaddr.addrlen = length;
    params.conn_handler.cb = connection_request;
    params.conn_handler.arg = listener;
    status = ucx.ucp_listener_create(worker, &params, &listener->listener);
    if (status != UCS_OK) {
        snprintf(why, why_size, "cannot listen on %s:%d (%s)", host, port, ucx.ucs_status_string(status));
        free(listener);
        return 0;
    }
    return listener;
}

int remote_serve_step(struct remote_listener *listener, void (*accepted)(struct remote_link *, void *),
                      void (*ready)(struct remote_link *, void *), void *arg) {
    ucp_stream_poll_ep_t eps[16];
    ssize_t n, i;
    int events = (int)ucx.ucp_worker_progress(worker);
    while (listener->pending_count > 0) {
        accepted(listener->pending[--listener->pending_count], arg);
        events++;
    }
    n = ucx.ucp_stream_worker_poll(worker, eps, 16, 0);
    for (i = 0; i < n; i++) ready(eps[i].user_data, arg);
    return events + (n > 0 ? (int)n : 0);
}
#endif
