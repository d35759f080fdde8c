/* The same kernel launched on two devices in turn, each with its own copy of x, while
 * the present tables change: each device's launches and present table never mix with
 * the other's (a launch on device 1 must update device 1's copy, never device 0's).
 * tests/native/test_several_devices.py */
#include <stdio.h>

static double x[4], y[4];

static void bump(int device, double by) {
#pragma omp target device(device)
    for (int i = 0; i < 4; i++)
        x[i] += by;
}

int main(void) {
    for (int i = 0; i < 4; i++) x[i] = 1.0;
#pragma omp target enter data map(to: x) device(0)
    for (int i = 0; i < 4; i++) x[i] = 100.0;
#pragma omp target enter data map(to: x) device(1)
    for (int round = 0; round < 3; round++) {
        bump(0, 1.0);
        bump(1, 10.0);
#pragma omp target enter data map(to: y) device(0)
#pragma omp target exit data map(release: y) device(0)
#pragma omp target enter data map(to: y) device(1)
#pragma omp target exit data map(release: y) device(1)
    }
#pragma omp target exit data map(from: x) device(0)
    printf("device 0: %.0f %.0f\n", x[0], x[3]);
#pragma omp target exit data map(from: x) device(1)
    printf("device 1: %.0f %.0f\n", x[0], x[3]);
    return 0;
}
