/* linear(x: step) on every loop form a target region may hold: each logical iteration k
 * starts from the original plus k times the step, whichever thread or team runs it, and
 * the original ends as the sequentially last iteration left it. A pointer steps in
 * elements; linear of the loop's own variable only copies its final value out. Several
 * sweeps (a time-step loop) reuse the regions, so each launch must start afresh. */
#include <stdio.h>
#include <stdlib.h>

struct fields {
    int n;
    long *offsets;      /* target parallel for */
    int *ids;           /* target parallel for simd */
    int *grid;          /* target teams distribute parallel for */
    int *grid_simd;     /* target teams distribute parallel for simd */
    int *dist;          /* target teams distribute simd */
    int *lanes;         /* target simd */
    int *cells;         /* through a pointer */
};

static long checksum(const int *a, int n)
{
    long sum = 0;
    for (int i = 0; i < n; i++)
        sum = (sum * 31 + a[i]) % 1000003;
    return sum;
}

int main(void)
{
    int size = 2500, steps = 3;
    struct fields f = { size, malloc(size * sizeof(long)), malloc(size * sizeof(int)), malloc(size * sizeof(int)),
                        malloc(size * sizeof(int)), malloc(size * sizeof(int)), malloc(size * sizeof(int)),
                        calloc(2 * size + 2, sizeof(int)) };
    long *offsets = f.offsets;
    int *ids = f.ids, *grid = f.grid, *grid_simd = f.grid_simd, *dist = f.dist, *lanes = f.lanes;
    int *cells = f.cells;
    int wrong = 0;
    int n = 0;
    for (int step = 0; step < steps; step++) {
        n = 1000 + 700 * step;       /* a growing mesh: each launch sees another trip count */
        long offset = 100 * step;
        int id = step, g = -step, gs = 5, d = 1, lane = 0, i = 0, j = -1, last = -1;
        int *cursor = cells;
#pragma omp target data map(tofrom: offsets[0:n], ids[0:n], grid[0:n], grid_simd[0:n], dist[0:n], lanes[0:n], cells[0:2*n+2])
        {
#pragma omp target parallel for linear(offset: 2)
            for (int k = 0; k < n; ++k) {
                offset += 2;
                offsets[k] = offset;
            }
#pragma omp target parallel for simd linear(id: 3)
            for (int k = 0; k < n; ++k) {
                ids[k] = id;
                id += 3;
            }
#pragma omp target teams distribute parallel for num_teams(8) thread_limit(64)
            for (int k = 0; k < n; ++k) {
                grid[k] = 2 * (k + g);
            }
            /* linear of the loop's own variable only, as a distribute allows */
#pragma omp target teams distribute parallel for simd linear(j: 2) num_teams(4)
            for (j = 0; j < n; j += 2) {
                grid_simd[j] = gs + 7 * (j / 2);
                grid_simd[j + 1 < n ? j + 1 : j] = gs + 7 * (j / 2);
            }
            gs = j;
#pragma omp target teams distribute simd num_teams(5) linear(j)
            for (j = 0; j < n; ++j)
                dist[j] = d + 4 * j;
            d = j;
#pragma omp target simd linear(lane: 2)
            for (int k = 0; k < n; ++k) {
                lanes[k] = lane;
                lane += 2;
            }
#pragma omp target parallel for linear(cursor: 2)
            for (int k = 0; k < n; ++k) {
                cursor[0] += k;
                cursor[1] = k;
                cursor += 2;
            }
#pragma omp target parallel for simd linear(i) lastprivate(last)
            for (i = 0; i < n; ++i)
                last = i;
        }
        for (int k = 0; k < n; k++)
            wrong += offsets[k] != 100 * step + 2 * (k + 1) || ids[k] != step + 3 * k
                     || grid[k] != 2 * (k - step) || dist[k] != 1 + 4 * k || lanes[k] != 2 * k
                     || grid_simd[k] != 5 + 7 * (k / 2);
        printf("step %d: offset %ld id %d g %d gs %d d %d lane %d i %d last %d\n", step, offset, id, g,
               gs, d, lane, i, last);
    }
    long offsets_sum = 0;
    for (int k = 0; k < n; k++)
        offsets_sum = (offsets_sum * 7 + offsets[k]) % 1000003;
    printf("offsets %ld ids %ld grid %ld grid_simd %ld dist %ld lanes %ld cells %ld wrong %d\n", offsets_sum,
           checksum(ids, n), checksum(grid, n), checksum(grid_simd, n), checksum(dist, n), checksum(lanes, n),
           checksum(cells, 2 * n + 2), wrong);
    free(f.offsets); free(f.ids); free(f.grid); free(f.grid_simd); free(f.dist); free(f.lanes); free(f.cells);
    return 0;
}
