/* Three kernels whose launch shapes the offload log records (OMP2GPU_OFFLOAD_LOG): a
 * combined loop with num_teams(8) thread_limit(64), one with no clauses over N
 * iterations, and a target region with no teams construct (one team). Under
 * OMP2GPU_LAUNCH=teams,threads (`omp2gpu report --run`'s sweep) every kernel but the
 * serial one takes that shape, a region without teams stays one team.
 * tests/native/test_launch_policy.py */
#include <stdio.h>

#define N 10000

int main(void) {
    static double a[N];
    double total = 0;
#pragma omp target teams distribute parallel for num_teams(8) thread_limit(64) map(tofrom: a)
    for (int i = 0; i < N; i++)
        a[i] = i;
#pragma omp target teams distribute parallel for map(tofrom: a)
    for (int i = 0; i < N; i++)
        a[i] *= 2;
#pragma omp target map(tofrom: a, total)
    for (int i = 0; i < N; i++)
        total += a[i];
    printf("%.1f\n", total);
    return 0;
}
