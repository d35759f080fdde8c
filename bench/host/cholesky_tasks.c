/* bench/host: blocked Cholesky factorisation A = U^T U with tasks ordered by
 * `depend(in/out)` on the blocks (right-looking: factor the diagonal block, solve the
 * blocks right of it, update the trailing blocks; each its own task).
 *
 *     cholesky_tasks [n [block [repetitions]]]
 *
 * A is symmetric and diagonally dominant, so positive definite; only its upper blocks
 * are kept, each `block` x `block` doubles, row-major. Every block's updates happen in
 * the order of k (the inout dependence on the block), so the factor is the same for any
 * number of threads. Prints the best repetition's time ("timing:") and a checksum. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

/* A symmetric entry in [0, 1) from the pair (row, column). */
static double entry(long row, long column) {
    unsigned long low = row < column ? row : column, high = row < column ? column : row;
    unsigned long h = (low * 2654435761UL) ^ (high * 40503UL + 977UL);
    h ^= h >> 13;
    h *= 0x5bd1e995UL;
    h ^= h >> 15;
    return (double)(h % 10007) / 10007.0;
}

static void initialise(double **blocks, long nb, long bs) {
    long n = nb * bs;
#pragma omp parallel for schedule(dynamic, 1)
    for (long bi = 0; bi < nb; bi++)
        for (long bj = bi; bj < nb; bj++)
            for (long r = 0; r < bs; r++)
                for (long c = 0; c < bs; c++) {
                    long row = bi * bs + r, column = bj * bs + c;
                    blocks[bi * nb + bj][r * bs + c] = row == column ? (double)n : entry(row, column);
                }
}

/* The diagonal block's own factor, in place on its upper triangle. */
static void factor_diagonal(double *a, long bs) {
    for (long r = 0; r < bs; r++) {
        double d = sqrt(a[r * bs + r]);
        a[r * bs + r] = d;
        for (long c = r + 1; c < bs; c++)
            a[r * bs + c] /= d;
        for (long s = r + 1; s < bs; s++) {
            double u = a[r * bs + s];
            for (long c = s; c < bs; c++)
                a[s * bs + c] -= u * a[r * bs + c];
        }
    }
}

/* x := U^-T x for the diagonal block's factor U (forward substitution, row by row). */
static void solve_right(const double *u, double *x, long bs) {
    for (long t = 0; t < bs; t++) {
        double d = u[t * bs + t];
        for (long c = 0; c < bs; c++)
            x[t * bs + c] /= d;
        for (long r = t + 1; r < bs; r++) {
            double factor = u[t * bs + r];
            for (long c = 0; c < bs; c++)
                x[r * bs + c] -= factor * x[t * bs + c];
        }
    }
}

/* a -= ui^T uj: the trailing update of block (i, j) from row k of the factor. */
static void update(const double *ui, const double *uj, double *a, long bs) {
    for (long t = 0; t < bs; t++)
        for (long r = 0; r < bs; r++) {
            double factor = ui[t * bs + r];
            for (long c = 0; c < bs; c++)
                a[r * bs + c] -= factor * uj[t * bs + c];
        }
}

static void cholesky(double **blocks, long nb, long bs) {
#pragma omp parallel
#pragma omp single
    for (long k = 0; k < nb; k++) {
#pragma omp task depend(inout: blocks[k * nb + k])
        factor_diagonal(blocks[k * nb + k], bs);
        for (long j = k + 1; j < nb; j++) {
#pragma omp task depend(in: blocks[k * nb + k]) depend(inout: blocks[k * nb + j])
            solve_right(blocks[k * nb + k], blocks[k * nb + j], bs);
        }
        for (long i = k + 1; i < nb; i++)
            for (long j = i; j < nb; j++) {
#pragma omp task depend(in: blocks[k * nb + i], blocks[k * nb + j]) depend(inout: blocks[i * nb + j])
                update(blocks[k * nb + i], blocks[k * nb + j], blocks[i * nb + j], bs);
            }
    }
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 2048;
    long bs = argc > 2 ? atol(argv[2]) : 128;
    int repetitions = argc > 3 ? atoi(argv[3]) : 3;
    if (bs <= 0 || n % bs != 0) {
        fprintf(stderr, "cholesky_tasks: the block size must divide n\n");
        return 1;
    }
    long nb = n / bs;
    double **blocks = calloc(nb * nb, sizeof(double *));
    for (long bi = 0; bi < nb; bi++)
        for (long bj = bi; bj < nb; bj++)
            blocks[bi * nb + bj] = malloc(bs * bs * sizeof(double));

    double best = 1e30;
    for (int r = 0; r < repetitions; r++) {
        initialise(blocks, nb, bs);
        double start = omp_get_wtime();
        cholesky(blocks, nb, bs);
        double seconds = omp_get_wtime() - start;
        if (seconds < best)
            best = seconds;
    }

    double checksum = 0.0;
    for (long bi = 0; bi < nb; bi++)
        for (long bj = bi; bj < nb; bj++)
            for (long r = 0; r < bs; r++)
                for (long c = bi == bj ? r : 0; c < bs; c++)
                    checksum += blocks[bi * nb + bj][r * bs + c];
    printf("threads: %d\n", omp_get_max_threads());
    printf("timing: factorisation best %.6f s\n", best);
    printf("timing: %.1f Mflop/s\n", (double)n * n * n / 3.0 / best * 1e-6);
    printf("checksum: %.15e\n", checksum);
    for (long k = 0; k < nb * nb; k++)
        free(blocks[k]);
    free(blocks);
    return 0;
}
