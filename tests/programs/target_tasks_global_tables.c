/* Explicit tasks inside a `target` region with no parallel region around them: a
 * blocked wavefront over a file-scope table, one task per block with depend clauses,
 * then a histogram kept in a static array of a function. Variables with static
 * storage are shared by the tasks (OpenMP 4.5 2.15.1.1), on the device as on the
 * host: their writes must reach the table the host reads back. Automatic variables of
 * the target region that no clause names are firstprivate in a task, so a task's
 * write to one is its own. */
#include <stdio.h>

#define NB 4
#define BS 8
#define N (NB * BS)

static int table[N + 1][N + 1];
static int expected[N + 1][N + 1];
static char block_done[NB][NB];
int histogram_total;

static int gain(int i, int j)
{
    return (i * 7 + j * 3) % 5 == 0 ? 2 : -1;
}

static void fill_block(int (*t)[N + 1], int bi, int bj)
{
    for (int i = bi * BS + 1; i <= (bi + 1) * BS; i++)
        for (int j = bj * BS + 1; j <= (bj + 1) * BS; j++) {
            int diagonal = t[i - 1][j - 1] + gain(i, j);
            int up = t[i - 1][j] - 1, left = t[i][j - 1] - 1;
            int best = diagonal > up ? diagonal : up;
            t[i][j] = best > left ? best : left;
        }
}

static void edges(int (*t)[N + 1])
{
    for (int k = 0; k <= N; k++)
        t[k][0] = t[0][k] = -k;
}

static int bucket_counts(int value, int reset)
{
    static int counts[4];
    if (reset)
        for (int b = 0; b < 4; b++)
            counts[b] = 0;
    else
        counts[(value % 4 + 4) % 4]++;
    return counts[0] * 1000 + counts[1] * 100 + counts[2] * 10 + counts[3];
}

int main(void)
{
    edges(expected);
    for (int bi = 0; bi < NB; bi++)
        for (int bj = 0; bj < NB; bj++)
            fill_block(expected, bi, bj);
    edges(table);

    int steps = 0;
    int corner = -1;
#pragma omp target map(tofrom: table, block_done, steps, corner)
    {
        for (int bi = 0; bi < NB; bi++)
            for (int bj = 0; bj < NB; bj++) {
#pragma omp task depend(inout: block_done[bi][bj]) firstprivate(bi, bj)
                {
                    fill_block(table, bi, bj);
                    block_done[bi][bj] = 1;
                    steps++;            /* firstprivate in the task: the region's is unchanged */
                }
            }
#pragma omp taskwait
        corner = table[N][N];
    }

    int same = 1;
    long checksum = 0;
    for (int i = 0; i <= N; i++)
        for (int j = 0; j <= N; j++) {
            same = same && table[i][j] == expected[i][j];
            checksum += table[i][j] * (long)((i + 2 * j) % 7);
        }
    int blocks = 0;
    for (int bi = 0; bi < NB; bi++)
        for (int bj = 0; bj < NB; bj++)
            blocks += block_done[bi][bj];
    printf("table equals the sequential sweep: %d\n", same);
    printf("corner %d (device %d), checksum %ld, blocks done %d, steps %d\n",
           table[N][N], corner, checksum, blocks, steps);

    int summary = 0;
    histogram_total = 0;
#pragma omp target map(tofrom: summary, histogram_total) map(to: table)
    {
        bucket_counts(0, 1);
        for (int i = 1; i <= N; i += 3) {
#pragma omp task
            {
                bucket_counts(table[i][N - i + 1], 0);
                histogram_total += 1;
            }
        }
#pragma omp taskwait
        summary = bucket_counts(0, 0) - 0;
    }
    printf("histogram %d, total %d\n", summary, histogram_total);
    return 0;
}
