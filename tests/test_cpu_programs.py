"""The CPU device's scheduling matrix: the whole differential corpus on the CPU
device with every work-group schedule policy and 1, 2 and 4 workers, compared
with gcc exactly as test_programs.py does; and tests/cpu_programs (teams whose
parallel regions the CPU device splits at barriers) likewise. Each policy runs
with its default grain for half the programs and an explicit chunk for the other
half, so chunked and unchunked grabs both meet every program shape. Launches
are logged, and every logged launch must have run on the CPU device. Programs that
launch no target region are left to test_programs.py's host runs."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from host_regions import EVERY_REGION_ON_HOST
from test_programs import (  # noqa: F401
    PROGRAM_ARGS,
    PROGRAMS,
    PROGRAMS_DIR,
    _run,
    _text,
    code_flags,
    comparable_stdout,
    gcc_binaries,
    gcc_results,
    run_env,
    sources,
    std_flag,
)

POLICIES = ["static", "dynamic", "guided", "steal"]
CHUNKS = {"static": 2, "dynamic": 1, "guided": 2, "steal": 3}
THREADS = [1, 2, 4]
CPU_PROGRAMS_DIR = PROGRAMS_DIR.parent / "cpu_programs"
ALL_PROGRAMS = PROGRAMS + sorted(CPU_PROGRAMS_DIR.glob("*.c"))


def _schedule(policy: str, index: int) -> str:
    return f"{policy},{CHUNKS[policy]}" if index % 2 else policy


# A region-launching directive: `target` alone or combined, not a data construct.
_TARGET_REGION = re.compile(r"#\s*pragma\s+omp\s+target(?!\s+(?:data|enter|exit|update)\b)")


def _launches_regions(program: Path) -> bool:
    if program.stem in EVERY_REGION_ON_HOST:
        return False
    return any(_TARGET_REGION.search(source.read_text()) for source in sources(program))


def _cases(index: int, program: Path):
    """Every policy x every worker count. A program that launches no target region
    never meets the work-group scheduler: it runs nothing here, its host parallel
    regions being run at 1, 2 and 4 threads by test_programs.py (host-t1, host-t2, host)."""
    if not _launches_regions(program):
        return []
    return [(program, _schedule(policy, index), threads) for policy in POLICIES for threads in THREADS]


CASES = [case for index, program in enumerate(ALL_PROGRAMS) for case in _cases(index, program)]


@pytest.mark.parametrize("program,schedule,threads", CASES,
                         ids=[f"{p.stem}-{s.replace(',', '_')}-t{t}" for p, s, t in CASES])
def test_cpu_device_schedule_matrix(program, schedule, threads, gcc_results, tmp_path):  # noqa: F811 (fixture)
    ref = gcc_results(program, threads)
    log = tmp_path / "offload.log"
    cmd = [sys.executable, "-m", "omp2gpu.tools.cli", "run", "--device", "cpu",
           "--cpu-schedule", schedule, std_flag(program), *code_flags(program), *map(str, sources(program)),
           "--"] + PROGRAM_ARGS
    got = _run(cmd, cwd=tmp_path, extra_env={**run_env(program, threads), "OMP2GPU_OFFLOAD_LOG": str(log)})
    # Timing lines ("timing:" at a line's start) are dropped on both sides, as in test_programs.py.
    assert (_text(comparable_stdout(got.stdout)), got.returncode) == \
        (_text(comparable_stdout(ref.stdout)), ref.returncode), _text(got.stderr)
    assert "offload to device" not in _text(got.stderr), _text(got.stderr)
    launches = log.read_text().splitlines() if log.exists() else []
    assert all("device='cpu'" in line for line in launches)
    assert launches, "a program with target regions launched nothing on the CPU device"


def test_matrix_covers_every_policy_chunked_and_not():
    schedules = {schedule for _, schedule, _ in CASES}
    assert schedules == set(POLICIES) | {f"{p},{c}" for p, c in CHUNKS.items()}
    launching = [p for p in ALL_PROGRAMS if _launches_regions(p)]
    assert len(launching) >= 30  # the regex finds the corpus's target regions
    for program in launching:
        assert {(s.split(",")[0], t) for p, s, t in CASES if p == program} == \
            {(policy, threads) for policy in POLICIES for threads in THREADS}
    assert {p for p, _, _ in CASES} == set(launching)
