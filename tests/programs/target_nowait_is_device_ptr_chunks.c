/* Deferred target tasks over chunks of omp_target_alloc'd memory: each `target nowait
 * is_device_ptr(piece)` is made with `piece` pointing at its own chunk, then the loop moves
 * `piece` on before the task runs; the task must use the value it had when it was made
 * (is_device_ptr's list items are the target task's own copies), as each chunk's sum shows. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define CHUNKS 8
#define M 256

int main(void) {
    int dev = omp_get_default_device(), host = omp_get_initial_device();
    double *buffer = omp_target_alloc(CHUNKS * M * sizeof(double), dev);
    double *out = malloc(CHUNKS * M * sizeof *out);
#pragma omp target is_device_ptr(buffer) device(dev)
    for (int i = 0; i < CHUNKS * M; i++) buffer[i] = i % M;
    for (int sweep = 0; sweep < 3; sweep++) {
#pragma omp parallel
#pragma omp single
        for (int c = 0; c < CHUNKS; c++) {
            double *piece = buffer + c * M;
#pragma omp target nowait is_device_ptr(piece) device(dev)
            for (int i = 0; i < M; i++) piece[i] += c + sweep;
        }
    }
    omp_target_memcpy(out, buffer, CHUNKS * M * sizeof *out, 0, 0, host, dev);
    for (int c = 0; c < CHUNKS; c++) {
        double sum = 0;
        for (int i = 0; i < M; i++) sum += out[c * M + i];
        printf("chunk %d: sum %.0f\n", c, sum);
    }
    omp_target_free(buffer, dev);
    free(out);
    return 0;
}
