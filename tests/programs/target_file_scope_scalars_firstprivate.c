/* File-scope and static scalars a target region uses without a map clause are
 * firstprivate (OpenMP 4.5 2.15.1.1, 2.15.5: the scalar rule does not depend on the
 * storage class): the region reads the host's value and its writes stay in the
 * region, on every device and on the host alike. map(tofrom:) or
 * defaultmap(tofrom:scalar) brings a result back. */
#include <stdio.h>

#define N 64

double relaxation = 0.75;       /* settings, read by the kernels */
static int sweeps = 3;
int sweeps_done;                /* a counter the kernels keep */
static double field[N];

static double residual(void)
{
    double r = 0.0;
    for (int i = 1; i < N - 1; i++) {
        double d = field[i - 1] - 2.0 * field[i] + field[i + 1];
        r += d * d;
    }
    return r;
}

int main(void)
{
    static long checks = 100;
    for (int i = 0; i < N; i++)
        field[i] = (i * 37 % 17) - 8.0;
    printf("residual before %.4f\n", residual());

    /* sweeps_done and checks are the region's own copies: the host's stay. */
#pragma omp target map(tofrom: field)
    {
        for (int s = 0; s < sweeps; s++) {
            for (int i = 1; i < N - 1; i++)
                field[i] += relaxation * 0.5 * (field[i - 1] - 2.0 * field[i] + field[i + 1]);
            sweeps_done++;
            checks += 10;
        }
        relaxation = 0.0;
    }
    printf("residual after %d sweeps %.4f\n", sweeps, residual());
    printf("host copies: sweeps_done %d, checks %ld, relaxation %.2f\n", sweeps_done, checks, relaxation);

    /* Mapped, the counter comes back; with defaultmap(tofrom:scalar) every scalar does. */
#pragma omp target map(tofrom: field, sweeps_done)
    for (int s = 0; s < sweeps; s++) {
        for (int i = 1; i < N - 1; i++)
            field[i] += relaxation * 0.5 * (field[i - 1] - 2.0 * field[i] + field[i + 1]);
        sweeps_done++;
    }
#pragma omp target map(tofrom: field) defaultmap(tofrom: scalar)
    {
        checks += sweeps;
        relaxation = 0.5;
    }
    printf("mapped: sweeps_done %d, checks %ld, relaxation %.2f, residual %.4f\n",
           sweeps_done, checks, relaxation, residual());
    return 0;
}
