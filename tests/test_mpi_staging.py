"""mpi_staging.py and runtime/mpi/device_buffers.c: MPI calls given device addresses
(use_device_ptr) print what gcc's build prints, with every buffer staged through host
memory (OMP2GPU_MPI_STAGING=all, on the CPU device: CI), passed straight through (the
CPU device's "device" memory is host memory), and on one GPU with a non-CUDA-aware MPI
(MPICH's wheel: the GPU's buffers staged)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from mpi_runs import gcc_build, mpiexec, run

PROGRAM = Path(__file__).resolve().parent / "mpi" / "device_buffers.c"
STAGED_CALLS = 11                       # buffers each rank stages (tests/mpi/device_buffers.c)


def _gcc_output(tmp_path, launcher: str) -> str:
    if not shutil.which("gcc"):
        pytest.skip("no gcc for the reference build")
    gcc_build(PROGRAM, tmp_path / "reference")
    return run([launcher, "-n", "2", str(tmp_path / "reference")], tmp_path).stdout


def _omp2gpu(tmp_path, launcher: str, device: str, **environ):
    return run([launcher, "-n", "2", sys.executable, "-m", "omp2gpu", "run", "--device", device, str(PROGRAM)],
               tmp_path, **environ)


def test_every_buffer_staged_gives_gccs_output(tmp_path):
    launcher = mpiexec()
    done = _omp2gpu(tmp_path, launcher, "cpu", OMP2GPU_MPI_STAGING="all")
    assert done.stdout == _gcc_output(tmp_path, launcher)
    assert done.stderr.count(f"omp2gpu: {STAGED_CALLS} MPI buffers staged through host memory") == 2


def test_buffers_passed_straight_through_give_gccs_output(tmp_path):
    launcher = mpiexec()
    done = _omp2gpu(tmp_path, launcher, "cpu")
    assert done.stdout == _gcc_output(tmp_path, launcher) and "staged" not in done.stderr


@pytest.mark.gpu
def test_gpu_buffers_staged_for_an_mpi_that_cannot_read_them(tmp_path):
    launcher = mpiexec()
    done = _omp2gpu(tmp_path, launcher, "gpu", CUDA_VISIBLE_DEVICES="0", OMP_TARGET_OFFLOAD="MANDATORY")
    assert done.stdout == _gcc_output(tmp_path, launcher)
