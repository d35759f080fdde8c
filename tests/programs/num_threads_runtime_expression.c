/* num_threads whose value the host cannot take at the launch (an array element, a call):
 * the team's code evaluates it, and no more threads than asked for run the loop, on every
 * spelling of the combined construct (the OpenMP validation suite's num_threads test). */
#include <omp.h>
#include <stdio.h>

#define N 1024

static int requested_threads(int k) { return 2 * k + 1; }

/* Checks one run: every iteration saw a team of 1..limit threads, and a thread number below it. */
static int check(const char *what, int limit, const int *team, const int *id)
{
    int i, errors = 0;
    for (i = 0; i < N; i++)
        if (team[i] < 1 || team[i] > limit || id[i] < 0 || id[i] >= team[i])
            errors++;
    printf("%-28s limit %5d: %s\n", what, limit, errors ? "too many threads" : "ok");
    return errors;
}

int main(void)
{
    int tested[] = {1, 3, 10, 100, 10000};
    int team[N], id[N];
    int t, i, errors = 0;

    for (t = 0; t < 5; t++) {
#pragma omp target teams distribute parallel for map(from: team, id) num_threads(tested[t])
        for (i = 0; i < N; i++) {
            team[i] = omp_get_num_threads();
            id[i] = omp_get_thread_num();
        }
        errors += check("combined, array element", tested[t], team, id);

#pragma omp target map(from: team, id)
#pragma omp teams distribute parallel for num_threads(tested[t])
        for (i = 0; i < N; i++) {
            team[i] = omp_get_num_threads();
            id[i] = omp_get_thread_num();
        }
        errors += check("split, array element", tested[t], team, id);
    }
    for (t = 0; t < 3; t++) {
#pragma omp target teams map(from: team, id)
        {
#pragma omp distribute parallel for num_threads(requested_threads(t))
            for (i = 0; i < N; i++) {
                team[i] = omp_get_num_threads();
                id[i] = omp_get_thread_num();
            }
        }
        errors += check("teams + distribute, call", requested_threads(t), team, id);
    }
    printf("%s\n", errors ? "FAILED" : "passed");
    return errors != 0;
}
