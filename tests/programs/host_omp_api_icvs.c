/* The omp_* execution-environment routines and the ICVs they read and set, from
 * sequential code and from inside teams: omp_set_num_threads, omp_get_max_threads,
 * omp_get_num_threads / thread_num, omp_in_parallel, omp_set_dynamic / get_dynamic,
 * omp_set_max_active_levels, omp_get_level, omp_get_active_level, omp_get_ancestor_thread_num,
 * omp_get_team_size, omp_get_thread_limit, omp_get_cancellation, omp_get_default_device,
 * omp_is_initial_device, omp_get_wtime, omp_get_wtick. */
#include <stdio.h>
#include <omp.h>

struct level_view {
    int level, active, team_size, ancestor0, in_parallel;
};

static struct level_view observe(void)
{
    struct level_view v;
    v.level = omp_get_level();
    v.active = omp_get_active_level();
    v.team_size = omp_get_team_size(v.level);
    v.ancestor0 = omp_get_ancestor_thread_num(0);
    v.in_parallel = omp_in_parallel();
    return v;
}

static void show(const char *where, struct level_view v)
{
    printf("%-22s level %d active %d team %d ancestor(0) %d in_parallel %d\n", where, v.level, v.active,
           v.team_size, v.ancestor0, v.in_parallel);
}

int main(void)
{
    struct level_view seq = observe(), inner = {0}, one = {0};
    int team = 0, max_inside = 0;

    show("sequential", seq);
    printf("outside: num_threads %d, thread_num %d, team_size(1) %d, ancestor(1) %d\n", omp_get_num_threads(),
           omp_get_thread_num(), omp_get_team_size(1), omp_get_ancestor_thread_num(1));

    omp_set_dynamic(0);
    omp_set_num_threads(3);
    printf("after omp_set_num_threads(3): max_threads %d, dynamic %d\n", omp_get_max_threads(), omp_get_dynamic());
#pragma omp parallel
    {
#pragma omp master
        {
            team = omp_get_num_threads();
            max_inside = omp_get_max_threads();
            inner = observe();
        }
    }
    printf("team of %d, max_threads inside %d\n", team, max_inside);
    show("in a team of 3", inner);

    /* an inactive (one-thread) region still counts as a level */
#pragma omp parallel num_threads(1)
    one = observe();
    show("in a team of 1", one);

    /* nested: two active levels allowed */
    omp_set_max_active_levels(2);
    int sizes[2] = {0, 0}, ancestors_ok = 1;
#pragma omp parallel num_threads(2) reduction(&&:ancestors_ok)
    {
        int outer = omp_get_thread_num();
#pragma omp parallel num_threads(2) reduction(&&:ancestors_ok)
        {
            ancestors_ok = ancestors_ok && omp_get_ancestor_thread_num(1) == outer
                           && omp_get_ancestor_thread_num(2) == omp_get_thread_num()
                           && omp_get_active_level() == 2 && omp_get_level() == 2;
            if (outer == 0 && omp_get_thread_num() == 0) {
                sizes[0] = omp_get_team_size(1);
                sizes[1] = omp_get_team_size(2);
            }
        }
    }
    printf("max_active_levels %d: team sizes %d x %d, ancestors consistent %d\n", omp_get_max_active_levels(),
           sizes[0], sizes[1], ancestors_ok);

    omp_set_max_active_levels(1);
    int nested_team = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp parallel num_threads(2)
        {
#pragma omp master
            if (omp_get_ancestor_thread_num(1) == 0)
                nested_team = omp_get_num_threads();
        }
    }
    printf("max_active_levels 1: the inner team has %d thread(s)\n", nested_team);

    printf("thread_limit above 1000: %d, cancellation %d, initial device %d, default device %d\n",
           omp_get_thread_limit() > 1000, omp_get_cancellation(), omp_is_initial_device(),
           omp_get_default_device());
    double t0 = omp_get_wtime(), t1 = omp_get_wtime();
    printf("wtime advances: %d, wtick positive: %d\n", t1 >= t0, omp_get_wtick() > 0.0);
    return 0;
}
