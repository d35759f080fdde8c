/* A particle energy sweep in the OpenMP 5.1 style: one parallel region per time step.
 * The last thread of the team (masked filter) does the step's bookkeeping, every
 * thread sums its particles' kinetic energy through a `scope reduction` (each thread's
 * partial sum folded into the shared total, the team meeting after the scope), and
 * a `scope` with a private copy scales the velocities (no barrier: nowait). Every
 * value is a sum of dyadic fractions, exact in any order, so the output does not depend
 * on the number of threads. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 2048
#define STEPS 6

struct particles {
    double x[N];
    double v[N];
    double mass[N];
};

static void initialise(struct particles *p)
{
    for (int i = 0; i < N; i++) {
        p->x[i] = 0.001 * i;
        p->v[i] = (i % 7) * 0.25 - 0.5;
        p->mass[i] = 1.0 + (i % 3);
    }
}

int main(void)
{
    struct particles *p = malloc(sizeof *p);
    double energy[STEPS];
    int bookkeeping[STEPS];
    initialise(p);

    for (int step = 0; step < STEPS; step++) {
        double kinetic = 0.0;
        int ran_by_last = 0;
#pragma omp parallel shared(kinetic, ran_by_last)
        {
            int me = omp_get_thread_num(), team = omp_get_num_threads();
#pragma omp masked filter(omp_get_num_threads() - 1)
            {
                ran_by_last = (me == team - 1);
                bookkeeping[step] = step * 10;
            }
#pragma omp for
            for (int i = 0; i < N; i++)
                p->x[i] += 0.1 * p->v[i];
#pragma omp scope reduction(+: kinetic)
            {
                for (int i = me; i < N; i += team)
                    kinetic += 0.5 * p->mass[i] * p->v[i] * p->v[i];
            }
            /* every thread sees the folded total after the scope's barrier */
            if (kinetic <= 0.0)
                printf("step %d: thread saw an unfinished sum\n", step);
            double scale;
#pragma omp scope private(scale) nowait
            {
                scale = step % 2 ? 0.5 : 0.75;
                for (int i = me; i < N; i += team)
                    p->v[i] *= scale;
            }
        }
        energy[step] = kinetic;
        if (!ran_by_last)
            printf("step %d: masked block not run by the last thread\n", step);
    }

    double position = 0.0;
    for (int i = 0; i < N; i++)
        position += p->x[i];
    for (int step = 0; step < STEPS; step++)
        printf("step %d: kinetic %.6f bookkeeping %d\n", step, energy[step], bookkeeping[step]);
    printf("sum of positions %.6f\n", position);
    free(p);
    return 0;
}
