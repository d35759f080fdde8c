/* STREAM-style memory bandwidth benchmark for an offload device: Copy, Scale,
 * Add and Triad over three arrays resident on the device (`target enter
 * data` / `target exit data`), NTIMES repetitions of each kernel timed with
 * omp_get_wtime, the best/average/worst rates reported (timing lines), and
 * the results validated against the closed-form expected values as STREAM does.
 *
 * Command line: [-n elements] [-t ntimes]; other words are ignored. */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

#ifndef STREAM_TYPE
#define STREAM_TYPE double
#endif
#define MIN(x, y) ((x) < (y) ? (x) : (y))
#define MAX(x, y) ((x) > (y) ? (x) : (y))

static STREAM_TYPE *a, *b, *c;
static const char *label[4] = {"Copy:      ", "Scale:     ", "Add:       ", "Triad:     "};

static void kernel_copy(long n)
{
    long j;
#pragma omp target teams distribute parallel for
    for (j = 0; j < n; j++)
        c[j] = a[j];
}

static void kernel_scale(long n, STREAM_TYPE scalar)
{
    long j;
#pragma omp target teams distribute parallel for
    for (j = 0; j < n; j++)
        b[j] = scalar * c[j];
}

static void kernel_add(long n)
{
    long j;
#pragma omp target teams distribute parallel for
    for (j = 0; j < n; j++)
        c[j] = a[j] + b[j];
}

static void kernel_triad(long n, STREAM_TYPE scalar)
{
    long j;
#pragma omp target teams distribute parallel for
    for (j = 0; j < n; j++)
        a[j] = b[j] + scalar * c[j];
}

/* The clock's granularity in microseconds: the smallest of several nonzero
 * differences between consecutive distinct readings (as STREAM reports it). */
#define M 20
static int checktick(void)
{
    double t1, t2, timesfound[M];
    int i, minDelta, Delta;
    for (i = 0; i < M; i++) {
        t1 = omp_get_wtime();
        while (((t2 = omp_get_wtime()) - t1) < 1.0E-6)
            ;
        timesfound[i] = t1 = t2;
    }
    minDelta = 1000000;
    for (i = 1; i < M; i++) {
        Delta = (int) (1.0E6 * (timesfound[i] - timesfound[i - 1]));
        minDelta = MIN(minDelta, MAX(Delta, 0));
    }
    return minDelta;
}

/* The expected values after ntimes rounds, replayed on scalars. */
static int check_results(long n, int ntimes, STREAM_TYPE scalar)
{
    STREAM_TYPE aj = 1.0, bj = 2.0, cj = 0.0;
    double a_err = 0, b_err = 0, c_err = 0, epsilon;
    long j;
    int k, errors = 0;

    aj = 2.0E0 * aj;        /* the timing-granularity pass before the trials */
    for (k = 0; k < ntimes; k++) {
        cj = aj;
        bj = scalar * cj;
        cj = aj + bj;
        aj = bj + scalar * cj;
    }
    for (j = 0; j < n; j++) {
        a_err += fabs(a[j] - aj);
        b_err += fabs(b[j] - bj);
        c_err += fabs(c[j] - cj);
    }
    a_err /= n;
    b_err /= n;
    c_err /= n;
    epsilon = sizeof(STREAM_TYPE) == 4 ? 1.e-6 : 1.e-13;
    if (fabs(a_err / aj) > epsilon) {
        printf("Failed Validation on array a[], AvgRelAbsErr > epsilon (%e)\n", epsilon);
        errors++;
    }
    if (fabs(b_err / bj) > epsilon) {
        printf("Failed Validation on array b[], AvgRelAbsErr > epsilon (%e)\n", epsilon);
        errors++;
    }
    if (fabs(c_err / cj) > epsilon) {
        printf("Failed Validation on array c[], AvgRelAbsErr > epsilon (%e)\n", epsilon);
        errors++;
    }
    if (errors == 0)
        printf("Solution Validates: avg error less than %e on all three arrays\n", epsilon);
    printf("Expected a[j] = %.6e, b[j] = %.6e, c[j] = %.6e\n", aj, bj, cj);
    return errors;
}

int main(int argc, char **argv)
{
    long n = 200000, j;
    int ntimes = 10, k, i, errors;
    STREAM_TYPE scalar = 3.0;
    double *times[4], avgtime[4] = {0}, maxtime[4] = {0}, mintime[4] = {FLT_MAX, FLT_MAX, FLT_MAX, FLT_MAX};
    double bytes[4], t;

    for (i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "-n"))
            n = atol(argv[++i]);
        else if (!strcmp(argv[i], "-t"))
            ntimes = atoi(argv[++i]);
    }
    if (ntimes < 2)
        ntimes = 2;
    bytes[0] = bytes[1] = 2 * sizeof(STREAM_TYPE) * (double) n;
    bytes[2] = bytes[3] = 3 * sizeof(STREAM_TYPE) * (double) n;
    for (k = 0; k < 4; k++)
        times[k] = malloc(ntimes * sizeof(double));

    printf("-------------------------------------------------------------\n");
    printf("STREAM-style offload benchmark\n");
    printf("This system uses %d bytes per array element.\n", (int) sizeof(STREAM_TYPE));
    printf("Array size = %ld (elements), each kernel is run %d times\n", n, ntimes);
    printf("Memory per array = %.1f MiB\n", sizeof(STREAM_TYPE) * (double) n / 1048576.0);
    printf("-------------------------------------------------------------\n");

    a = malloc(n * sizeof(STREAM_TYPE));
    b = malloc(n * sizeof(STREAM_TYPE));
    c = malloc(n * sizeof(STREAM_TYPE));
    for (j = 0; j < n; j++) {
        a[j] = 1.0;
        b[j] = 2.0;
        c[j] = 0.0;
    }

    printf("timing: granularity %d microseconds\n", checktick());
#pragma omp target enter data map(to: a[0:n], b[0:n], c[0:n])
    t = omp_get_wtime();
#pragma omp target teams distribute parallel for
    for (j = 0; j < n; j++)
        a[j] = 2.0E0 * a[j];
    t = 1.0E6 * (omp_get_wtime() - t);
    printf("timing: the first pass took %d microseconds\n", (int) t);

    t = omp_get_wtime();
    for (k = 0; k < ntimes; k++) {
        times[0][k] = omp_get_wtime();
        kernel_copy(n);
        times[0][k] = omp_get_wtime() - times[0][k];
        times[1][k] = omp_get_wtime();
        kernel_scale(n, scalar);
        times[1][k] = omp_get_wtime() - times[1][k];
        times[2][k] = omp_get_wtime();
        kernel_add(n);
        times[2][k] = omp_get_wtime() - times[2][k];
        times[3][k] = omp_get_wtime();
        kernel_triad(n, scalar);
        times[3][k] = omp_get_wtime() - times[3][k];
    }
    printf("timing: all kernels %.6f s\n", omp_get_wtime() - t);
#pragma omp target exit data map(from: a[0:n], b[0:n], c[0:n])

    for (k = 1; k < ntimes; k++)        /* the first iteration is not counted */
        for (j = 0; j < 4; j++) {
            avgtime[j] += times[j][k];
            mintime[j] = MIN(mintime[j], times[j][k]);
            maxtime[j] = MAX(maxtime[j], times[j][k]);
        }
    printf("Function    Best Rate MB/s  Avg time     Min time     Max time\n");
    for (j = 0; j < 4; j++) {
        avgtime[j] /= (double) (ntimes - 1);
        printf("timing: %s%12.1f  %11.6f  %11.6f  %11.6f\n", label[j], 1.0E-06 * bytes[j] / mintime[j],
               avgtime[j], mintime[j], maxtime[j]);
    }
    printf("-------------------------------------------------------------\n");
    errors = check_results(n, ntimes, scalar);
    printf("a[0] = %.6e, b[n-1] = %.6e, c[n/2] = %.6e\n", a[0], b[n - 1], c[n / 2]);
    for (k = 0; k < 4; k++)
        free(times[k]);
    free(a);
    free(b);
    free(c);
    return errors ? 1 : 0;
}
