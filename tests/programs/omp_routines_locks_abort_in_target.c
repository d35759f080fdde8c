/* OpenMP routines, locks and abort() inside target regions, as codes use them to
   guard and check a device computation (the OpenMP Examples' teams.1 calls abort in
   its region). Every device must have these functions: a kernel that only names one
   the GPU lacks keeps the whole program's device code from loading (assert() is in
   const_tables_and_func_in_target.c). The output does not depend on how many threads
   a region gets. */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define N 200

int main(void)
{
    long lock_sum = 0, team_sum = 0;
    int tried[3] = {-1, -1, -1};
    int default_device = -1, schedule_chunk = -1, dynamic = -1, nested = -1;
    omp_lock_t shared_lock;
    int i;

    /* the setters change no result; the readers say what a device says */
#pragma omp target map(from: default_device, schedule_chunk, dynamic, nested)
    {
        omp_sched_t kind;
        omp_set_dynamic(0);
        omp_set_nested(0);
        omp_set_num_threads(3);
        omp_set_max_active_levels(1);
        omp_set_schedule(omp_sched_static, 0);
        omp_get_schedule(&kind, &schedule_chunk);
        default_device = omp_get_default_device();
        dynamic = omp_get_dynamic();
        nested = omp_get_nested();
    }
    printf("default device %d, dynamic %d, nested %d, chunk %d\n", default_device, dynamic,
           nested, schedule_chunk);

    /* a lock made in the region guards a sum of its parallel loop */
#pragma omp target map(tofrom: lock_sum, tried)
    {
        omp_lock_t lock;
        omp_init_lock(&lock);
#pragma omp parallel for
        for (i = 0; i < N; i++) {
            omp_set_lock(&lock);
            lock_sum += i;
            omp_unset_lock(&lock);
        }
        tried[0] = omp_test_lock(&lock);       /* free: taken */
        tried[1] = omp_test_lock(&lock);       /* held: not taken */
        omp_unset_lock(&lock);
        tried[2] = omp_test_lock(&lock);
        omp_unset_lock(&lock);
        omp_destroy_lock(&lock);
        if (lock_sum != (long)N * (N - 1) / 2 || tried[0] != 1 || tried[2] != 1)
            abort();
    }
    printf("lock sum %ld, test_lock %d %d %d\n", lock_sum, tried[0], tried[1], tried[2]);

    /* a host lock mapped to the device guards a sum over teams */
    omp_init_lock(&shared_lock);
#pragma omp target teams distribute parallel for map(tofrom: shared_lock, team_sum)
    for (i = 0; i < N; i++) {
        omp_set_lock(&shared_lock);
        team_sum += 3 * i;
        omp_unset_lock(&shared_lock);
    }
    omp_destroy_lock(&shared_lock);
    printf("team sum %ld\n", team_sum);
    return 0;
}
