/* Dense matrix multiply benchmarks in the style of PolyBench/ACC and the
 * OpenMP offload tutorials: C = alpha*A*B + beta*C three ways on the device,
 * checked against a host triple loop:
 *   naive    one output element per iteration of a collapse(2) loop;
 *   tiled    `target teams distribute` over TILE x TILE output tiles, each
 *            team copying a tile of A and of B into team-local arrays and a
 *            `parallel for collapse(2)` over the tile's elements;
 *   syrk-ish C += A*A^T on the lower triangle only (a triangular loop nest).
 * The matrices stay on the device in a `target data` region; the result of
 * each variant comes back with `target update from`. (Products and sums of the
 * inputs are exact; beta * C is not, and a GPU may fuse it into a multiply-add,
 * so results are compared to 1e-9 and checksums printed to 10 digits.)
 *
 * Command line: [-n size] [-r repetitions]; other words are ignored. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

#define TILE 16

typedef double DATA_TYPE;

static void init_array(int n, DATA_TYPE *alpha, DATA_TYPE *beta, DATA_TYPE *A, DATA_TYPE *B, DATA_TYPE *C)
{
    int i, j;
    *alpha = 1.5;
    *beta = 1.2;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            /* Small integers over 8: every product and sum is exact in double. */
            A[i * n + j] = (DATA_TYPE) ((i * j + 1) % 17) / 8.0;
            B[i * n + j] = (DATA_TYPE) ((i * (j + 2) + 3) % 13) / 8.0;
            C[i * n + j] = (DATA_TYPE) ((i + j) % 11) / 8.0;
        }
}

static void gemm_naive(int n, DATA_TYPE alpha, DATA_TYPE beta, const DATA_TYPE *A, const DATA_TYPE *B,
                       DATA_TYPE *C)
{
    int i, j;
#pragma omp target teams distribute parallel for collapse(2) firstprivate(alpha, beta)
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            DATA_TYPE sum = 0;
            int k;
            for (k = 0; k < n; k++)
                sum += A[i * n + k] * B[k * n + j];
            C[i * n + j] = beta * C[i * n + j] + alpha * sum;
        }
}

/* One team per output tile; the tiles of A and B staged in team-local arrays. */
static void gemm_tiled(int n, DATA_TYPE alpha, DATA_TYPE beta, const DATA_TYPE *A, const DATA_TYPE *B,
                       DATA_TYPE *C)
{
    int tiles = (n + TILE - 1) / TILE, t;
#pragma omp target teams distribute firstprivate(alpha, beta) thread_limit(TILE * TILE)
    for (t = 0; t < tiles * tiles; t++) {
        DATA_TYPE a_tile[TILE][TILE], b_tile[TILE][TILE], acc[TILE][TILE];
        int ti = (t / tiles) * TILE, tj = (t % tiles) * TILE, kk, i, j;
#pragma omp parallel for collapse(2)
        for (i = 0; i < TILE; i++)
            for (j = 0; j < TILE; j++)
                acc[i][j] = 0;
        for (kk = 0; kk < n; kk += TILE) {
#pragma omp parallel for collapse(2)
            for (i = 0; i < TILE; i++)
                for (j = 0; j < TILE; j++) {
                    a_tile[i][j] = (ti + i < n && kk + j < n) ? A[(ti + i) * n + kk + j] : 0;
                    b_tile[i][j] = (kk + i < n && tj + j < n) ? B[(kk + i) * n + tj + j] : 0;
                }
#pragma omp parallel for collapse(2)
            for (i = 0; i < TILE; i++)
                for (j = 0; j < TILE; j++) {
                    int k;
                    for (k = 0; k < TILE; k++)
                        acc[i][j] += a_tile[i][k] * b_tile[k][j];
                }
        }
#pragma omp parallel for collapse(2)
        for (i = 0; i < TILE; i++)
            for (j = 0; j < TILE; j++)
                if (ti + i < n && tj + j < n)
                    C[(ti + i) * n + tj + j] = beta * C[(ti + i) * n + tj + j] + alpha * acc[i][j];
    }
}

/* Lower triangle of C += A * A^T. */
static void syrk_lower(int n, const DATA_TYPE *A, DATA_TYPE *C)
{
    int i;
#pragma omp target teams distribute parallel for schedule(static, 1)
    for (i = 0; i < n; i++) {
        int j;
        for (j = 0; j <= i; j++) {
            DATA_TYPE sum = 0;
            int k;
            for (k = 0; k < n; k++)
                sum += A[i * n + k] * A[j * n + k];
            C[i * n + j] += sum;
        }
    }
}

/* The host reference, with variable-length array parameters as PolyBench writes them. */
static void gemm_host(int n, DATA_TYPE alpha, DATA_TYPE beta, DATA_TYPE A[n][n], DATA_TYPE B[n][n],
                      DATA_TYPE C[n][n])
{
    int i, j, k;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            DATA_TYPE sum = 0;
            for (k = 0; k < n; k++)
                sum += A[i][k] * B[k][j];
            C[i][j] = beta * C[i][j] + alpha * sum;
        }
}

static double max_abs_diff(int n, const DATA_TYPE *X, const DATA_TYPE *Y)
{
    double worst = 0.0;
    int i;
    for (i = 0; i < n * n; i++)
        if (fabs(X[i] - Y[i]) > worst)
            worst = fabs(X[i] - Y[i]);
    return worst;
}

static double checksum(int n, const DATA_TYPE *X)
{
    double sum = 0.0;
    int i;
    for (i = 0; i < n * n; i++)
        sum += X[i] * ((i % 5) + 1);
    return sum;
}

int main(int argc, char **argv)
{
    int n = 100, reps = 2, r, i;
    DATA_TYPE alpha, beta;
    DATA_TYPE *A, *B, *C, *C0, *ref;
    double t0, t_naive = 0, t_tiled = 0, t_syrk = 0;

    for (i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "-n"))
            n = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-r"))
            reps = atoi(argv[++i]);
    }
    A = malloc(n * n * sizeof(DATA_TYPE));
    B = malloc(n * n * sizeof(DATA_TYPE));
    C = malloc(n * n * sizeof(DATA_TYPE));
    C0 = malloc(n * n * sizeof(DATA_TYPE));
    ref = malloc(n * n * sizeof(DATA_TYPE));
    init_array(n, &alpha, &beta, A, B, C0);
    printf("gemm: %d x %d, alpha %.2f, beta %.2f, %d repetitions, tiles of %d\n", n, n, alpha, beta, reps, TILE);

    memcpy(ref, C0, n * n * sizeof(DATA_TYPE));
    for (r = 0; r < reps; r++)
        gemm_host(n, alpha, beta, (DATA_TYPE (*)[n]) A, (DATA_TYPE (*)[n]) B, (DATA_TYPE (*)[n]) ref);
    printf("host: checksum %.9e\n", checksum(n, ref));

    memcpy(C, C0, n * n * sizeof(DATA_TYPE));
#pragma omp target data map(to: A[0:n*n], B[0:n*n]) map(tofrom: C[0:n*n])
    {
        for (r = 0; r < reps; r++) {
            t0 = omp_get_wtime();
            gemm_naive(n, alpha, beta, A, B, C);
            t_naive += omp_get_wtime() - t0;
        }
#pragma omp target update from(C[0:n*n])
        printf("naive: checksum %.9e, agrees with the host to 1e-9: %s\n", checksum(n, C),
               max_abs_diff(n, C, ref) < 1e-9 ? "yes" : "no");

        memcpy(C, C0, n * n * sizeof(DATA_TYPE));
#pragma omp target update to(C[0:n*n])
        for (r = 0; r < reps; r++) {
            t0 = omp_get_wtime();
            gemm_tiled(n, alpha, beta, A, B, C);
            t_tiled += omp_get_wtime() - t0;
        }
#pragma omp target update from(C[0:n*n])
        printf("tiled: checksum %.9e, agrees with the host to 1e-9: %s\n", checksum(n, C),
               max_abs_diff(n, C, ref) < 1e-9 ? "yes" : "no");

        t0 = omp_get_wtime();
        syrk_lower(n, A, C);
        t_syrk = omp_get_wtime() - t0;
    }
    printf("after syrk: C[n-1][0] %.6f, C[n-1][n-1] %.6f, C[0][n-1] %.6f\n", C[(n - 1) * n], C[n * n - 1],
           C[n - 1]);
    printf("checksum %.9e\n", checksum(n, C));
    printf("timing: naive %.4f s (%.2f GFLOP/s), tiled %.4f s, syrk %.4f s\n", t_naive,
           2.0 * n * n * n * reps / t_naive * 1e-9, t_tiled, t_syrk);
    free(A);
    free(B);
    free(C);
    free(C0);
    free(ref);
    return 0;
}
