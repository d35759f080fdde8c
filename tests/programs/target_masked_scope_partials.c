/* Partial sums of a mapped field on the device, OpenMP 5.1 style: inside one
 * `target parallel` region each thread sums its stride of the field through a
 * `scope reduction` (folded into the mapped total, the team meeting after the scope),
 * the team's last thread (masked filter) records the step, and a second scope with a
 * private scratch value rescales the field. Integer data: the sums are exact in any
 * order and the output does not depend on the team's size. Several steps, each a
 * region of its own, with the field kept on the device by a target data region. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 4096
#define STEPS 5

struct field {
    long value[N];
    long weight[N];
};

int main(void)
{
    struct field *f = malloc(sizeof *f);
    long totals[STEPS], weighted[STEPS];
    int last_ok[STEPS];
    for (int i = 0; i < N; i++) {
        f->value[i] = (i * 37) % 101 - 50;
        f->weight[i] = 1 + i % 4;
    }

#pragma omp target data map(tofrom: f->value[0:N]) map(to: f->weight[0:N])
    for (int step = 0; step < STEPS; step++) {
        long total = 0, wsum = 0;
        int ok = 0;
#pragma omp target parallel num_threads(64) map(tofrom: total, wsum, ok) firstprivate(step)
        {
            int me = omp_get_thread_num(), team = omp_get_num_threads();
#pragma omp scope reduction(+: total, wsum)
            {
                for (int i = me; i < N; i += team) {
                    total += f->value[i];
                    wsum += f->value[i] * f->weight[i];
                }
            }
#pragma omp masked filter(omp_get_num_threads() - 1)
            ok = (me == team - 1) && total != 0;
            long scratch;
#pragma omp scope private(scratch) nowait
            {
                for (int i = me; i < N; i += team) {
                    scratch = f->value[i] * 3 + step;
                    f->value[i] = scratch % 97;
                }
            }
        }
        totals[step] = total;
        weighted[step] = wsum;
        last_ok[step] = ok;
    }

    for (int step = 0; step < STEPS; step++)
        printf("step %d: total %ld weighted %ld masked-by-last %d\n", step, totals[step], weighted[step],
               last_ok[step]);
    long check = 0;
    for (int i = 0; i < N; i++)
        check += f->value[i] * (i % 5);
    printf("final checksum %ld\n", check);
    free(f);
    return 0;
}
