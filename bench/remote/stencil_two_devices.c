/* bench/remote: a 2-D Jacobi stencil on an n x n grid split by rows over every device
 * (omp_get_num_devices(): one remote server, or two), each part in its device's memory
 * (omp_target_alloc) with a halo row either side. A step: every part's sweep as a
 * `target nowait` task, one taskwait, then the halo rows exchanged device to device with
 * omp_target_memcpy (between two servers: server to server). Prints JSON: the seconds for
 * `steps` steps (after one warm-up step) and a checksum of sampled rows, which is the same
 * for any number of parts (every cell is computed the same way).
 *     stencil_two_devices N STEPS */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

struct part { double *now, *next; int device, lo, hi; };      /* global interior rows [lo, hi) */

static void initialise(struct part *p, int n) {
    double *u = p->now, *v = p->next;
    int rows = p->hi - p->lo + 2, first = p->lo - 1;
    #pragma omp target teams distribute parallel for collapse(2) is_device_ptr(u, v) device(p->device)
    for (int r = 0; r < rows; r++)
        for (int j = 0; j < n; j++) {
            int i = first + r;
            double value = (i == 0 || j == 0 || j == n - 1) ? 1.0 : (i == n - 1 ? 0.5 : ((i * 31 + j * 17) % 97) / 97.0);
            u[(long)r * n + j] = v[(long)r * n + j] = value;
        }
}

static void sweep(struct part *p, int n) {
    double *u = p->now, *v = p->next;
    int rows = p->hi - p->lo;
    #pragma omp target teams distribute parallel for collapse(2) nowait is_device_ptr(u, v) device(p->device)
    for (int r = 1; r <= rows; r++)
        for (int j = 1; j < n - 1; j++)
            v[(long)r * n + j] = 0.25 * (u[(long)(r - 1) * n + j] + u[(long)(r + 1) * n + j]
                                         + u[(long)r * n + j - 1] + u[(long)r * n + j + 1]);
}

/* each part's new edge rows into its neighbours' halo rows */
static void exchange(struct part *parts, int count, int n) {
    size_t row = (size_t)n * sizeof(double);
    for (int k = 0; k + 1 < count; k++) {
        struct part *a = &parts[k], *b = &parts[k + 1];
        int a_rows = a->hi - a->lo;
        omp_target_memcpy(b->now, a->now, row, 0, (size_t)a_rows * row, b->device, a->device);
        omp_target_memcpy(a->now, b->now, row, (size_t)(a_rows + 1) * row, row, a->device, b->device);
    }
}

static void step(struct part *parts, int count, int n) {
    for (int k = 0; k < count; k++) sweep(&parts[k], n);
    #pragma omp taskwait
    for (int k = 0; k < count; k++) {
        double *t = parts[k].now;
        parts[k].now = parts[k].next;
        parts[k].next = t;
    }
    exchange(parts, count, n);
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1024, steps = argc > 2 ? atoi(argv[2]) : 50;
    int devices = omp_get_num_devices(), host = omp_get_initial_device();
    int count = devices > 0 ? devices : 1;
    struct part *parts = calloc((size_t)count, sizeof *parts);
    size_t row = (size_t)n * sizeof(double);
    for (int k = 0; k < count; k++) {
        struct part *p = &parts[k];
        p->device = devices > 0 ? k : host;
        p->lo = 1 + (int)((long)k * (n - 2) / count);
        p->hi = 1 + (int)((long)(k + 1) * (n - 2) / count);
        p->now = omp_target_alloc((size_t)(p->hi - p->lo + 2) * row, p->device);
        p->next = omp_target_alloc((size_t)(p->hi - p->lo + 2) * row, p->device);
        if (!p->now || !p->next) {
            fprintf(stderr, "cannot allocate part %d on device %d\n", k, p->device);
            return 1;
        }
        initialise(p, n);
    }
    step(parts, count, n);                                   /* warm-up: images loaded, links made */
    double start = omp_get_wtime();
    for (int s = 0; s < steps; s++) step(parts, count, n);
    double seconds = omp_get_wtime() - start;
    int samples[] = {1, n / 4, n / 2 - 1, n / 2, n / 2 + 1, 3 * n / 4, n - 2};
    double *line = malloc(row), checksum = 0;
    for (int s = 0; s < 7; s++) {
        int i = samples[s], k = 0;
        while (i >= parts[k].hi) k++;
        omp_target_memcpy(line, parts[k].now, row, 0, (size_t)(i - parts[k].lo + 1) * row, host, parts[k].device);
        for (int j = 0; j < n; j++) checksum += line[j] * (j % 7 + 1);
    }
    printf("{\"parts\": %d, \"n\": %d, \"steps\": %d, \"seconds\": %.6f, \"checksum\": \"%.10e\"}\n", count, n,
           steps, seconds, checksum);
    for (int k = 0; k < count; k++) {
        omp_target_free(parts[k].now, parts[k].device);
        omp_target_free(parts[k].next, parts[k].device);
    }
    free(parts);
    free(line);
    return 0;
}
