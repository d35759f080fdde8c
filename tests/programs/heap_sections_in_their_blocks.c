/* Map sections that stay inside the heap blocks they start: a banded sparse matrix in
 * CSR form whose rows are mapped one at a time through pointers into the middle of the
 * index and value arrays (the 8 bytes before such a pointer are the previous row's
 * column index, small numbers that look like a malloc chunk's size word), blocks from
 * calloc, realloc and posix_memalign mapped to their last byte, and blocks malloc'd by
 * an OpenMP thread (a glibc thread arena) until the arena takes a second heap. The
 * runtime's check that a section stays in its heap block must refuse none of them. */
// std: gnu99
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define ROWS 600
#define BAND 5

struct csr {
    int rows;
    long *start, *column;
    double *value;
};

static void build(struct csr *m) {
    m->rows = ROWS;
    m->start = malloc((ROWS + 1) * sizeof(long));
    m->column = malloc(ROWS * BAND * sizeof(long));
    m->value = malloc(ROWS * BAND * sizeof(double));
    m->start[0] = 0;
    for (int r = 0; r < ROWS; r++) {
        int count = 0;
        for (int k = -BAND / 2; k <= BAND / 2; k++) {
            int c = r + 7 * k;
            if (c < 0 || c >= ROWS) continue;
            m->column[m->start[r] + count] = c;
            m->value[m->start[r] + count] = 1.0 / (1 + r % 5 + count);
            count++;
        }
        m->start[r + 1] = m->start[r] + count;
    }
}

/* y[r] for each row, the row's slices mapped on their own */
static double multiply_rows(const struct csr *m, const double *x, double *y) {
    double sum = 0.0;
    for (int r = 0; r < m->rows; r++) {
        long first = m->start[r], count = m->start[r + 1] - first;
        long *columns = m->column + first;
        double *values = m->value + first, dot = 0.0;
        #pragma omp target map(to: columns[0:count], values[0:count], x[0:ROWS]) map(tofrom: dot)
        for (long k = 0; k < count; k++)
            dot += values[k] * x[columns[k]];
        y[r] = dot;
        sum += dot;
    }
    return sum;
}

struct particles {
    double *x;                  /* first: the struct's block starts with the pointer */
    int n;
};

/* the struct and its array, each a malloc'd block, mapped as member and pointee */
static double drift(struct particles *p, double dt) {
    #pragma omp target map(to: p[0:1]) map(tofrom: p->x[0:p->n])
    for (int i = 0; i < p->n; i++)
        p->x[i] += dt * (i % 4);
    return p->x[p->n - 1];
}

static double fill_and_sum(double *block, long n, double scale) {
    double sum = 0.0;
    #pragma omp target teams distribute parallel for map(tofrom: block[0:n]) reduction(+: sum)
    for (long i = 0; i < n; i++) {
        block[i] = scale * (double)(i % 13);
        sum += block[i];
    }
    return sum;
}

int main(void) {
    struct csr m;
    double *x = malloc(ROWS * sizeof(double)), *y = malloc(ROWS * sizeof(double));
    build(&m);
    for (int i = 0; i < ROWS; i++) x[i] = 1.0 + (i % 3);
    for (int sweep = 0; sweep < 2; sweep++) {
        double sum = multiply_rows(&m, x, y);
        printf("sweep %d: sum %.6f, y[17] %.6f\n", sweep, sum, y[17]);
    }

    double *zeros = calloc(777, sizeof(double));
    double *grown = malloc(100 * sizeof(double));
    double *aligned = 0;
    grown = realloc(grown, 3000 * sizeof(double));
    if (posix_memalign((void **)&aligned, 64, 1001 * sizeof(double))) return 1;
    printf("calloc %.1f realloc %.1f memalign %.1f\n", fill_and_sum(zeros, 777, 1.0),
           fill_and_sum(grown, 3000, 0.5), fill_and_sum(aligned, 1001, 2.0));

    struct particles *p = malloc(sizeof *p);
    p->n = 900;
    p->x = calloc(p->n, sizeof(double));
    for (int s = 0; s < 3; s++) drift(p, 0.5);
    printf("particles: last %.2f\n", drift(p, 0.25));
    free(p->x);
    free(p);

    /* an OpenMP thread's blocks: 2,400 of 32 KB, past a thread arena's first 64 MB heap */
    enum { BLOCKS = 2400, BLOCK = 4000 };
    double **blocks = malloc(BLOCKS * sizeof(double *));
    #pragma omp parallel num_threads(2)
    {
        if (omp_get_thread_num() == omp_get_num_threads() - 1)
            for (int b = 0; b < BLOCKS; b++) blocks[b] = malloc(BLOCK * sizeof(double));
    }
    double arena_sum = 0.0;
    for (int b = 0; b < BLOCKS; b += 599) arena_sum += fill_and_sum(blocks[b], BLOCK, 1.0 + b % 3);
    arena_sum += fill_and_sum(blocks[BLOCKS - 1], BLOCK, 3.0);
    printf("thread blocks %.1f\n", arena_sum);
    for (int b = 0; b < BLOCKS; b++) free(blocks[b]);
    free(blocks);
    free(zeros);
    free(grown);
    free(aligned);
    free(m.start);
    free(m.column);
    free(m.value);
    free(x);
    free(y);
    return 0;
}
