/* Passing 2-D arrays to functions: fixed column count, pointer-to-row, flattened with manual indexing. */
#include <stdio.h>

#define R 3
#define C 4

static void fill(int m[][C], int rows)
{
    int i, j;
    for (i = 0; i < rows; i++)
        for (j = 0; j < C; j++)
            m[i][j] = i * 10 + j;
}

static int sum_rowptr(int (*m)[C], int rows)
{
    int i, j, s = 0;
    for (i = 0; i < rows; i++)
        for (j = 0; j < C; j++)
            s += m[i][j];
    return s;
}

static int trace_flat(const int *m, int n, int ld)
{
    int i, s = 0;
    for (i = 0; i < n; i++)
        s += m[i * ld + i];
    return s;
}

static void transpose(const double a[R][C], double t[C][R])
{
    int i, j;
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++)
            t[j][i] = a[i][j];
}

static void matvec(const double a[R][C], const double *x, double *y)
{
    int i, j;
    for (i = 0; i < R; i++) {
        y[i] = 0;
        for (j = 0; j < C; j++)
            y[i] += a[i][j] * x[j];
    }
}

static int row_sum(const int row[C]) { int j, s = 0; for (j = 0; j < C; j++) s += row[j]; return s; }

static void cube(int c[2][2][2])
{
    int i, j, k;
    for (i = 0; i < 2; i++)
        for (j = 0; j < 2; j++)
            for (k = 0; k < 2; k++)
                c[i][j][k] = 4 * i + 2 * j + k;
}

int main(void)
{
    int m[R][C];
    double a[R][C], t[C][R], x[C] = { 1, 2, 3, 4 }, y[R];
    int c3[2][2][2];
    int *heap_like;
    int i, j;

    fill(m, R);
    printf("sum = %d\n", sum_rowptr(m, R));
    printf("sum of last 2 rows = %d\n", sum_rowptr(m + 1, R - 1));
    printf("trace = %d\n", trace_flat(&m[0][0], R, C));
    for (i = 0; i < R; i++)
        printf("row_sum(m[%d]) = %d\n", i, row_sum(m[i]));
    for (i = 0; i < R; i++)
        for (j = 0; j < C; j++)
            a[i][j] = (i + 1) * 0.5 + j;
    transpose((const double (*)[C])a, t);
    for (j = 0; j < C; j++)
        printf("t[%d] = %.1f %.1f %.1f\n", j, t[j][0], t[j][1], t[j][2]);
    matvec((const double (*)[C])a, x, y);
    printf("y = %.2f %.2f %.2f\n", y[0], y[1], y[2]);
    cube(c3);
    printf("c3[1][0][1] = %d, c3[1][1][1] = %d\n", c3[1][0][1], c3[1][1][1]);
    /* 1-D storage viewed as 2-D through a cast */
    {
        int storage[12];
        int (*view)[4] = (int (*)[4])storage;
        for (i = 0; i < 12; i++) storage[i] = i;
        printf("view[2][1] = %d\n", view[2][1]);
        heap_like = storage;
        printf("heap_like[1*4+3] = %d\n", heap_like[1 * 4 + 3]);
    }
    return 0;
}
