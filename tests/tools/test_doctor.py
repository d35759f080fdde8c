"""`omp2gpu doctor` / `omp2gpu-cc --print-devices` (tools/doctor.py): the devices a program
numbers here and why no GPU is usable, with the fix, from the offload runtime's own answer
(runtime/offload/cuda_device.c), which its "no device" error gives too. Drivers that are
too old, find no GPU or fail to start are stood in for by tests/native/programs/
fake_libcuda.c on LD_LIBRARY_PATH."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from omp2gpu.tools import cc, cli

REPO_ROOT = Path(__file__).resolve().parents[2]
FAKE = REPO_ROOT / "tests" / "native" / "programs" / "fake_libcuda.c"


def _doctor(env: dict) -> str:
    done = subprocess.run([sys.executable, "-m", "omp2gpu.tools.cli", "doctor"], capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(REPO_ROOT), **env}, check=False)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.no_gpu
def test_without_a_driver(capsys, monkeypatch):
    """No GPU here: the CPU device is device 0, the host 1; the reason names the driver and
    how to install it; --print-devices says the same."""
    monkeypatch.delenv("OMP2GPU_DEVICES", raising=False)
    assert cli.main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "  device 0: the CPU device" in out and "  device 1: the host" in out
    if shutil.which("nvidia-smi") is None and not Path("/usr/lib/x86_64-linux-gnu/libcuda.so.1").exists():
        assert "GPU: none usable: no NVIDIA driver (libcuda.so.1 was not found): install the NVIDIA driver" in out
    assert "cuda-python: " in out
    assert cc.main(["--print-devices"]) == 0 and capsys.readouterr().out == out


def test_devices_chosen_by_the_environment(capsys, monkeypatch):
    monkeypatch.setenv("OMP2GPU_DEVICES", "cpu,cpu")
    assert cli.main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "device 0: the CPU device" in out and "device 1: the CPU device" in out and "device 2: the host" in out


@pytest.mark.no_gpu
@pytest.mark.skipif(shutil.which("gcc") is None, reason="builds the stand-in driver with gcc")
@pytest.mark.parametrize("env,reason", [
    ({"FAKE_CUDA_VERSION": "11080"}, "the NVIDIA driver is too old (CUDA 11.8; omp2gpu needs 12.0 or later): update"),
    ({}, "the NVIDIA driver found no GPU (check `nvidia-smi` and CUDA_VISIBLE_DEVICES)"),
    ({"FAKE_CUDA_INIT": "100"}, "the NVIDIA driver did not start (cuInit: ?): no NVIDIA GPU is visible"),
])
def test_what_a_driver_says(tmp_path, env, reason):
    subprocess.run(["gcc", "-shared", "-fPIC", str(FAKE), "-o", str(tmp_path / "libcuda.so.1")], check=True)
    out = _doctor({"LD_LIBRARY_PATH": str(tmp_path), **env})
    assert f"GPU: none usable: {reason}" in out, out


@pytest.mark.no_gpu
@pytest.mark.skipif(shutil.which("gcc") is None, reason="builds the stand-in driver with gcc")
def test_gpu_facts_are_the_drivers(tmp_path):
    """`report --run`'s GPU facts (launch_sweep.device_facts) come from the offload runtime:
    here from the stand-in driver of tests/native/fake_cuda (one GPU, sm_90, 2 SMs)."""
    stand_in = REPO_ROOT / "tests" / "native" / "fake_cuda" / "libcuda.c"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O1", str(stand_in), "-o", str(tmp_path / "libcuda.so.1"),
                    "-lpthread"], check=True)
    script = ("from omp2gpu.tools import doctor, launch_sweep\n"
              "print(doctor.gpu_facts(0), doctor.gpu_facts(1), launch_sweep.device_facts())\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False,
                          env={**os.environ, "PYTHONPATH": str(REPO_ROOT), "LD_LIBRARY_PATH": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    assert done.stdout == ("GpuFacts(name='Fake GPU', compute_capability=(9, 0), multiprocessors=2) None "
                           "('sm_90', 2)\n")
