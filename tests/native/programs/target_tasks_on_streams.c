/* Target tasks whose kernels go on the GPU's streams (docs/async.md), in the shapes the
 * runtime handles differently, each followed by a mark on stderr (`mark: NAME`) so that a
 * test can see where the host went on and waited relative to the kernels
 * (tests/native/test_target_tasks.py reads the marks beside the fake driver's log, and
 * beside OMP2GPU_OFFLOAD_LOG's streams on a GPU):
 *   1. four independent `target nowait` regions in sequential code (they run ahead),
 *      then a taskwait;
 *   2. the same ended by a taskgroup, an orphaned barrier, a taskloop (its bodies launch)
 *      and the end of orphaned sections;
 *   3. a chain ordered by `depend` in sequential code;
 *   4. in a parallel region's single: four independent regions and a `depend` chain,
 *      completed by the poller, then a taskwait;
 *   5. a region whose data is not mapped yet (it maps, copies and frees: waited for);
 *   6. a last region that nothing waits for but the end of the program (its data stay
 *      mapped: nothing frees them under the kernel).
 * stdout has the results, which gcc's binary prints too. */
#include <stdio.h>
#include <omp.h>

#define N 4096
#define FIELDS 4

static double field[FIELDS][N], chain[N], fresh[N], last[N];

static void mark(const char *name) { fprintf(stderr, "mark: %s\n", name); }

static void smooth_field(int f, double scale)
{
    double *x = field[f];
#pragma omp target teams distribute parallel for nowait
    for (int i = 0; i < N; i++)
        x[i] = x[i] * scale + f;
}

static void smooth_fields(double scale)
{
    for (int f = 0; f < FIELDS; f++) smooth_field(f, scale);
}

static double checksum(const double *x)
{
    double sum = 0;
    for (int i = 0; i < N; i++) sum += x[i] * (1 + i % 7);
    return sum;
}

int main(void)
{
    for (int f = 0; f < FIELDS; f++)
        for (int i = 0; i < N; i++) field[f][i] = (i % 13) * 0.5 + f;
    for (int i = 0; i < N; i++) chain[i] = i % 5, fresh[i] = i % 3, last[i] = 1;

#pragma omp target data map(tofrom: field, chain, last)
    {
        smooth_fields(2.0);
        mark("launched");
#pragma omp taskwait
        mark("taskwait");

#pragma omp taskgroup
        smooth_fields(0.5);
        mark("taskgroup");

        smooth_fields(1.5);
#pragma omp barrier
        mark("barrier");

#pragma omp taskloop num_tasks(FIELDS)
        for (int f = 0; f < FIELDS; f++) smooth_field(f, 1.1);
        mark("taskloop");

#pragma omp sections
        {
#pragma omp section
            smooth_field(0, 0.9);
#pragma omp section
            smooth_field(1, 0.9);
#pragma omp section
            smooth_field(2, 0.9);
#pragma omp section
            smooth_field(3, 0.9);
        }
        mark("sections");

        double *c = chain;
#pragma omp target teams distribute parallel for nowait depend(out: chain)
        for (int i = 0; i < N; i++) c[i] = c[i] + 1;
#pragma omp target teams distribute parallel for nowait depend(inout: chain)
        for (int i = 0; i < N; i++) c[i] = c[i] * 3;
#pragma omp target teams distribute parallel for nowait depend(in: chain)
        for (int i = 0; i < N; i++) c[i] = c[i] - 2;
#pragma omp taskwait
        mark("chain");

#pragma omp parallel num_threads(2)
#pragma omp single
        {
            smooth_fields(1.25);
#pragma omp target teams distribute parallel for nowait depend(out: chain)
            for (int i = 0; i < N; i++) c[i] = c[i] + 4;
#pragma omp target teams distribute parallel for nowait depend(inout: chain)
            for (int i = 0; i < N; i++) c[i] = c[i] * 0.5;
#pragma omp taskwait
            mark("parallel");
        }

        double *y = fresh;
#pragma omp target teams distribute parallel for nowait map(tofrom: y[0:N])
        for (int i = 0; i < N; i++) y[i] = 2 * y[i] + 1;
#pragma omp taskwait
        mark("fresh");

        double *z = last;
#pragma omp target teams distribute parallel for nowait
        for (int i = 0; i < N; i++) z[i] = z[i] + i;
#pragma omp taskwait
    }
    for (int f = 0; f < FIELDS; f++) printf("field %d: %.3f\n", f, checksum(field[f]));
    printf("chain: %.3f\nfresh: %.3f\nlast: %.3f\n", checksum(chain), checksum(fresh), checksum(last));

#pragma omp target enter data map(to: last)
    double *z = last;
#pragma omp target teams distribute parallel for nowait
    for (int i = 0; i < N; i++) z[i] = z[i] * 2;
    mark("end of main");
    return 0;
}
