/* C99 variable-length arrays the way numerical codes use them on the host:
 * VLA parameters (`double a[n][m]`, `double (*restrict c)[p]`, `v[static n]`),
 * block-scope VLAs and typedefs of VLA types, sizeof evaluated at run time,
 * matrices allocated as pointers to VLA rows, and a VLA in a loop of a million
 * iterations (its storage is released every iteration, also on continue/break). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void matmul(int n, int m, int p, const double a[n][m], const double b[m][p],
                   double (*restrict c)[p]) {
    for (int i = 0; i < n; i++)
        for (int j = 0; j < p; j++) {
            double s = 0.0;
            for (int k = 0; k < m; k++) s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
}

static double norm1(int n, const double v[static n]) {
    double s = 0.0;
    for (int i = 0; i < n; i++) s += v[i] < 0 ? -v[i] : v[i];
    return s;
}

/* Gaussian elimination with partial pivoting on an n x (n+1) augmented matrix. */
static int solve(int n, double aug[n][n + 1], double x[n]) {
    for (int col = 0; col < n; col++) {
        int pivot = col;
        for (int r = col + 1; r < n; r++)
            if (aug[r][col] * aug[r][col] > aug[pivot][col] * aug[pivot][col]) pivot = r;
        if (aug[pivot][col] == 0.0) return -1;
        if (pivot != col) {
            double row[n + 1];
            memcpy(row, aug[col], sizeof row);
            memcpy(aug[col], aug[pivot], sizeof row);
            memcpy(aug[pivot], row, sizeof row);
        }
        for (int r = col + 1; r < n; r++) {
            double f = aug[r][col] / aug[col][col];
            for (int c = col; c <= n; c++) aug[r][c] -= f * aug[col][c];
        }
    }
    for (int r = n - 1; r >= 0; r--) {
        double s = aug[r][n];
        for (int c = r + 1; c < n; c++) s -= aug[r][c] * x[c];
        x[r] = s / aug[r][r];
    }
    return 0;
}

static long sliding_sums(int width, long iterations) {
    long total = 0;
    for (long it = 0; it < iterations; it++) {
        int window[width * 64];              /* 64 * width ints per iteration */
        for (int k = 0; k < width; k++) window[k * 64] = (int)((it + k) % 97);
        if (it % 5 == 3) continue;
        int s = 0;
        for (int k = 0; k < width; k++) s += window[k * 64];
        total += s;
        if (total < 0) break;
    }
    return total;
}

int main(int argc, char **argv) {
    int n = argc + 3, m = argc + 4, p = argc + 2;      /* 6, 7, 5 with two arguments */
    double a[n][m], b[m][p];
    printf("sizeof a = %zu, sizeof a[0] = %zu, sizeof b / sizeof b[0] = %zu\n",
           sizeof a, sizeof a[0], sizeof b / sizeof b[0]);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < m; k++) a[i][k] = (i + 1) * 0.5 - k * 0.25;
    for (int k = 0; k < m; k++)
        for (int j = 0; j < p; j++) b[k][j] = (k * 3 + j) % 5 - 2.0;

    double (*c)[p] = malloc(sizeof(double[n][p]));
    matmul(n, m, p, a, b, c);
    printf("rows of c: %td, c[1][2] = %.4f, c[n-1][p-1] = %.4f\n",
           (c + n) - c, c[1][2], c[n - 1][p - 1]);
    for (int i = 0; i < n; i++) printf("|c[%d]|_1 = %.4f\n", i, norm1(p, c[i]));
    free(c);

    typedef double vector[n];
    vector x, rhs;
    double (*aug)[n + 1] = malloc(n * sizeof *aug);
    for (int i = 0; i < n; i++) {
        for (int j = 0; j < n; j++) aug[i][j] = (i == j) ? n + 1.0 : 1.0 / (1 + i + j);
        rhs[i] = i + 1;
        aug[i][n] = rhs[i];
    }
    printf("sizeof(vector) = %zu, sizeof *aug = %zu\n", sizeof(vector), sizeof *aug);
    if (solve(n, aug, x) == 0)
        for (int i = 0; i < n; i++) printf("x[%d] = %.6f\n", i, x[i]);
    free(aug);

    int len = n;
    int counts[len + 1];
    len = 100;                                /* the VLA keeps the length it was declared with */
    memset(counts, 0, sizeof counts);
    for (int i = 0; i < 1000; i++) counts[i % (n + 1)]++;
    printf("sizeof counts = %zu, counts[0] = %d, counts[n] = %d, len = %d\n",
           sizeof counts, counts[0], counts[n], len);

    printf("sliding sums = %ld\n", sliding_sums(n, 1000000));
    return 0;
}
