/* declare target link: every target region that maps the link variable sees the
 * host's values of that moment, also in functions called from the region, and a
 * map(from:)/map(tofrom:) brings the device's values back. The table changes on the
 * host between time steps, as a coefficient table refreshed each step would. */
#include <stdio.h>

#define NCOEF 8
#define NPOINTS 64
#define STEPS 4

double coef[NCOEF] = { 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0 };
int hits[NCOEF];
#pragma omp declare target link(coef, hits)

#pragma omp declare target
static double polynomial(double x)
{
    double value = 0.0;
    int k;
    for (k = NCOEF - 1; k >= 0; k--)
        value = value * x + coef[k];
    return value;
}

static void count_hit(int k)
{
#pragma omp atomic
    hits[k] += 1;
}
#pragma omp end declare target

int main(void)
{
    double values[NPOINTS];
    int step, i, k;

    for (step = 0; step < STEPS; step++) {
        double total = 0.0;
        for (k = 0; k < NCOEF; k++)
            coef[k] = (step + 1) * 0.5 / (k + 1);

#pragma omp target teams distribute parallel for map(to: coef) map(from: values[0:NPOINTS])
        for (i = 0; i < NPOINTS; i++)
            values[i] = polynomial(i / (double)NPOINTS);

        for (i = 0; i < NPOINTS; i++)
            total += values[i];
        printf("step %d: sum %.6f, p(0.5) %.6f\n", step, total, values[NPOINTS / 2]);
    }

    /* counts accumulate on the device across one mapping, come back at its end */
    for (k = 0; k < NCOEF; k++)
        hits[k] = k;
#pragma omp target data map(tofrom: hits)
    {
        for (step = 0; step < 2; step++) {
#pragma omp target teams distribute parallel for
            for (i = 0; i < NPOINTS; i++)
                count_hit(i % NCOEF);
        }
    }
    printf("hits:");
    for (k = 0; k < NCOEF; k++)
        printf(" %d", hits[k]);
    printf("\n");

    /* a sequential region reading the table through a function */
    coef[0] = 10.0;
    {
        double at_zero = 0.0;
#pragma omp target map(to: coef) map(tofrom: at_zero)
        at_zero = polynomial(0.0);
        printf("p(0) = %.3f\n", at_zero);
    }
    return 0;
}
