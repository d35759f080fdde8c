"""mpi.py and MPI programs: the MPI's flags read from its compiler wrapper (MPICH's
-show, Open MPI's --showme), and a C program with MPI and target regions run by
mpiexec on 1 and 2 ranks (CPU device), its output the same as the one-rank run and
mpicc + gcc's one-rank build of it (examples/mpi/stencil3d.c)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

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


def _mpiexec() -> str:
    """The mpiexec of the MPI omp2gpu finds (the test extra installs MPICH's wheel)."""
    found = mpi.find()
    if found is None:
        pytest.skip(mpi.missing_message())
    launcher = Path(found.wrapper).with_name("mpiexec")
    if not launcher.exists():
        pytest.skip(f"no mpiexec beside {found.wrapper}")
    return str(launcher)


def _run(command: list[str], tmp_path) -> str:
    env = dict(os.environ, OMP_NUM_THREADS="1")
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(REPO_ROOT), env.get("PYTHONPATH", "")] if p)
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    return "".join(line + "\n" for line in result.stdout.splitlines() if line.startswith("checksum:"))


@pytest.mark.parametrize("ranks", [1, 2])
def test_stencil_across_ranks_matches_one_rank_and_gcc(tmp_path, ranks):
    mpiexec = _mpiexec()
    got = _run([mpiexec, "-n", str(ranks), sys.executable, "-m", "omp2gpu", "run", "--device", "cpu",
                str(STENCIL), "--", "16", "4"], tmp_path)
    assert got.startswith("checksum: ")
    mpicc = mpi.find().wrapper
    if shutil.which("gcc"):
        binary = tmp_path / "stencil"
        subprocess.run([mpicc, "-fopenmp", "-O1", str(STENCIL), "-o", str(binary)], check=True,
                       capture_output=True)
        reference = _run([mpiexec, "-n", "1", str(binary), "16", "4"], tmp_path)
        assert got == reference          # gcc's, on one rank: the same bits
