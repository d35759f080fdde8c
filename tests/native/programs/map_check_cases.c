/* host_memory.c's check_entries called directly (linked with heap_chunks.c, messages.c,
 * argument_arrays.c): one line per case, "NAME ok" where the check passes the section,
 * "NAME refused: REASON" where it does not (test_map_check.py). */
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "offload.h"

static const char *reason(const char *message) {
    const char *at = strstr(message, ") runs ");
    return at ? at + 2 : message;
}

static void check(const char *name, void *base, void *begin, long size, int64_t type) {
    int64_t sizes[1] = {size}, types[1] = {type};
    void *bases[1] = {base}, *begins[1] = {begin};
    const char *bad = check_entries(1, bases, begins, sizes, types, "case.c:1:1\0'x' (line 1)\0", 0, 0);
    if (bad) printf("%s refused: %.40s\n", name, reason(bad));
    else printf("%s ok\n", name);
}

static void heap_block(const char *where, double *p) {
    char name[64];
    long usable = (long)malloc_usable_size(p);
    snprintf(name, sizeof name, "%s-exact", where);
    check(name, p, p, usable, MAP_TO | MAP_FROM);
    snprintf(name, sizeof name, "%s-one-past", where);
    check(name, p, p, usable + 8, MAP_TO);
    snprintf(name, sizeof name, "%s-400KB-past", where);
    check(name, p, p, usable + 409600, MAP_TO | MAP_FROM);
    snprintf(name, sizeof name, "%s-64MB-past", where);
    check(name, p, p, usable + (64L << 20), MAP_TO);
    snprintf(name, sizeof name, "%s-tail-from-base", where);              /* p[990:20] */
    check(name, p, p + 990, 20 * 8, MAP_TO);
}

static void *in_thread(void *unused) {
    (void)unused;
    heap_block("thread-arena", malloc(1000 * sizeof(double)));
    return 0;
}

static const char literal[] = "read-only";

int main(void) {
    static double data[100];
    double stack[100];
    pthread_t thread;
    long *index = malloc(4000 * sizeof(long));
    struct { double *x; int n; } *holder = malloc(16);
    double *big = malloc(1 << 20), *reused;

    heap_block("main-heap", malloc(1000 * sizeof(double)));
    pthread_create(&thread, 0, in_thread, 0);
    pthread_join(thread, 0);

    /* the 8 bytes before index + 10 are index[9]: 0x31, a chunk's size word by its look */
    for (int i = 0; i < 4000; i++) index[i] = 0x31;
    check("forged-header-inside-array", index + 10, index + 10, 1000 * sizeof(long), MAP_TO);
    check("forged-header-again", index + 10, index + 10, 1000 * sizeof(long), MAP_TO);
    check("forged-header-past-array", index + 10, index + 10, 400000 * sizeof(long), MAP_TO);

    holder->x = malloc(1000 * sizeof(double));                /* a pointee: base is the struct */
    check("pointee-of-a-struct", holder, holder->x, 1000 * sizeof(double), MAP_TO | MAP_FROM);

    reused = malloc(100 * sizeof(double));
    free(reused);
    reused = malloc(3000 * sizeof(double));
    check("block-after-free", reused, reused, 3000 * sizeof(double), MAP_TO | MAP_FROM);

    check("static-array", data, data, sizeof data, MAP_TO | MAP_FROM);
    check("stack-array", stack, stack, sizeof stack, MAP_TO | MAP_FROM);
    check("mmapped-block", big, big, 1 << 20, MAP_TO | MAP_FROM);
    check("read-only-to", (void *)literal, (void *)literal, sizeof literal, MAP_TO);
    check("read-only-from", (void *)literal, (void *)literal, sizeof literal, MAP_TO | MAP_FROM);
    check("nowhere", (void *)16, (void *)16, 64, MAP_TO);
    return 0;
}
