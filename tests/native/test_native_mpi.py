"""MPI programs as native executables (docs/native-executables.md, "MPI programs"):
`mpiexec -n 4 ./prog` of the MPI example (examples/mpi/stencil3d.c) and of
tests/mpi/device_buffers.c (MPI calls given device addresses from use_device_ptr) on the
host and the CPU device print what gcc's build prints. The device buffers go through
runtime/mpi/device_buffers.c, linked into the program (targets/mpi_device_buffers.py):
with OMP2GPU_MPI_STAGING=all every CPU-device buffer is staged through host memory by
libomp2gpu's copies, by default none is (the CPU device's memory is the host's), and on
a GPU (marker gpu) the GPU's buffers are staged for an MPI that cannot read them."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import llvmlite.binding as llvm
import pytest
from mpi_runs import gcc_build, mpiexec, run
from test_native_executables import omp2gpu

from omp2gpu.targets import mpi, mpi_device_buffers

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
STAGING_PROGRAM = REPO_ROOT / "tests" / "mpi" / "device_buffers.c"
STENCIL = REPO_ROOT / "examples" / "mpi" / "stencil3d.c"
RANKS = "4"
# buffers each rank stages (tests/mpi/device_buffers.c): 10, and rank 0's MPI_Send, rank 1's MPI_Recv
STAGED_CALLS = [11, 11] + [10] * (int(RANKS) - 2)
DEVICE_ENVIRONMENT = {
    "host": {"OMP_TARGET_OFFLOAD": "DISABLED"},
    "cpu": {"OMP2GPU_DEVICES": "cpu", "OMP_TARGET_OFFLOAD": "MANDATORY"},
    "gpu": {"OMP2GPU_DEVICES": "gpu", "OMP_TARGET_OFFLOAD": "MANDATORY", "CUDA_VISIBLE_DEVICES": "0"},
}

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc (the C toolchain and reference)")


def _built(source: Path, folder: Path) -> tuple[Path, Path]:
    """(`source` as a native executable, gcc's build of it with the MPI's wrapper)."""
    mpiexec()                                           # skips where there is no MPI
    done = omp2gpu("compile", "--native", str(source), "-o", source.stem, cwd=folder)
    assert done.returncode == 0, done.stderr
    gcc_build(source, folder / "reference")
    return folder / source.stem, folder / "reference"


@pytest.fixture(scope="module")
def staging_program(tmp_path_factory) -> tuple[Path, Path]:
    return _built(STAGING_PROGRAM, tmp_path_factory.mktemp("staging"))


@pytest.fixture(scope="module")
def stencil(tmp_path_factory) -> tuple[Path, Path]:
    return _built(STENCIL, tmp_path_factory.mktemp("stencil"))


def _lines(done: subprocess.CompletedProcess) -> list[str]:
    """The ranks' lines, sorted: each rank prints its own in turn (a barrier between), but
    mpiexec forwards the ranks' output streams in whatever order they reach it."""
    return sorted(done.stdout.splitlines())


def _ranks(program: Path, *args: str, ranks: str = RANKS, **environ) -> subprocess.CompletedProcess:
    return run([mpiexec(), "-n", ranks, str(program), *args], program.parent, **environ)


@pytest.mark.parametrize("device", ["host", "cpu"])
def test_four_ranks_of_the_mpi_example_print_gccs_checksum(stencil, device):
    """`mpiexec -n 4 ./stencil3d`: the one-rank checksum of gcc's build, bit for bit."""
    program, reference = stencil

    def checksums(done):
        return [line for line in done.stdout.splitlines() if line.startswith("checksum:")]

    got = checksums(_ranks(program, "16", "4", **DEVICE_ENVIRONMENT[device]))
    assert got and got == checksums(_ranks(reference, "16", "4", ranks="1"))


@pytest.mark.parametrize("device", ["host", "cpu"])
def test_device_addresses_given_to_mpi_pass_straight_through(staging_program, device):
    """On the host and the CPU device the addresses are host memory: nothing is staged."""
    program, reference = staging_program
    done = _ranks(program, **DEVICE_ENVIRONMENT[device], OMP2GPU_MPI_STAGING="trace")
    assert _lines(done) == _lines(_ranks(reference))
    assert "staged" not in done.stderr


def test_every_cpu_device_buffer_staged_gives_gccs_output(staging_program):
    """OMP2GPU_MPI_STAGING=all stages the CPU device's buffers as a GPU's: copied by
    libomp2gpu into host memory for MPI and back, every wrapped call's."""
    program, reference = staging_program
    done = _ranks(program, **DEVICE_ENVIRONMENT["cpu"], OMP2GPU_MPI_STAGING="all")
    assert _lines(done) == _lines(_ranks(reference))
    counts = re.findall(r"omp2gpu: (\d+) MPI buffers staged through host memory", done.stderr)
    assert sorted(map(int, counts), reverse=True) == STAGED_CALLS, done.stderr


def test_only_the_programs_wrapped_calls_take_the_hidden_wrappers():
    found = mpi.find()
    if found is None:
        pytest.skip(mpi.missing_message())
    module = llvm.parse_assembly("declare i32 @MPI_Send(ptr, i32, i32, i32, i32, i32)\n"
                                 "declare i32 @MPI_Comm_rank(i32, ptr)\n"
                                 "define i32 @send(ptr %p) {\n  %r = call i32 @MPI_Send(ptr %p, i32 1, i32 0, "
                                 "i32 0, i32 0, i32 0)\n  ret i32 %r\n}\n")
    objects = mpi_device_buffers.wrap_calls(module, found)
    assert {function.name for function in module.functions} == {"omp2gpu_MPI_Send", "MPI_Comm_rank", "send"}
    symbols = subprocess.run(["readelf", "-sW", objects[0]], capture_output=True, text=True, check=True).stdout
    wrappers = [line.split() for line in symbols.splitlines() if line.split()[-1:] == ["omp2gpu_MPI_Send"]]
    assert wrappers and wrappers[0][5] == "HIDDEN"         # bound at link time, never exported
    assert mpi_device_buffers.wrap_calls(llvm.parse_assembly("declare i32 @MPI_Barrier(i32)\n"), found) == []


@pytest.mark.gpu
def test_gpu_buffers_staged_for_an_mpi_that_cannot_read_them(staging_program):
    """The GPU's buffers given to MPI (OMP2GPU_MPI_CUDA_AWARE=0: whatever the MPI says of
    itself) are copied to the host and back around each call: gcc's output."""
    program, reference = staging_program
    done = _ranks(program, ranks="2", **DEVICE_ENVIRONMENT["gpu"], OMP2GPU_MPI_CUDA_AWARE="0",
                  OMP2GPU_MPI_STAGING="trace")
    assert _lines(done) == _lines(_ranks(reference, ranks="2"))
    assert "staged to the host" in done.stderr and "staged back to the device" in done.stderr
    assert "failed" not in done.stderr
