/* Target tasks in a time-step loop, as a stencil code overlaps its phases:
 * per step a chain of `target ... nowait depend(...)` regions (copy -> smooth ->
 * scale), an independent nowait region beside the chain, a host task that
 * depends on the chain's last region (reads the device result brought back by
 * `target update from ... nowait depend`), and a taskwait closing the step.
 * Every dependence must hold whether the regions run synchronously or overlap
 * on the device. */
#include <stdio.h>

#define N 4096
#define STEPS 6

static double u[N], v[N], w[N], side[N];
static double checksums[STEPS];

int main(void)
{
    int i, step;
    for (i = 0; i < N; i++) {
        u[i] = (double)(i % 17) * 0.25;
        v[i] = 0.0;
        w[i] = 0.0;
        side[i] = (double)(i % 5);
    }

    #pragma omp target data map(tofrom: u[0:N], side[0:N]) map(alloc: v[0:N], w[0:N])
    {
        #pragma omp parallel num_threads(3)
        #pragma omp single
        for (step = 0; step < STEPS; step++) {
            #pragma omp target teams distribute parallel for nowait depend(out: v[0:N]) depend(in: u[0:N])
            for (i = 0; i < N; i++)
                v[i] = u[i];

            #pragma omp target teams distribute parallel for nowait depend(in: v[0:N]) depend(out: w[0:N])
            for (i = 0; i < N; i++) {
                double left = i > 0 ? v[i - 1] : v[i];
                double right = i < N - 1 ? v[i + 1] : v[i];
                w[i] = 0.25 * left + 0.5 * v[i] + 0.25 * right;
            }

            /* independent of the chain: may overlap with it */
            #pragma omp target teams distribute parallel for nowait depend(inout: side[0:N])
            for (i = 0; i < N; i++)
                side[i] = side[i] * 0.5 + 1.0;

            #pragma omp target teams distribute parallel for nowait depend(in: w[0:N]) depend(out: u[0:N])
            for (i = 0; i < N; i++)
                u[i] = 1.01 * w[i];

            #pragma omp target update from(u[0:N]) nowait depend(inout: u[0:N])

            #pragma omp task depend(in: u[0:N]) firstprivate(step)
            {
                double sum = 0.0;
                int k;
                for (k = 0; k < N; k++)
                    sum += u[k] * (double)(k % 3 + 1);
                checksums[step] = sum;
            }
            #pragma omp taskwait
        }
    }

    for (step = 0; step < STEPS; step++)
        printf("step %d: %.6f\n", step, checksums[step]);
    {
        double s = 0.0;
        for (i = 0; i < N; i++)
            s += side[i];
        printf("side: %.6f\n", s);
    }
    return 0;
}
