/* A time-stepping loop inside one parallel region: the master thread does the serial
 * bookkeeping between phases (master has no barrier of its own, so explicit barriers
 * order the phases), every thread updates its own slice, and a barrier separates the
 * reads of one step from the writes of the next. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 256
#define STEPS 20

struct state {
    double cur[N];
    double next[N];
    double history[STEPS];
    int step;
};

static double total(const double *x)
{
    double s = 0.0;
    for (int i = 0; i < N; i++)
        s += x[i];
    return s;
}

static void slice(int n, int *lo, int *hi)
{
    int me = omp_get_thread_num(), threads = omp_get_num_threads();
    *lo = n * me / threads;
    *hi = n * (me + 1) / threads;
}

int main(void)
{
    struct state *s = calloc(1, sizeof *s);
    int masters = 0;

    for (int i = 0; i < N; i++)
        s->cur[i] = (i % 16 == 0) ? 100.0 : 0.0;
#pragma omp parallel
    {
        int lo, hi;
        slice(N, &lo, &hi);
        for (int t = 0; t < STEPS; t++) {
            for (int i = lo; i < hi; i++) {
                double left = s->cur[(i + N - 1) % N], right = s->cur[(i + 1) % N];
                s->next[i] = 0.5 * s->cur[i] + 0.25 * (left + right);
            }
#pragma omp barrier
#pragma omp master
            {
                /* serial part: swap in the new values, record the total */
                for (int i = 0; i < N; i++)
                    s->cur[i] = s->next[i];
                s->history[t] = total(s->cur);
                s->step = t + 1;
                masters++;
            }
#pragma omp barrier
        }
    }
    printf("steps %d, master ran %d times\n", s->step, masters);
    for (int t = 0; t < STEPS; t += 5)
        printf("step %2d total %.9f\n", t, s->history[t]);
    printf("cur[0] %.9f cur[8] %.9f cur[15] %.9f\n", s->cur[0], s->cur[8], s->cur[15]);

    /* in a team of any size, master is thread 0 */
    int from_master = -1;
#pragma omp parallel num_threads(3)
    {
#pragma omp master
        from_master = omp_get_thread_num();
    }
    printf("master is thread %d\n", from_master);
    free(s);
    return 0;
}
