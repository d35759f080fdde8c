/* A 1-D stencil whose domain is split over every device (device(n)), a time-step loop of
 * target regions, each device updating its part from a halo-extended copy of the field:
 * with remote devices (docs/remote.md) the parts run on other processes' devices. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 4096
#define STEPS 12

struct field { long *now, *next; int n; };

static void step(struct field *f, int parts) {
    int devices = omp_get_num_devices();
    for (int p = 0; p < parts; p++) {
        int lo = 1 + p * (f->n - 2) / parts, hi = 1 + (p + 1) * (f->n - 2) / parts;
        int device = devices > 0 ? p % devices : omp_get_initial_device();
        long *u = f->now, *v = f->next;
        #pragma omp target teams distribute parallel for device(device) \
                map(to: u[lo - 1:hi - lo + 2]) map(from: v[lo:hi - lo])
        for (int i = lo; i < hi; i++)
            v[i] = (u[i - 1] + 2 * u[i] + u[i + 1] + i) % 1000003;
    }
    long *t = f->now;
    f->now = f->next;
    f->next = t;
}

int main(int argc, char **argv) {
    int parts = argc > 1 && atoi(argv[1]) > 0 ? atoi(argv[1]) : 4;   /* a word: the default */
    struct field f = {malloc(N * sizeof(long)), malloc(N * sizeof(long)), N};
    for (int i = 0; i < N; i++) f.now[i] = f.next[i] = (i * 7919L) % 1009;
    for (int s = 0; s < STEPS; s++) {
        step(&f, parts);
        if (s % 4 == 3) {
            long sum = 0;
            for (int i = 0; i < N; i++) sum += f.now[i] * (i % 13 + 1);
            printf("step %d checksum %ld\n", s + 1, sum);
        }
    }
    printf("middle %ld %ld %ld\n", f.now[N / 2 - 1], f.now[N / 2], f.now[N / 2 + 1]);
    free(f.now);
    free(f.next);
    return 0;
}
