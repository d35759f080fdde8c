/* Rodinia-style LU decomposition (lud): an in-place Doolittle factorisation of
 * a diagonally dominant matrix, one elimination step k at a time. Each step is
 * two target regions (the column of multipliers, then the trailing update with
 * collapse(2)) inside one `target data` region; the factors are checked on the
 * host by multiplying L and U back together.
 *
 * The matrix is created with a generator as in lud's "-s size" mode.
 * Command line: [-s size] [-v]; other words are ignored. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define GET_RAND_FP ((float) rand() / ((float) RAND_MAX + 1.0f))

typedef enum { RET_SUCCESS, RET_FAILURE } func_ret_t;

static double elapsed_s(const struct timespec *a, const struct timespec *b)
{
    return (double) (b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) * 1e-9;
}

/* A random, strictly diagonally dominant matrix (so no pivoting is needed). */
static func_ret_t create_matrix(float **mp, int size)
{
    float *m;
    int i, j;
    float lamda = -0.001f;
    float coe[2 * size - 1];
    float coe_i;

    m = malloc(sizeof(float) * size * size);
    if (m == NULL)
        return RET_FAILURE;
    for (i = 0; i < size; i++) {
        coe_i = 10 * expf(lamda * i);
        j = size - 1 + i;
        coe[j] = coe_i;
        j = size - 1 - i;
        coe[j] = coe_i;
    }
    for (i = 0; i < size; i++)
        for (j = 0; j < size; j++)
            m[i * size + j] = coe[size - 1 - i + j] * (i == j ? 4.0f : 0.25f + 0.5f * GET_RAND_FP);
    *mp = m;
    return RET_SUCCESS;
}

static void lud_device(float *a, int size)
{
    int k;
#pragma omp target data map(tofrom: a[0:size*size])
    {
        for (k = 0; k < size - 1; k++) {
            int i, j;
            float pivot;
            /* The pivot is read by the host for the report and by both regions. */
#pragma omp target update from(a[k*size+k:1])
            pivot = a[k * size + k];
#pragma omp target teams distribute parallel for firstprivate(pivot)
            for (i = k + 1; i < size; i++)
                a[i * size + k] /= pivot;

#pragma omp target teams distribute parallel for collapse(2) private(i, j)
            for (i = k + 1; i < size; i++)
                for (j = k + 1; j < size; j++)
                    a[i * size + j] -= a[i * size + k] * a[k * size + j];
            if (k % 8 == 0)
                printf("step %2d: pivot %.5e\n", k, pivot);
        }
    }
}

/* max |L*U - A| / max |A| */
static double lud_verify(const float *m, const float *lu, int size)
{
    double max_err = 0.0, max_a = 0.0;
    int i, j, k;
    for (i = 0; i < size; i++)
        for (j = 0; j < size; j++) {
            double sum = 0.0;
            for (k = 0; k <= (i < j ? i : j); k++) {
                double l = (k == i) ? 1.0 : lu[i * size + k];
                sum += l * lu[k * size + j];
            }
            if (fabs(sum - m[i * size + j]) > max_err)
                max_err = fabs(sum - m[i * size + j]);
            if (fabs(m[i * size + j]) > max_a)
                max_a = fabs(m[i * size + j]);
        }
    return max_err / max_a;
}

/* The reference: the same right-looking elimination serially on the host. */
static void lud_host(float *a, int size)
{
    int i, j, k;
    for (k = 0; k < size - 1; k++) {
        for (i = k + 1; i < size; i++)
            a[i * size + k] /= a[k * size + k];
        for (i = k + 1; i < size; i++)
            for (j = k + 1; j < size; j++)
                a[i * size + j] -= a[i * size + k] * a[k * size + j];
    }
}

/* Solve A x = b with the factors: L y = b forward, then U x = y backward
 * (in double, as a caller of lud would). */
static void lu_solve(const float *lu, int size, const double *b, double *x)
{
    int i, j;
    for (i = 0; i < size; i++) {
        double sum = b[i];
        for (j = 0; j < i; j++)
            sum -= lu[i * size + j] * x[j];
        x[i] = sum;
    }
    for (i = size - 1; i >= 0; i--) {
        double sum = x[i];
        for (j = i + 1; j < size; j++)
            sum -= lu[i * size + j] * x[j];
        x[i] = sum / lu[i * size + i];
    }
}

static void print_corner(const char *name, const float *m, int size, int corner)
{
    int i, j;
    printf("%s (top-left %dx%d):\n", name, corner, corner);
    for (i = 0; i < corner; i++) {
        for (j = 0; j < corner; j++)
            printf(" %10.5f", m[i * size + j]);
        printf("\n");
    }
}

int main(int argc, char *argv[])
{
    int matrix_dim = 48;
    int verbose = 0, i;
    float *m, *mm;
    double rel_err, log_det = 0.0;
    struct timespec t0, t1;

    for (i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-s") && i + 1 < argc)
            matrix_dim = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-v"))
            verbose = 1;
    }
    srand(7);
    if (create_matrix(&m, matrix_dim) != RET_SUCCESS) {
        fprintf(stderr, "error: could not create a %d x %d matrix\n", matrix_dim, matrix_dim);
        return 1;
    }
    printf("Generated a %d x %d matrix\n", matrix_dim, matrix_dim);
    mm = malloc(sizeof(float) * matrix_dim * matrix_dim);
    memcpy(mm, m, sizeof(float) * matrix_dim * matrix_dim);
    print_corner("A", m, matrix_dim, 3);

    clock_gettime(CLOCK_MONOTONIC, &t0);
    lud_device(m, matrix_dim);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("timing: lud %.6f s\n", elapsed_s(&t0, &t1));

    print_corner("LU", m, matrix_dim, 3);
    for (i = 0; i < matrix_dim; i++)
        log_det += log(fabs(m[i * matrix_dim + i]));
    printf("log|det A| = %.4f\n", log_det);
    rel_err = lud_verify(mm, m, matrix_dim);
    printf("relative error of L*U below 1e-5: %s\n", rel_err < 1e-5 ? "yes" : "no");
    if (verbose)
        printf("relative error %.3e\n", rel_err);
    {
        float *host = malloc(sizeof(float) * matrix_dim * matrix_dim);
        double *b = malloc(sizeof(double) * matrix_dim), *x = malloc(sizeof(double) * matrix_dim);
        double worst = 0.0, residual = 0.0;
        int j;
        memcpy(host, mm, sizeof(float) * matrix_dim * matrix_dim);
        lud_host(host, matrix_dim);
        for (i = 0; i < matrix_dim * matrix_dim; i++)
            if (fabs(host[i] - m[i]) > worst)
                worst = fabs(host[i] - m[i]);
        printf("device and host factors agree to 1e-5: %s\n", worst < 1e-5 ? "yes" : "no");
        /* b = A * ones; the solution should be all ones. */
        for (i = 0; i < matrix_dim; i++) {
            b[i] = 0.0;
            for (j = 0; j < matrix_dim; j++)
                b[i] += mm[i * matrix_dim + j];
        }
        lu_solve(m, matrix_dim, b, x);
        for (i = 0; i < matrix_dim; i++)
            if (fabs(x[i] - 1.0) > residual)
                residual = fabs(x[i] - 1.0);
        printf("solve A x = A 1: max |x - 1| below 1e-4: %s\n", residual < 1e-4 ? "yes" : "no");
        free(host);
        free(b);
        free(x);
    }
    free(m);
    free(mm);
    return 0;
}
