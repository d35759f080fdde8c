/* Explicit barriers separate phases: data written before a barrier is visible to all threads after it. */
#include <stdio.h>
#include <omp.h>

#define MAXT 64
#define N 1000

int main(void)
{
    int slots[MAXT];
    int ok = 1, i;
    static int a[N], b[N], c[N];

#pragma omp parallel reduction(&&: ok)
    {
        int id = omp_get_thread_num(), nt = omp_get_num_threads();
        int phase, left;
        if (nt <= MAXT) {
            for (phase = 1; phase <= 5; phase++) {
                slots[id] = id * 100 + phase;
#pragma omp barrier
                left = (id + nt - 1) % nt;
                ok = ok && slots[left] == left * 100 + phase;
#pragma omp barrier
            }
        }
    }
    printf("ring exchange ok: %d\n", ok);

    /* worksharing loops with implicit barriers: phase 2 reads what other threads wrote in phase 1 */
#pragma omp parallel
    {
#pragma omp for
        for (i = 0; i < N; i++)
            a[i] = i * 3;
#pragma omp for
        for (i = 0; i < N; i++)
            b[i] = a[N - 1 - i] + a[(i * 7) % N];
#pragma omp for
        for (i = 0; i < N; i++)
            c[i] = b[i] - b[(i + 1) % N];
    }
    {
        long s = 0;
        for (i = 0; i < N; i++)
            s += (long)c[i] * (i % 5) + b[i];
        printf("phases s = %ld, b[0] = %d, c[10] = %d\n", s, b[0], c[10]);
    }

    /* iterative relaxation with nowait + explicit barrier */
    for (i = 0; i < N; i++)
        a[i] = (i % 10 == 0) ? 1000 : 0;
#pragma omp parallel
    {
        int it, j;
        for (it = 0; it < 10; it++) {
#pragma omp for nowait
            for (j = 1; j < N - 1; j++)
                b[j] = (a[j - 1] + 2 * a[j] + a[j + 1]) / 4;
#pragma omp barrier
#pragma omp for
            for (j = 1; j < N - 1; j++)
                a[j] = b[j];
        }
    }
    {
        long s = 0;
        for (i = 0; i < N; i++)
            s += a[i] * (long)(i % 13);
        printf("relaxation checksum = %ld, a[1] = %d, a[500] = %d\n", s, a[1], a[500]);
    }

    /* barrier inside a target parallel region */
    {
        int arr[256], okt = 1;
#pragma omp target parallel map(from: arr) map(tofrom: okt) reduction(&&: okt)
        {
            int id = omp_get_thread_num(), nt = omp_get_num_threads(), k;
            for (k = id; k < 256; k += nt)
                arr[k] = k;
#pragma omp barrier
            for (k = id; k < 256; k += nt)
                okt = okt && arr[255 - k] == 255 - k;
        }
        printf("target barrier ok: %d, arr[200] = %d\n", okt, arr[200]);
    }
    return 0;
}
