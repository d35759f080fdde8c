"""mpi.py and MPI programs: the MPI's flags read from its compiler wrapper (MPICH's
-show, Open MPI's --showme), and a C program with MPI and target regions run by
mpiexec on 1 and 2 ranks (CPU device), its output the same as the one-rank run and
mpicc + gcc's one-rank build of it (examples/mpi/stencil3d.c)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest
from mpi_runs import gcc_build, mpiexec, run

from omp2gpu.targets import mpi

REPO_ROOT = Path(__file__).resolve().parents[2]
STENCIL = REPO_ROOT / "examples" / "mpi" / "stencil3d.c"


def test_mpich_show_flags():
    flags = ("cc -I/opt/mpich/include -L/opt/mpich/lib -Wl,-rpath -Wl,/opt/mpich/lib "
             "-Wl,--enable-new-dtags -lmpi").split()
    found = mpi._from_flags("mpicc", flags)
    assert found.include_dirs == ("/opt/mpich/include",)
    assert found.library_dirs == ("/opt/mpich/lib",)
    assert found.libraries == ("mpi",)


def test_open_mpi_showme_flags():
    flags = "gcc -I/usr/lib/openmpi/include -pthread -Wl,-rpath,/usr/lib/openmpi/lib -L/x -lmpi".split()
    found = mpi._from_flags("mpicc", flags)
    assert found.include_dirs == ("/usr/lib/openmpi/include",)
    assert found.library_dirs == ("/usr/lib/openmpi/lib", "/x")
    assert found.libraries == ("mpi",)


def _checksums(command: list[str], tmp_path, **environ) -> str:
    stdout = run(command, tmp_path, **environ).stdout
    return "".join(line + "\n" for line in stdout.splitlines() if line.startswith("checksum:"))


@pytest.mark.parametrize("ranks", [1, 2])
def test_stencil_across_ranks_matches_one_rank_and_gcc(tmp_path, ranks):
    launcher = mpiexec()
    got = _checksums([launcher, "-n", str(ranks), sys.executable, "-m", "omp2gpu", "run", "--device", "cpu",
                      str(STENCIL), "--", "16", "4"], tmp_path)
    assert got.startswith("checksum: ")
    if shutil.which("gcc"):
        gcc_build(STENCIL, tmp_path / "stencil")
        reference = _checksums([launcher, "-n", "1", str(tmp_path / "stencil"), "16", "4"], tmp_path)
        assert got == reference          # gcc's, on one rank: the same bits


@pytest.mark.gpu
@pytest.mark.parametrize("overlap", ["1", "0"])
def test_two_ranks_share_one_gpu(tmp_path, overlap):
    """Both ranks on GPU 0 (one GPU for two ranks): the one-rank checksum, hidden
    exchange or plain."""
    launcher = mpiexec()
    # a 48^3 grid (PLANES 0: cut into as many slabs as ranks), 6 steps
    command = [sys.executable, "-m", "omp2gpu", "run", "--device", "gpu", str(STENCIL), "--", "48", "6", "0",
               overlap]
    one = _checksums([launcher, "-n", "1", *command], tmp_path)
    two = _checksums([launcher, "-n", "2", *command], tmp_path, CUDA_VISIBLE_DEVICES="0")
    assert one.startswith("checksum: ") and two == one
