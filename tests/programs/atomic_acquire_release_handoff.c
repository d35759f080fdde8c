/* A producer and a consumer thread of one parallel region hand buffers over through
   flags: the producer fills a block, then publishes it with `atomic write release`;
   the consumer waits with `atomic read acquire`, and then sees the whole block. The
   file's `requires atomic_default_mem_order(acq_rel)` makes the plain `atomic read`
   and `atomic write` of the acknowledgement acquire and release too (OpenMP 5.0).
   A counter of handoffs is bumped with `atomic update seq_cst`, and the blocks'
   running total is kept with `atomic capture acq_rel`. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#pragma omp requires atomic_default_mem_order(acq_rel)

#define BLOCK 4096
#define ROUNDS 40

typedef struct {
    double data[2][BLOCK];      /* double buffering: round r uses data[r % 2] */
    int ready;                  /* the last round the producer published */
    int taken;                  /* the last round the consumer finished */
} Channel;

static double expected_sum(int round)
{
    double s = 0.0;
    for (int i = 0; i < BLOCK; i++)
        s += (double)((i * 7 + round * 13) % 101) * 0.5;
    return s;
}

int main(void)
{
    static Channel ch;
    static double sums[ROUNDS];
    long handoffs = 0;
    double running = 0.0, last_seen = 0.0;
    ch.ready = -1;
    ch.taken = -1;
#pragma omp parallel num_threads(2) shared(ch, sums, handoffs, running, last_seen)
    {
        int me = omp_get_thread_num();
        if (me == 0) {                                   /* producer */
            for (int r = 0; r < ROUNDS; r++) {
                int taken;
                do {                                      /* the buffer r uses was read */
#pragma omp atomic read
                    taken = ch.taken;
                } while (taken < r - 2);
                double *block = ch.data[r % 2];
                for (int i = 0; i < BLOCK; i++)
                    block[i] = (double)((i * 7 + r * 13) % 101) * 0.5;
#pragma omp atomic write release
                ch.ready = r;
            }
        } else {                                         /* consumer */
            for (int r = 0; r < ROUNDS; r++) {
                int ready;
                do {
#pragma omp atomic read acquire
                    ready = ch.ready;
                } while (ready < r);
                double s = 0.0;
                const double *block = ch.data[r % 2];
                for (int i = 0; i < BLOCK; i++)
                    s += block[i];
                sums[r] = s;
                double before;
#pragma omp atomic capture acq_rel
                { before = running; running += s; }
                last_seen = before + s;
#pragma omp atomic update seq_cst
                handoffs++;
#pragma omp atomic write
                ch.taken = r;
            }
        }
    }
    int bad = 0;
    for (int r = 0; r < ROUNDS; r++)
        bad += sums[r] != expected_sum(r);
    printf("handoffs %ld, rounds with a torn block %d\n", handoffs, bad);
    printf("running total %.1f (last seen %.1f)\n", running, last_seen);
    for (int r = 0; r < ROUNDS; r += 13)
        printf("round %2d sum %.1f\n", r, sums[r]);
    return bad != 0;
}
