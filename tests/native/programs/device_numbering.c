/* What a multi-device code sees: omp_get_num_devices() devices, a region on each (which
 * reports whether it ran off the host), the host after them. */
#include <stdio.h>
#include <omp.h>

int main(void) {
    int n = omp_get_num_devices();
    printf("devices %d initial %d\n", n, omp_get_initial_device());
    for (int d = 0; d < n; d++) {
        int off_host = 0;
        #pragma omp target device(d) map(from: off_host)
        off_host = !omp_is_initial_device();
        printf("device %d off_host %d\n", d, off_host);
    }
    return 0;
}
