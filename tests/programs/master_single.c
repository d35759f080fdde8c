/* master, single (with nowait and copyprivate) execute once; printing from them is deterministic. */
#include <stdio.h>
#include <omp.h>

int main(void)
{
    int master_runs = 0, single_runs = 0, nowait_runs = 0;
    int shared_val = 0;
    long s = 0;

#pragma omp parallel
    {
#pragma omp master
        {
            master_runs++;
            printf("master is thread %d\n", omp_get_thread_num());
        }
#pragma omp barrier
#pragma omp single
        {
            single_runs++;
            printf("single block ran\n");
        }
#pragma omp single nowait
        nowait_runs++;
    }
    printf("master %d, single %d, nowait %d\n", master_runs, single_runs, nowait_runs);

    /* single initializes data used by everyone after its implicit barrier */
#pragma omp parallel reduction(+: s)
    {
#pragma omp single
        shared_val = 42;
        s += shared_val;
    }
    printf("every thread saw 42: %d\n", s % 42 == 0 && s > 0);

    /* copyprivate broadcasts a private value from the single thread */
    {
        int all_ok = 1;
#pragma omp parallel reduction(&&: all_ok)
        {
            int mine = -1;
#pragma omp single copyprivate(mine)
            mine = 1234;
            all_ok = all_ok && mine == 1234;
        }
        printf("copyprivate ok: %d\n", all_ok);
    }
    /* a sequence of singles prints in program order */
#pragma omp parallel
    {
        int k;
        for (k = 0; k < 3; k++) {
#pragma omp single
            printf("step %d\n", k);
        }
    }
    /* master inside a loop of a parallel region, with a barrier to publish */
    {
        int data[4] = { 0, 0, 0, 0 };
#pragma omp parallel
        {
            int k;
            for (k = 0; k < 4; k++) {
#pragma omp master
                data[k] = (k + 1) * 11;
#pragma omp barrier
            }
        }
        printf("data = %d %d %d %d\n", data[0], data[1], data[2], data[3]);
    }
    /* single in a target parallel region */
    {
        int once = 0;
#pragma omp target parallel map(tofrom: once)
        {
#pragma omp single
            once++;
        }
        printf("target single once = %d\n", once);
    }
    return 0;
}
