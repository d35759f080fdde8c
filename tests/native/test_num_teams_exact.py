"""num_teams(n) is a league of n teams (OpenMP 5.1; codegen/openmp/plan/launch_shape.py
capped_by_trip_count) in a region that asks omp_get_num_teams(), even over fewer
iterations than n; a loop bound that calls an OpenMP routine is not counted on the host
(_countable_on_host); a `teams` construct inside `target` with no loop is a league on the
CPU device (cpu/teams.py CpuTeams; one work-item ran it before).
tests/native/programs/num_teams_exact.c against gcc's host run, on the CPU device and on
the GPU under both schemes. (The host fallback still runs one team: what OpenMP 5.0
allowed, left as it is.)"""

from __future__ import annotations

import pytest
from test_native_executables import ONE_GPU, PROGRAMS, build, gcc_reference, run_bare

SOURCE = "num_teams_exact.c"
CPU_DEVICE = {"OMP2GPU_DEVICES": "cpu", "OMP_TARGET_OFFLOAD": "MANDATORY"}


@pytest.fixture(scope="module")
def expected(tmp_path_factory) -> str:
    return gcc_reference(tmp_path_factory.mktemp("gcc"), PROGRAMS / SOURCE)


@pytest.mark.parametrize("scheme, env", [
    pytest.param((), CPU_DEVICE, id="cpu"),
    pytest.param((), ONE_GPU, id="gpu", marks=pytest.mark.gpu),
    pytest.param(("--scheme", "control-loop"), ONE_GPU, id="gpu-control-loop", marks=pytest.mark.gpu)])
def test_a_league_has_the_teams_num_teams_asks_for(expected, tmp_path, scheme, env):
    done = run_bare(build(tmp_path, SOURCE, *scheme), env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == expected == ("league 8, combined 6, bounded 2 over 2 iterations, split 4, "
                                       "weights[4] 2.0\nslices 30 31 32 32\n")
