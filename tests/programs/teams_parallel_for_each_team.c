/* A teams region holding only a `parallel for` (no distribute): every team runs the whole
   loop with its own threads. One team (num_teams(1)) as real codes write it, a reduction
   into a mapped sum, two teams each adding the whole loop's sum, and num_threads on the
   loop narrowing the team. */
#include <stdio.h>
#include <omp.h>

#define N 1000

int main(void)
{
    double x[N], y[N];
    long sum = 0, twice = 0;
    int threads = 0, teams = 0, i;

    for (i = 0; i < N; i++)
        x[i] = i * 0.5;

#pragma omp target teams num_teams(1) map(to: x) map(from: y)
    {
#pragma omp parallel for private(i)
        for (i = 0; i < N; i++)
            y[i] = 2.0 * x[i] + 1.0;
    }
    printf("y[0] %.1f y[N-1] %.1f\n", y[0], y[N - 1]);

#pragma omp target teams num_teams(1) map(tofrom: sum)
#pragma omp parallel for reduction(+: sum)
    for (i = 0; i < N; i++)
        sum += i;
    printf("sum %ld\n", sum);

    /* each of the teams runs the whole loop: the mapped sum gets the loop's sum once per team */
#pragma omp target teams num_teams(2) map(tofrom: twice, teams)
#pragma omp parallel for reduction(+: twice)
    for (i = 0; i < N; i++) {
        twice += i;
        if (i == 0 && omp_get_team_num() == 0)
            teams = omp_get_num_teams();
    }
    printf("per team %s\n", twice == (long)teams * (N * (N - 1) / 2) ? "whole loop" : "WRONG");

#pragma omp target teams num_teams(1) map(tofrom: threads)
#pragma omp parallel for num_threads(3)
    for (i = 0; i < N; i++)
        if (i == 0)
            threads = omp_get_num_threads();
    printf("threads %s\n", threads >= 1 && threads <= 3 ? "at most 3" : "WRONG");
    return 0;
}
