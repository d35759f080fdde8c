/* Synchronous target regions that automatic concurrency (OMP2GPU_AUTO_ASYNC=1,
 * docs/async.md) may leave running beside each other: each region's kernel writes one
 * array through its parameters, so the runtime knows its footprint. K1 and K2 write
 * different arrays (they may overlap); K3 reads K1's array (it must follow K1); K4 writes
 * what K2 reads... no: K4 writes K2's array (it must follow K2). The host then copies
 * results back (`target update`), which must wait for them all. Marks on stderr (`mark:
 * NAME`) let tests/native/test_target_tasks.py see where the host went on; stdout has
 * the results, as gcc's binary prints them. */
#include <stdio.h>

#define N (1 << 23)     /* kernels long enough to be running when the next is launched, on a fast GPU too */

static double a[N], b[N], c[N];

static void mark(const char *name) { fprintf(stderr, "mark: %s\n", name); }

int main(void)
{
    double *x = a, *y = b, *z = c;
    for (int i = 0; i < N; i++) a[i] = b[i] = c[i] = 1;
#pragma omp target data map(to: a, b, c)
    {
        for (int step = 0; step < 3; step++) {
#pragma omp target teams distribute parallel for /* K1 */
            for (int i = 0; i < N; i++) x[i] = x[i] * 0.5 + i;
#pragma omp target teams distribute parallel for /* K2 */
            for (int i = 0; i < N; i++) y[i] = y[i] + 2 * i;
#pragma omp target teams distribute parallel for /* K3 */
            for (int i = 0; i < N; i++) z[i] = z[i] * 0.25 + x[i];
#pragma omp target teams distribute parallel for /* K4 */
            for (int i = 0; i < N; i++) y[i] = y[i] * 0.75;
        }
        mark("issued");
#pragma omp target update from(a, b, c)
        mark("updated");
    }
    double sa = 0, sb = 0, sc = 0;
    for (int i = 0; i < N; i++) sa += a[i] * (i % 3), sb += b[i] * (i % 5), sc += c[i] * (i % 7);
    printf("a %.4f\nb %.4f\nc %.4f\n", sa, sb, sc);
    return 0;
}
