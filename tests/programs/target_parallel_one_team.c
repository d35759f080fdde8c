/* A target region without `teams` is one team (OpenMP 4.5 2.10): `target parallel
 * for`, `target parallel` + `for`, `target` + `parallel for` over large arrays must
 * update every element exactly once, however many threads the device has. */
#include <stdio.h>
#include <omp.h>

#define N 100000

static double a[N], b[N];
static int hits[N];

int main(void)
{
    int n = N, teams_seen = 0, wrong = 0;
    double sum = 0.0;

    for (int i = 0; i < n; i++) {
        a[i] = 1.0 + (i % 10) * 0.1;
        b[i] = 0.0;
    }

    /* squaring twice would show at once */
#pragma omp target parallel for map(tofrom: a)
    for (int i = 0; i < n; i++)
        a[i] = a[i] * a[i];

#pragma omp target parallel map(tofrom: a, hits) map(from: b)
    {
#pragma omp for
        for (int i = 0; i < n; i++) {
            b[i] = a[i] + 1.0;
            hits[i]++;
        }
#pragma omp for
        for (int i = 0; i < n; i++)
            a[i] = a[i] * 3.0;
    }

#pragma omp target map(tofrom: b, hits)
#pragma omp parallel for
    for (int i = 0; i < n; i++) {
        b[i] = b[i] * b[i];
        hits[i]++;
    }

    /* one team: every thread reports team 0 of 1 */
#pragma omp target parallel for reduction(+: teams_seen) map(tofrom: wrong)
    for (int i = 0; i < 1000; i++) {
        teams_seen += omp_get_num_teams();
        if (omp_get_team_num() != 0) {
#pragma omp atomic
            wrong++;
        }
    }

#pragma omp target parallel for simd reduction(+: sum) map(to: a, b)
    for (int i = 0; i < n; i++)
        sum += a[i] - b[i] * 0.001;

    int not_twice = 0;
    for (int i = 0; i < n; i++)
        not_twice += hits[i] != 2;
    printf("a[0] = %.4f a[7] = %.4f a[99999] = %.4f\n", a[0], a[7], a[n - 1]);
    printf("b[0] = %.4f b[7] = %.4f b[99999] = %.4f\n", b[0], b[7], b[n - 1]);
    printf("elements not updated exactly twice: %d\n", not_twice);
    printf("teams seen = %d (1000 iterations), wrong team numbers = %d\n", teams_seen, wrong);
    printf("sum = %.6f\n", sum);
    return 0;
}
