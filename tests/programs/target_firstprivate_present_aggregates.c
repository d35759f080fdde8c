/* A time-step loop whose fields stay on the device (target data), with its stencil
 * weights and run parameters retuned on the host each step and handed to the kernels
 * as firstprivate: a 9-point weight array (72 bytes) and a parameter struct (88 bytes),
 * both too large to travel by value, and both also mapped by the enclosing target data
 * (an earlier version of the code copied them with the fields). Each kernel must see the
 * host's current values (firstprivate takes the original variable's), never the stale
 * device copy, and its changes to its private copies stay private. */
#include <stdio.h>
#include <string.h>

#define NX 48
#define NY 32
#define STEPS 6

typedef struct {
    double dt, diffusivity, source[4];
    int source_x[2], source_y[2];
    int steps_done;
    char name[20];
} RunParams;

static void retune(double weights[9], RunParams *run, int step)
{
    int k;
    for (k = 0; k < 9; k++)
        weights[k] = (k == 4 ? -4.0 : (k % 2 ? 1.0 : 0.0)) * (1.0 + 0.125 * step);
    run->dt = 0.05 / (1 + step);
    run->diffusivity = 0.5 + 0.25 * (step % 3);
    run->source[step % 4] += 1.0;
    run->steps_done = step;
    snprintf(run->name, sizeof run->name, "step-%d", step);
}

int main(void)
{
    static double u[NY][NX], next[NY][NX];
    double weights[9] = {0};
    RunParams run;
    double checksum[STEPS];
    int used_step[STEPS];
    int step, i, j;

    memset(&run, 0, sizeof run);
    run.source_x[0] = 10; run.source_y[0] = 8;
    run.source_x[1] = 30; run.source_y[1] = 20;
    for (j = 0; j < NY; j++)
        for (i = 0; i < NX; i++)
            u[j][i] = (double)((i * 7 + j * 3) % 11) / 11.0;

    #pragma omp target data map(tofrom: u) map(alloc: next) map(to: weights, run)
    {
        for (step = 0; step < STEPS; step++) {
            double sum = 0.0;
            int seen = -1;
            retune(weights, &run, step);          /* host only: the device copies are stale */

            #pragma omp target teams distribute parallel for collapse(2) firstprivate(weights, run)
            for (j = 1; j < NY - 1; j++)
                for (i = 1; i < NX - 1; i++) {
                    double lap = 0.0;
                    int a, b;
                    for (b = -1; b <= 1; b++)
                        for (a = -1; a <= 1; a++)
                            lap += weights[(b + 1) * 3 + (a + 1)] * u[j + b][i + a];
                    next[j][i] = u[j][i] + run.dt * run.diffusivity * lap;
                    if ((i == run.source_x[0] && j == run.source_y[0]) ||
                        (i == run.source_x[1] && j == run.source_y[1]))
                        next[j][i] += run.dt * (run.source[0] + run.source[1] + run.source[2] + run.source[3]);
                }

            #pragma omp target teams distribute parallel for collapse(2) reduction(+: sum)
            for (j = 1; j < NY - 1; j++)
                for (i = 1; i < NX - 1; i++) {
                    u[j][i] = next[j][i];
                    sum += u[j][i];
                }

            /* a region that writes its private copies: the host's are unchanged after it */
            #pragma omp target firstprivate(run, weights) map(from: seen)
            {
                run.steps_done = -100;
                weights[4] = 1e9;
                seen = run.name[5] == '0' + step ? step : -1;
            }
            checksum[step] = sum;
            used_step[step] = seen;
        }
    }

    for (step = 0; step < STEPS; step++)
        printf("step %d: sum %.10f, the region saw step %d\n", step, checksum[step], used_step[step]);
    printf("host run: steps_done %d, name %s, weights[4] %.3f\n", run.steps_done, run.name, weights[4]);
    printf("u[8][10] %.10f u[20][30] %.10f\n", u[8][10], u[20][30]);
    return 0;
}
