/* Dense matrix multiply on the device (collapse(2), inner sequential loop) checked against the host. */
#include <stdio.h>
#include <stdlib.h>

#define N 96

static void matmul_target(const double *A, const double *B, double *C, int n)
{
    int i, j;
#pragma omp target teams distribute parallel for collapse(2) map(to: A[0:n*n], B[0:n*n]) map(from: C[0:n*n])
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            double s = 0;
            int k;
            for (k = 0; k < n; k++)
                s += A[i * n + k] * B[k * n + j];
            C[i * n + j] = s;
        }
}

static void matmul_host(const double *A, const double *B, double *C, int n)
{
    int i, j, k;
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++) {
            double s = 0;
            for (k = 0; k < n; k++)
                s += A[i * n + k] * B[k * n + j];
            C[i * n + j] = s;
        }
}

int main(void)
{
    double *A = malloc(N * N * sizeof *A), *B = malloc(N * N * sizeof *B);
    double *C = malloc(N * N * sizeof *C), *R = malloc(N * N * sizeof *R);
    int i, j, mismatches = 0;
    double trace = 0, total = 0;

    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            A[i * N + j] = (double)((i + 2 * j) % 7 - 3);
            B[i * N + j] = (double)((3 * i + j) % 5) * 0.5;
        }
    matmul_target(A, B, C, N);
    matmul_host(A, B, R, N);
    for (i = 0; i < N * N; i++) {
        if (C[i] != R[i])
            mismatches++;
        total += C[i];
    }
    for (i = 0; i < N; i++)
        trace += C[i * N + i];
    printf("mismatches = %d, trace = %.2f, total = %.2f\n", mismatches, trace, total);
    printf("C[0][0] = %.2f, C[5][17] = %.2f, C[N-1][N-1] = %.2f\n", C[0], C[5 * N + 17], C[N * N - 1]);

    /* identity times B gives B; 2-D static arrays and a parallel loop over rows only */
    {
        static int I[32][32], M[32][32], P[32][32];
        int ok = 1;
        for (i = 0; i < 32; i++)
            for (j = 0; j < 32; j++) {
                I[i][j] = (i == j);
                M[i][j] = i * 32 - j;
            }
#pragma omp target teams distribute parallel for map(to: I, M) map(from: P)
        for (i = 0; i < 32; i++) {
            int jj, k;
            for (jj = 0; jj < 32; jj++) {
                int s = 0;
                for (k = 0; k < 32; k++)
                    s += I[i][k] * M[k][jj];
                P[i][jj] = s;
            }
        }
        for (i = 0; i < 32; i++)
            for (j = 0; j < 32; j++)
                ok = ok && P[i][j] == M[i][j];
        printf("identity product ok: %d\n", ok);
    }
    free(A);
    free(B);
    free(C);
    free(R);
    return 0;
}
