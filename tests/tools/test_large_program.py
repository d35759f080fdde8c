"""A generated ~2,000-line program (bench/startup/gen_program.py) runs under
omp2gpu with exactly gcc's output. Timings belong to bench/startup/run.py,
not here."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
GENERATOR = REPO_ROOT / "bench" / "startup" / "gen_program.py"
GCC_FLAGS = ["-std=c99", "-O2", "-fopenmp", "-foffload=disable", "-ffp-contract=off"]
TIMEOUT_S = 300


def _generator():
    spec = importlib.util.spec_from_file_location("gen_program", GENERATOR)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _env() -> dict[str, str]:
    env = dict(os.environ, OMP_NUM_THREADS="4")
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH")) if p)
    return env


def test_generator_is_deterministic_and_large():
    gen = _generator()
    text = gen.generate()
    assert text == gen.generate()
    assert 1800 <= text.count("\n") <= 2300
    assert text.count("#pragma omp") >= 10
    assert "int main(void)" in text


def test_large_program_matches_gcc(tmp_path):
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc not found: it is the reference compiler")
    source = tmp_path / "large_program.c"
    source.write_text(_generator().generate())

    binary = tmp_path / "large_program"
    subprocess.run([gcc, *GCC_FLAGS, str(source), "-o", str(binary), "-lm"], check=True,
                   capture_output=True, timeout=TIMEOUT_S)
    expected = subprocess.run([str(binary)], env=_env(), capture_output=True, timeout=TIMEOUT_S,
                              stdin=subprocess.DEVNULL)
    assert expected.returncode == 0

    result = subprocess.run([sys.executable, "-m", "omp2gpu", "run", str(source)], env=_env(),
                            capture_output=True, timeout=TIMEOUT_S, stdin=subprocess.DEVNULL)
    stderr = result.stderr.decode(errors="replace")
    assert result.returncode == 0, stderr
    assert result.stdout.decode() == expected.stdout.decode()
    assert b"checksum = " in result.stdout
