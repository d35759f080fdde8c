/* Offloaded kernels ordered by OpenMP 5.0 dependences, as an asynchronous solver
 * queues its device work: per time step, tiles of a field are advanced by target
 * tasks (nowait), each tile's kernel depending on its new values (out) and on its own
 * and its neighbours' previous values (in; gcc 12 fails on iterator(...) here, so the
 * iterator form is tested in tests/codegen/test_task_depend.py);
 * per-tile norms are accumulated into a shared residual bin by kernels that name it
 * with mutexinoutset, one at a time in any order; a depend object carries the
 * dependence of the host-side logging task on the residual. The tiles are a structure
 * of arrays mapped once by target data. */
#include <stdio.h>
#include <omp.h>

#define TILES 6
#define WIDTH 64
#define STEPS 4

struct field {
    long value[TILES][WIDTH];
    long next[TILES][WIDTH];
};

static struct field f;
static long residual[2];
static long history[STEPS];

int main(void)
{
    for (int t = 0; t < TILES; t++)
        for (int i = 0; i < WIDTH; i++)
            f.value[t][i] = (t * WIDTH + i) % 17;
    omp_depend_t logged;
#pragma omp depobj(logged) depend(in: residual)
#pragma omp target data map(tofrom: f, residual)
#pragma omp parallel num_threads(2)
#pragma omp single
    for (int step = 0; step < STEPS; step++) {
#pragma omp target map(tofrom: residual) depend(out: residual) nowait
        residual[0] = residual[1] = 0;
        for (int t = 0; t < TILES; t++) {
            int left = t > 0 ? t - 1 : t, right = t < TILES - 1 ? t + 1 : t;
#pragma omp target teams distribute parallel for map(tofrom: f) firstprivate(t) \
        depend(in: f.value[left][0], f.value[t][0], f.value[right][0]) depend(out: f.next[t][0]) nowait
            for (int i = 0; i < WIDTH; i++) {
                long left = i > 0 ? f.value[t][i - 1] : (t > 0 ? f.value[t - 1][WIDTH - 1] : 0);
                long right = i < WIDTH - 1 ? f.value[t][i + 1] : (t < TILES - 1 ? f.value[t + 1][0] : 0);
                f.next[t][i] = (left + 2 * f.value[t][i] + right) % 1009;
            }
        }
        for (int t = 0; t < TILES; t++) {
#pragma omp target map(tofrom: f, residual) firstprivate(t) depend(in: f.next[t][0]) \
        depend(mutexinoutset: residual) nowait
            for (int i = 0; i < WIDTH; i++) {
                long d = f.next[t][i] - f.value[t][i];
                residual[0] += d < 0 ? -d : d;
                residual[1] += f.next[t][i];
            }
        }
#pragma omp taskwait
#pragma omp target teams distribute parallel for collapse(2) map(tofrom: f)
        for (int t = 0; t < TILES; t++)
            for (int i = 0; i < WIDTH; i++)
                f.value[t][i] = f.next[t][i];
#pragma omp target update from(residual) depend(depobj: logged)
#pragma omp task depend(depobj: logged) firstprivate(step)
        history[step] = residual[0] * 1000 + residual[1] % 1000;
#pragma omp taskwait
    }
#pragma omp depobj(logged) destroy
    for (int step = 0; step < STEPS; step++)
        printf("step %d: change %ld, sum mod 1000 %ld\n", step, history[step] / 1000, history[step] % 1000);
    long total = 0;
    for (int t = 0; t < TILES; t++)
        for (int i = 0; i < WIDTH; i++)
            total += f.value[t][i];
    printf("final sum %ld\n", total);
    return 0;
}
