/* A 1-D heat stencil whose fields come from the default allocator, which the run's
 * environment chooses with OpenMP 5.1's OMP_ALLOCATOR form (a memory space with traits:
 * 256-byte alignment for vector loads), and whose device halo buffer comes from an
 * allocator the target construct makes (uses_allocators, which gcc 12 lacks); the
 * environment line below sets it.
 *
 * Expected output: the default allocator is one OMP_ALLOCATOR made (not predefined), so
 * both fields are 256-byte aligned ("aligned 1 1"). The rod starts at u = 0 but u[0] = 100
 * held fixed, u[n-1] = 0; STEPS explicit steps with r = 1/4 move heat in; the program
 * replays the steps on the host with malloc'd arrays and prints the largest difference (0:
 * the same arithmetic in the same order) and the device's total heat. */
// env: OMP_ALLOCATOR=omp_high_bw_mem_space:alignment=256,fallback=default_mem_fb
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define STEPS 50

static void step(int n, const double *u, double *next, double r) {
    const omp_alloctrait_t halo_traits[] = {{omp_atk_alignment, 64}};
    omp_allocator_handle_t halo = omp_null_allocator;
    #pragma omp target teams distribute parallel for map(to: u[0:n]) map(from: next[0:n]) \
            uses_allocators(halo(halo_traits))
    for (int i = 0; i < n; i++) {
        double *near = (double *)omp_alloc(3 * sizeof(double), halo);
        near[0] = i > 0 ? u[i - 1] : u[i];
        near[1] = u[i];
        near[2] = i < n - 1 ? u[i + 1] : u[i];
        next[i] = i == 0 || i == n - 1 ? u[i] : near[1] + r * (near[0] - 2 * near[1] + near[2]);
        omp_free(near, halo);
    }
}

int main(void) {
    int n = 4096;
    double r = 0.25;
    omp_allocator_handle_t fields = omp_get_default_allocator();
    double *u = (double *)omp_alloc(n * sizeof(double), omp_null_allocator);
    double *next = (double *)omp_alloc(n * sizeof(double), omp_null_allocator);
    double *hu = malloc(n * sizeof(double)), *hnext = malloc(n * sizeof(double));
    printf("default allocator made from OMP_ALLOCATOR: %d\n", fields > omp_thread_mem_alloc);
    printf("aligned %d %d\n", (uintptr_t)u % 256 == 0, (uintptr_t)next % 256 == 0);
    for (int i = 0; i < n; i++) u[i] = hu[i] = i == 0 ? 100 : 0;
    for (int s = 0; s < STEPS; s++) {
        step(n, u, next, r);
        double *t = u; u = next; next = t;
        for (int i = 0; i < n; i++)
            hnext[i] = i == 0 || i == n - 1 ? hu[i] : hu[i] + r * (hu[i - 1] - 2 * hu[i] + hu[i + 1]);
        t = hu; hu = hnext; hnext = t;
    }
    double difference = 0, heat = 0;
    for (int i = 0; i < n; i++) {
        double d = u[i] > hu[i] ? u[i] - hu[i] : hu[i] - u[i];
        difference = d > difference ? d : difference;
        heat += u[i];
    }
    printf("max difference %g heat %.6f\n", difference, heat);
    omp_free(u, omp_null_allocator);
    omp_free(next, omp_null_allocator);
    free(hu);
    free(hnext);
    return 0;
}
