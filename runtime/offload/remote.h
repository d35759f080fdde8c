/* Remote devices (docs/remote.md): the transport over UCX (remote_transport.c), the wire
 * format shared by the client (remote_device.c) and `omp2gpu serve` (runtime/remote/server.c). */
#ifndef OMP2GPU_REMOTE_H
#define OMP2GPU_REMOTE_H
#include <stdint.h>
#include <stddef.h>

/* ---------------------------------------------------------------- remote_transport.c */
struct remote_link;                     /* one connection (a UCP endpoint) */
struct remote_listener;
/* NULL with `why` filled where UCX cannot be loaded or the server not reached */
struct remote_link *remote_connect(const char *host, int port, char *why, size_t why_size);
int remote_send(struct remote_link *link, const void *data, size_t bytes);    /* 0, or -1: link lost */
int remote_receive(struct remote_link *link, void *data, size_t bytes);       /* whole, or -1 */
/* at most 128 bytes without waiting: 1 received, 0 not yet (call again), -1 link lost */
int remote_poll_receive(struct remote_link *link, void *data, size_t bytes);
void remote_close(struct remote_link *link);
int remote_link_failed(struct remote_link *link);
/* The server's side: a listener, and one step of its loop: a new client's link is given
 * to `accepted`, a link with data waiting to `ready` (blocking receives finish it). */
struct remote_listener *remote_listen(const char *host, int port, char *why, size_t why_size);
int remote_serve_step(struct remote_listener *listener, void (*accepted)(struct remote_link *, void *),
                      void (*ready)(struct remote_link *, void *), void *arg);     /* events seen */
void remote_link_set_user(struct remote_link *link, void *user);
void remote_wait(int milliseconds);      /* until the transport has work, at most that long */
void *remote_link_user(struct remote_link *link);
/* A message: a header, then its payload. A payload of REMOTE_BULK_MIN bytes or more goes by
 * tag, not in the stream: the sender names the tag in the header (remote_payload_tag, 0
 * for a payload in the stream); the receiver reads the header, then the payload by it. */
#define REMOTE_BULK_MIN (64u << 10)
uint64_t remote_payload_tag(uint64_t bytes);              /* 0, or a fresh tag */
/* The header, then the payload in the stream or by `tag`. A send by tag ends when the other
 * side has received it: it is left in *pending (remote_bulk_finish before reusing the
 * payload), or waited for here where `pending` is NULL. 0, or -1: the link is lost */
int remote_send_message(struct remote_link *link, const void *header, size_t header_bytes, uint64_t tag,
                        const void *payload, size_t bytes, void **pending);
int remote_bulk_finish(struct remote_link *link, void *pending);    /* NULL link: it was closed */
/* A message's payload, its header read: from the stream (tag 0) or by its tag; 0, or -1 */
int remote_receive_payload(struct remote_link *link, void *data, size_t bytes, uint64_t tag);
/* a PUT or GET moves at most this many bytes (a larger copy is several): a server's staging
 * buffer and kept answers stay this small */
#define REMOTE_PIECE_MOST (64u << 20)

/* ---------------------------------------------------------------- remote_device.c */
struct device;
/* the devices of the nth remote://HOST:PORT of OMP2GPU_DEVICES into `slots`, numbered from
 * `first`: how many (0, with a warning, where the server cannot be used) */
int remote_devices_make(int nth, struct device *slots, int room, int first);
int remote_device(const struct device *d);               /* 1: one of a server's devices */
/* omp_target_memcpy between two servers' devices, server to server: 1 not two servers'
 * devices, 0 done, -1 failed */
int remote_peer_copy(struct device *to, uintptr_t destination, struct device *from, uintptr_t source, long bytes);

/* ---------------------------------------------------------------- the wire */
#define REMOTE_MAGIC 0x6f6d7032u         /* "omp2" */
enum remote_op {
    REMOTE_HELLO = 1,      /* payload: the token, b: the client's session (a new link resumes it);
                              reply value: device count, payload: devices */
    REMOTE_ALLOC,          /* a: device, b: bytes; value: the address */
    REMOTE_FREE,           /* a: device, b: address */
    REMOTE_PUT,            /* a: device, b: address, payload: the bytes */
    REMOTE_GET,            /* a: device, b: address, c: bytes; reply payload: the bytes */
    REMOTE_COPY,           /* a: device, b: destination, c: source, d: bytes */
    REMOTE_LOAD,           /* a: device, payload: the image's shared object; value: module (0: none) */
    REMOTE_GLOBAL,         /* a: device, b: module, payload: the name; value: address, reply d: size */
    REMOTE_LAUNCH,         /* a: device, b: module, c: grid, d: block, payload: name NUL, each argument's
                              bytes (remote_argument_bytes) one after the other */
    REMOTE_PING,           /* nothing: the round trip (bench/remote) */
    REMOTE_PUSH,           /* a: device, b: source, d: bytes, payload: struct remote_push: the bytes
                              written into another server's device for the same client (its PUT
                              from this server, a peer: HELLO with c = 1, PUT with d = the session) */
};
struct remote_request {
    uint32_t magic, op;
    uint64_t sequence;     /* the client's, increasing (HELLO: 0): a resent command already done is
                              answered again from the server's copy of its answer, not redone;
                              several may be in flight (queued launches), answered in order */
    uint64_t a, b, c, d;
    uint64_t payload;      /* bytes that follow */
    uint64_t bulk;         /* 0: the payload follows in the stream; else its tag (remote_payload_tag) */
    uint64_t answered;     /* the client has every answer up to this sequence: the server may
                              drop its copies of them */
};
struct remote_reply {
    int64_t status;        /* 0 done; else payload is the message */
    uint64_t sequence;
    uint64_t value, d;
    uint64_t payload;
    uint64_t bulk;         /* as the request's */
};
struct remote_device_info {             /* one a device, in HELLO's reply */
    char name[48];
    char kind[8];                        /* "cpu" | "gpu" */
    int64_t max_threads_per_block, multiprocessors;
};
struct remote_push {
    uint64_t session;                    /* the client's session on the other server */
    uint64_t device, destination;        /* there */
    char target[200];                    /* its HOST:PORT, as the client reaches it */
};
/* the bytes argument `i` of `kernel` passes (kernel_desc.param_bytes; 8 where it does not say:
 * a pointer, the control loop's team stack) */
#define remote_argument_bytes(kernel, i) \
    ((kernel)->param_bytes && (size_t)(i) < strlen((kernel)->params) ? (size_t)(kernel)->param_bytes[i] : (size_t)8)
#define REMOTE_TOKEN_MAX 256
/* a server keeps each client's last answers, for commands resent after a lost link (the
 * client keeps fewer than this many unanswered: remote_device.c QUEUE_MOST) */
#define REMOTE_ANSWERS_KEPT 64
#define REMOTE_DEFAULT_TOKEN_ENV "OMP2GPU_REMOTE_TOKEN"
#endif
