"""Corpus programs gcc 12 cannot compile (OpenMP 5.1 features it lacks: inoutset,
omp_all_memory, taskwait nowait, ...): tests/programs_beyond_gcc12/NAME.c prints what
NAME.expected holds, written from the program's own arithmetic (its header says why
the output is what it is) and checked here instead of against gcc's output, on every
device of OMP2GPU_TEST_DEVICES and thread count test_programs.py uses.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from test_programs import DEVICES, _run, comparable_stdout, omp2gpu_command, run_env, thread_count

PROGRAMS = sorted((Path(__file__).resolve().parent / "programs_beyond_gcc12").glob("*.c"))


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_program_prints_its_expected_output(program: Path, device: str, tmp_path):
    got = _run(omp2gpu_command(program, device), cwd=tmp_path, extra_env=run_env(program, thread_count(device)))
    expected = program.with_suffix(".expected").read_bytes()
    assert got.returncode == 0, got.stderr.decode(errors="replace")
    assert comparable_stdout(got.stdout) == expected, got.stderr.decode(errors="replace")


def test_gcc_12_indeed_cannot_build_them(tmp_path):
    """Each program needs what gcc 12 lacks; once the reference gcc builds one, it
    belongs in tests/programs/ (compared with gcc's output there)."""
    gcc = shutil.which("gcc")
    if gcc is None:
        pytest.skip("gcc not found")
    version = subprocess.run([gcc, "-dumpversion"], capture_output=True, text=True).stdout.strip()
    if not version.startswith("12"):
        pytest.skip(f"gcc {version} is not the reference gcc 12")
    for program in PROGRAMS:
        built = subprocess.run([gcc, "-fopenmp", "-fsyntax-only", str(program)], capture_output=True)
        assert built.returncode != 0, f"gcc 12 builds {program.name}: move it to tests/programs/"
