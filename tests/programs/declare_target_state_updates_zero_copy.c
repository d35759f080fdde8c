/* A simulation keeps its state in declare target globals: kernels advance it, the host
 * reads it with `target update from` to report, and changes a parameter with `target
 * update to`. Run with the CPU device in zero-copy mode: declare target globals still
 * have storage of their own there, and the native launch path skipped their updates.
 */
// env: OMP2GPU_CPU_UNIFIED=1
#include <stdio.h>

#define CELLS 32

#pragma omp declare target
double density[CELLS];
double decay = 0.5;
int steps_done = 0;
#pragma omp end declare target

int main(void)
{
    int step, i;

#pragma omp target teams distribute parallel for
    for (i = 0; i < CELLS; i++)
        density[i] = (double)(i % 8);

    for (step = 0; step < 6; step++) {
#pragma omp target teams distribute parallel for
        for (i = 0; i < CELLS; i++)
            density[i] = density[i] * decay + 1.0;
#pragma omp target
        steps_done++;

        if (step % 2 == 1) {
            double total = 0.0;
#pragma omp target update from(density, steps_done)
            for (i = 0; i < CELLS; i++)
                total += density[i];
            printf("step %d (%d done): total %.6f first %.6f last %.6f\n", step, steps_done, total,
                   density[0], density[CELLS - 1]);
            decay = decay * 0.5 + 0.1 * step;
#pragma omp target update to(decay)
        }
    }
#pragma omp target update from(decay)
    printf("decay %.4f\n", decay);
    return 0;
}
