"""runtime/offload/env_allocator.c: OMP_ALLOCATOR in OpenMP 5.1's forms, read at start-up:
a predefined allocator's name, or a memory space with traits that the host's default
allocator is made from (its alignment observed on omp_alloc's blocks); a value that is not
OpenMP's is a warning saying what is wrong, the default allocator then omp_default_mem_alloc.
The 5.1 form is hidden from gcc 12's libgomp (which would call it invalid) and given back:
the program's getenv sees it as set."""

from __future__ import annotations

import pytest
from native_runs import run_native

PROGRAM = r"""
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    omp_allocator_handle_t a = omp_get_default_allocator();
    void *blocks[4];
    int aligned = 0, got = 0;
    for (int k = 0; k < 4; k++) {
        blocks[k] = omp_alloc(1000, omp_null_allocator);
        got += blocks[k] != NULL;
        aligned += blocks[k] != NULL && (uintptr_t)blocks[k] % 512 == 0;
    }
    for (int k = 0; k < 4; k++) omp_free(blocks[k], omp_null_allocator);
    printf("%s %d %d %s\n", a <= omp_thread_mem_alloc ? "predefined" : "made", got, aligned,
           getenv("OMP_ALLOCATOR") ? getenv("OMP_ALLOCATOR") : "-");
    return 0;
}
"""


@pytest.mark.parametrize("value,expected", [
    ("omp_high_bw_mem_alloc", "predefined 4"),
    ("omp_high_bw_mem_space:pinned=true,alignment=512", "made 4 4"),
    # two blocks of 1000 from a pool of 2048, then NULL (null_fb)
    ("omp_large_cap_mem_space:pool_size=2048,fallback=null_fb,alignment=512", "made 2 2"),
    ("omp_default_mem_space:fallback=allocator_fb,fb_data=omp_low_lat_mem_alloc,pool_size=1000", "made 4"),
    ("omp_low_lat_mem_space", "made 4"),
])
def test_values_of_openmp_5_1(tmp_path, value, expected):
    done = run_native(tmp_path, PROGRAM, {"OMP_ALLOCATOR": value}, devices="cpu")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(expected + " ") and done.stdout.endswith(f" {value}\n")
    assert done.stderr == ""                      # libgomp did not see the 5.1 form


@pytest.mark.parametrize("value,why", [
    ("bogus", "'bogus' is not a predefined allocator or memory space"),
    ("omp_high_bw_mem_space:alignment=100", "alignment=100: an alignment is a power of two"),
    ("omp_default_mem_space:pinned=maybe", "pinned cannot be 'maybe'"),
    ("omp_default_mem_space:size=3", "'size' is not a trait"),
    ("omp_default_mem_space:pool_size=-4", "pool_size=-4: a pool size is a positive number"),
    ("omp_default_mem_space:fallback=allocator_fb", "fallback=allocator_fb needs fb_data"),
    ("omp_default_mem_space:fb_data=mine", "fb_data=mine: not a predefined allocator"),
])
def test_a_bad_value_is_a_warning_at_start(tmp_path, value, why):
    done = run_native(tmp_path, PROGRAM.replace("int main(void) {", "int main(void) {\n    fflush(stderr);"),
                      {"OMP_ALLOCATOR": value}, devices="cpu")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("predefined 4 ")
    assert f"omp2gpu: warning: OMP_ALLOCATOR='{value}' is not OpenMP's ({why}" in done.stderr
    assert "omp_default_mem_alloc is used" in done.stderr
