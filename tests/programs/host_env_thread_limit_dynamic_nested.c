// env: OMP_THREAD_LIMIT=3
// env: OMP_DYNAMIC=false
// env: OMP_NESTED=true
/* ICVs from the environment: OMP_THREAD_LIMIT caps every team (num_threads(8) gets 3,
 * and nested teams share the limit), OMP_DYNAMIC=false is reported and changed at run
 * time, OMP_NESTED=true makes nested regions active. */
#include <stdio.h>
#include <omp.h>

int main(void)
{
    int big = 0, inner_teams_ok = 1;

    printf("thread_limit %d, dynamic %d, nested %d, max_active_levels above 1: %d\n", omp_get_thread_limit(),
           omp_get_dynamic(), omp_get_nested(), omp_get_max_active_levels() > 1);

#pragma omp parallel num_threads(8) reduction(+:big)
    big++;
    printf("num_threads(8) under a limit of 3: %d threads\n", big);

    /* nested: the threads of all levels running at once stay within the limit, so while
     * both outer threads' inner teams run, one of them has a single thread (which one
     * depends on timing: only the bound is printed) */
#pragma omp parallel num_threads(2) reduction(&&:inner_teams_ok)
    {
        int inner = 0, busy = 0;
#pragma omp parallel num_threads(2) reduction(+:inner)
        inner++;
#pragma omp parallel num_threads(8) reduction(max:busy)
        busy = omp_get_num_threads() + omp_get_team_size(1) - 1;
        inner_teams_ok = inner >= 1 && inner <= 2 && busy <= 3;
    }
    printf("nested teams under a limit of 3 stay within it: %d\n", inner_teams_ok);

    omp_set_dynamic(1);
    int dynamic_now = omp_get_dynamic();
    omp_set_dynamic(0);
    printf("omp_set_dynamic(1): %d, then 0: %d\n", dynamic_now, omp_get_dynamic());
    return 0;
}
