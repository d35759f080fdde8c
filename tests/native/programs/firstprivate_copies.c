/* firstprivate arrays and structs too large for a kernel parameter (tests/native/
 * test_firstprivate_copies.py): a 72-byte array and an 88-byte struct, mapped by an
 * enclosing target data and changed on the host since, then outside any target data.
 * Each region must read the host's bytes; its own changes stay private. So must a
 * firstprivate declare target array (80 bytes) and scalar. A private array
 * (96 bytes) is not copied at all. */
#include <stdio.h>

typedef struct { double scale[10]; int calls; } Settings;   /* 88 bytes */

#pragma omp declare target
double limits[10];                                          /* 80 bytes, the device's own copy */
int level = 1;
#pragma omp end declare target

int main(void)
{
    double weights[9];
    Settings s = {{0}, 0};
    int k, round;
    double seen[3] = {0}, scratch[12] = {0}, total = 0.0, bound = 0.0;   /* scratch: 96 bytes */

    for (k = 0; k < 9; k++) weights[k] = k;
    for (k = 0; k < 10; k++) s.scale[k] = 1.0;
    #pragma omp target data map(to: weights, s)
    {
        for (round = 0; round < 2; round++) {
            weights[4] += 100.0;              /* the device copies keep 4.0 and 1.0 */
            s.scale[2] *= 3.0;
            s.calls++;
            #pragma omp target firstprivate(weights, s) map(from: seen[round:1])
            {
                seen[round] = weights[4] * s.scale[2] + s.calls;
                weights[4] = -1.0;
                s.calls = -1;
            }
        }
    }
    #pragma omp target firstprivate(weights, s) map(from: seen[2:1])
    {
        seen[2] = weights[4] + s.scale[2] + s.calls;
        s.calls = 1000;
    }
    /* a declare target array and scalar: the firstprivate copies start from the host's values */
    for (k = 0; k < 10; k++) limits[k] = k;
    #pragma omp target update to(limits)
    limits[7] = 70.0;
    level = 4;
    #pragma omp target firstprivate(limits, level) map(from: bound)
    {
        bound = limits[7] * level;
        limits[7] = -1.0;
        level = -1;
    }
    printf("limits: seen %.1f; host limits[7] %.1f, level %d\n", bound, limits[7], level);

    /* private: storage of the region's own, nothing copied either way */
    #pragma omp target teams distribute parallel for private(scratch) reduction(+: total)
    for (k = 0; k < 64; k++) {
        int j;
        for (j = 0; j < 12; j++) scratch[j] = k * j;
        total += scratch[11];
    }
    printf("seen %.1f %.1f %.1f; host weights[4] %.1f, s.calls %d\n", seen[0], seen[1], seen[2], weights[4],
           s.calls);
    printf("total %.1f, host scratch[11] %.1f\n", total, scratch[11]);
    return 0;
}
