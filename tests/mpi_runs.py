"""What the MPI tests share: the mpiexec of the MPI omp2gpu finds, and a run of a
program under it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from omp2gpu.targets import mpi

REPO_ROOT = Path(__file__).resolve().parents[1]


def mpiexec() -> str:
    """The mpiexec of the MPI omp2gpu finds (the test extra installs MPICH's wheel)."""
    found = mpi.find()
    if found is None:
        pytest.skip(mpi.missing_message())
    launcher = Path(found.wrapper).with_name("mpiexec")
    if not launcher.exists():
        pytest.skip(f"no mpiexec beside {found.wrapper}")
    return str(launcher)


def run(command: list[str], tmp_path, **environ) -> subprocess.CompletedProcess:
    """`command` run to its end in tmp_path (with omp2gpu importable); it must succeed."""
    # Open MPI's mpiexec refuses to start as root (a CI container) unless told twice.
    env = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
               **environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(REPO_ROOT), env.get("PYTHONPATH", "")] if p)
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600, cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    return result


def gcc_build(source: Path, binary: Path) -> None:
    """`source` built by the MPI's wrapper around gcc -fopenmp, the reference."""
    subprocess.run([mpi.find().wrapper, "-fopenmp", "-foffload=disable", "-O1", str(source), "-o", str(binary)],
                   check=True, capture_output=True)
