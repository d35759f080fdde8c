"""The environment variables libomptarget and OpenMP 5.1 spell, read by the C offload runtime
(runtime/offload/): OMP_NUM_TEAMS and OMP_TEAMS_THREAD_LIMIT bound a device's teams where no
clause says (policy.c), LIBOMPTARGET_PROFILE writes the Chrome trace OMP2GPU_PROFILE does
(profile.c), LIBOMPTARGET_DEBUG prints the runtime's steps (messages.c), OMP_DISPLAY_ENV
adds the devices' block to the host runtime's (display_env.c). Run on the CPU device."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_native_executables import run_bare

from omp2gpu.tools import cc

PROGRAM = Path(__file__).resolve().parent / "programs" / "teams_environment.c"


@pytest.fixture(scope="module")
def program(tmp_path_factory) -> Path:
    executable = tmp_path_factory.mktemp("environment") / "teams"
    assert cc.main([str(PROGRAM), "-o", str(executable)]) == 0
    return executable


def _run(program, **env):
    done = run_bare(program, env={"OMP2GPU_DEVICES": "cpu", "OMP_NUM_THREADS": "2", **env})
    assert done.returncode == 0, done.stderr
    return done


def test_teams_bounded_where_no_clause_says(program, tmp_path):
    log = tmp_path / "launches"
    plain = _run(program, OMP2GPU_OFFLOAD_LOG=str(log))
    assert plain.stdout.startswith("on_device=1 teams=") and "clause_teams=5 a[999]=1998" in plain.stdout
    assert int(plain.stdout.split("teams=")[1].split()[0]) > 1 and int(plain.stdout.split("threads=")[1].split()[0]) > 8
    bounded = _run(program, OMP_NUM_TEAMS="1", OMP_TEAMS_THREAD_LIMIT="8", OMP2GPU_OFFLOAD_LOG=str(tmp_path / "b"))
    assert bounded.stdout == "on_device=1 teams=1 threads=8 clause_teams=5 a[999]=1998\n"
    assert "grid=1 block=8" in (tmp_path / "b").read_text().splitlines()[0]
    bad = _run(program, OMP_NUM_TEAMS="many")
    assert "OMP_NUM_TEAMS=many is not a positive integer; ignored" in bad.stderr


def test_libomptarget_profile_writes_the_trace(program, tmp_path):
    trace = tmp_path / "trace.json"
    _run(program, LIBOMPTARGET_PROFILE=str(trace))
    events = json.loads(trace.read_text())["traceEvents"]
    assert sum(1 for event in events if event.get("ph") == "X" and event.get("cat") == "kernel") == 2


def test_libomptarget_debug_prints_the_steps(program):
    quiet = _run(program)
    assert "debug" not in quiet.stderr
    lines = _run(program, LIBOMPTARGET_DEBUG="1").stderr.splitlines()
    assert any(line.startswith("omp2gpu: debug: device 0: cpu (cpu)") for line in lines), lines
    assert any(line.startswith("omp2gpu: debug: image 0 registered: 2 kernels") for line in lines), lines
    assert sum("omp2gpu: debug: launching " in line for line in lines) == 2
    assert any("omp2gpu: debug: copying " in line for line in lines)


def test_display_env_shows_the_devices(program):
    err = _run(program, OMP_DISPLAY_ENV="true", OMP_NUM_TEAMS="4").stderr
    block = err[err.index("OMP2GPU DISPLAY ENVIRONMENT BEGIN"):err.index("OMP2GPU DISPLAY ENVIRONMENT END")]
    assert "[device] omp_get_num_devices() = '1'" in block and "[device] device 0 = 'cpu (cpu)'" in block
    assert "[device] OMP_NUM_TEAMS = '4'" in block and "OMP2GPU_DEVICES = 'cpu'" in block
    assert "OMP2GPU DISPLAY" not in _run(program).stderr


@pytest.fixture(scope="module")
def numbering(tmp_path_factory) -> Path:
    executable = tmp_path_factory.mktemp("numbering") / "numbering"
    assert cc.main([str(PROGRAM.parent / "device_numbering.c"), "-o", str(executable)]) == 0
    return executable


def _devices(numbering, **env) -> str:
    done = run_bare(numbering, env={"OMP_NUM_THREADS": "2", **env})
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.no_gpu
def test_without_a_gpu_the_cpu_device_is_device_0(numbering):
    assert _devices(numbering) == "devices 1 initial 1\ndevice 0 off_host 1\n"
    assert _devices(numbering, OMP2GPU_DEVICES="cpu,cpu").startswith("devices 2 initial 2\n")


@pytest.mark.gpu
def test_with_gpus_only_the_gpus_are_numbered(numbering):
    """As Clang and GCC number them: the GPUs alone (a code splitting its work over
    omp_get_num_devices() devices gives the CPU none); OMP2GPU_DEVICES=gpu,cpu adds the
    CPU device after them."""
    from omp2gpu.tools.doctor import gpu_status

    gpus, _ = gpu_status()
    out = _devices(numbering)
    assert out.startswith(f"devices {gpus} initial {gpus}\n") and out.count("off_host 1") == gpus
    assert _devices(numbering, OMP2GPU_DEVICES="gpu,cpu").startswith(f"devices {gpus + 1} initial {gpus + 1}\n")
