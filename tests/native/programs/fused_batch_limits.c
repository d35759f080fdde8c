/* Fused launches' batch limits (runtime/offload/fused_launches.c): 40 nowait launches of
 * one region, the first 36 with 128 threads a block and the last 4 with 256. Held until
 * the taskwait (OMP2GPU_FUSE_LAUNCHES=wait), they run as a fused launch of 32 parts (the
 * most one takes), one of the next 4 and one of the last 4 (another block size). Each
 * launch writes its own slice, so the sum says every one ran once. */
#include <stdio.h>
#include <stdlib.h>

#define SLICE 4096
#define LAUNCHES 40

int main(void) {
    double *values = malloc(sizeof(double) * SLICE * LAUNCHES), sum = 0.0;
    int launch, i;
    for (i = 0; i < SLICE * LAUNCHES; i++)
        values[i] = -1.0;
    #pragma omp target data map(tofrom: values[0:SLICE * LAUNCHES])
    {
        for (launch = 0; launch < LAUNCHES; launch++) {
            const int threads = launch < 36 ? 128 : 256;
            #pragma omp target teams distribute parallel for nowait thread_limit(threads)
            for (i = launch * SLICE; i < (launch + 1) * SLICE; i++)
                values[i] = launch + 0.5;
        }
        #pragma omp taskwait
    }
    for (i = 0; i < SLICE * LAUNCHES; i++)
        sum += values[i];
    printf("sum %.1f (expected %.1f)\n", sum, SLICE * (LAUNCHES * (LAUNCHES - 1) / 2.0 + 0.5 * LAUNCHES));
    free(values);
    return 0;
}
