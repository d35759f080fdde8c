"""The differential corpus (tests/programs, tests/test_programs.py) as native executables:
each program is built once by `omp2gpu compile --native` and the binary itself is run,
with no Python, on the host (OMP_TARGET_OFFLOAD=DISABLED), the CPU device
(OMP2GPU_DEVICES=cpu, MANDATORY) and the GPU (gpu marker: the lead's machine), against
gcc's output, as test_programs.py compares `omp2gpu run`'s.

OMP2GPU_TEST_DEVICES chooses the devices as for test_programs.py ("host", "cpu", "gpu",
"gpu-control-loop"; host-t1/host-t2 run the host build at 1 and 2 threads).
"""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
from pathlib import Path

import pytest
import test_programs
from test_programs import (
    DEFAULT_THREADS,
    HOST_THREAD_DEVICES,
    PROGRAM_ARGS,
    PROGRAMS,
    REPO_ROOT,
    TIMEOUT_S,
    comparable_stdout,
    run_env,
    sources,
)

# test_programs.py's fixtures: gcc's build and output of each program, made once a session
gcc_binaries = test_programs.gcc_binaries
gcc_results = test_programs.gcc_results

DEVICE_ENVIRONMENT = {
    "host": {"OMP_TARGET_OFFLOAD": "DISABLED"},
    "cpu": {"OMP2GPU_DEVICES": "cpu", "OMP_TARGET_OFFLOAD": "MANDATORY"},
    "gpu": {"OMP2GPU_DEVICES": "gpu", "OMP_TARGET_OFFLOAD": "MANDATORY"},
}


def _device_param(device: str):
    return pytest.param(device, marks=pytest.mark.gpu) if device.startswith("gpu") else device


DEVICES = [_device_param(d.strip()) for d in os.environ.get(
    "OMP2GPU_TEST_DEVICES", "host,host-t1,host-t2,cpu,gpu,gpu-control-loop").split(",") if d.strip()]


def _kind(device: str) -> str:
    return "gpu" if device.startswith("gpu") else "host" if device.startswith("host") else device


def _scheme(device: str) -> str:
    return device[len("gpu-"):] if device.startswith("gpu-") else "auto"


@pytest.fixture(scope="session")
def native_binaries(tmp_path_factory):
    """Each program built once per scheme; (program, scheme) -> the executable (or the failure)."""
    outdir = tmp_path_factory.mktemp("native")
    built: dict[tuple[str, str], Path | str] = {}

    def build(program: Path, scheme: str) -> Path:
        key = (program.stem, scheme)
        if key not in built:
            exe = outdir / f"{program.stem}-{scheme}"
            env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT),
                                                                             os.environ.get("PYTHONPATH")]))}
            done = subprocess.run([sys.executable, "-m", "omp2gpu.tools.cli", "compile", "--native",
                                   "--scheme", scheme, *test_programs.code_flags(program), *map(str, sources(program)),
                                   "-o", str(exe)],
                                  capture_output=True, env=env, timeout=10 * TIMEOUT_S)
            built[key] = exe if done.returncode == 0 else done.stderr.decode("utf-8", "replace")
        got = built[key]
        if isinstance(got, str):
            pytest.fail(f"omp2gpu compile --native failed for {program.name}:\n{got}", pytrace=False)
        return got

    return build


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("program", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_native_program(program: Path, device: str, gcc_results, native_binaries, tmp_path):
    threads = HOST_THREAD_DEVICES.get(device, DEFAULT_THREADS)
    reference = gcc_results(program, threads)
    exe = native_binaries(program, _scheme(device))
    # env -i as a user would run it anywhere: only what the program and device need
    env = {"PATH": "/usr/bin:/bin", **run_env(program, threads), **DEVICE_ENVIRONMENT[_kind(device)]}
    got = subprocess.run([str(exe), *PROGRAM_ARGS], cwd=tmp_path, env=env, stdin=subprocess.DEVNULL,
                         capture_output=True, timeout=TIMEOUT_S)
    expected, actual = comparable_stdout(reference.stdout), comparable_stdout(got.stdout)
    if expected == actual and reference.returncode == got.returncode:
        return
    message = [f"{program.name} as a native executable on {device!r}: differs from gcc"]
    if reference.returncode != got.returncode:
        message.append(f"exit status: gcc {reference.returncode}, native {got.returncode}")
    message.append("stdout diff:\n" + "".join(difflib.unified_diff(
        expected.decode("utf-8", "replace").splitlines(keepends=True),
        actual.decode("utf-8", "replace").splitlines(keepends=True), "gcc stdout", "native stdout")))
    message.append("stderr:\n" + got.stderr.decode("utf-8", "replace"))
    pytest.fail("\n".join(message), pytrace=False)
