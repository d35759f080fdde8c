/* bench/remote: the transport's round trip to an `omp2gpu serve` (REMOTE_PING over the same
 * UCX link a remote device uses), in microseconds: ping HOST PORT [COUNT] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "remote.h"

static int exchange(struct remote_link *link, struct remote_request *q, const void *payload, void *out,
                    size_t out_size) {
    struct remote_reply r;
    if (remote_send(link, q, sizeof *q) || remote_send(link, payload, q->payload)
        || remote_receive(link, &r, sizeof r) || r.status != 0 || r.payload > out_size)
        return -1;
    return remote_receive(link, out, r.payload);
}

int main(int argc, char **argv) {
    const char *token = getenv(REMOTE_DEFAULT_TOKEN_ENV);
    int count = argc > 3 ? atoi(argv[3]) : 10000, i;
    char why[512], info[64 * sizeof(struct remote_device_info)];
    struct remote_link *link = argc > 2 ? remote_connect(argv[1], atoi(argv[2]), why, sizeof why) : 0;
    struct remote_request hello = {REMOTE_MAGIC, REMOTE_HELLO, 0, 0, 0, 0, 0, 0};
    struct timespec t0, t1;
    if (!link) {
        fprintf(stderr, "ping: %s\n", argc > 2 ? why : "usage: ping HOST PORT [COUNT]");
        return 1;
    }
    if (!token) token = "";
    hello.payload = strlen(token);
    if (exchange(link, &hello, token, info, sizeof info)) {
        fprintf(stderr, "ping: the server refused\n");
        return 1;
    }
    for (i = 0; i < count + count / 10; i++) {
        struct remote_request q = {REMOTE_MAGIC, REMOTE_PING, (uint64_t)i + 1, 0, 0, 0, 0, 0};
        if (i == count / 10) clock_gettime(CLOCK_MONOTONIC, &t0);          /* after the warm-up */
        if (exchange(link, &q, 0, 0, 0)) {
            fprintf(stderr, "ping: the link failed\n");
            return 1;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("{\"round_trip_us\": %.3f}\n", ((t1.tv_sec - t0.tv_sec) * 1e9 + (t1.tv_nsec - t0.tv_nsec)) / 1e3 / count);
    return 0;
}
