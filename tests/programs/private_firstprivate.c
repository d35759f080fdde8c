/* private (uninitialized, per-thread) vs firstprivate (copy of the original), shared by default. */
#include <stdio.h>

#define N 200

int main(void)
{
    int x = 10, y = 20, i;
    int out[N];
    int original_unchanged = 1;
    double scale = 2.5;
    int arr[4] = { 1, 2, 3, 4 };

#pragma omp parallel for private(x) firstprivate(y)
    for (i = 0; i < N; i++) {
        x = i * 2;        /* written before read */
        y = y + 0;        /* still the original 20 in every iteration */
        out[i] = x + y;
    }
    printf("x = %d, y = %d, out[0] = %d, out[N-1] = %d\n", x, y, out[0], out[N - 1]);

    /* firstprivate modifications stay private */
#pragma omp parallel firstprivate(x) shared(original_unchanged)
    {
        x = x + 1000;
        if (x != 1010) {
#pragma omp atomic write
            original_unchanged = 0;
        }
    }
    printf("x = %d, each thread saw 10: %d\n", x, original_unchanged);

    /* firstprivate of an array copies the whole array */
    {
        int ok = 1;
#pragma omp parallel firstprivate(arr) reduction(&&: ok)
        {
            int k;
            for (k = 0; k < 4; k++)
                arr[k] *= 10;
            ok = ok && arr[0] == 10 && arr[3] == 40;
        }
        printf("arr = %d %d %d %d, private copies ok = %d\n", arr[0], arr[1], arr[2], arr[3], ok);
    }
    /* firstprivate in a target region with a double */
#pragma omp target teams distribute parallel for firstprivate(scale) map(from: out)
    for (i = 0; i < N; i++)
        out[i] = (int)(i * scale);
    printf("out[3] = %d, out[N-1] = %d\n", out[3], out[N - 1]);

    /* variables declared inside the region are private automatically */
    {
        long total = 0;
#pragma omp parallel for reduction(+: total)
        for (i = 0; i < N; i++) {
            int local = i % 10;
            local = local * local;
            total += local;
        }
        printf("total = %ld\n", total);
    }
    /* default(none) with explicit shared and private */
    {
        int n = N, cnt = 0, tmp;
#pragma omp parallel for default(none) shared(n) private(tmp) reduction(+: cnt)
        for (i = 0; i < n; i++) {
            tmp = i & 3;
            if (tmp == 0)
                cnt++;
        }
        printf("cnt = %d\n", cnt);
    }
    /* private pointer */
    {
        int *p;
        int data[N];
#pragma omp parallel for private(p)
        for (i = 0; i < N; i++) {
            p = &data[i];
            *p = N - i;
        }
        printf("data[0] = %d, data[N-1] = %d\n", data[0], data[N - 1]);
    }
    return 0;
}
