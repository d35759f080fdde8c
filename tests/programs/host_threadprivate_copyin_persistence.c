/* threadprivate state as a library keeps it (a per-thread random-number generator and a
 * per-thread scratch buffer, static locals and file-scope structs), copyin to start every
 * thread from the master's state, and the values persisting between parallel regions
 * (same team size, dynamic adjustment off). */
#include <stdio.h>
#include <string.h>
#include <omp.h>

struct rng {
    unsigned long state;
    long draws;
};

static struct rng gen = {12345u, 0};
#pragma omp threadprivate(gen)

static double scratch[16];
static int scratch_used;
#pragma omp threadprivate(scratch, scratch_used)

static unsigned long next_random(void)
{
    gen.state = gen.state * 6364136223846793005ul + 1442695040888963407ul;
    gen.draws++;
    return gen.state >> 33;
}

static int calls_in_this_thread(void)
{
    static int calls = 0;
#pragma omp threadprivate(calls)
    return ++calls;
}

int main(void)
{
    int threads = 0, same_start = 0, persisted = 0, calls_ok = 0;
    long draws = 0;

    gen.state = 777;            /* the master's copy, copied into every thread's */
#pragma omp parallel copyin(gen) reduction(+:same_start)
    {
#pragma omp single
        threads = omp_get_num_threads();
        unsigned long first = next_random();
        same_start += first == ((777ul * 6364136223846793005ul + 1442695040888963407ul) >> 33);
        scratch_used = 0;
        for (int k = 0; k < 16; k++)
            scratch[scratch_used++] = (double)(first % 1000) + k;
        calls_in_this_thread();
    }
    printf("every thread started from the master's state: %d\n", same_start == threads);

    /* the second region sees each thread's own values from the first */
#pragma omp parallel reduction(+:persisted, draws, calls_ok)
    {
        persisted += scratch_used == 16 && gen.draws == 1;
        for (int k = 0; k < 100; k++)
            next_random();
        draws += gen.draws;
        calls_ok += calls_in_this_thread() == 2;
    }
    printf("persisted in every thread: %d, draws as expected %d, static local per thread: %d\n",
           persisted == threads, draws == 101L * threads, calls_ok == threads);

    /* copyin of an array and a scalar, after the master changed them */
    for (int k = 0; k < 16; k++)
        scratch[k] = -k;
    scratch_used = 3;
    double sum = 0.0;
#pragma omp parallel copyin(scratch, scratch_used) reduction(+:sum)
    {
        double mine = 0.0;
        for (int k = 0; k < scratch_used; k++)
            mine += scratch[k];
        sum += mine;
    }
    printf("copyin array: each thread sums %.1f\n", sum / threads);
    printf("master draws %ld, master state %lu\n", gen.draws, gen.state % 100000);
    return 0;
}
