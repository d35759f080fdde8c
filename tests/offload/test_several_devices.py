"""device(n) with two devices: each has its own data environment, host threads offload
to both at once, omp_target_alloc/memcpy/is_present name a device. On a machine with no
GPU, two CPU devices (OMP2GPU_DEVICES=cpu,cpu); on the GPU machine, the GPU and the CPU
device (gpu marker)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = Path(__file__).parent / "programs"
PROGRAM = PROGRAMS / "several_devices.c"


def _expected() -> str:
    n = 1 << 16
    chunk = n // 2
    a = [2 * i + (i // chunk) for i in range(n)]
    return (f"devices: 2\nsum {float(sum(a)):.1f}\ncopied sum {float(sum(a) + n):.1f} present0 0 present1 0\n"
            "present after enter data: 0 1\n")


def _run(devices: str | None, program: Path = PROGRAM, gpus: str = "0") -> str:
    env = dict(os.environ, OMP_NUM_THREADS="2", CUDA_VISIBLE_DEVICES=gpus)
    env.pop("OMP2GPU_DEVICES", None)
    if devices:
        env["OMP2GPU_DEVICES"] = devices
    env["PYTHONPATH"] = os.pathsep.join(p for p in [str(REPO_ROOT), env.get("PYTHONPATH", "")] if p)
    result = subprocess.run([sys.executable, "-m", "omp2gpu", "run", str(program)], capture_output=True,
                            text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_two_cpu_devices():
    assert _run("cpu,cpu") == _expected()


@pytest.mark.gpu
def test_the_gpu_and_the_cpu_device():
    assert _run("gpu,cpu") == _expected()


def _gpu_count() -> int:
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60).stdout
    except OSError:
        return 0
    return sum(line.startswith("GPU ") for line in out.splitlines())


@pytest.mark.gpu
def test_two_gpus():
    """Two GPUs, each with its own context, used from host threads at once."""
    if _gpu_count() < 2:
        pytest.skip("needs two GPUs (a multi-GPU machine: bench/gpu_session.sh scale runs there)")
    assert _run("gpu", gpus="0,1") == _expected()
    assert _run("gpu", PROGRAMS / "native_path_two_devices.c", gpus="0,1") == "device 0: 4 4\ndevice 1: 130 130\n"


NOWAIT_DEVICES = PROGRAMS / "nowait_devices_sequential.c"
NOWAIT_DEVICES_OUTPUT = "round 0: 642679199\nround 1: 357706101\nround 2: 25412973\n"   # gcc -fopenmp's


def test_nowait_regions_on_two_cpu_devices_from_sequential_code():
    assert _run("cpu,cpu", NOWAIT_DEVICES) == NOWAIT_DEVICES_OUTPUT


@pytest.mark.gpu
def test_nowait_regions_on_two_gpus_from_sequential_code_are_all_waited_for():
    """Kernels run ahead on both GPUs at once (each module's ring); one taskwait waits
    for both (run_ahead.c: a module's wait calls the next one's)."""
    if _gpu_count() < 2:
        pytest.skip("needs two GPUs (a multi-GPU machine: bench/gpu_session.sh scale runs there)")
    assert _run("gpu", NOWAIT_DEVICES, gpus="0,1") == NOWAIT_DEVICES_OUTPUT


@pytest.mark.parametrize("devices", ["cpu,cpu", pytest.param("gpu,cpu", marks=pytest.mark.gpu)])
def test_native_path_serves_one_device_only(devices):
    """A kernel launched on both devices in turn updates each device's own copy."""
    assert _run(devices, PROGRAMS / "native_path_two_devices.c") == "device 0: 4 4\ndevice 1: 130 130\n"
