/* OpenMP 5.1 dependences gcc 12 does not compile (so the expected output is the file
 * beside this one, which a correct implementation prints whatever the thread count,
 * and not gcc's): depend(inoutset) -- the rows of a grid filled by tasks of one set,
 * which may run together, after the grid's reset (out) and before its reader (in) --;
 * depend(inout: omp_all_memory), a task ordered after every earlier sibling and before
 * every later one; taskwait nowait with depend, a dependence node with nothing to do;
 * and a gather task over iterator(...)-generated dependences on each part. */
#include <stdio.h>
#include <omp.h>

#define ROWS 8
#define COLS 32
#define PARTS 10
#define STEPS 3

struct grid {
    long cell[ROWS][COLS];
};

static struct grid grid;
static long parts[PARTS];

int main(void)
{
    long x = 0, y = 0, z = 0, gathered = 0, row_sums = 0, handoff = 0, seen = 0;
    for (int step = 0; step < STEPS; step++) {
#pragma omp parallel
#pragma omp single
        {
#pragma omp task depend(out: grid)
            for (int r = 0; r < ROWS; r++)
                for (int c = 0; c < COLS; c++)
                    grid.cell[r][c] = -1;
            for (int r = 0; r < ROWS; r++) {
#pragma omp task depend(inoutset: grid) firstprivate(r, step)
                for (int c = 0; c < COLS; c++)
                    grid.cell[r][c] = r * COLS + c + step;
            }
#pragma omp task depend(in: grid) shared(row_sums)
            {
                row_sums = 0;
                for (int r = 0; r < ROWS; r++)
                    for (int c = 0; c < COLS; c++)
                        row_sums += grid.cell[r][c];
            }

#pragma omp task depend(out: x) shared(x)
            x = 10 + step;
#pragma omp task depend(out: y) shared(y)
            y = 20 + step;
#pragma omp task depend(inout: omp_all_memory) shared(x, y, z)
            z = x * y;
#pragma omp task depend(inout: x) shared(x, z)
            x = z + 1;

            for (int k = 0; k < PARTS; k++) {
#pragma omp task depend(out: parts[k]) firstprivate(k, step)
                parts[k] = (long)k * k + step;
            }
#pragma omp task depend(iterator(k = 0:PARTS), in: parts[k]) shared(gathered)
            {
                gathered = 0;
                for (int k = 0; k < PARTS; k++)
                    gathered += parts[k];
            }

#pragma omp task depend(out: handoff) shared(handoff)
            handoff = 100 + step;
#pragma omp taskwait nowait depend(inout: handoff)
#pragma omp task depend(in: handoff) shared(handoff, seen)
            seen = handoff;
        }
        printf("step %d: grid %ld, x %ld y %ld z %ld, gathered %ld, handoff seen %ld\n", step, row_sums, x, y,
               z, gathered, seen);
    }
    return 0;
}
