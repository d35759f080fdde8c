"""device(n) with two devices: each has its own data environment, host threads offload
to both at once, omp_target_alloc/memcpy/is_present name a device, the device routines
answer per device. On a machine with no GPU, two CPU devices (OMP2GPU_DEVICES=cpu,cpu);
on the GPU machine, the GPU and the CPU device, and two GPUs where there are (gpu
marker; bench/gpu_session.sh scale)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from native_runs import run_file, run_native

PROGRAMS = Path(__file__).resolve().parent / "programs"
PROGRAM = PROGRAMS / "several_devices.c"
ONE_KERNEL = PROGRAMS / "two_devices_one_kernel.c"
ONE_KERNEL_OUTPUT = "device 0: 4 4\ndevice 1: 130 130\n"
NOWAIT_DEVICES = PROGRAMS / "nowait_devices_sequential.c"
NOWAIT_DEVICES_OUTPUT = "round 0: 642679199\nround 1: 357706101\nround 2: 25412973\n"   # gcc -fopenmp's


def _expected() -> str:
    n = 1 << 16
    chunk = n // 2
    a = [2 * i + (i // chunk) for i in range(n)]
    return (f"devices: 2\nsum {float(sum(a)):.1f}\ncopied sum {float(sum(a) + n):.1f} present0 0 present1 0\n"
            "present after enter data: 0 1\n")


def _output(path: Path, devices: str, gpus: str | None = None) -> str:
    done = run_file(path, devices=devices, gpus=gpus)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _gpu_count() -> int:
    try:
        out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60).stdout
    except OSError:
        return 0
    return sum(line.startswith("GPU ") for line in out.splitlines())


def test_two_cpu_devices():
    assert _output(PROGRAM, "cpu,cpu") == _expected()


@pytest.mark.gpu
def test_the_gpu_and_the_cpu_device():
    assert _output(PROGRAM, "gpu,cpu", gpus="0") == _expected()


@pytest.mark.gpu
def test_two_gpus():
    """Two GPUs, each with its own context, used from host threads at once."""
    if _gpu_count() < 2:
        pytest.skip("needs two GPUs (a multi-GPU machine: bench/gpu_session.sh scale runs there)")
    assert _output(PROGRAM, "gpu", gpus="0,1") == _expected()
    assert _output(ONE_KERNEL, "gpu", gpus="0,1") == ONE_KERNEL_OUTPUT


def test_nowait_regions_on_two_cpu_devices_from_sequential_code():
    assert _output(NOWAIT_DEVICES, "cpu,cpu") == NOWAIT_DEVICES_OUTPUT


@pytest.mark.gpu
def test_nowait_regions_on_two_gpus_from_sequential_code_are_all_waited_for():
    """Kernels run ahead on both GPUs at once; one taskwait waits for both."""
    if _gpu_count() < 2:
        pytest.skip("needs two GPUs (a multi-GPU machine: bench/gpu_session.sh scale runs there)")
    assert _output(NOWAIT_DEVICES, "gpu", gpus="0,1") == NOWAIT_DEVICES_OUTPUT


@pytest.mark.parametrize("devices", ["cpu,cpu", pytest.param("gpu,cpu", marks=pytest.mark.gpu)])
def test_one_kernel_on_two_devices_updates_each_devices_copy(devices):
    assert _output(ONE_KERNEL, devices, gpus="0") == ONE_KERNEL_OUTPUT


ROUTINES = """
    #include <omp.h>
    #include <stdio.h>
    int main(void) {
        int number = -9, teams = -9, limit = -9, levels = -9, threads = -9;
        printf("host %d of %d initial %d\\n", omp_get_device_num(), omp_get_num_devices(),
               omp_get_initial_device());
        for (int d = 0; d < omp_get_num_devices(); d++) {
            #pragma omp target device(d) map(from: number, teams, limit, levels, threads) thread_limit(2)
            {
                number = omp_get_device_num();
                teams = omp_get_max_teams();
                limit = omp_get_teams_thread_limit();
                levels = omp_get_supported_active_levels();
                threads = omp_get_thread_limit() <= 2;
            }
            printf("device %d: %d %d %d %d %d\\n", d, number, teams, limit, levels, threads);
        }
        omp_set_num_teams(3);
        omp_set_teams_thread_limit(5);
        printf("%d %d %d %d\\n", omp_get_max_teams(), omp_get_teams_thread_limit(),
               omp_pause_resource(omp_pause_soft, 1), omp_pause_resource(omp_pause_soft, 7) != 0);
        return 0;
    }
"""


def test_device_numbers_and_teams_routines(tmp_path):
    """OpenMP 5.0/5.1 routines in target regions and on the host (issue 26): the device
    number a region runs on, the teams ICVs a device reports unset, target's thread_limit."""
    done = run_native(tmp_path, ROUTINES, devices="cpu,cpu")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["host 2 of 2 initial 2", "device 0: 0 0 0 1 1", "device 1: 1 0 0 1 1",
                                        "3 5 0 1"]
