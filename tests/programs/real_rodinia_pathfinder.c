/* Rodinia-style PathFinder: the cheapest path from the top row of a cost grid
 * to the bottom, moving down, down-left or down-right at each row (dynamic
 * programming row by row). Rows are processed in pyramids of `pyramid_height`
 * rows per target region, as the Rodinia GPU port does, with the previous and
 * next cost rows resident in a `target data` region and swapped between launches.
 *
 * Command line: [-c cols] [-r rows] [-p pyramid_height]; other words are ignored. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#define MIN(a, b) ((a) <= (b) ? (a) : (b))
#define M_SEED 9

typedef struct {
    int rows;
    int cols;
    int pyramid_height;
    int *data;          /* rows * cols costs */
    int *result;        /* the cheapest cost to reach each column of the last row */
} Grid;

static double now_ms(void)
{
    struct timeval t;
    gettimeofday(&t, NULL);
    return t.tv_sec * 1e3 + t.tv_usec * 1e-3;
}

static int init(Grid *g, int argc, char **argv)
{
    int i;
    g->cols = 1000;
    g->rows = 120;
    g->pyramid_height = 4;
    for (i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "-c"))
            g->cols = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-r"))
            g->rows = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-p"))
            g->pyramid_height = atoi(argv[++i]);
    }
    if (g->rows < 2 || g->cols < 1 || g->pyramid_height < 1) {
        fprintf(stderr, "usage: %s [-c cols] [-r rows (at least 2)] [-p pyramid_height]\n", argv[0]);
        return -1;
    }
    g->data = malloc(sizeof(int) * g->rows * g->cols);
    g->result = malloc(sizeof(int) * g->cols);
    srand(M_SEED);
    for (i = 0; i < g->rows * g->cols; i++)
        g->data[i] = rand() % 10;
    return 0;
}

/* Rows [start_row, start_row + height) on the device: src holds the costs up to
 * row start_row - 1, dst receives those up to the last row of the pyramid. A
 * scratch row per pyramid step keeps the steps apart. */
static void dynproc_pyramid(const int *wall, int *src, int *dst, int *scratch, int cols, int start_row,
                            int height)
{
    int step;
    for (step = 0; step < height; step++) {
        int row = start_row + step;
        const int *prev = step == 0 ? src : scratch + ((step - 1) % 2) * cols;
        int *next = step == height - 1 ? dst : scratch + (step % 2) * cols;
        int n;
#pragma omp target teams distribute parallel for thread_limit(256)
        for (n = 0; n < cols; n++) {
            int best = prev[n];
            if (n > 0)
                best = MIN(best, prev[n - 1]);
            if (n < cols - 1)
                best = MIN(best, prev[n + 1]);
            next[n] = wall[row * cols + n] + best;
        }
    }
}

static void run(Grid *g)
{
    int *wall = g->data;
    int cols = g->cols, rows = g->rows, total = rows * cols;
    int *buffer0 = malloc(sizeof(int) * cols), *buffer1 = malloc(sizeof(int) * cols);
    int *scratch = malloc(sizeof(int) * 2 * cols);
    int *src = buffer0, *dst = buffer1, *tmp;
    int t, n;

    memcpy(buffer0, wall, sizeof(int) * cols);     /* row 0: its own costs */
#pragma omp target data map(to: wall[0:total], buffer0[0:cols]) map(alloc: buffer1[0:cols], scratch[0:2*cols])
    {
        for (t = 1; t < rows; t += g->pyramid_height) {
            int height = MIN(g->pyramid_height, rows - t);
            dynproc_pyramid(wall, src, dst, scratch, cols, t, height);
            tmp = src;
            src = dst;
            dst = tmp;
        }
#pragma omp target update from(buffer0[0:cols], buffer1[0:cols])
    }
    for (n = 0; n < cols; n++)
        g->result[n] = src[n];
    free(buffer0);
    free(buffer1);
    free(scratch);
}

/* The reference: the whole cost table row by row on the host (kept, so that the
 * cheapest path can be walked back from the bottom). */
static int *dynproc_host(const Grid *g)
{
    int *table = malloc(sizeof(int) * g->rows * g->cols);
    int r, n;
    memcpy(table, g->data, sizeof(int) * g->cols);
    for (r = 1; r < g->rows; r++)
        for (n = 0; n < g->cols; n++) {
            const int *prev = table + (r - 1) * g->cols;
            int best = prev[n];
            if (n > 0)
                best = MIN(best, prev[n - 1]);
            if (n < g->cols - 1)
                best = MIN(best, prev[n + 1]);
            table[r * g->cols + n] = g->data[r * g->cols + n] + best;
        }
    return table;
}

/* Walk the cheapest path up from (last row, column) and check that its cells'
 * costs add up to the table's total; the columns of its first rows go to `path`. */
static int walk_back(const Grid *g, const int *table, int column, int *path, int path_len)
{
    int r = g->rows - 1, n = column, cost = 0;
    for (; r >= 0; r--) {
        cost += g->data[r * g->cols + n];
        if (r < path_len)
            path[r] = n;
        if (r > 0) {
            const int *prev = table + (r - 1) * g->cols;
            int next = n;
            if (n > 0 && prev[n - 1] < prev[next])
                next = n - 1;
            if (n < g->cols - 1 && prev[n + 1] < prev[next])
                next = n + 1;
            n = next;
        }
    }
    return cost;
}

int main(int argc, char **argv)
{
    Grid g;
    double t0, t1;
    int n, best = INT_MAX, best_col = -1;
    long long sum = 0;

    if (init(&g, argc, argv) != 0)
        return 1;
    printf("pathfinder: %d rows x %d columns, pyramid height %d\n", g.rows, g.cols, g.pyramid_height);
    t0 = now_ms();
    run(&g);
    t1 = now_ms();

    for (n = 0; n < g.cols; n++) {
        sum += g.result[n];
        if (g.result[n] < best) {
            best = g.result[n];
            best_col = n;
        }
    }
    printf("cheapest path: cost %d ending in column %d\n", best, best_col);
    printf("sum of the last row: %lld\n", sum);
    printf("result[0..7]:");
    for (n = 0; n < 8 && n < g.cols; n++)
        printf(" %d", g.result[n]);
    printf("\n");
    printf("result[last 8]:");
    for (n = g.cols > 8 ? g.cols - 8 : 0; n < g.cols; n++)
        printf(" %d", g.result[n]);
    printf("\n");
    printf("timing: %.3f ms\n", t1 - t0);
    {
        int *table = dynproc_host(&g), path[6], differences = 0;
        const int *last = table + (g.rows - 1) * g.cols;
        int path_cost;
        for (n = 0; n < g.cols; n++)
            differences += last[n] != g.result[n];
        path_cost = walk_back(&g, table, best_col, path, 6);
        printf("host table: %d columns differ; the path's cells add up to %d\n", differences, path_cost);
        printf("path starts in columns");
        for (n = 0; n < 6 && n < g.rows; n++)
            printf(" %d", path[n]);
        printf("\n");
        free(table);
    }
    free(g.data);
    free(g.result);
    return 0;
}
