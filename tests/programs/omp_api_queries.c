/* OpenMP runtime API calls, printing only facts that hold for any thread/team count and any device. */
#include <stdio.h>
#include <omp.h>

int main(void)
{
    int ok_ids = 1, ok_level = 1, ok_teams = 1, ok_target = 1;
    double t0, t1;

    printf("num_devices >= 0: %d\n", omp_get_num_devices() >= 0);
    printf("outside parallel: in_parallel %d, thread_num %d, num_threads %d, level %d, active_level %d\n",
           omp_in_parallel(), omp_get_thread_num(), omp_get_num_threads(), omp_get_level(), omp_get_active_level());
    printf("max_threads >= 1: %d, num_procs >= 1: %d, thread_limit >= 1: %d\n",
           omp_get_max_threads() >= 1, omp_get_num_procs() >= 1, omp_get_thread_limit() >= 1);
    printf("host is initial device: %d\n", omp_is_initial_device());
    printf("outside teams: team_num %d, num_teams %d\n", omp_get_team_num(), omp_get_num_teams());

#pragma omp parallel reduction(&&: ok_ids, ok_level)
    {
        int id = omp_get_thread_num(), n = omp_get_num_threads();
        ok_ids = ok_ids && id >= 0 && id < n && n <= omp_get_max_threads();
        ok_level = ok_level && omp_get_level() == 1 && omp_get_ancestor_thread_num(1) == id &&
                   omp_get_team_size(1) == n && omp_get_ancestor_thread_num(0) == 0;
#pragma omp single
        printf("inside parallel: level %d\n", omp_get_level());
    }
    printf("thread ids ok: %d, levels ok: %d\n", ok_ids, ok_level);

    /* inside target teams: team numbers in range */
#pragma omp target teams num_teams(3) map(tofrom: ok_teams) reduction(&&: ok_teams)
    {
        int t = omp_get_team_num(), nt = omp_get_num_teams();
        ok_teams = ok_teams && t >= 0 && t < nt && nt >= 1 && nt <= 3;
    }
    printf("team ids ok: %d\n", ok_teams);

    /* inside a target parallel for: thread ids within the team */
    {
        int i;
#pragma omp target teams distribute parallel for map(tofrom: ok_target) reduction(&&: ok_target)
        for (i = 0; i < 1000; i++)
            ok_target = ok_target && omp_get_thread_num() < omp_get_num_threads() && omp_get_team_num() < omp_get_num_teams();
        printf("target thread ids ok: %d\n", ok_target);
    }

    /* wall clock is monotonic, tick is positive */
    t0 = omp_get_wtime();
    {
        volatile double x = 0;
        int i;
        for (i = 0; i < 100000; i++)
            x += i;
    }
    t1 = omp_get_wtime();
    printf("wtime monotonic: %d, wtick > 0: %d\n", t1 >= t0, omp_get_wtick() > 0);

    /* set/get of internal control variables */
    omp_set_num_threads(3);
    printf("max_threads after set(3): %d\n", omp_get_max_threads());
    omp_set_dynamic(0);
    printf("dynamic after set(0): %d\n", omp_get_dynamic());
    {
        omp_sched_t kind;
        int chunk;
        omp_set_schedule(omp_sched_dynamic, 5);
        omp_get_schedule(&kind, &chunk);
        printf("schedule: dynamic %d, chunk %d\n", kind == omp_sched_dynamic, chunk);
    }
    /* locks */
    {
        omp_lock_t lock;
        int counter = 0, i;
        omp_init_lock(&lock);
#pragma omp parallel for
        for (i = 0; i < 1000; i++) {
            omp_set_lock(&lock);
            counter++;
            omp_unset_lock(&lock);
        }
        printf("lock counter = %d, test_lock on free lock = ", counter);
        if (omp_test_lock(&lock)) {
            printf("1\n");
            omp_unset_lock(&lock);
        } else {
            printf("0\n");
        }
        omp_destroy_lock(&lock);
    }
    return 0;
}
