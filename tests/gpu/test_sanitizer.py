"""Every corpus program with target regions is clean under compute-sanitizer
(memcheck and racecheck), with the schemes chosen automatically and with the
control loop forced; the programs whose teams meet at barriers in divergent code (the
SPMDized kernels' guards, threads sitting out a num_threads region) under synccheck too.
GPU only; skipped without a GPU or compute-sanitizer."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROGRAMS = sorted(p for p in (REPO / "tests" / "programs").glob("*.c") if "omp target" in p.read_text())
BARRIER_PROGRAMS = [p for p in PROGRAMS if p.stem.startswith(("spmdized_", "cl_barrier_", "cl_num_threads_"))]
SUMMARIES = {"memcheck": "ERROR SUMMARY: 0 errors",
             "racecheck": "RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)",
             "synccheck": "ERROR SUMMARY: 0 errors"}


SANITIZER = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
pytestmark = [pytest.mark.gpu,
              pytest.mark.skipif(not os.path.exists(SANITIZER), reason="compute-sanitizer not found")]


@pytest.mark.parametrize("tool", ["memcheck", "racecheck"])
@pytest.mark.parametrize("scheme", ["auto", "control-loop"])
@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_clean_under_compute_sanitizer(program, scheme, tool, tmp_path):
    """The native executable itself runs under the sanitizer, as a user would run `./prog`."""
    _run_clean(program, scheme, tool, tmp_path)


@pytest.mark.parametrize("scheme", ["auto", "control-loop"])
@pytest.mark.parametrize("program", BARRIER_PROGRAMS, ids=[p.stem for p in BARRIER_PROGRAMS])
def test_barriers_clean_under_synccheck(program, scheme, tmp_path):
    _run_clean(program, scheme, "synccheck", tmp_path)


def _run_clean(program, scheme, tool, tmp_path):
    env = dict(os.environ, OMP_TARGET_OFFLOAD="MANDATORY",
               PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    binary = tmp_path / program.stem
    built = subprocess.run([sys.executable, "-m", "omp2gpu", "compile", "--scheme", scheme, str(program),
                            "-o", str(binary)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert built.returncode == 0, built.stderr[-3000:]
    cmd = [SANITIZER, f"--tool={tool}", "--error-exitcode=99", "--print-limit=5", str(binary), "alpha", "42"]
    done = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    report = done.stdout[-3000:] + done.stderr[-3000:]
    assert done.returncode != 99, f"{tool} found errors:\n{report}"
    assert SUMMARIES[tool] in done.stdout + done.stderr, report
