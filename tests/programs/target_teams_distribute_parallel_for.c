/* The combined construct with various loop shapes, clauses, and num_teams/thread_limit. */
#include <stdio.h>

#define N 10000

int main(void)
{
    static int a[N], b[N];
    static double x[N];
    int i, n = N;
    long s;

#pragma omp target teams distribute parallel for map(from: a)
    for (i = 0; i < N; i++)
        a[i] = i % 97;
    s = 0;
    for (i = 0; i < N; i++)
        s += a[i];
    printf("s = %ld\n", s);

    /* explicit num_teams and thread_limit */
#pragma omp target teams distribute parallel for num_teams(4) thread_limit(32) map(to: a) map(from: b)
    for (i = 0; i < N; i++)
        b[i] = a[i] * 2 + 1;
    s = 0;
    for (i = 0; i < N; i++)
        s += b[i];
    printf("s = %ld\n", s);

    /* non-unit step, non-zero lower bound, <= condition */
    for (i = 0; i < N; i++)
        b[i] = 0;
#pragma omp target teams distribute parallel for map(tofrom: b)
    for (i = 5; i <= n - 5; i += 7)
        b[i] = 1;
    s = 0;
    for (i = 0; i < N; i++)
        s += b[i] * (long)i;
    printf("stepped s = %ld\n", s);

    /* decreasing loop */
#pragma omp target teams distribute parallel for map(from: x)
    for (i = N - 1; i >= 0; i--)
        x[i] = i * 0.5;
    printf("x[0] = %.1f, x[N-1] = %.1f\n", x[0], x[N - 1]);

    /* loop with a trip count smaller than the number of threads */
#pragma omp target teams distribute parallel for map(tofrom: b[0:3])
    for (i = 0; i < 3; i++)
        b[i] = 100 + i;
    printf("b[0..3] = %d %d %d %d\n", b[0], b[1], b[2], b[3]);

    /* zero-trip loop */
#pragma omp target teams distribute parallel for map(tofrom: b)
    for (i = 0; i < 0; i++)
        b[i] = -1;
    printf("b[0] still %d\n", b[0]);

    /* schedule(static, 1) and dist_schedule */
#pragma omp target teams distribute parallel for dist_schedule(static, 128) schedule(static, 1) map(from: a)
    for (i = 0; i < N; i++)
        a[i] = N - i;
    s = 0;
    for (i = 0; i < N; i++)
        s += (long)a[i] * (i % 3);
    printf("scheduled s = %ld\n", s);

    /* separate target teams, then distribute parallel for */
#pragma omp target teams map(tofrom: a)
#pragma omp distribute parallel for
    for (i = 0; i < N; i++)
        a[i] += 1;
    printf("a[0] = %d, a[N-1] = %d\n", a[0], a[N - 1]);

    /* target parallel for (no teams) */
#pragma omp target parallel for map(from: b)
    for (i = 0; i < N; i++)
        b[i] = i & 0xff;
    s = 0;
    for (i = 0; i < N; i++)
        s += b[i];
    printf("target parallel for s = %ld\n", s);
    return 0;
}
