/* A thread of the program's own (pthread) makes four nowait target tasks in sequential
 * code and ends without a wait: its end launches what it held (fused_launches.c, under
 * OMP2GPU_FUSE_LAUNCHES=wait one fused launch of four parts) and waits for it
 * (run_ahead.c), so main, once it joined the thread, reads every slice back. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define SLICE 1024
#define PARTS 4

static double *values;

static void *fill(void *unused) {
    int part, i;
    (void)unused;
    for (part = 0; part < PARTS; part++) {
        #pragma omp target teams distribute parallel for nowait
        for (i = part * SLICE; i < (part + 1) * SLICE; i++)
            values[i] = part + 1.0;
    }
    return 0;
}

int main(void) {
    pthread_t thread;
    double sum = 0.0;
    int i;
    values = calloc(SLICE * PARTS, sizeof(double));
    #pragma omp target enter data map(to: values[0:SLICE * PARTS])
    if (pthread_create(&thread, 0, fill, 0) != 0 || pthread_join(thread, 0) != 0)
        return 1;
    #pragma omp target exit data map(from: values[0:SLICE * PARTS])
    for (i = 0; i < SLICE * PARTS; i++)
        sum += values[i];
    printf("sum %.1f\n", sum);
    free(values);
    return 0;
}
