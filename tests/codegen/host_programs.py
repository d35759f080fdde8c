"""Helpers for the host-OpenMP codegen tests: a C source's host IR, and its output when
run with a given number of threads (compared with gcc's where gcc is present)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from omp2gpu import driver

REPO_ROOT = Path(__file__).resolve().parent.parent.parent


def host_ir(tmp_path, source: str) -> str:
    path = tmp_path / "prog.c"
    path.write_text(source)
    return str(driver.emit_ir(path, driver.CompileOptions()))


def run(tmp_path, source: str, threads: int, *env_pairs: tuple[str, str]) -> str:
    path = tmp_path / "prog.c"
    path.write_text(source)
    env = dict(os.environ, OMP_NUM_THREADS=str(threads), **dict(env_pairs))
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(REPO_ROOT), env.get("PYTHONPATH", "")] if p)
    result = subprocess.run([sys.executable, "-m", "omp2gpu", "run", "--device", "host", str(path)],
                            capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    return result.stdout


def gcc_output(tmp_path, source: str, threads: int, *env_pairs: tuple[str, str]) -> str | None:
    """What gcc -fopenmp's build prints (None where gcc is missing)."""
    if shutil.which("gcc") is None:
        return None
    path = tmp_path / "ref.c"
    path.write_text(source)
    binary = tmp_path / "ref"
    subprocess.run(["gcc", "-fopenmp", "-foffload=disable", "-O1", str(path), "-o", str(binary)], check=True,
                   capture_output=True)
    return subprocess.run([str(binary)], capture_output=True, text=True, check=True, timeout=120,
                          env=dict(os.environ, OMP_NUM_THREADS=str(threads), **dict(env_pairs))).stdout


def run_like_gcc(tmp_path, source: str, threads: int) -> str:
    """omp2gpu's output with `threads` threads, checked to be gcc's where gcc is present."""
    got = run(tmp_path, source, threads)
    expected = gcc_output(tmp_path, source, threads)
    assert expected is None or got == expected
    return got


def assert_prints(tmp_path, source: str, threads: int, expected: str, *env_pairs: tuple[str, str]) -> None:
    """omp2gpu's build of `source` prints `expected` with `threads` threads, and so does
    gcc's where gcc is present."""
    got = run(tmp_path, source, threads, *env_pairs)
    assert got == expected
    reference = gcc_output(tmp_path, source, threads, *env_pairs)
    assert reference is None or got == reference
