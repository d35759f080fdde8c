/* miniFE-style conjugate gradient: a 27-point finite-element-like operator on
 * an nx*ny*nz brick assembled into a CSR matrix on the host, then CG on the
 * device with the matrix and vectors resident in a `target data` region
 * (waxpby, dot products with reductions, CSR matvec), the residual brought back
 * with `target update` for the convergence test, as miniFE's OpenMP 4.5 port does.
 *
 * Command line: [-nx N] [-ny N] [-nz N] [-i max_iters] [-tol T]; other words are ignored. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

typedef struct {
    int nrows;
    int nnz;
    int *row_offsets;
    int *cols;
    double *coefs;
} CSRMatrix;

typedef struct {
    int nx, ny, nz;
    int max_iters;
    double tolerance;
} Params;

static int row_of(const Params *p, int x, int y, int z)
{
    return (z * p->ny + y) * p->nx + x;
}

/* Assemble: diagonal 26, every neighbour in the 3x3x3 box -1 (diagonally dominant, SPD). */
static CSRMatrix assemble(const Params *p)
{
    CSRMatrix A;
    int x, y, z, dx, dy, dz, k = 0;
    A.nrows = p->nx * p->ny * p->nz;
    A.row_offsets = malloc((A.nrows + 1) * sizeof(int));
    A.cols = malloc((size_t) A.nrows * 27 * sizeof(int));
    A.coefs = malloc((size_t) A.nrows * 27 * sizeof(double));
    A.row_offsets[0] = 0;
    for (z = 0; z < p->nz; z++)
        for (y = 0; y < p->ny; y++)
            for (x = 0; x < p->nx; x++) {
                int row = row_of(p, x, y, z);
                for (dz = -1; dz <= 1; dz++)
                    for (dy = -1; dy <= 1; dy++)
                        for (dx = -1; dx <= 1; dx++) {
                            int xx = x + dx, yy = y + dy, zz = z + dz;
                            if (xx < 0 || yy < 0 || zz < 0 || xx >= p->nx || yy >= p->ny || zz >= p->nz)
                                continue;
                            A.cols[k] = row_of(p, xx, yy, zz);
                            A.coefs[k] = (dx == 0 && dy == 0 && dz == 0) ? 27.0 : -1.0;
                            k++;
                        }
                A.row_offsets[row + 1] = k;
            }
    A.nnz = k;
    return A;
}

#pragma omp declare target
static inline double row_dot(const int *cols, const double *coefs, int begin, int end, const double *x)
{
    double sum = 0.0;
    int k;
    for (k = begin; k < end; k++)
        sum += coefs[k] * x[cols[k]];
    return sum;
}
#pragma omp end declare target

static void matvec(int nrows, int nnz, const int *rows, const int *cols, const double *coefs,
                   const double *x, double *y)
{
    int row;
#pragma omp target teams distribute parallel for map(to: rows[0:nrows+1], cols[0:nnz], coefs[0:nnz], x[0:nrows]) map(from: y[0:nrows])
    for (row = 0; row < nrows; row++)
        y[row] = row_dot(cols, coefs, rows[row], rows[row + 1], x);
}

static double dot(int n, const double *x, const double *y)
{
    double result = 0.0;
    int i;
#pragma omp target teams distribute parallel for reduction(+: result) map(to: x[0:n], y[0:n]) map(tofrom: result)
    for (i = 0; i < n; i++)
        result += x[i] * y[i];
    return result;
}

/* w = alpha*x + beta*y */
static void waxpby(int n, double alpha, const double *x, double beta, const double *y, double *w)
{
    int i;
#pragma omp target teams distribute parallel for map(to: x[0:n], y[0:n]) map(from: w[0:n])
    for (i = 0; i < n; i++)
        w[i] = alpha * x[i] + beta * y[i];
}

static void parse(int argc, char **argv, Params *p)
{
    int i;
    p->nx = 12;
    p->ny = 10;
    p->nz = 8;
    p->max_iters = 60;
    p->tolerance = 1e-10;
    for (i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "-nx"))
            p->nx = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-ny"))
            p->ny = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-nz"))
            p->nz = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-i"))
            p->max_iters = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-tol"))
            p->tolerance = atof(argv[++i]);
    }
}

int main(int argc, char **argv)
{
    Params p;
    CSRMatrix A;
    double *x, *b, *r, *pvec, *Ap, *exact;
    double rtrans, oldrtrans, normr, alpha, beta, t0, t_total, err = 0.0;
    int n, nnz, iter, i;
    int *rows, *cols;
    double *coefs;

    parse(argc, argv, &p);
    A = assemble(&p);
    n = A.nrows;
    nnz = A.nnz;
    rows = A.row_offsets;
    cols = A.cols;
    coefs = A.coefs;
    printf("miniFE-like CG: %d x %d x %d, %d rows, %d nonzeros\n", p.nx, p.ny, p.nz, n, nnz);

    x = calloc(n, sizeof(double));
    b = malloc(n * sizeof(double));
    r = malloc(n * sizeof(double));
    pvec = malloc(n * sizeof(double));
    Ap = malloc(n * sizeof(double));
    exact = malloc(n * sizeof(double));
    /* A known solution: b = A * exact. */
    for (i = 0; i < n; i++)
        exact[i] = 1.0 + 0.5 * sin(0.1 * i);
    for (i = 0; i < n; i++) {
        int k;
        b[i] = 0;
        for (k = rows[i]; k < rows[i + 1]; k++)
            b[i] += coefs[k] * exact[cols[k]];
    }

    t0 = omp_get_wtime();
#pragma omp target data map(to: rows[0:n+1], cols[0:nnz], coefs[0:nnz], b[0:n]) \
                        map(tofrom: x[0:n]) map(alloc: r[0:n], pvec[0:n], Ap[0:n])
    {
        /* r = b - A x, p = r */
        matvec(n, nnz, rows, cols, coefs, x, Ap);
        waxpby(n, 1.0, b, -1.0, Ap, r);
        waxpby(n, 1.0, r, 0.0, r, pvec);
        rtrans = dot(n, r, r);
        normr = sqrt(rtrans);
        printf("initial residual %.6e\n", normr);

        for (iter = 1; iter <= p.max_iters && normr > p.tolerance; iter++) {
            if (iter > 1) {
                oldrtrans = rtrans;
                rtrans = dot(n, r, r);
                beta = rtrans / oldrtrans;
                waxpby(n, 1.0, r, beta, pvec, pvec);
            }
            normr = sqrt(rtrans);
            /* Early residuals only: late ones are dominated by rounding and differ by
             * reduction order between OpenMP implementations. */
            if (iter <= 6)
                printf("iteration %3d residual %.6e\n", iter, normr);
            matvec(n, nnz, rows, cols, coefs, pvec, Ap);
            alpha = rtrans / dot(n, pvec, Ap);
            waxpby(n, 1.0, x, alpha, pvec, x);
            waxpby(n, 1.0, r, -alpha, Ap, r);
        }
        /* The first residual entries, to check the device copy of r is live. */
#pragma omp target update from(r[0:n])
    }
    t_total = omp_get_wtime() - t0;

    for (i = 0; i < n; i++) {
        double d = fabs(x[i] - exact[i]);
        if (d > err)
            err = d;
    }
    printf("converged: %s after %d iterations\n", normr <= p.tolerance ? "yes" : "no", iter - 1);
    printf("max |x - exact| below 1e-6: %s\n", err < 1e-6 ? "yes" : "no");
    printf("x[0] = %.6f, x[n/2] = %.6f, x[n-1] = %.6f\n", x[0], x[n / 2], x[n - 1]);
    printf("|r[0]| below 1e-8: %s\n", fabs(r[0]) < 1e-8 ? "yes" : "no");
    printf("timing: CG %.4f s\n", t_total);

    free(x);
    free(b);
    free(r);
    free(pvec);
    free(Ap);
    free(exact);
    free(A.row_offsets);
    free(A.cols);
    free(A.coefs);
    return 0;
}
