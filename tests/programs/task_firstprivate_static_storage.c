/* firstprivate of a file-scope or static variable on a task or taskloop: each task
 * gets its own copy, taken when the task is created (OpenMP 4.5 2.15.3.4), however the
 * variable changes afterwards, and its writes to the copy never reach the variable.
 * A producer snapshots a global setting for each batch of work. A target task's
 * unmapped file-scope scalars (the pointer of a mapped section too) are its
 * firstprivate copies in the same way. */
#include <stdio.h>

#define BATCHES 6
#define ITEMS 8

static int level;                   /* the current setting */
double scale = 1.0;
static long results[BATCHES];
static long items[BATCHES][ITEMS];
static long *cursor;                /* the batch the device works on */

int main(void)
{
#pragma omp parallel
#pragma omp single
    {
        for (int b = 0; b < BATCHES; b++) {
            level = 10 * (b + 1);
            scale = 0.5 * (b + 1);
#pragma omp task firstprivate(level, scale)
            {
                long sum = 0;
                for (int i = 0; i < ITEMS; i++) {
                    sum += level + (long)(scale * i);
                    level++;                  /* the task's copy */
                }
                results[b] = sum;
            }
            level = -1;                       /* the tasks must not see these */
            scale = -100.0;
        }
#pragma omp taskwait

        static int offset = 3;
        for (int b = 0; b < BATCHES; b++) {
#pragma omp taskloop firstprivate(offset) grainsize(1)
            for (int i = 0; i < ITEMS; i++) {
                items[b][i] = offset + b * i;
                offset += 100;                /* the copy of this task (one iteration) */
            }
            offset = 3 + b + 1;
        }
    }

    cursor = items[BATCHES - 1];
#pragma omp target map(tofrom: cursor[0:ITEMS]) nowait
    for (int i = 0; i < ITEMS; i++)
        cursor[i] += level;
#pragma omp taskwait

    long total = 0;
    for (int b = 0; b < BATCHES; b++) {
        printf("batch %d: %ld\n", b, results[b]);
        total += results[b];
    }
    long first_items = 0;
    for (int b = 0; b < BATCHES; b++)
        first_items += items[b][0] + items[b][ITEMS - 1] % 100;
    printf("total %ld, level %d, scale %.1f, offset items %ld\n", total, level, scale, first_items);
    return 0;
}
