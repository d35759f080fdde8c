/* A time-step loop on data kept on the device (target data) whose kernel updates it in
 * place, so a kernel run twice gives a different answer: with remote devices
 * (docs/remote.md, tests/remote) a dropped link's resent launch must not run again. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 2048

struct state { long *x; long *flux; int n; };

int main(void) {
    struct state s = {malloc(N * sizeof(long)), malloc(N * sizeof(long)), N};
    long *x = s.x, *flux = s.flux;
    int devices = omp_get_num_devices();
    int device = devices > 0 ? devices - 1 : omp_get_initial_device();
    for (int i = 0; i < N; i++) x[i] = (i * 31L) % 997, flux[i] = 0;
    #pragma omp target data map(tofrom: x[0:N]) map(alloc: flux[0:N]) device(device)
    {
        for (int step = 1; step <= 20; step++) {
            #pragma omp target teams distribute parallel for device(device)
            for (int i = 0; i < N; i++) flux[i] = (x[i] * 3 + step) % 1000003;
            #pragma omp target teams distribute parallel for device(device)
            for (int i = 0; i < N; i++) x[i] += flux[i] / 7 + 1;
            if (step % 5 == 0) {
                #pragma omp target update from(x[0:N]) device(device)
                long sum = 0;
                for (int i = 0; i < N; i++) sum += x[i] % 1009;
                printf("step %d sum %ld x[7] %ld\n", step, sum, x[7]);
            }
        }
    }
    printf("x[0] %ld x[N-1] %ld\n", x[0], x[N - 1]);
    free(s.x);
    free(s.flux);
    return 0;
}
