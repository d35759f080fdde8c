/* Where deferred target regions must be finished: the end of a taskgroup, a
 * barrier, the end of the parallel region and a dependent host task. Several
 * threads each launch nowait regions on their own block of an array mapped by
 * `target enter data`; a taskgroup's end, then the team's barrier, then the
 * end of the region are where the host may read what the regions wrote; `target
 * exit data` after them copies everything back and frees it. */
#include <stdio.h>
#include <omp.h>

#define BLOCKS 8
#define BLOCK 1000

static long data[BLOCKS * BLOCK];
static long totals[BLOCKS];

int main(void)
{
    int i;
    for (i = 0; i < BLOCKS * BLOCK; i++)
        data[i] = i % 7;

    #pragma omp target enter data map(to: data[0:BLOCKS * BLOCK])

    #pragma omp parallel num_threads(4)
    {
        int round, b;
        for (round = 0; round < 3; round++) {
            #pragma omp taskgroup
            {
                #pragma omp for schedule(static) nowait
                for (b = 0; b < BLOCKS; b++) {
                    long *block = data + b * BLOCK;
                    #pragma omp target teams distribute parallel for nowait \
                        map(tofrom: block[0:BLOCK]) depend(inout: block[0])
                    for (i = 0; i < BLOCK; i++)
                        block[i] = block[i] * 2 + 1;
                    #pragma omp target update from(block[0:BLOCK]) nowait depend(inout: block[0])
                    #pragma omp task depend(in: block[0]) firstprivate(b, block)
                    {
                        long s = 0;
                        int k;
                        for (k = 0; k < BLOCK; k++)
                            s += block[k] % 1000003;
                        totals[b] = s;
                    }
                }
            }
            #pragma omp barrier
            #pragma omp single
            {
                long all = 0;
                for (b = 0; b < BLOCKS; b++)
                    all += totals[b];
                printf("round %d: %ld\n", round, all);
            }
        }
    }

    #pragma omp target exit data map(from: data[0:BLOCKS * BLOCK])
    {
        long s = 0;
        for (i = 0; i < BLOCKS * BLOCK; i++)
            s += data[i] % 1000003;
        printf("final: %ld\n", s);
    }
    return 0;
}
