/* A blocked wavefront (a Gauss-Seidel sweep / sequence-alignment table) with one task per
 * block: block (i, j) needs the blocks above and to the left (depend(in) on both, inout on
 * its own), so blocks on one anti-diagonal run concurrently. The table must equal the
 * sequential sweep exactly. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define NB 8        /* blocks per side */
#define BS 16       /* cells per block side */
#define N (NB * BS)

static int score[N + 1][N + 1];
static int reference[N + 1][N + 1];
static char block_token[NB][NB];   /* what the dependences name: one byte per block */
static char outside;               /* the edge blocks' missing neighbours: never written */

static int match(int i, int j)
{
    return ((i * 31 + j * 17) % 7 == 0) ? 3 : -1;
}

static int max3(int a, int b, int c)
{
    int m = a > b ? a : b;
    return m > c ? m : c;
}

static void sweep_block(int (*t)[N + 1], int bi, int bj)
{
    for (int i = bi * BS + 1; i <= (bi + 1) * BS; i++)
        for (int j = bj * BS + 1; j <= (bj + 1) * BS; j++)
            t[i][j] = max3(t[i - 1][j - 1] + match(i, j), t[i - 1][j] - 2, t[i][j - 1] - 2);
}

static void init(int (*t)[N + 1])
{
    for (int k = 0; k <= N; k++)
        t[k][0] = t[0][k] = -2 * k;
}

int main(void)
{
    init(reference);
    for (int bi = 0; bi < NB; bi++)
        for (int bj = 0; bj < NB; bj++)
            sweep_block(reference, bi, bj);

    init(score);
#pragma omp parallel
#pragma omp single
    for (int bi = 0; bi < NB; bi++)
        for (int bj = 0; bj < NB; bj++) {
            char *up = bi > 0 ? &block_token[bi - 1][bj] : &outside;
            char *left = bj > 0 ? &block_token[bi][bj - 1] : &outside;
#pragma omp task depend(in: up[0], left[0]) depend(inout: block_token[bi][bj]) firstprivate(bi, bj)
            sweep_block(score, bi, bj);
        }

    int same = 1;
    long checksum = 0;
    for (int i = 0; i <= N; i++)
        for (int j = 0; j <= N; j++) {
            same = same && score[i][j] == reference[i][j];
            checksum += score[i][j] * (long)((i + j) % 5);
        }
    printf("wavefront equals the sequential sweep: %d\n", same);
    printf("corner %d, checksum %ld\n", score[N][N], checksum);
    return 0;
}
