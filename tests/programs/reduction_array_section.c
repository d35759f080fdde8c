/* OpenMP 4.5 array-section reductions: reduction(+: h[0:n]) on host and device loops. */
#include <stdio.h>

#define N 10000
#define B 16

int main(void)
{
    int h[B] = { 0 }, ref[B] = { 0 }, i, ok = 1;
    long wsum[4] = { 0, 0, 0, 0 };
    int mx[4] = { -1, -1, -1, -1 };
    double dh[8] = { 0 };

    for (i = 0; i < N; i++)
        ref[(i * 13) % B]++;
#pragma omp parallel for reduction(+: h[0:B])
    for (i = 0; i < N; i++)
        h[(i * 13) % B]++;
    for (i = 0; i < B; i++)
        ok = ok && h[i] == ref[i];
    printf("host array reduction ok: %d, h[0] = %d, h[15] = %d\n", ok, h[0], h[B - 1]);

#pragma omp parallel for reduction(+: wsum[1:2])
    for (i = 0; i < N; i++) {
        wsum[1] += i;
        wsum[2] += i % 7;
    }
    printf("section reduction: %ld %ld %ld %ld\n", wsum[0], wsum[1], wsum[2], wsum[3]);

#pragma omp parallel for reduction(max: mx[0:4])
    for (i = 0; i < N; i++)
        if ((i * 31) % 1000 > mx[i % 4])
            mx[i % 4] = (i * 31) % 1000;
    printf("max per lane: %d %d %d %d\n", mx[0], mx[1], mx[2], mx[3]);

    for (i = 0; i < B; i++)
        h[i] = 0;
#pragma omp target teams distribute parallel for map(tofrom: h[0:B]) reduction(+: h[0:B])
    for (i = 0; i < N; i++)
        h[(i * 13) % B] += 2;
    ok = 1;
    for (i = 0; i < B; i++)
        ok = ok && h[i] == 2 * ref[i];
    printf("target array reduction ok: %d\n", ok);

#pragma omp target teams distribute parallel for map(tofrom: dh) reduction(+: dh[0:8])
    for (i = 0; i < N; i++)
        dh[i % 8] += 0.5;
    printf("double lanes: %.1f %.1f\n", dh[0], dh[7]);
    return 0;
}
