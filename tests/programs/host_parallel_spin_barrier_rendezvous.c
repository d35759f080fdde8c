/* A hand-written sense-reversing barrier (as codes that avoid the runtime's barrier have)
 * built from atomics: every thread of the team must be running at the same time for it
 * to complete, so a team whose threads ran one after another would hang here. It is
 * sized by omp_get_num_threads(), so a team of one passes straight through. Several
 * rounds of a neighbour exchange check that each round's values are complete. */
#include <stdio.h>
#include <omp.h>

#define ROUNDS 50
#define MAXT 64

struct spin_barrier {
    int arrived;
    int sense;
};

static void spin_wait(struct spin_barrier *b, int team, int *local_sense)
{
    int now;
    *local_sense = !*local_sense;
    int position;
#pragma omp atomic capture
    position = ++b->arrived;
    if (position == team) {
        b->arrived = 0;
#pragma omp flush
#pragma omp atomic write
        b->sense = *local_sense;
    } else {
        do {
#pragma omp atomic read
            now = b->sense;
        } while (now != *local_sense);
    }
#pragma omp flush
}

int main(void)
{
    static double value[MAXT], seen_sum[MAXT];
    struct spin_barrier bar = {0, 0};
    int consistent = 1;
    double final_sum = 0.0;

#pragma omp parallel num_threads(4) shared(bar) reduction(&&:consistent)
    {
        int me = omp_get_thread_num(), team = omp_get_num_threads(), sense = 0;
        value[me] = me;
        spin_wait(&bar, team, &sense);
        for (int r = 0; r < ROUNDS; r++) {
            double left = value[(me + team - 1) % team];
            spin_wait(&bar, team, &sense);        /* everyone has read */
            value[me] = 0.5 * (value[me] + left) + 1.0;
            spin_wait(&bar, team, &sense);        /* everyone has written */
        }
        /* every thread sees the same values after the last round */
        double sum = 0.0;
        for (int t = 0; t < team; t++)
            sum += value[t];
        seen_sum[me] = sum;
        spin_wait(&bar, team, &sense);
        consistent = seen_sum[me] == seen_sum[0];
#pragma omp master
        final_sum = sum / team;
    }
    printf("rounds %d complete, every thread saw the same values %d, average value %.6f\n", ROUNDS, consistent,
           final_sum);
    return 0;
}
