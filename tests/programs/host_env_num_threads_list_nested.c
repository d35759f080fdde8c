// env: OMP_NUM_THREADS=3,2
// env: OMP_MAX_ACTIVE_LEVELS=2
/* Nested parallelism set up from the environment, as a cluster job script does:
 * OMP_NUM_THREADS=3,2 gives the outer teams 3 threads and the inner ones 2, and
 * OMP_MAX_ACTIVE_LEVELS=2 lets both levels be active; a third level is serialised.
 * Each thread of the innermost level records its path (outer, inner), so every pair
 * is seen exactly once. */
#include <stdio.h>
#include <omp.h>

static int seen[8][8];
static int third_level_team[8][8];

static void inner_work(int outer)
{
    int inner = omp_get_thread_num();
#pragma omp atomic
    seen[outer][inner]++;
#pragma omp parallel
    {
#pragma omp master
        third_level_team[outer][inner] = omp_get_num_threads();
    }
}

int main(void)
{
    int outer_size = 0, inner_size = 0, max_inside = 0;

    printf("max_threads %d, max_active_levels %d\n", omp_get_max_threads(), omp_get_max_active_levels());
#pragma omp parallel
    {
        int outer = omp_get_thread_num();
#pragma omp single
        {
            outer_size = omp_get_num_threads();
            max_inside = omp_get_max_threads();    /* the list's next entry */
        }
#pragma omp parallel
        {
#pragma omp single
            if (outer == 0)
                inner_size = omp_get_num_threads();
            inner_work(outer);
        }
    }
    printf("outer team %d, inner teams %d, max_threads inside the outer %d\n", outer_size, inner_size, max_inside);
    int once = 1, third = 1;
    for (int o = 0; o < outer_size; o++)
        for (int i = 0; i < inner_size; i++) {
            once = once && seen[o][i] == 1;
            third = third && third_level_team[o][i] == 1;
        }
    printf("every (outer, inner) pair ran once: %d, third level serialised: %d\n", once, third);

    /* num_threads on the outer level overrides the list's first entry only */
    int inner_again = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp parallel
        {
#pragma omp master
            if (omp_get_ancestor_thread_num(1) == 1)
                inner_again = omp_get_num_threads();
        }
    }
    printf("with num_threads(2) outside, the inner teams still have %d\n", inner_again);
    return 0;
}
