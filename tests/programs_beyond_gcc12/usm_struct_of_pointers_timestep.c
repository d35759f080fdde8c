/* Unified shared memory, as codes written for Grace Hopper or HMM look: no map clause
 * at all. A heat-like integer diffusion on a ring, kept in a struct of pointers to
 * malloc'd, calloc'd and aligned_alloc'd arrays (and one realloc'd as the history
 * grows), plus a pointer to a stack array of weights; several target regions per time
 * step read and write through the struct's pointers, the host checks and swaps them
 * between steps. Everything is an integer, so the output does not depend on the order
 * of the reductions: each step prints the total (the sources add, the floored division
 * loses) and a checksum of positions times values; the host recomputes the final state
 * serially and prints whether the device's agrees.
 * gcc 12 refuses `requires unified_shared_memory`; the expected output is the same
 * program's under gcc with that line removed (host memory is shared there). */
// std: gnu11
#pragma omp requires unified_shared_memory
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ring {
    long *now, *next;       /* the state and the one being made */
    long *source;           /* added at each step: calloc'd, a few cells set */
    long *history;          /* total after each step: realloc'd as it grows */
    const long *weights;    /* the stencil's: a stack array of main's */
    int n, steps_kept;
};

static void init(struct ring *r, int n, const long *weights) {
    r->n = n;
    r->now = malloc(n * sizeof *r->now);
    r->next = aligned_alloc(64, ((n * sizeof *r->next + 63) / 64) * 64);
    r->source = calloc(n, sizeof *r->source);
    r->history = NULL;
    r->steps_kept = 0;
    r->weights = weights;
    for (int i = 0; i < n; i++) r->now[i] = (i * 37) % 101;
    r->source[n / 3] = 5;
    r->source[2 * n / 3] = 7;
}

static long step(struct ring *r) {
    int n = r->n;
    long total = 0;
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) {
        const long *w = r->weights;
        long left = r->now[(i + n - 1) % n], right = r->now[(i + 1) % n];
        r->next[i] = w[0] * left + w[1] * r->now[i] + w[2] * right;
    }
#pragma omp target teams distribute parallel for
    for (int i = 0; i < n; i++) r->next[i] = r->next[i] / r->weights[3] + r->source[i];
#pragma omp target teams distribute parallel for reduction(+: total)
    for (int i = 0; i < n; i++) total += r->next[i];
    long *swap = r->now;
    r->now = r->next;
    r->next = swap;
    r->history = realloc(r->history, (r->steps_kept + 1) * sizeof *r->history);
    r->history[r->steps_kept++] = total;
    return total;
}

static long checksum(const struct ring *r) {
    long sum = 0;
    int n = r->n;
#pragma omp target teams distribute parallel for reduction(+: sum)
    for (int i = 0; i < n; i++) sum += (long)(i % 13 + 1) * r->now[i];
    return sum;
}

int main(int argc, char **argv) {
    int n = 1000, steps = 12, option;
    while ((option = getopt(argc, argv, "n:s:")) != -1) {
        if (option == 'n') n = atoi(optarg);
        else if (option == 's') steps = atoi(optarg);
    }
    long weights[4] = {1, 2, 1, 4};           /* (left + 2 self + right) / 4, floored */
    struct ring r;
    init(&r, n, weights);
    long *start = malloc(n * sizeof *start);
    memcpy(start, r.now, n * sizeof *start);
    for (int s = 0; s < steps; s++) {
        long total = step(&r);
        printf("step %2d total %ld checksum %ld\n", s, total, checksum(&r));
    }
    /* the same on the host alone */
    long *a = start, *b = malloc(n * sizeof *b);
    for (int s = 0; s < steps; s++) {
        for (int i = 0; i < n; i++)
            b[i] = (a[(i + n - 1) % n] + 2 * a[i] + a[(i + 1) % n]) / 4 + r.source[i];
        long *t = a; a = b; b = t;
    }
    int same = memcmp(a, r.now, n * sizeof *a) == 0;
    long last = r.history[r.steps_kept - 1];
    printf("host agrees: %s; history kept %d steps, last total %ld\n", same ? "yes" : "no", r.steps_kept, last);
    free(a); free(b);
    free(r.now); free(r.next); free(r.source); free(r.history);
    return same ? 0 : 1;
}
