/* A target teams region without num_teams or thread_limit clauses, and one with them:
 * what OMP_NUM_TEAMS and OMP_TEAMS_THREAD_LIMIT bound (the first only) on a device. */
#include <stdio.h>
#include <omp.h>

int main(void) {
    int teams = 0, threads = 0, on_device = 0, clause_teams = 0;
    double a[1000];
    #pragma omp target teams distribute parallel for map(from: a[0:1000]) map(tofrom: teams, threads, on_device)
    for (int i = 0; i < 1000; i++) {
        a[i] = 2.0 * i;
        if (i == 0) {
            teams = omp_get_num_teams();
            threads = omp_get_num_threads();
            on_device = !omp_is_initial_device();
        }
    }
    #pragma omp target teams num_teams(5) map(tofrom: clause_teams)
    if (omp_get_team_num() == 0)
        clause_teams = omp_get_num_teams();
    printf("on_device=%d teams=%d threads=%d clause_teams=%d a[999]=%g\n", on_device, teams, threads, clause_teams,
           a[999]);
    return 0;
}
