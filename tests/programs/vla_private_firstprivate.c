/* Variable-length arrays in private, firstprivate and lastprivate clauses: each thread
 * gets a copy sized at run time (OpenMP Examples data_environment carrays_fpriv.1.c,
 * and per-thread scratch rows as stencil and dynamic-programming codes write them),
 * on the host and in target regions. */
#include <assert.h>
#include <stdio.h>

int A[2][2] = { { 1, 2 }, { 3, 4 } };

/* carrays_fpriv.1.c: B and C are pointers (parameters), D a fixed array, E a VLA. */
static void carrays_fpriv(int n, int B[n][n], int C[])
{
    int D[2][2] = { { 1, 2 }, { 3, 4 } };
    int E[n][n];
    int ok = 1;

    assert(n >= 2);
    E[1][1] = 4;
#pragma omp parallel default(none) shared(A) firstprivate(B, C, D, E, n) reduction(&&: ok)
    {
        ok = ok && sizeof(B) == sizeof(int (*)[n]);
        ok = ok && sizeof(C) == sizeof(int *);
        ok = ok && sizeof(D) == 4 * sizeof(int);
        ok = ok && sizeof(E) == n * n * sizeof(int);
        ok = ok && &B[1][1] == &A[1][1];      /* private B and C have the original values */
        ok = ok && &C[3] == &A[1][1];
        ok = ok && D[1][1] == 4;
        ok = ok && E[1][1] == 4;
        E[1][1] = 5;                          /* the thread's own copy */
    }
    printf("carrays_fpriv: ok %d, E[1][1] after the region %d\n", ok, E[1][1]);
}

/* Longest common subsequence lengths of many short strings against one pattern: each
 * thread keeps its own DP row (private), starting from a shared template (firstprivate). */
static void lcs_rows(int m, const char *pattern)
{
    int row[m + 1], scratch[m + 1], total = 0;
    for (int j = 0; j <= m; j++)
        row[j] = 0;
    row[0] = -1;                              /* not a DP value: shows the original stays */
#pragma omp parallel for firstprivate(row) private(scratch) reduction(+: total)
    for (int s = 0; s < 40; s++) {
        char text[8];
        for (int k = 0; k < 7; k++)
            text[k] = "abcde"[(s * 3 + k * (s % 4 + 1)) % 5];
        for (int j = 0; j <= m; j++)
            row[j] = 0;
        for (int k = 0; k < 7; k++) {
            scratch[0] = 0;
            for (int j = 1; j <= m; j++)
                scratch[j] = text[k] == pattern[j - 1] ? row[j - 1] + 1
                             : (row[j] > scratch[j - 1] ? row[j] : scratch[j - 1]);
            for (int j = 0; j <= m; j++)
                row[j] = scratch[j];
        }
        total += row[m];
    }
    printf("lcs: total %d, row[0] after the region %d\n", total, row[0]);
}

int main(void)
{
    carrays_fpriv(2, A, A[0]);
    lcs_rows(5, "acebd");

    /* lastprivate of a VLA: the last iteration's copy comes back. */
    int n = 7;
    double last[n];
#pragma omp parallel for lastprivate(last)
    for (int i = 0; i < 50; i++)
        for (int j = 0; j < n; j++)
            last[j] = i * 0.5 + j;
    printf("lastprivate: %g %g\n", last[0], last[n - 1]);

    /* Target regions: a table copied into every thread, a scratch row per thread. */
    int table[n], out[256];
    for (int j = 0; j < n; j++)
        table[j] = j * j;
#pragma omp target teams distribute parallel for firstprivate(table) map(from: out)
    for (int i = 0; i < 256; i++) {
        table[0] = i;                         /* written before it is read: private */
        out[i] = table[0] + table[i % n];
    }
    long sum = 0;
    for (int i = 0; i < 256; i++)
        sum += out[i];
    printf("device firstprivate: sum %ld, out[255] %d, table[0] %d\n", sum, out[255], table[0]);

    int scratch[n];
#pragma omp target map(from: out)
#pragma omp parallel for private(scratch)
    for (int i = 0; i < 256; i++) {
        for (int j = 0; j < n; j++)
            scratch[j] = i + j * table[j];
        out[i] = scratch[n - 1] - scratch[0];
    }
    sum = 0;
    for (int i = 0; i < 256; i++)
        sum += out[i];
    printf("device private: sum %ld\n", sum);

    int steps[n];
    for (int j = 0; j < n; j++)
        steps[j] = 1;
#pragma omp target firstprivate(steps) map(from: out[0:1])
    {
        for (int j = 1; j < n; j++)
            steps[j] = steps[j - 1] * 2;
        out[0] = steps[n - 1];
    }
    printf("device sequential firstprivate: %d, original %d\n", out[0], steps[n - 1]);
    return 0;
}
