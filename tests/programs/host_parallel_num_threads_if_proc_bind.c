/* parallel with num_threads, if and proc_bind: the team sizes a solver asks for, whatever
 * OMP_NUM_THREADS says (num_threads overrides it; if(false) serialises the region). */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 1000

struct team_report {
    int size;           /* omp_get_num_threads() seen inside */
    int members;        /* threads that checked in */
    int in_parallel;    /* omp_in_parallel() inside */
    long work;          /* a sum the team computes */
};

static long triangle(int lo, int hi)
{
    long s = 0;
    for (int i = lo; i < hi; i++)
        s += i;
    return s;
}

/* Every thread takes an equal share of [0, N) by its number. */
static void run_team(struct team_report *r, int requested, int enabled)
{
    r->size = 0;
    r->members = 0;
    r->work = 0;
    r->in_parallel = 0;
#pragma omp parallel num_threads(requested) if(enabled) proc_bind(close)
    {
        int me = omp_get_thread_num(), n = omp_get_num_threads();
        int lo = (int)((long)N * me / n), hi = (int)((long)N * (me + 1) / n);
        long part = triangle(lo, hi);
#pragma omp atomic
        r->members++;
#pragma omp atomic
        r->work += part;
        if (me == 0) {
            r->size = n;
            r->in_parallel = omp_in_parallel();
        }
    }
}

int main(int argc, char **argv)
{
    int sizes[] = {1, 2, 3, 5, 8};
    struct team_report r;
    int k;

    (void)argv;
    for (k = 0; k < 5; k++) {
        run_team(&r, sizes[k], 1);
        printf("num_threads(%d): size %d, members %d, in_parallel %d, work %ld\n",
               sizes[k], r.size, r.members, r.in_parallel, r.work);
    }
    run_team(&r, 4, argc < 0);
    printf("if(false): size %d, members %d, in_parallel %d, work %ld\n", r.size, r.members, r.in_parallel, r.work);

    /* the other binding policies give the same team */
    int spread = 0, master = 0;
#pragma omp parallel num_threads(3) proc_bind(spread) reduction(+:spread)
    spread += 1;
#pragma omp parallel num_threads(3) proc_bind(master) reduction(+:master)
    master += 1;
    printf("proc_bind(spread): %d threads, proc_bind(master): %d threads\n", spread, master);

    /* num_threads from an expression evaluated once by the encountering thread */
    int calls = 0, seen = 0;
#pragma omp parallel num_threads((calls++, 2 + argc % 2)) reduction(+:seen)
    seen++;
    printf("expression evaluated %d time(s), team of %d\n", calls, seen);
    return 0;
}
