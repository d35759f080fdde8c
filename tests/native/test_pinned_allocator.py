"""The `pinned` allocator trait on the host (runtime/host/omp_allocators.c with
runtime/offload/pinned_memory.c): a pinned allocator's blocks are page-locked memory from
the default device's driver where it is a GPU (cuMemAllocHost, given back by cuMemFreeHost:
the stand-in CUDA driver fake_cuda/libcuda.c logs both), also as OMP_ALLOCATOR's default
allocator; on the CPU device, or pinned=false, plain memory. The blocks hold data either way."""

from __future__ import annotations

import shutil

import pytest
from test_native_executables import omp2gpu, run_bare

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc (the C toolchain)")

PROGRAM = r"""
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    omp_alloctrait_t traits[] = {{omp_atk_pinned, argc > 1 ? atoi(argv[1]) : omp_atv_true}, {omp_atk_alignment, 64}};
    omp_allocator_handle_t staging = omp_init_allocator(omp_default_mem_space, 2, traits);
    long total = 0;
    for (int k = 0; k < 3; k++) {
        long *block = (long *)omp_alloc(1000 * sizeof(long), staging);
        for (int i = 0; i < 1000; i++) block[i] = i;
        for (int i = 0; i < 1000; i++) total += block[i];
        total += (uintptr_t)block % 64;
        omp_free(block, staging);
    }
    double *fallback = (double *)omp_alloc(64, omp_null_allocator);      /* OMP_ALLOCATOR's */
    fallback[0] = 1;
    omp_free(fallback, omp_null_allocator);
    omp_destroy_allocator(staging);
    printf("%ld\n", total);
    return 0;
}
"""


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    work = tmp_path_factory.mktemp("pinned")
    (work / "prog.c").write_text(PROGRAM)
    done = omp2gpu("compile", "--native", "prog.c", "-o", "prog", cwd=work)
    assert done.returncode == 0, done.stderr
    return work / "prog"


def _pinned_lines(log):
    return [line for line in log.read_text().splitlines() if "pinned" in line] if log.exists() else []


def test_on_a_gpu_the_blocks_are_page_locked_by_its_driver(program, fake_driver, tmp_path):
    log = tmp_path / "log"
    done = run_bare(program, env={"LD_LIBRARY_PATH": str(fake_driver), "OMP2GPU_DEVICES": "gpu",
                                  "FAKE_CUDA_LOG": str(log), "OMP_ALLOCATOR": "omp_default_mem_space:pinned=true"})
    assert (done.returncode, done.stdout) == (0, "1498500\n"), done.stderr
    # three blocks (1000 longs, header and alignment on top), and OMP_ALLOCATOR's one
    lines = _pinned_lines(log)
    assert [line for line in lines if line != "pinned free"] == ["pinned 8112"] * 3 + ["pinned 128"]
    assert lines.count("pinned free") == 4


@pytest.mark.parametrize("where", ["cpu device", "pinned=false"])
def test_elsewhere_plain_memory(program, fake_driver, tmp_path, where):
    log = tmp_path / "log"
    env = {"LD_LIBRARY_PATH": str(fake_driver), "FAKE_CUDA_LOG": str(log),
           "OMP2GPU_DEVICES": "cpu" if where == "cpu device" else "gpu"}
    done = run_bare(program, *([] if where == "cpu device" else ["0"]), env=env)
    assert (done.returncode, done.stdout) == (0, "1498500\n"), done.stderr
    assert _pinned_lines(log) == []
