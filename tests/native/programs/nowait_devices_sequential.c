/* `target nowait device(n)` met in sequential code, one region per part of an array on
 * the devices in turn, then one taskwait: the kernels run ahead on every device at once,
 * and the taskwait waits for all of them.
 * `target update from` after it copies what they wrote; the checksums do not depend on
 * how many devices there are. */
#include <stdio.h>
#include <omp.h>

#define N (1 << 20)
#define PARTS 4
#define PART (N / PARTS)

static long x[N];

int main(void)
{
    int devices = omp_get_num_devices() > 0 ? omp_get_num_devices() : 1;
    int p, i, w, round;
    for (i = 0; i < N; i++)
        x[i] = i % 1009;
    for (p = 0; p < PARTS; p++) {
        long *part = x + p * PART;
        #pragma omp target enter data map(to: part[0:PART]) device(p % devices)
    }
    for (round = 0; round < 3; round++) {
        long sum = 0;
        for (p = 0; p < PARTS; p++) {
            long *part = x + p * PART;
            #pragma omp target teams distribute parallel for device(p % devices) nowait \
                map(tofrom: part[0:PART]) private(w)
            for (i = 0; i < PART; i++) {
                long v = part[i];
                for (w = 0; w < 30; w++)
                    v = (v * 7 + round + p) % 1000003;
                part[i] = v;
            }
        }
        #pragma omp taskwait
        for (p = 0; p < PARTS; p++) {
            long *part = x + p * PART;
            #pragma omp target update from(part[0:PART]) device(p % devices)
        }
        for (i = 0; i < N; i++)
            sum = (sum * 31 + x[i]) % 1000000007;
        printf("round %d: %ld\n", round, sum);
    }
    for (p = 0; p < PARTS; p++) {
        long *part = x + p * PART;
        #pragma omp target exit data map(delete: part[0:PART]) device(p % devices)
    }
    return 0;
}
