/* Array sections with non-zero offsets: map(tofrom: a[10:20]) touches only that part. */
#include <stdio.h>
#include <stdlib.h>

#define N 64

static void print_range(const char *label, const int *a, int lo, int hi)
{
    int i;
    printf("%s:", label);
    for (i = lo; i < hi; i++)
        printf(" %d", a[i]);
    printf("\n");
}

int main(void)
{
    int a[N], i;
    int *h = malloc(N * sizeof *h);
    double m[8][8];
    int lo = 40, len = 8;

    for (i = 0; i < N; i++) {
        a[i] = i;
        h[i] = -i;
    }
#pragma omp target map(tofrom: a[10:20])
    {
        int j;
        for (j = 10; j < 30; j++)
            a[j] = a[j] * 100;
    }
    print_range("a[5:30]", a, 5, 35);

    /* section with runtime offset and length on a heap pointer */
#pragma omp target teams distribute parallel for map(tofrom: h[lo:len])
    for (i = lo; i < lo + len; i++)
        h[i] = h[i] * h[i];
    print_range("h[36:16]", h, 36, 52);

    /* input section and output section of the same array, through two pointers */
    {
        int *src = a, *dst = a + 50;
#pragma omp target map(to: src[0:10]) map(from: dst[0:10])
        {
            int j;
            for (j = 0; j < 10; j++)
                dst[j] = src[j] + 7;
        }
    }
    print_range("a[48:14]", a, 48, 62);

    /* section omitting the length: a[k:] extends to the end of the array */
#pragma omp target map(tofrom: a[60:])
    {
        int j;
        for (j = 60; j < N; j++)
            a[j] = -a[j];
    }
    print_range("a[58:]", a, 58, N);

    /* rows of a 2-D array: m[2:3][0:8] */
    for (i = 0; i < 64; i++)
        m[i / 8][i % 8] = i;
#pragma omp target map(tofrom: m[2:3][0:8])
    {
        int r, c;
        for (r = 2; r < 5; r++)
            for (c = 0; c < 8; c++)
                m[r][c] = m[r][c] * 0.5;
    }
    printf("m rows: %.1f %.1f %.1f %.1f %.1f\n", m[1][7], m[2][0], m[3][3], m[4][7], m[5][0]);

    /* target data with a section; the inner target finds it present and does not copy */
#pragma omp target data map(tofrom: h[8:16])
    {
#pragma omp target teams distribute parallel for map(tofrom: h[8:16])
        for (i = 8; i < 24; i++)
            h[i] += 1000;
    }
    print_range("h[6:20]", h, 6, 26);
    free(h);
    return 0;
}
