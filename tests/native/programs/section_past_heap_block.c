/* A diffusion step on a small field whose map sections are one length too long: the
 * length comes from a wrong variable (`cells + halo` where the arrays hold `cells`).
 * Each is the runtime's located error naming the list item, exit status 1, before any
 * byte is copied: the output so far, and the host's data, are as before the construct.
 * Usage: section_past_heap_block WHERE EXTRA ARENA
 *   WHERE  first | second (the same region, fine on its first launch) | data | enter |
 *          update | interior (a pointer inside the array: the memory-map check alone)
 *   EXTRA  doubles past the array (51200: 400 KB, 8388608: 64 MB)
 *   ARENA  0: the arrays malloc'd by the main thread, 1: by an OpenMP thread (a glibc
 *          thread arena, whose heap is followed by ~64 MB of reserved, no-access memory),
 *          2: by an OpenMP thread after 70 MB of other blocks (the arena's second heap) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

struct field {
    int cells;
    double *u, *next;
};

static void *others[2200];

static void allocate(struct field *f, int cells, int arena) {
    f->cells = cells;
    #pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == (arena ? 1 : 0)) {
            for (int b = 0; arena == 2 && b < 2200; b++)      /* kept for the whole run */
                others[b] = malloc(32000);
            f->u = malloc(cells * sizeof(double));
            f->next = malloc(cells * sizeof(double));
        }
    }
    for (int i = 0; i < cells; i++) f->u[i] = i % 10 == 0 ? 1.0 : 0.0;
}

static double total(const struct field *f) {
    double sum = 0.0;
    for (int i = 0; i < f->cells; i++) sum += f->u[i];
    return sum;
}

/* one step; `length` doubles of u and next are mapped */
static void step(struct field *f, long length) {
    double *u = f->u, *next = f->next;
    int cells = f->cells;
    #pragma omp target teams distribute parallel for map(to: u[0:length]) map(from: next[0:length])
    for (int i = 0; i < cells; i++)
        next[i] = 0.5 * u[i] + 0.25 * (u[i > 0 ? i - 1 : i] + u[i < cells - 1 ? i + 1 : i]);
    memcpy(f->u, f->next, cells * sizeof(double));
}

int main(int argc, char **argv) {
    const char *where = argc > 1 ? argv[1] : "first";
    long halo = argc > 2 ? atol(argv[2]) : 0;
    struct field f;
    allocate(&f, 1000, argc > 3 ? atoi(argv[3]) : 0);
    double *u = f.u;
    long cells = f.cells, length = cells + halo;
    if (strcmp(where, "first") == 0) step(&f, length);
    if (strcmp(where, "second") == 0)
        for (int s = 0; s < 3; s++) {
            step(&f, s == 0 ? cells : length);
            printf("step %d: total %.6f\n", s, total(&f));
            fflush(stdout);
        }
    if (strcmp(where, "data") == 0) {
        #pragma omp target data map(tofrom: u[0:length])
        step(&f, cells);
    }
    if (strcmp(where, "enter") == 0) {
        #pragma omp target enter data map(to: u[0:length])
    }
    if (strcmp(where, "update") == 0) {
        #pragma omp target data map(tofrom: u[0:cells])
        {
            u[0] = 2.0;
            #pragma omp target update to(u[0:length])
        }
    }
    if (strcmp(where, "interior") == 0) {
        double *row = u + 8;
        #pragma omp target map(tofrom: row[0:length])
        row[0] += 1.0;
    }
    printf("total %.6f after the construct that should have failed\n", total(&f));
    return 0;
}
