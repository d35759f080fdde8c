/* collapse(2) and collapse(3) on combined target constructs and on host parallel for. */
#include <stdio.h>

#define NI 37
#define NJ 53
#define NK 5

int main(void)
{
    static int m[NI][NJ];
    static double c3[NI][NJ][NK];
    long s = 0;
    double ds = 0;
    int i, j, k;

#pragma omp target teams distribute parallel for collapse(2) map(from: m)
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++)
            m[i][j] = i * 1000 + j;
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++)
            s += m[i][j] % 1013;
    printf("collapse2 s = %ld, m[36][52] = %d\n", s, m[NI - 1][NJ - 1]);

#pragma omp target teams distribute parallel for collapse(3) map(from: c3)
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++)
            for (k = 0; k < NK; k++)
                c3[i][j][k] = i + j * 0.5 + k * 0.25;
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++)
            for (k = 0; k < NK; k++)
                ds += c3[i][j][k];
    printf("collapse3 sum = %.2f\n", ds);

    /* collapse with non-zero lower bounds and steps */
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++)
            m[i][j] = 0;
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: m)
    for (i = 1; i < NI; i += 3)
        for (j = 2; j < NJ - 1; j += 5)
            m[i][j] = 1;
    s = 0;
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++)
            s += m[i][j] * (i + 7 * j);
    printf("strided collapse s = %ld\n", s);

    /* host parallel for collapse(2) with a reduction */
    s = 0;
#pragma omp parallel for collapse(2) reduction(+: s)
    for (i = 0; i < NI; i++)
        for (j = 0; j < NJ; j++)
            s += (long)i * j;
    printf("host collapse reduction s = %ld\n", s);

    /* collapse(2) with a runtime upper bound */
    {
        int ni = 20, nj = 30;
        long t = 0;
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: t) reduction(+: t)
        for (i = 0; i < ni; i++)
            for (j = 0; j < nj; j++)
                t += i ^ j;
        printf("xor sum = %ld\n", t);
    }
    return 0;
}
