/* OpenMP 5.0/5.1's default(firstprivate) and default(private) in a small smoothing code:
 * the filter's coefficients and parameters are each region's own copies (a thread, a
 * task or a team may change its copy without touching the original), the arrays the
 * region fills are listed as shared. A parallel region, tasks, a taskloop and an
 * offloaded `target teams distribute parallel for` each use one of the defaults. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 1000
#define TAPS 5

struct params {
    int width;
    double scale;
};

int main(void)
{
    double in[N], out[N], coeff[TAPS] = {1, 4, 6, 4, 1};
    struct params p = {TAPS / 2, 1.0 / 16.0};
    long tasks_ran = 0;
    int passes = 3;
    for (int i = 0; i < N; i++)
        in[i] = (i % 10 == 0) ? 16.0 : 0.0;

    for (int pass = 0; pass < passes; pass++) {
        /* every thread scales its own copy of the coefficients; the original stays */
#pragma omp parallel default(firstprivate) shared(in, out) num_threads(4)
        {
            for (int t = 0; t < TAPS; t++)
                coeff[t] *= p.scale;
#pragma omp for
            for (int i = p.width; i < N - p.width; i++) {
                double sum = 0.0;
                for (int t = 0; t < TAPS; t++)
                    sum += coeff[t] * in[i + t - p.width];
                out[i] = sum;
            }
        }
        for (int i = p.width; i < N - p.width; i++)
            in[i] = out[i];
    }

    /* tasks: default(private) scratch, the counter shared */
#pragma omp parallel num_threads(3) shared(tasks_ran)
#pragma omp single
    for (int k = 0; k < 8; k++) {
        int scratch = 0;
#pragma omp task default(private) shared(tasks_ran)
        {
            scratch = 1;
#pragma omp atomic
            tasks_ran += scratch;
        }
    }

    /* a taskloop whose iterations each start from the parameters' original values */
    double peak[N / 100];
#pragma omp parallel masked num_threads(2)
#pragma omp taskloop default(firstprivate) shared(peak, in) grainsize(2)
    for (int b = 0; b < N / 100; b++) {
        p.scale = 0.0;
        for (int i = b * 100; i < (b + 1) * 100; i++)
            p.scale = in[i] > p.scale ? in[i] : p.scale;
        peak[b] = p.scale;
    }

    /* on the device: each team's copy of the coefficients */
    double smoothed[N];
#pragma omp target teams distribute parallel for default(firstprivate) shared(smoothed) \
        map(to: in) map(from: smoothed)
    for (int i = 0; i < N; i++) {
        double sum = 0.0;
        for (int t = 0; t < TAPS; t++) {
            int j = i + t - p.width;
            if (j >= 0 && j < N)
                sum += coeff[t] * p.scale * in[j];
        }
        smoothed[i] = sum;
    }

    double total = 0.0;
    for (int i = 0; i < N; i++)
        total += smoothed[i];
    printf("coefficients kept: %g %g %g, scale kept: %g\n", coeff[0], coeff[1], coeff[2], p.scale);
    printf("tasks ran %ld\n", tasks_ran);
    printf("peaks %.6f %.6f %.6f\n", peak[0], peak[4], peak[9]);
    printf("in[10..12] %.6f %.6f %.6f smoothed total %.6f\n", in[10], in[11], in[12], total);
    return 0;
}
