/* OpenMP 5.1 loop transformations as codes write them: a tiled matrix transpose
   (`tile sizes(8, 8)` under `target teams distribute parallel for collapse(2)`, which
   associates with the generated floor loops), a blocked stencil sweep tiled with sizes
   that do not divide the extents, in a time-step loop, and `unroll partial(4)` /
   `unroll full` in the host's reductions. gcc 12 ignores the tile and unroll directives,
   so its output is that of the untransformed loops, which the transformed ones must
   reproduce; each check also prints whether the result agrees with a plain sequential
   computation of the same values (so the output says "ok" independently of gcc). */
#include <stdio.h>
#include <stdlib.h>

#define NR 45
#define NC 37
#define STEPS 3

struct field {
    double a[NR][NC];
    double t[NC][NR];
    double next[NR][NC];
};

static long checksum(const double *values, int count)
{
    long sum = 0;
#pragma omp parallel for reduction(+: sum)
#pragma omp unroll partial(4)
    for (int k = 0; k < count; k++)
        sum += (long)values[k] * (k % 13 + 1);
    return sum;
}

int main(int argc, char **argv)
{
    struct field *f = malloc(sizeof *f);
    int rows = NR, cols = NC;
    if (argc > 4) {                 /* the harness runs it with two arguments */
        rows = atoi(argv[3]);
        cols = atoi(argv[4]);
    }
    for (int i = 0; i < NR; i++)
        for (int j = 0; j < NC; j++)
            f->a[i][j] = (i * 7 + j * 3) % 19;
    double (*a)[NC] = f->a, (*t)[NR] = f->t, (*next)[NC] = f->next;

    for (int step = 0; step < STEPS; step++) {
#pragma omp target teams distribute parallel for collapse(2) map(to: a[0:NR]) map(from: t[0:NC])
#pragma omp tile sizes(8, 8)
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++)
                t[j][i] = a[i][j];
        /* a five-point sweep over the interior, tiled 5 x 6 (neither divides 43 x 35) */
#pragma omp target teams distribute parallel for map(to: a[0:NR]) map(tofrom: next[0:NR])
#pragma omp tile sizes(5, 6)
        for (int i = 1; i < rows - 1; i++)
            for (int j = cols - 2; j >= 1; j--)
                next[i][j] = (long)(a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1] + step) % 23;
        int agree = 1;
        for (int i = 0; i < rows; i++)
            for (int j = 0; j < cols; j++) {
                agree &= t[j][i] == a[i][j];
                if (i > 0 && i < rows - 1 && j > 0 && j < cols - 1)
                    agree &= next[i][j] == (long)(a[i - 1][j] + a[i + 1][j] + a[i][j - 1] + a[i][j + 1] + step) % 23;
            }
        for (int i = 1; i < rows - 1; i++)
            for (int j = 1; j < cols - 1; j++)
                a[i][j] = next[i][j];
        printf("step %d: transpose %ld sweep %ld %s\n", step, checksum(&t[0][0], NC * NR),
               checksum(&a[0][0], NR * NC), agree ? "ok" : "WRONG");
    }

    /* C89 style: the variables declared before the loops. Under `parallel for` each
       thread's tile loops have their own i and j; a sequential tile leaves them as the
       original loops would. */
    int i, j;
    long blocked = 0;
#pragma omp parallel for collapse(2) reduction(+: blocked)
#pragma omp tile sizes(4, 3)
    for (i = 0; i < rows; i++)
        for (j = 0; j < cols; j += 2)
            blocked += (long)t[j][i] * (i + 1);
#pragma omp tile sizes(6, 5)
    for (i = rows - 1; i >= 0; i--)
        for (j = 0; j <= cols - 1; j++)
            blocked -= (long)a[i][j] % 3;
    printf("blocked %ld, after the loops i %d j %d\n", blocked, i, j);

    long squares = 0, odd = 0;
#pragma omp unroll full
    for (int k = 0; k < 16; k++)
        squares += (long)k * k;
#pragma omp parallel for reduction(+: odd)
#pragma omp unroll partial(3)
    for (int k = 99; k >= 1; k -= 2)
        odd += k;
    printf("squares %ld %s odd %ld %s\n", squares, squares == 1240 ? "ok" : "WRONG", odd,
           odd == 2500 ? "ok" : "WRONG");
    free(f);
    return 0;
}
