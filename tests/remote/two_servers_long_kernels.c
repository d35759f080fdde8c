/* Two devices each given two long kernels as `target nowait` tasks, then one taskwait:
 * with two remote servers (docs/remote.md) the servers' kernels run at the same time, and
 * each server has two launches in flight. The kernels update device memory in place over
 * two rounds, so a kernel run twice (a resent launch redone) changes the answer.
 * argv[1]: iterations a kernel (default 40M). */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define KERNELS 2               /* a device, a round: each its own cell */

int main(int argc, char **argv) {
    long iterations = argc > 1 ? atol(argv[1]) : 40000000L;
    int devices = omp_get_num_devices(), host = omp_get_initial_device();
    double *cells[2];
    for (int d = 0; d < 2; d++) {
        int device = devices > 0 ? d % devices : host;
        double start[KERNELS];
        for (int k = 0; k < KERNELS; k++) start[k] = 10 * d + k + 1;
        cells[d] = omp_target_alloc(sizeof start, device);
        omp_target_memcpy(cells[d], start, sizeof start, 0, 0, device, host);
    }
    for (int round = 0; round < 2; round++) {
        for (int k = 0; k < KERNELS; k++)
            for (int d = 0; d < 2; d++) {
                double *t = cells[d] + k;
                long n = iterations;
                #pragma omp target nowait is_device_ptr(t) device(devices > 0 ? d % devices : host)
                {
                    double x = t[0];
                    for (long i = 0; i < n; i++) x = x * 0.999999 + (double)(i % 7) * 1e-3;
                    t[0] = x;
                }
            }
        #pragma omp taskwait
    }
    for (int d = 0; d < 2; d++) {
        int device = devices > 0 ? d % devices : host;
        double total[KERNELS];
        omp_target_memcpy(total, cells[d], sizeof total, 0, 0, host, device);
        printf("device %d cells", d);
        for (int k = 0; k < KERNELS; k++) printf(" %.6f", total[k]);
        printf("\n");
        omp_target_free(cells[d], device);
    }
    return 0;
}
