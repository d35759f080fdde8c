/* parallel with num_threads, if clause and nesting: only thread-count-independent facts are printed. */
#include <stdio.h>
#include <omp.h>

#define N 1000

int main(void)
{
    int sizes_ok = 1, ids_ok = 1, work = 0, i;
    int seen[8] = { 0 };
    int team = -1;

#pragma omp parallel num_threads(3) reduction(&&: sizes_ok, ids_ok) reduction(+: work)
    {
        int n = omp_get_num_threads(), id = omp_get_thread_num();
        sizes_ok = sizes_ok && n >= 1 && n <= 3;
        ids_ok = ids_ok && id >= 0 && id < n;
        work += 1;
#pragma omp master
        team = n;
    }
    printf("num_threads(3): sizes ok %d, ids ok %d, work == team %d\n", sizes_ok, ids_ok, work == team);

    /* each thread marks its id; ids are exactly 0..team-1 */
#pragma omp parallel num_threads(4)
    {
        seen[omp_get_thread_num()] = 1;
#pragma omp single
        team = omp_get_num_threads();
    }
    {
        int ok = 1;
        for (i = 0; i < 8; i++)
            ok = ok && (seen[i] == (i < team));
        printf("ids contiguous: %d\n", ok);
    }

    /* if(0) makes the region run with one thread */
#pragma omp parallel if(0) num_threads(4)
    {
#pragma omp single
        printf("if(0): %d thread(s), thread %d\n", omp_get_num_threads(), omp_get_thread_num());
    }

    /* num_threads(1) */
#pragma omp parallel num_threads(1)
    printf("num_threads(1): %d thread(s)\n", omp_get_num_threads());

    /* num_threads from a runtime expression, and work split by parallel for */
    {
        int nt = 2 + N % 3;
        long s = 0;
#pragma omp parallel for num_threads(nt) reduction(+: s)
        for (i = 0; i < N; i++)
            s += i;
        printf("nt = %d, s = %ld\n", nt, s);
    }
    /* nested parallel regions: levels are counted even when inner regions are inactive */
    {
        int lvl_ok = 1;
#pragma omp parallel num_threads(2) reduction(&&: lvl_ok)
        {
            lvl_ok = lvl_ok && omp_get_level() == 1;
#pragma omp parallel num_threads(2) reduction(&&: lvl_ok)
            {
                lvl_ok = lvl_ok && omp_get_level() == 2 && omp_get_ancestor_thread_num(0) == 0;
            }
        }
        printf("nested levels ok: %d\n", lvl_ok);
    }
    /* omp_set_num_threads bounds the next team */
    omp_set_num_threads(2);
    {
        int n = 0;
#pragma omp parallel
        {
#pragma omp single
            n = omp_get_num_threads();
        }
        printf("after omp_set_num_threads(2): team size <= 2: %d\n", n >= 1 && n <= 2);
    }
    return 0;
}
