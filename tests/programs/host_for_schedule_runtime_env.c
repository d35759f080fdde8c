// env: OMP_SCHEDULE=static,3
/* schedule(runtime): the loop takes OMP_SCHEDULE's schedule (static,3 here, so iteration
 * ownership is known), then what omp_set_schedule sets; schedule(auto) is the compiler's
 * and runtime's choice, so only the results are checked. */
#include <stdio.h>
#include <omp.h>

#define N 500

static int owner[N];
static long squares[N];

/* OpenMP 5.0 runtimes report OMP_SCHEDULE's kind with the monotonic modifier
 * (omp_sched_monotonic, the top bit) set: the name is the kind's low bits. */
static const char *kind_name(omp_sched_t kind)
{
    switch ((unsigned)kind & 0x7fffffffu) {
    case omp_sched_static: return "static";
    case omp_sched_dynamic: return "dynamic";
    case omp_sched_guided: return "guided";
    case omp_sched_auto: return "auto";
    default: return "?";
    }
}

static int owned_round_robin(int chunk, int threads)
{
    for (int i = 0; i < N; i++)
        if (owner[i] != (i / chunk) % threads)
            return 0;
    return 1;
}

static long fill(void)
{
    long total = 0;
#pragma omp parallel for schedule(runtime) reduction(+:total)
    for (int i = 0; i < N; i++) {
        owner[i] = omp_get_thread_num();
        squares[i] = (long)i * i;
        total += squares[i];
    }
    return total;
}

int main(void)
{
    omp_sched_t kind;
    int chunk, threads = omp_get_max_threads();

    omp_get_schedule(&kind, &chunk);
    printf("OMP_SCHEDULE: %s,%d\n", kind_name(kind), chunk);
    long total = fill();
    printf("runtime (static,3): total %ld, round-robin by 3: %d\n", total, owned_round_robin(3, threads));

    omp_set_schedule(omp_sched_static, 8);
    omp_get_schedule(&kind, &chunk);
    total = fill();
    printf("after omp_set_schedule: %s,%d, total %ld, round-robin by 8: %d\n", kind_name(kind), chunk, total,
           owned_round_robin(8, threads));

    omp_set_schedule(omp_sched_dynamic, 4);
    omp_get_schedule(&kind, &chunk);
    total = fill();
    printf("after omp_set_schedule: %s,%d, total %ld\n", kind_name(kind), chunk, total);

    omp_set_schedule(omp_sched_guided, 0);
    total = fill();
    printf("guided by omp_set_schedule: total %ld\n", total);

    long automatic = 0;
#pragma omp parallel for schedule(auto) reduction(+:automatic)
    for (int i = 0; i < N; i++)
        automatic += squares[i] - i;
    printf("schedule(auto): %ld\n", automatic);
    return 0;
}
