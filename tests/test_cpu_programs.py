"""The CPU device's scheduling matrix: a subset of the differential corpus on the
CPU device with every work-group schedule and 1, 2 and 4 workers, compared with
gcc exactly as test_programs.py does (the whole corpus runs there once, on the
CPU device with the default schedule); and tests/cpu_programs (teams whose
parallel regions the CPU device splits at barriers) with each worker count.
Launches are logged, and every logged launch must have run on the CPU device."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from test_programs import PROGRAM_ARGS, PROGRAMS_DIR, _run, _text, gcc_binaries, gcc_results  # noqa: F401

# Combined regions with reductions, lastprivate, collapse, atomics, omp_* queries,
# present data across many launches; serial and sequential regions.
SUBSET = ["reduction_all_operators", "lastprivate", "combined_collapse2", "histogram_atomic",
          "omp_api_queries", "target_data_region", "barrier_phases", "target_teams_nested_parallel"]
SCHEDULES = ["static", "static,2", "dynamic", "guided", "steal", "steal,3"]
THREADS = [1, 2, 4]
# Every (schedule, workers) pair runs one program, the programs taken in turn, so each
# schedule meets each worker count and every program; and every program once more with
# one-group chunks dealt dynamically to 4 workers.
CASES = [(SUBSET[(3 * i + j) % len(SUBSET)], schedule, threads)
         for i, schedule in enumerate(SCHEDULES) for j, threads in enumerate(THREADS)]
CASES += [(name, "dynamic,1", 4) for name in SUBSET]
CPU_PROGRAMS_DIR = PROGRAMS_DIR.parent / "cpu_programs"
CPU_PROGRAMS = sorted(CPU_PROGRAMS_DIR.glob("*.c"))
CASES += [(f"../cpu_programs/{p.stem}", schedule, threads) for p in CPU_PROGRAMS
          for schedule, threads in (("static", 1), ("steal", 2), ("dynamic,2", 4))]

@pytest.mark.parametrize("name,schedule,threads", CASES,
                         ids=[f"{Path(n).name}-{s.replace(',', '_')}-t{t}" for n, s, t in CASES])
def test_cpu_device_schedule_matrix(name, schedule, threads, gcc_results, tmp_path):
    program = (PROGRAMS_DIR / f"{name}.c").resolve()
    ref = gcc_results(program)
    log = tmp_path / "offload.log"
    cmd = [sys.executable, "-m", "omp2gpu.tools.cli", "run", "--device", "cpu",
           "--cpu-schedule", schedule, str(program), "--"] + PROGRAM_ARGS
    got = _run(cmd, cwd=tmp_path, extra_env={"OMP_NUM_THREADS": str(threads),
                                             "OMP2GPU_OFFLOAD_LOG": str(log)})
    assert (_text(got.stdout), got.returncode) == (_text(ref.stdout), ref.returncode), _text(got.stderr)
    assert "offload to device" not in _text(got.stderr), _text(got.stderr)
    launches = log.read_text().splitlines() if log.exists() else []
    assert launches and all("device='cpu'" in line for line in launches)


def test_subset_programs_exist():
    assert all(Path(PROGRAMS_DIR / f"{name}.c").is_file() for name in SUBSET)
