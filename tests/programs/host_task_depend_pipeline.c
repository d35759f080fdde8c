/* A three-stage pipeline over a stream of blocks with task dependences, the way a
 * dataflow code is written: stage s of block k depends on stage s-1 of the same block
 * (inout on the block) and on stage s of block k-1 (inout on the stage's state), so the
 * stages of different blocks run concurrently while each stage sees the blocks in order.
 * Readers with depend(in) run concurrently and must all finish before a writer with
 * depend(out) starts. */
#include <stdio.h>
#include <string.h>
#include <omp.h>

#define BLOCKS 24
#define WIDTH 64

struct block {
    double data[WIDTH];
    char trail[8];      /* the stages that touched it, in order */
    int stages;
};

struct stage_state {
    int seen[BLOCKS];   /* blocks in the order the stage saw them */
    int count;
    double carry;       /* a value carried from block to block */
};

static struct block blocks[BLOCKS];
static struct stage_state stage[3];

static void run_stage(int s, int k)
{
    struct block *b = &blocks[k];
    struct stage_state *st = &stage[s];
    for (int i = 0; i < WIDTH; i++)
        b->data[i] = b->data[i] * (s + 1) + st->carry * 1e-3;
    st->carry = b->data[WIDTH - 1];
    st->seen[st->count++] = k;
    b->trail[b->stages++] = (char)('A' + s);
}

int main(void)
{
    for (int k = 0; k < BLOCKS; k++)
        for (int i = 0; i < WIDTH; i++)
            blocks[k].data[i] = k + i * 0.01;

#pragma omp parallel
#pragma omp single
    {
        for (int k = 0; k < BLOCKS; k++) {
#pragma omp task depend(inout: blocks[k], stage[0]) firstprivate(k)
            run_stage(0, k);
#pragma omp task depend(inout: blocks[k], stage[1]) firstprivate(k)
            run_stage(1, k);
#pragma omp task depend(inout: blocks[k], stage[2]) firstprivate(k)
            run_stage(2, k);
        }
    }

    int in_order = 1, trails = 1;
    for (int s = 0; s < 3; s++)
        for (int k = 0; k < BLOCKS; k++)
            in_order = in_order && stage[s].count == BLOCKS && stage[s].seen[k] == k;
    for (int k = 0; k < BLOCKS; k++)
        trails = trails && strcmp(blocks[k].trail, "ABC") == 0;
    printf("each stage saw the blocks in order: %d, each block went A, B, C: %d\n", in_order, trails);
    printf("carries %.6f %.6f %.6f\n", stage[0].carry, stage[1].carry, stage[2].carry);

    /* readers and a writer: many depend(in) tasks, then depend(out), then readers again */
    int value = 1, saw_old = 0, saw_new = 0;
#pragma omp parallel
#pragma omp single
    {
        for (int r = 0; r < 8; r++) {
#pragma omp task depend(in: value) shared(value, saw_old)
            {
                if (value == 1) {
#pragma omp atomic
                    saw_old++;
                }
            }
        }
#pragma omp task depend(out: value) shared(value)
        value = 2;
        for (int r = 0; r < 8; r++) {
#pragma omp task depend(in: value) shared(value, saw_new)
            {
                if (value == 2) {
#pragma omp atomic
                    saw_new++;
                }
            }
        }
    }
    printf("readers before the writer saw the old value: %d/8, after it the new: %d/8\n", saw_old, saw_new);
    return 0;
}
