/* Two halves of a 1-D field in two devices' memory (omp_target_alloc), a time-step loop
 * of kernels on each (is_device_ptr) and the halo cells exchanged device to device with
 * omp_target_memcpy: with two remote servers (docs/remote.md) they go server to server. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define HALF 1024
#define STEPS 16

struct half { long *cells; int device; };      /* HALF + 2 cells: halo, interior, halo */

/* each interior cell from itself and the two halo cells (which no iteration writes) */
static void relax(struct half *h, int step) {
    long *c = h->cells;
    #pragma omp target teams distribute parallel for is_device_ptr(c) device(h->device)
    for (int i = 1; i <= HALF; i++) c[i] = (c[i] * 5 + c[0] * (i % 7) + c[HALF + 1] + step) % 1000003;
}

int main(void) {
    int devices = omp_get_num_devices(), host = omp_get_initial_device();
    /* two devices: a half on each; one: both halves on it; none: on the host */
    struct half left = {0, devices >= 1 ? 0 : host}, right = {0, devices >= 2 ? 1 : devices ? 0 : host};
    long *start = malloc((2 * HALF + 2) * sizeof(long)), *out = malloc((2 * HALF + 2) * sizeof(long));
    size_t bytes = (HALF + 2) * sizeof(long), cell = sizeof(long);
    for (int i = 0; i < 2 * HALF + 2; i++) start[i] = (i * 104729L) % 8191;
    left.cells = omp_target_alloc(bytes, left.device);
    right.cells = omp_target_alloc(bytes, right.device);
    omp_target_memcpy(left.cells, start, bytes, 0, 0, left.device, host);
    omp_target_memcpy(right.cells, start, bytes, 0, HALF * cell, right.device, host);
    for (int step = 0; step < STEPS; step++) {
        relax(&left, step);
        relax(&right, step);
        /* left's last interior cell -> right's left halo; right's first interior -> left's right halo */
        omp_target_memcpy(right.cells, left.cells, cell, 0, HALF * cell, right.device, left.device);
        omp_target_memcpy(left.cells, right.cells, cell, (HALF + 1) * cell, cell, left.device, right.device);
    }
    omp_target_memcpy(out, left.cells, bytes, 0, 0, host, left.device);
    omp_target_memcpy(out, right.cells, bytes, HALF * cell, 0, host, right.device);
    long sum = 0;
    for (int i = 0; i < 2 * HALF + 2; i++) sum = (sum * 31 + out[i]) % 1000000007;
    printf("hash %ld edges %ld %ld %ld\n", sum, out[HALF], out[HALF + 1], out[2 * HALF]);
    omp_target_free(left.cells, left.device);
    omp_target_free(right.cells, right.device);
    free(start);
    free(out);
    return 0;
}
