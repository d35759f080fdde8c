/* A 3-D heat stencil across MPI ranks, each rank's slab on its GPU (or CPU device).
 *
 *     mpiexec -n RANKS omp2gpu run examples/mpi/stencil3d.c [-- N STEPS [PLANES [OVERLAP]]]
 *
 * The N x N x N grid (N x N x PLANES*RANKS with PLANES: weak scaling, every rank the
 * same slab whatever their number) is cut into slabs along z, one per rank, each with a ghost plane
 * above and below. Every step a 7-point Jacobi sweep updates the slab, the halo
 * exchange hidden behind it as real codes hide it:
 *   1. the interior planes (2 .. nz-1, which read no ghost plane) start as a
 *      `target ... nowait` task: its kernel runs while the host goes on;
 *   2. meanwhile the boundary planes come back from the device (target update from),
 *      are exchanged with the neighbours (MPI_Sendrecv) and the ghost planes go back to
 *      the device (target update to): the interior kernel neither writes what these
 *      copies read nor reads what they write;
 *   3. the two boundary planes (1 and nz) are updated, reading the new ghosts;
 *   4. taskwait: the interior kernel has finished; the grids swap.
 * OVERLAP 0 does it the plain way, for comparison (bench/scale): the exchange, then one
 * synchronous kernel over the whole slab.
 * The tasks need a team to be deferred: the steps run in `parallel num_threads(2)`'s
 * master thread (the MPI calls with it: MPI_THREAD_FUNNELED), whose other thread runs
 * the interior task's body, which only enqueues the kernel.
 * At the end rank 0 gathers the slabs and prints a checksum over the whole grid in
 * global order: the arithmetic of every point is the same however many ranks share the
 * grid, so the checksum is bit for bit the one-rank result (tests/targets/test_mpi.py).
 * "time:" is the time-step loop (the figure of merit of a weak-scaling study: the
 * slowest rank's); "total:" adds mapping the grids in and copying the result out. */
#include <mpi.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AT(g, i, j, k) (g)[((size_t)(k) * n + (j)) * n + (i)]    /* k: the slab's plane, 0 and nz+1 ghosts */

static void initialise(double *grid, int n, int nz, int z0, int depth) {
    for (int k = 0; k <= nz + 1; k++)
        for (int j = 0; j < n; j++)
            for (int i = 0; i < n; i++) {
                int z = z0 + k - 1;                  /* the global plane */
                int edge = i == 0 || j == 0 || i == n - 1 || j == n - 1 || z <= 0 || z >= depth - 1;
                AT(grid, i, j, k) = edge ? 1.0 + 0.001 * ((i + 2 * j + 3 * z) % 17) : 0.0;
            }
}

static void exchange(double *grid, int n, int nz, int rank, int ranks) {
    size_t plane = (size_t)n * n;
    int below = rank > 0 ? rank - 1 : MPI_PROC_NULL, above = rank < ranks - 1 ? rank + 1 : MPI_PROC_NULL;
    double *first = grid + plane, *last = grid + (size_t)nz * plane;
    double *ghost_below = grid, *ghost_above = grid + (size_t)(nz + 1) * plane;
#pragma omp target update from(first[0:plane], last[0:plane])
    MPI_Sendrecv(last, (int)plane, MPI_DOUBLE, above, 0, ghost_below, (int)plane, MPI_DOUBLE, below, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(first, (int)plane, MPI_DOUBLE, below, 1, ghost_above, (int)plane, MPI_DOUBLE, above, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (below != MPI_PROC_NULL) {
#pragma omp target update to(ghost_below[0:plane])
    }
    if (above != MPI_PROC_NULL) {
#pragma omp target update to(ghost_above[0:plane])
    }
}

/* One point of the Jacobi sweep: next from grid, the grid's fixed faces left alone. */
#pragma omp declare target
static inline void relax(const double *grid, double *next, int n, int depth, int z0, int i, int j, int k) {
    int z = z0 + k - 1;
    if (z == 0 || z == depth - 1)
        return;
    AT(next, i, j, k) = (AT(grid, i - 1, j, k) + AT(grid, i + 1, j, k) + AT(grid, i, j - 1, k)
                         + AT(grid, i, j + 1, k) + AT(grid, i, j, k - 1) + AT(grid, i, j, k + 1)) / 6.0;
}
#pragma omp end declare target

/* One time step of the slab (see the top of the file). */
static void step(double *grid, double *next, int n, int nz, int depth, int z0, int rank, int ranks,
                 int overlap) {
    if (!overlap) {
        exchange(grid, n, nz, rank, ranks);
#pragma omp target teams distribute parallel for collapse(3)
        for (int k = 1; k <= nz; k++)
            for (int j = 1; j < n - 1; j++)
                for (int i = 1; i < n - 1; i++)
                    relax(grid, next, n, depth, z0, i, j, k);
        return;
    }
#pragma omp target teams distribute parallel for collapse(3) nowait
    for (int k = 2; k <= nz - 1; k++)
        for (int j = 1; j < n - 1; j++)
            for (int i = 1; i < n - 1; i++)
                relax(grid, next, n, depth, z0, i, j, k);
    exchange(grid, n, nz, rank, ranks);
    int boundaries = nz > 1 ? 2 : 1;
#pragma omp target teams distribute parallel for collapse(3)
    for (int b = 0; b < boundaries; b++)
        for (int j = 1; j < n - 1; j++)
            for (int i = 1; i < n - 1; i++)
                relax(grid, next, n, depth, z0, i, j, b == 0 ? 1 : nz);
#pragma omp taskwait
}

int main(int argc, char **argv) {
    int provided;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
    int rank, ranks;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    int n = argc > 1 ? atoi(argv[1]) : 64;
    int steps = argc > 2 ? atoi(argv[2]) : 20;
    int planes = argc > 3 ? atoi(argv[3]) : 0;   /* weak scaling: this many planes per rank */
    int overlap = argc > 4 ? atoi(argv[4]) : 1;   /* 0: no exchange hidden behind the interior */
    int depth = planes > 0 ? planes * ranks : n;  /* the grid's extent along z */
    if (n < 3 || depth < 3 || depth % ranks != 0 || provided < MPI_THREAD_FUNNELED) {
        if (rank == 0)
            fprintf(stderr, "stencil3d: N (%d) must be at least 3 and a multiple of the ranks (%d), "
                            "and the MPI must allow MPI_THREAD_FUNNELED\n", n, ranks);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int nz = depth / ranks, z0 = rank * nz;      /* this rank's planes: z0 .. z0 + nz - 1 */
    size_t cells = (size_t)n * n * (nz + 2);
    double *grid = malloc(cells * sizeof *grid), *next = malloc(cells * sizeof *next);
    initialise(grid, n, nz, z0, depth);
    memcpy(next, grid, cells * sizeof *grid);

    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime(), loop_start = 0.0, loop_seconds = 0.0;
#pragma omp target data map(tofrom: grid[0:cells]) map(to: next[0:cells])
    {
        MPI_Barrier(MPI_COMM_WORLD);
        loop_start = MPI_Wtime();
#pragma omp parallel num_threads(2)
#pragma omp master
        for (int s = 0; s < steps; s++) {
            step(grid, next, n, nz, depth, z0, rank, ranks, overlap);
            double *swap = grid;
            grid = next;
            next = swap;
        }
        loop_seconds = MPI_Wtime() - loop_start;
#pragma omp target update from(grid[0:cells])
    }
    double seconds = MPI_Wtime() - start;

    /* rank 0 gathers the interior planes and sums them in global order */
    size_t slab = (size_t)n * n * nz;
    double *all = rank == 0 ? malloc(slab * ranks * sizeof *all) : NULL;
    MPI_Gather(grid + (size_t)n * n, (int)slab, MPI_DOUBLE, all, (int)slab, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    double slowest, slowest_loop;
    MPI_Reduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    MPI_Reduce(&loop_seconds, &slowest_loop, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        double checksum = 0.0;
        for (size_t c = 0; c < slab * ranks; c++)
            checksum += all[c] * (double)(c % 7 + 1);
        printf("stencil3d: %d x %d x %d grid, %d steps, %d rank(s), rank 0 on %s\n", n, n, depth, steps,
               ranks, omp_get_num_devices() > 0 ? "the default device" : "the host");
        printf("checksum: %.17g\n", checksum);
        printf("time: %.4f s\n", slowest_loop);
        printf("total: %.4f s\n", slowest);
        free(all);
    }
    free(grid);
    free(next);
    MPI_Finalize();
    return 0;
}
