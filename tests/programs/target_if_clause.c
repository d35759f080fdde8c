/* target if(...): the region runs on the device or the host; results must be the same either way. */
#include <stdio.h>

#define N 2000

static long run(int *a, int n, int use_device)
{
    long s = 0;
    int i;
#pragma omp target teams distribute parallel for if(use_device) map(tofrom: a[0:n]) map(tofrom: s) reduction(+: s)
    for (i = 0; i < n; i++) {
        a[i] = a[i] * 2 + 1;
        s += a[i];
    }
    return s;
}

int main(void)
{
    int a[N], b[N];
    int i, threshold = 1000;
    long s1, s2;

    for (i = 0; i < N; i++)
        a[i] = b[i] = i % 50;
    s1 = run(a, N, 1);
    s2 = run(b, N, 0);
    printf("device path %ld, host path %ld, equal %d\n", s1, s2, s1 == s2);
    printf("a[N-1] = %d, b[N-1] = %d\n", a[N - 1], b[N - 1]);

    /* if with a computed condition on a plain target region */
    for (i = 0; i < 2; i++) {
        int n = i ? 500 : 5000, r = 0;
#pragma omp target if(n > threshold) map(tofrom: r)
        {
            int k;
            for (k = 0; k < n; k++)
                r += k % 3;
        }
        printf("n = %d, r = %d\n", n, r);
    }
    /* if(target: ...) directive-name modifier and if on target data */
    {
        int x[10], k;
        for (k = 0; k < 10; k++)
            x[k] = k;
#pragma omp target data map(tofrom: x) if(0)
        {
#pragma omp target if(target: 0) map(tofrom: x)
            {
                int j;
                for (j = 0; j < 10; j++)
                    x[j] *= x[j];
            }
        }
        printf("x[9] = %d, x[3] = %d\n", x[9], x[3]);
    }
    /* if clause on target update and enter/exit data */
    {
        int y[4] = { 1, 2, 3, 4 }, on = 1;
#pragma omp target enter data map(to: y) if(on)
#pragma omp target map(tofrom: y)
        {
            int j;
            for (j = 0; j < 4; j++)
                y[j] += 10;
        }
#pragma omp target update from(y) if(on)
        printf("y = %d %d %d %d\n", y[0], y[1], y[2], y[3]);
#pragma omp target exit data map(delete: y) if(on)
    }
    /* if on a parallel nested in a target */
    {
        int cnt = 0;
#pragma omp target parallel for if(parallel: 0) map(tofrom: cnt) reduction(+: cnt)
        for (i = 0; i < 100; i++)
            cnt++;
        printf("cnt = %d\n", cnt);
    }
    return 0;
}
