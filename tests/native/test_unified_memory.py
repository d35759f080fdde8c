"""`#pragma omp requires unified_shared_memory`, the 5.1 device-memory routines and
`interop` in native programs (docs/unified-memory.md): on the CPU device maps copy nothing
and unmapped pointers are the host's; on a GPU the runtime chooses at run time between host
memory as it is (pageable memory access) and managed memory for the USM heap with other
objects registered, which a stand-in CUDA driver (fake_cuda/libcuda.c: attributes from the
environment, a log of what it is asked) shows without a GPU; files that disagree on
`requires` are located errors; tests marked `gpu` run the same on a real one."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from test_native_executables import PROGRAMS, REPO_ROOT, omp2gpu, run_bare

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc (the C toolchain)")

USM_PROGRAM = REPO_ROOT / "tests" / "programs_beyond_gcc12" / "usm_struct_of_pointers_timestep.c"
USM_EXPECTED = USM_PROGRAM.with_suffix(".expected").read_text()
MISMATCH = PROGRAMS / "requires_mismatch"
ROUTINES_EXPECTED_CPU = """initial device inside a region: the host's number
mapped: 1, unmapped: 0
host memory accessible: 0
its own memory accessible: 1
associate: 0
present after associate: 1, mapped to the buffer: 1
host copy kept: 3
after update: -1
disassociate: 1, again: 0
rect: 12 14 22 24
interop: made 1, device_num 0, targetsync rc no value, name targetsync
asking a string of an int: 1
destroyed: 1
"""


def compile_native(tmp_path: Path, *sources: Path, output: str = "prog") -> Path:
    done = omp2gpu("compile", "--native", "-std=gnu11", *map(str, sources), "-o", output, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return tmp_path / output


@pytest.fixture(scope="module")
def usm_program(tmp_path_factory) -> Path:
    return compile_native(tmp_path_factory.mktemp("usm"), USM_PROGRAM)


def on_fake_gpu(program: Path, fake_driver: Path, log: Path, *args: str, **settings: str):
    env = {"LD_LIBRARY_PATH": str(fake_driver), "OMP2GPU_DEVICES": "gpu", "LIBOMPTARGET_INFO": "1",
           "FAKE_CUDA_LOG": str(log), **settings}
    done = run_bare(program, *args, env=env)
    return done, (log.read_text().splitlines() if log.exists() else [])


def test_usm_on_the_cpu_device_copies_nothing(usm_program, tmp_path):
    copies = tmp_path / "copies"
    done = run_bare(usm_program, env={"OMP2GPU_DEVICES": "cpu", "OMP_TARGET_OFFLOAD": "MANDATORY",
                                      "OMP2GPU_COPY_LOG": str(copies), "LIBOMPTARGET_INFO": "1"})
    assert (done.returncode, done.stdout) == (0, USM_EXPECTED), done.stderr
    assert "unified_shared_memory: host memory read in place (no copies)" in done.stderr
    assert not copies.exists() or copies.read_text() == ""


def test_gpu_with_pageable_memory_access_uses_host_memory_as_it_is(usm_program, fake_driver, tmp_path):
    done, log = on_fake_gpu(usm_program, fake_driver, tmp_path / "log", FAKE_CUDA_PAGEABLE="1")
    assert (done.returncode, done.stdout) == (0, USM_EXPECTED), done.stderr
    assert "GPU 0 (Fake GPU) info: unified_shared_memory: host memory read in place" in done.stderr
    assert not [line for line in log if line.startswith(("managed", "register"))], log


@pytest.mark.parametrize("settings", [{"FAKE_CUDA_PAGEABLE": "0"},
                                      {"FAKE_CUDA_PAGEABLE": "1", "OMP2GPU_USM": "managed"}])
def test_gpu_without_it_puts_the_heap_in_managed_memory(usm_program, fake_driver, tmp_path, settings):
    done, log = on_fake_gpu(usm_program, fake_driver, tmp_path / "log", "-n", "300", "-s", "3", **settings)
    assert done.returncode == 0, done.stderr
    assert done.stdout.endswith("host agrees: yes; history kept 3 steps, last total %s\n"
                                % done.stdout.splitlines()[2].split()[3])
    assert "unified_shared_memory: the unified_shared_memory heap in managed memory" in done.stderr
    allocations = [line for line in log if line.startswith("managed ")]
    # now, source, start, b: 300 longs; next: aligned_alloc's, rounded up to 64 bytes
    assert (allocations.count("managed 2400"), allocations.count("managed 2432")) == (4, 1)
    assert len([line for line in log if line.startswith("free managed")]) == len(allocations)   # all freed
    registered = [line for line in log if line.startswith("register ")]
    assert len(registered) >= 2 and all(line.endswith("flags 3") for line in registered)   # static data, stack


def test_gpu_without_either_is_given_up_and_the_host_runs_the_regions(usm_program, fake_driver, tmp_path):
    done, log = on_fake_gpu(usm_program, fake_driver, tmp_path / "log", FAKE_CUDA_PAGEABLE="0",
                            FAKE_CUDA_MANAGED="0")
    assert (done.returncode, done.stdout) == (0, USM_EXPECTED), done.stderr
    assert "unified_shared_memory needs pageable memory access (HMM or ATS), or managed memory" in done.stderr
    assert not [line for line in log if line.startswith(("managed", "register"))], log


def test_a_kernel_that_fails_part_way_is_not_run_again_on_the_host(usm_program, fake_driver, tmp_path):
    """In place, a failed kernel may have written host memory: running the region again
    on the host could count twice, so the program ends with the region's location."""
    done, _ = on_fake_gpu(usm_program, fake_driver, tmp_path / "log", FAKE_CUDA_PAGEABLE="1",
                          FAKE_CUDA_KERNEL_FAULT="1")
    assert done.returncode == 1 and done.stdout == ""
    assert ("usm_struct_of_pointers_timestep.c:43:13: the region's kernel failed on device 0 "
            "(cuCtxSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS") in done.stderr, done.stderr


@pytest.mark.parametrize("other, message", [
    ("scale.c", "scale.c:4:13: a device construct in a file without '#pragma omp requires "
                "unified_shared_memory', which {main}:2:22 requires of the whole program"),
    ("scale_unified_address.c", "scale_unified_address.c:2:22: '#pragma omp requires' here asks for "
                                "unified_address, but {main}:2:22 asks for unified_shared_memory"),
])
def test_files_that_disagree_on_requires_are_a_located_error(tmp_path, other, message):
    program = compile_native(tmp_path, MISMATCH / "main_usm.c", MISMATCH / other)
    done = run_bare(program, env={"OMP2GPU_DEVICES": "cpu"})
    assert done.returncode == 1 and done.stdout == ""
    assert message.format(main=MISMATCH / "main_usm.c") in done.stderr


def test_files_that_agree_run(tmp_path):
    program = compile_native(tmp_path, MISMATCH / "main_usm.c", MISMATCH / "scale_usm.c")
    done = run_bare(program, env={"OMP2GPU_DEVICES": "cpu", "OMP_TARGET_OFFLOAD": "MANDATORY"})
    assert (done.returncode, done.stdout) == (0, "2 16\n"), done.stderr


def test_memory_routines_and_interop_on_the_cpu_device(tmp_path):
    program = compile_native(tmp_path, PROGRAMS / "interop_and_memory_routines.c")
    done = run_bare(program, env={"OMP2GPU_DEVICES": "cpu", "OMP_TARGET_OFFLOAD": "MANDATORY"})
    assert (done.returncode, done.stdout) == (0, ROUTINES_EXPECTED_CPU), done.stderr


INTEROP_ONLY = r"""
#include <omp.h>
#include <stdio.h>
int main(void) {
    omp_interop_t io = omp_interop_none;
    int rc, rc_name;
#pragma omp interop init(prefer_type("cuda"), targetsync: io)
    void *stream = omp_get_interop_ptr(io, omp_ipr_targetsync, &rc);
    const char *name = omp_get_interop_str(io, omp_ipr_fr_name, &rc_name);
    printf("stream %d rc %d, fr %s %ld, context %d\n", stream != 0, rc, name,
           (long)omp_get_interop_int(io, omp_ipr_fr_id, 0), omp_get_interop_ptr(io, omp_ipr_device_context, 0) != 0);
#pragma omp interop use(io) destroy(io)
    printf("destroyed %d\n", io == omp_interop_none);
    return 0;
}
"""


def test_interop_on_a_gpu_gives_its_own_stream(fake_driver, tmp_path):
    source = tmp_path / "interop.c"
    source.write_text(INTEROP_ONLY)
    program = compile_native(tmp_path, source)
    done, log = on_fake_gpu(program, fake_driver, tmp_path / "log")
    assert (done.returncode, done.stdout) == (0, "stream 1 rc 0, fr cuda 1, context 1\ndestroyed 1\n"), done.stderr
    assert log == ["stream create flags 0", "stream destroy"]


SHARED_ALLOCATION = r"""
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
int main(void) {
    double *shared = llvm_omp_target_alloc_shared(1000 * sizeof(double), 0), host[4];
    shared[999] = 1.5;                            /* the host writes it as it is */
    printf("shared accessible %d, host memory accessible %d, %g\n", omp_target_is_accessible(shared, 8000, 0),
           omp_target_is_accessible(host, sizeof host, 0), shared[999]);
    omp_target_free(shared, 0);
    return 0;
}
"""


def test_clangs_shared_allocation_is_managed_memory_on_a_gpu(fake_driver, tmp_path):
    source = tmp_path / "shared.c"
    source.write_text(SHARED_ALLOCATION)
    done, log = on_fake_gpu(compile_native(tmp_path, source), fake_driver, tmp_path / "log")
    assert (done.returncode, done.stdout) == (0, "shared accessible 1, host memory accessible 0, 1.5\n"), done.stderr
    assert log == ["managed 8000", "free managed 8000"]


# ------------------------------------------------------------------ on a real GPU
@pytest.mark.gpu
@pytest.mark.parametrize("choice", ["", "managed"])
def test_usm_on_the_gpu(usm_program, tmp_path, choice):
    """Every kernel ran on the GPU (the offload log), the output is gcc's; OMP2GPU_USM=managed
    takes the managed-memory path where the GPU has pageable memory access too."""
    launches = tmp_path / "launches"
    done = run_bare(usm_program, env={"OMP2GPU_DEVICES": "gpu", "OMP_TARGET_OFFLOAD": "MANDATORY",
                                      "OMP2GPU_OFFLOAD_LOG": str(launches), "LIBOMPTARGET_INFO": "1",
                                      "OMP2GPU_USM": choice, "PATH": os.environ.get("PATH", "")})
    assert (done.returncode, done.stdout) == (0, USM_EXPECTED), done.stderr
    assert "unified_shared_memory:" in done.stderr and "warning" not in done.stderr, done.stderr
    assert len(launches.read_text().splitlines()) == 12 * 4


@pytest.mark.gpu
def test_interop_stream_on_the_gpu(tmp_path):
    source = tmp_path / "interop.c"
    source.write_text(INTEROP_ONLY)
    done = run_bare(compile_native(tmp_path, source), env={"OMP2GPU_DEVICES": "gpu", "OMP_TARGET_OFFLOAD": "MANDATORY"})
    assert (done.returncode, done.stdout) == (0, "stream 1 rc 0, fr cuda 1, context 1\ndestroyed 1\n"), done.stderr
