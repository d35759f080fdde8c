/* Non-rectangular collapsed loop nests (OpenMP 5.0 2.9.1: an inner loop's bounds affine
   in an outer loop's variable) as codes write them: a lower-triangular matrix-vector
   product and a pair-interaction energy (each pair once, j > i) in target regions inside
   a time-step loop, a block-banded update whose middle loop is rectangular (collapse(3)),
   a strided trapezoid, a host `parallel for` with lastprivate, a `taskloop` and a `simd`
   over triangles. Every sum is of integers (exact in double), so no summation order shows. */
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>

#define N 48
#define STEPS 3

struct particles {
    int x[N], y[N];
    double charge[N];
};

struct system {
    double lower[N][N];      /* a lower-triangular matrix, rows i, columns j <= i */
    double v[N], w[N];
    struct particles p;
};

static void init(struct system *s)
{
    for (int i = 0; i < N; i++) {
        s->v[i] = i % 5 + 1;
        s->w[i] = 0.0;
        s->p.x[i] = (i * 17) % 23;
        s->p.y[i] = (i * 29) % 31;
        s->p.charge[i] = (i % 3) - 1;
        for (int j = 0; j < N; j++)
            s->lower[i][j] = j <= i ? (double)((i + 2 * j) % 7) : 0.0;
    }
}

int main(int argc, char **argv)
{
    struct system *s = malloc(sizeof *s);
    int n = N;
    if (argc > 3)                   /* the harness runs it with two arguments */
        n = atoi(argv[3]);
    init(s);
    double (*lower)[N] = s->lower;
    double *v = s->v, *w = s->w, *charge = s->p.charge;
    int *px = s->p.x, *py = s->p.y;

    for (int step = 0; step < STEPS; step++) {
        /* w = L v, one (i, j) pair per iteration */
#pragma omp target teams distribute parallel for collapse(2) map(to: lower[0:N], v[0:N]) map(tofrom: w[0:N])
        for (int i = 0; i < n; i++)
            for (int j = 0; j <= i; j++) {
#pragma omp atomic
                w[i] += lower[i][j] * v[j];
            }
        /* pair energy over j > i, and how many pairs are close */
        double energy = 0.0;
        long close = 0;
#pragma omp target teams distribute parallel for collapse(2) reduction(+: energy, close) \
            map(to: px[0:N], py[0:N], charge[0:N])
        for (int i = 0; i < n - 1; i++)
            for (int j = i + 1; j < n; j++) {
                int dx = px[i] - px[j], dy = py[i] - py[j];
                int r2 = dx * dx + dy * dy;
                energy += charge[i] * charge[j] * (r2 % 11);
                close += r2 < 50;
            }
        /* v decays towards w / (row length), a rectangular loop between the triangle's two */
#pragma omp target teams distribute collapse(3) map(tofrom: v[0:N]) map(to: w[0:N])
        for (int i = 0; i < n; i++)
            for (int k = 0; k < 2; k++)
                for (int j = n - 1; j >= i; j--)
                    if (j == i && k == 0)
                        v[i] = (long)(v[i] + w[i] / (i + 1)) % 97;
        printf("step %d: w[n-1] %.0f energy %.0f close %ld v[7] %.0f\n", step, w[n - 1], energy, close, v[7]);
    }

    /* a strided trapezoid: every second row, columns 2i .. 3n/2 step 2 */
    long trapezoid = 0;
#pragma omp target teams distribute parallel for collapse(2) reduction(+: trapezoid) map(tofrom: trapezoid)
    for (int i = 0; i < n; i += 2)
        for (int j = 2 * i; j < 3 * n / 2; j += 2)
            trapezoid += i * 1000 + j;

    /* the host: lastprivate (the last pair's), a taskloop, and a simd */
    int li = -1, lj = -1;
    long upper = 0;
#pragma omp parallel for collapse(2) lastprivate(li, lj) reduction(+: upper)
    for (int i = 0; i < n; i++)
        for (int j = n - 1; j > i; j--) {
            upper += (long)lower[j][i] * (j - i);
            li = i;
            lj = j;
        }
    long tasks = 0;
    int ti = -1, tj = -1;
    /* no grainsize: gcc 13 refuses grainsize/num_tasks on a non-rectangular taskloop */
#pragma omp parallel
#pragma omp single
#pragma omp taskloop collapse(2) lastprivate(ti, tj)
    for (ti = 0; ti < n; ti++)
        for (tj = ti; tj < n; tj++) {
#pragma omp atomic
            tasks += (long)ti * tj;
        }
    /* lastprivate of the iteration variables: each one step past its last iteration's
       value (the strictly upper triangle's last pair is (n-2, n-1)) */
    int ri = -1, rj = -1;
    long pairs = 0;
#pragma omp parallel for collapse(2) lastprivate(ri, rj) reduction(+: pairs)
    for (ri = 0; ri < n; ri++)
        for (rj = n - 1; rj > ri; rj--)
            pairs++;
    printf("taskloop ends at %d %d, %ld pairs end at %d %d\n", ti, tj, pairs, ri, rj);
    long diagonal_band = 0;
#pragma omp simd collapse(2) reduction(+: diagonal_band)
    for (int i = 0; i < n; i++)
        for (int j = 2 * n - 3 * i; j > 0; j -= 3)
            diagonal_band += i * j;
    /* size_t counters, as C codes write them: the strictly lower triangle */
    size_t rows = (size_t)n;
    unsigned long strict = 0;
#pragma omp parallel for collapse(2) reduction(+: strict)
    for (size_t i = 0; i < rows; i++)
        for (size_t j = 0; j < i; j++)
            strict += (unsigned long)lower[i][j] * (i - j);
    printf("trapezoid %ld upper %ld li %d lj %d tasks %ld band %ld strict %lu\n", trapezoid, upper, li, lj, tasks,
           diagonal_band, strict);
    free(s);
    return 0;
}
