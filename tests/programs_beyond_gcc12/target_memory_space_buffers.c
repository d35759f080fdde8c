/* A particle code that keeps its state in device memory it allocates itself through Clang's
 * target memory allocators (llvm_omp_target_device_mem_alloc: omp_alloc's block is the
 * default device's memory, used with is_device_ptr), stages results through memory both
 * the host and the device reach (llvm_omp_target_shared_mem_alloc), grows its device
 * buffer with omp_realloc, and takes bounded scratch from an allocator on the device memory
 * space with traits (4096-byte alignment, an 8192-byte pool, null_fb). gcc 12 has none of
 * these allocators.
 *
 * Expected output: x[i] = i, v[i] = 1 moved STEPS = 8 times by x += v dt with dt = 0.5:
 * x[i] = i + 4, so sum x = n (n - 1) / 2 + 4 n = 2016 + 256 = 2272 for n = 64; after the
 * buffer grows to 2n (the first n kept on the device) the same sum; the pool gives two
 * aligned 4000-byte blocks and then NULL ("scratch 2 aligned 2 refused 1"), and after one
 * is freed one more ("again 1"). */
#include <omp.h>
#include <stdint.h>
#include <stdio.h>

#define STEPS 8

static double staged_sum(const double *x_device, int n) {
    double *stage = (double *)omp_calloc(n, sizeof(double), llvm_omp_target_shared_mem_alloc);
    double sum = 0;
    #pragma omp target teams distribute parallel for is_device_ptr(x_device, stage)
    for (int i = 0; i < n; i++) stage[i] = x_device[i];
    for (int i = 0; i < n; i++) sum += stage[i];
    omp_free(stage, llvm_omp_target_shared_mem_alloc);
    return sum;
}

int main(void) {
    int n = 64;
    double dt = 0.5;
    double *x = (double *)omp_alloc(n * sizeof(double), llvm_omp_target_device_mem_alloc);
    double *v = (double *)omp_alloc(n * sizeof(double), llvm_omp_target_device_mem_alloc);
    #pragma omp target teams distribute parallel for is_device_ptr(x, v)
    for (int i = 0; i < n; i++) {
        x[i] = i;
        v[i] = 1;
    }
    for (int s = 0; s < STEPS; s++) {
        #pragma omp target teams distribute parallel for is_device_ptr(x, v)
        for (int i = 0; i < n; i++) x[i] += v[i] * dt;
    }
    printf("sum x %.1f\n", staged_sum(x, n));
    x = (double *)omp_realloc(x, 2 * n * sizeof(double), omp_null_allocator, omp_null_allocator);
    printf("grown, first half %.1f\n", staged_sum(x, n));

    const omp_alloctrait_t traits[] = {{omp_atk_alignment, 4096}, {omp_atk_pool_size, 8192},
                                       {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t scratch = omp_init_allocator(llvm_omp_target_device_mem_space, 3, traits);
    void *blocks[3];
    int got = 0, aligned = 0;
    for (int k = 0; k < 3; k++) {
        blocks[k] = omp_alloc(4000, scratch);
        got += blocks[k] != NULL;
        aligned += blocks[k] != NULL && (uintptr_t)blocks[k] % 4096 == 0;
    }
    printf("scratch %d aligned %d refused %d\n", got, aligned, blocks[2] == NULL);
    omp_free(blocks[0], scratch);
    blocks[0] = omp_alloc(4000, scratch);
    printf("again %d\n", blocks[0] != NULL);
    for (int k = 0; k < 3; k++) omp_free(blocks[k], scratch);
    omp_destroy_allocator(scratch);
    omp_free(x, omp_null_allocator);
    omp_free(v, llvm_omp_target_device_mem_alloc);
    return 0;
}
