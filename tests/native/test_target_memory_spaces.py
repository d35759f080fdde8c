"""runtime/host/target_memory_spaces.c with runtime/host/omp_allocators.c: Clang's target
memory allocators and spaces (llvm_omp_target_{device,host,shared}_mem_{alloc,space}) give
the default device's memory (a kernel writes it through is_device_ptr, omp_target_memcpy
reads it back), grown by omp_realloc on the device, zeroed by omp_calloc, with the
alignment, pool_size and fallback traits of an allocator made on such a space; in a kernel
they are the device's own memory."""

from __future__ import annotations

import pytest
from native_runs import run_native

HOST_SIDE = r"""
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
int main(void) {
    int n = 1000, dev = omp_get_default_device(), host = omp_get_initial_device();
    double *d = (double *)omp_alloc(n * sizeof(double), llvm_omp_target_device_mem_alloc);
    #pragma omp target teams distribute parallel for is_device_ptr(d)
    for (int i = 0; i < n; i++) d[i] = 2.0 * i;
    double back[1000];
    omp_target_memcpy(back, d, n * sizeof(double), 0, 0, host, dev);
    double s = 0; for (int i = 0; i < n; i++) s += back[i];
    d = (double *)omp_realloc(d, 2 * n * sizeof(double), omp_null_allocator, omp_null_allocator);
    omp_target_memcpy(back, d, n * sizeof(double), 0, 0, host, dev);
    double s2 = 0; for (int i = 0; i < n; i++) s2 += back[i];
    omp_free(d, omp_null_allocator);
    omp_alloctrait_t traits[] = {{omp_atk_alignment, 4096}, {omp_atk_pool_size, 8192},
                                 {omp_atk_fallback, omp_atv_null_fb}};
    omp_allocator_handle_t a = omp_init_allocator(llvm_omp_target_device_mem_space, 3, traits);
    void *p1 = omp_alloc(4000, a), *p2 = omp_alloc(4000, a), *p3 = omp_alloc(4000, a);
    printf("%.0f %.0f %d %d %d %d\n", s, s2, a != omp_null_allocator,
           (uintptr_t)p1 % 4096 == 0, (uintptr_t)p2 % 4096 == 0, p3 == NULL);
    omp_free(p1, a);
    void *p4 = omp_alloc(4000, a);
    double *z = (double *)omp_calloc(n, sizeof(double), llvm_omp_target_shared_mem_alloc);
    double zs = 0; for (int i = 0; i < n; i++) zs += z[i];
    #pragma omp target teams distribute parallel for is_device_ptr(z)
    for (int i = 0; i < n; i++) z[i] = 1;
    for (int i = 0; i < n; i++) zs += z[i];
    printf("%d %.0f\n", p4 != NULL, zs);
    omp_free(z, omp_null_allocator); omp_free(p2, a); omp_free(p4, a);
    omp_destroy_allocator(a);
    return 0;
}
"""

IN_A_KERNEL = r"""
#include <omp.h>
#include <stdio.h>
int main(void) {
    int ok = 0;
    #pragma omp target map(tofrom: ok)
    {
        int *p = (int *)omp_alloc(64 * sizeof(int), llvm_omp_target_device_mem_alloc);
        omp_alloctrait_t t[] = {{omp_atk_alignment, 256}};
        omp_allocator_handle_t a = omp_init_allocator(llvm_omp_target_shared_mem_space, 1, t);
        int *q = (int *)omp_alloc(64, a);
        ok = p != 0 && q != 0 && ((unsigned long)q % 256) == 0;
        omp_free(p, llvm_omp_target_device_mem_alloc); omp_free(q, a);
        omp_destroy_allocator(a);
    }
    printf("%d\n", ok);
    return 0;
}
"""


@pytest.mark.parametrize("offload", ["MANDATORY", "DISABLED"])     # DISABLED: the host's memory
def test_the_default_devices_memory_from_the_host(tmp_path, offload):
    done = run_native(tmp_path, HOST_SIDE, {"OMP_TARGET_OFFLOAD": offload}, devices="cpu")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    # sums of 2i (i < 1000); made; both 4096-aligned; the third past the 8192-byte pool is NULL;
    # one freed makes room; calloc's zeros, then the kernel's ones
    assert done.stdout == "999000 999000 1 1 1 1\n1 1000\n"


def test_in_a_kernel_they_are_the_devices_memory(tmp_path):
    done = run_native(tmp_path, IN_A_KERNEL, devices="cpu")
    assert done.returncode == 0, done.stderr
    assert done.stdout == "1\n"
