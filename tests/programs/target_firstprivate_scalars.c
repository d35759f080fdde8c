/* Scalars in target regions are firstprivate by default; explicit firstprivate and map(tofrom) differ. */
#include <stdio.h>

int main(void)
{
    int n = 10, result = 0;
    double factor = 1.5;
    long long big = 1LL << 40;
    char ch = 'k';
    float f = 0.25f;
    int i;

    /* default: scalars are firstprivate, so writes do not come back */
#pragma omp target map(tofrom: result)
    {
        result = n * 2;
        n = 999;       /* private copy only */
    }
    printf("result = %d, n unchanged = %d\n", result, n);

#pragma omp target firstprivate(factor, big, ch, f) map(tofrom: result)
    {
        result = (int)(factor * 4) + (int)(big >> 38) + ch + (int)(f * 8);
        factor = 0;
        big = 0;
    }
    printf("result = %d, factor = %.1f, big = %lld\n", result, factor, big);

    /* map(tofrom:) makes writes visible */
#pragma omp target map(tofrom: n)
    n = n + 1;
    printf("n after tofrom = %d\n", n);

    /* firstprivate scalar used as a loop bound in a combined construct */
    {
        int arr[64];
        int m = 64, off = 3;
#pragma omp target teams distribute parallel for firstprivate(off) map(from: arr)
        for (i = 0; i < m; i++)
            arr[i] = i + off;
        printf("arr[0] = %d, arr[63] = %d\n", arr[0], arr[63]);
    }
    /* private scalar in target: written before use */
    {
        int tmp = 5, out = 0;
#pragma omp target private(tmp) map(tofrom: out)
        {
            tmp = 21;
            out = tmp * 2;
        }
        printf("out = %d, tmp = %d\n", out, tmp);
    }
    /* pointer scalar: firstprivate of a pointer into a mapped array */
    {
        int data[8] = { 1, 2, 3, 4, 5, 6, 7, 8 }, s = 0;
#pragma omp target map(to: data) map(tofrom: s)
        {
            int *p = data + 2, j;
            for (j = 0; j < 4; j++)
                s += p[j];
        }
        printf("s = %d\n", s);
    }
    return 0;
}
