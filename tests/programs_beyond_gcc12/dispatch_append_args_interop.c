/* A vendor-library wrapper as OpenMP 5.1 lets codes write one: the base `scale` runs on the
 * host; its variant for `dispatch` takes device pointers (adjust_args(need_device_ptr)) and,
 * appended to its arguments, an interop object with the device's stream (append_args(
 * interop(targetsync))), which a real wrapper would hand to cuBLAS; this one checks it is
 * the default device's and runs its own target region. gcc 12 lacks dispatch, adjust_args
 * and append_args.
 *
 * Expected output: x[i] = i scaled ROUNDS = 3 times by 2 through dispatch (the variant) and
 * once by 3 on the host copy after the data region (the base): sum = 2^3 * 3 * n (n - 1) / 2
 * = 24 * 499500 = 11988000 for n = 1000. The variant ran 3 times, each with an interop
 * object of the default device where there is one ("interop checks 3"). */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define ROUNDS 3

static int variant_calls, interop_checks;

void scale_on_stream(int n, double factor, double *x, omp_interop_t sync);

#pragma omp declare variant(scale_on_stream) match(construct={dispatch}) \
        adjust_args(need_device_ptr: x) append_args(interop(targetsync))
void scale(int n, double factor, double *x) {
    for (int i = 0; i < n; i++) x[i] *= factor;
}

void scale_on_stream(int n, double factor, double *x, omp_interop_t sync) {
    int rc = 0;
    variant_calls++;
    if (omp_get_num_devices() == 0)
        interop_checks++;                                   /* no device: nothing to make one for */
    else if (sync != omp_interop_none
             && omp_get_interop_int(sync, omp_ipr_device_num, &rc) == omp_get_default_device())
        interop_checks++;
    #pragma omp target teams distribute parallel for is_device_ptr(x)
    for (int i = 0; i < n; i++) x[i] *= factor;
}

int main(void) {
    int n = 1000;
    double *x = malloc(n * sizeof(double));
    for (int i = 0; i < n; i++) x[i] = i;
    #pragma omp target data map(tofrom: x[0:n])
    {
        for (int r = 0; r < ROUNDS; r++) {
            #pragma omp dispatch
            scale(n, 2.0, x);
        }
    }
    scale(n, 3.0, x);
    double sum = 0;
    for (int i = 0; i < n; i++) sum += x[i];
    printf("sum %.0f, variant calls %d, interop checks %d\n", sum, variant_calls, interop_checks);
    free(x);
    return 0;
}
