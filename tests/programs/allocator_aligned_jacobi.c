/* A Jacobi solver for -u'' = f on a 1-D grid whose arrays come from an OpenMP allocator
 * with an alignment trait (as codes that vectorise with `aligned` clauses write it), with
 * the residual's per-thread scratch from an allocate clause, a pool-limited allocator
 * whose fallback decides what a too-large request gets, a history buffer grown with
 * omp_realloc, and per-region scratch from omp_alloc inside the target regions.
 * Every value printed is exact (integers held in doubles), so no order of summation
 * changes a digit. */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#pragma omp requires dynamic_allocators

typedef struct {
    int n;
    double *u, *unew, *f;
    omp_allocator_handle_t allocator;
} grid_t;

static int aligned_to(const void *p, unsigned long alignment) {
    return ((uintptr_t)p % alignment) == 0;
}

static int make_grid(grid_t *g, int n) {
    omp_alloctrait_t traits[2] = {{omp_atk_alignment, 64}, {omp_atk_fallback, omp_atv_default_mem_fb}};
    g->n = n;
    g->allocator = omp_init_allocator(omp_default_mem_space, 2, traits);
    if (g->allocator == omp_null_allocator) return 0;
    g->u = (double *)omp_calloc(n, sizeof(double), g->allocator);
    g->unew = (double *)omp_aligned_alloc(128, n * sizeof(double), g->allocator);
    g->f = (double *)omp_alloc(n * sizeof(double), g->allocator);
    return g->u && g->unew && g->f;
}

static void free_grid(grid_t *g) {
    omp_free(g->f, g->allocator);
    omp_free(g->unew, g->allocator);
    omp_free(g->u, omp_null_allocator);      /* the block knows its allocator */
    omp_destroy_allocator(g->allocator);
}

/* One sweep on the device; the halo of each point is read from u. */
static void sweep(grid_t *g) {
    int n = g->n;
    double *u = g->u, *unew = g->unew, *f = g->f;
    #pragma omp target teams distribute parallel for map(to: u[0:n], f[0:n]) map(tofrom: unew[0:n])
    for (int i = 1; i < n - 1; i++)
        unew[i] = 0.5 * (u[i - 1] + u[i + 1] + f[i]);
    double *t = g->u;
    g->u = g->unew;
    g->unew = t;
}

/* The number of points whose update still changes them, with each thread's scratch
 * window from the grid's allocator (an allocate clause): every copy must be aligned. */
static void residual(grid_t *g, long *changing, int *misaligned) {
    int n = g->n;
    double window[8];
    long count = 0;
    int bad = 0;
    omp_allocator_handle_t a = g->allocator;
    #pragma omp parallel for private(window) allocate(a: window) reduction(+: count, bad)
    for (int i = 1; i < n - 1; i++) {
        bad += !aligned_to(window, 64);
        window[0] = g->u[i - 1];
        window[1] = g->u[i];
        window[2] = g->u[i + 1];
        count += 0.5 * (window[0] + window[2] + g->f[i]) != window[1];
    }
    *changing = count;
    *misaligned = bad;
}

/* Scratch inside a target region from a predefined allocator: the sum of squares of the
 * first m integers, computed through a temporary the region allocates and frees. */
static long squares_on_device(int m) {
    long total = 0;
    #pragma omp target map(tofrom: total)
    {
        long *tmp = (long *)omp_alloc(m * sizeof(long), omp_high_bw_mem_alloc);
        if (tmp) {
            for (int i = 0; i < m; i++) tmp[i] = (long)i * i;
            for (int i = 0; i < m; i++) total += tmp[i];
            omp_free(tmp, omp_high_bw_mem_alloc);
        } else {
            total = -1;
        }
    }
    return total;
}

int main(int argc, char **argv) {
    int n = 4096, steps = 40, opt;
    while ((opt = getopt(argc, argv, "n:s:")) != -1) {
        if (opt == 'n')
            n = atoi(optarg);
        else if (opt == 's')
            steps = atoi(optarg);
    }
    grid_t g;
    if (!make_grid(&g, n)) {
        printf("allocation failed\n");
        return 1;
    }
    printf("aligned to 64: u %d unew %d f %d\n", aligned_to(g.u, 64), aligned_to(g.unew, 128),
           aligned_to(g.f, 64));
    int zero = 1;
    for (int i = 0; i < n; i++) zero &= g.u[i] == 0.0;
    printf("calloc'd u is zero: %d\n", zero);
    for (int i = 0; i < n; i++) {
        g.f[i] = (i % 7 == 3) ? 2.0 : 0.0;
        g.unew[i] = 0.0;
    }

    /* The residual's history, grown as the sweeps go. */
    int capacity = 4, recorded = 0;
    long *history = (long *)omp_alloc(capacity * sizeof(long), omp_default_mem_alloc);
    for (int step = 0; step < steps; step++) {
        sweep(&g);
        if (step % 5 == 4) {
            long changing;
            int misaligned;
            residual(&g, &changing, &misaligned);
            if (recorded == capacity) {
                capacity *= 2;
                history = (long *)omp_realloc(history, capacity * sizeof(long), omp_default_mem_alloc,
                                              omp_default_mem_alloc);
            }
            history[recorded++] = changing;
            printf("step %d: %ld points still changing, %d misaligned scratch copies\n", step + 1,
                   changing, misaligned);
        }
    }
    long kept = 0;
    for (int i = 0; i < recorded; i++) kept += history[i];
    printf("history: %d entries (capacity %d), total %ld\n", recorded, capacity, kept);
    omp_free(history, omp_default_mem_alloc);

    /* A pool of 1 MiB: a 4 MiB request falls back (default_mem_fb) or fails (null_fb). */
    omp_alloctrait_t pooled[2] = {{omp_atk_pool_size, 1 << 20}, {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t small = omp_init_allocator(omp_default_mem_space, 2, pooled);
    void *fits = omp_alloc(1000, small);
    void *too_big = omp_alloc(4 << 20, small);
    printf("pool with null_fb: 1000 bytes %s, 4 MiB %s\n", fits ? "given" : "refused",
           too_big ? "given" : "refused");
    omp_free(fits, small);
    omp_destroy_allocator(small);
    pooled[1].value = omp_atv_default_mem_fb;
    omp_allocator_handle_t falls = omp_init_allocator(omp_default_mem_space, 2, pooled);
    void *big = omp_alloc(4 << 20, falls);
    printf("pool with default_mem_fb: 4 MiB %s\n", big ? "given" : "refused");
    if (big) memset(big, 1, 4 << 20);
    omp_free(big, falls);
    omp_destroy_allocator(falls);

    /* allocator_fb: what the small pool cannot give, the grid's aligned allocator gives. */
    omp_alloctrait_t chained[3] = {{omp_atk_pool_size, 1 << 20}, {omp_atk_fallback, omp_atv_allocator_fb},
                                   {omp_atk_fb_data, (omp_uintptr_t)g.allocator}};
    omp_allocator_handle_t chain = omp_init_allocator(omp_default_mem_space, 3, chained);
    double *spill = (double *)omp_alloc(4 << 20, chain);
    printf("pool with allocator_fb: 4 MiB %s, aligned to 64: %d\n", spill ? "given" : "refused",
           spill ? aligned_to(spill, 64) : 0);
    omp_free(spill, chain);
    omp_destroy_allocator(chain);

    omp_alloctrait_t odd[1] = {{omp_atk_alignment, 24}};
    printf("alignment 24 refused: %d\n", omp_init_allocator(omp_default_mem_space, 1, odd) == omp_null_allocator);
    printf("default allocator is omp_default_mem_alloc: %d\n", omp_get_default_allocator() == omp_default_mem_alloc);
    printf("sum of squares below 1000 on the device: %ld\n", squares_on_device(1000));
    free_grid(&g);
    return 0;
}
