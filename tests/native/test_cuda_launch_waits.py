"""How the GPU device waits for a synchronous region's kernel (runtime/offload/cuda_device.c):
as CUDA C's copy, launch, copy, the copy back on the legacy stream is the wait, and only a
region that copies nothing back synchronises the context; a kernel's fault found by the copy
back gives the device up and the host runs the region on its intact data. On the stand-in
CUDA driver (tests/native/fake_cuda), which logs its kernels and synchronisations."""

from __future__ import annotations

import shutil

import pytest
from test_native_executables import build, run_bare

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc (the C toolchain)")


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build(tmp_path_factory.mktemp("copy_launch_copy"), "copy_launch_copy.c")


def on_fake_gpu(program, fake_driver, **settings):
    return run_bare(program, env={"LD_LIBRARY_PATH": str(fake_driver), "OMP2GPU_DEVICES": "gpu", **settings})


def test_only_the_region_without_a_copy_back_synchronises(program, fake_driver):
    done = on_fake_gpu(program, fake_driver, OMP_TARGET_OFFLOAD="MANDATORY", FAKE_CUDA_KERNEL_MS="1")
    assert done.returncode == 0, done.stderr
    events = [line.split()[1] for line in done.stderr.splitlines() if line.startswith("FAKE-CUDA:")]
    # the first kernel's end, then straight on to the second (its copy back waited); the
    # second kernel, copying nothing back, is synchronised
    assert events == ["start", "end", "start", "end", "synchronize"], done.stderr


def test_small_copies_are_queued_and_a_region_waits_once(program, fake_driver):
    """The counter and the 4 weights go through the pinned staging buffer as queued copies:
    the counter's copy in, its kernel, its copy back (the region's one wait); the weights'
    copy in, their kernel, then the context synchronised."""
    done = on_fake_gpu(program, fake_driver, OMP_TARGET_OFFLOAD="MANDATORY", FAKE_CUDA_KERNEL_MS="1",
                       FAKE_CUDA_LOG_COPIES="1")
    assert (done.returncode, done.stdout) == (0, "1 1\n"), done.stderr     # the stand-in's kernels compute nothing
    events = [" ".join(line.split()[1:3]) for line in done.stderr.splitlines() if line.startswith("FAKE-CUDA:")]
    assert events == ["queued-copy to-device",                    # the image's device number, at its load
                      "queued-copy to-device", "start __omp_offloading_main_l8", "end __omp_offloading_main_l8",
                      "queued-copy to-host", "queued-copy to-device", "start __omp_offloading_main_l10",
                      "end __omp_offloading_main_l10", "synchronize"], done.stderr


def test_a_fault_found_by_the_copy_back_runs_the_region_on_the_host(program, fake_driver):
    done = on_fake_gpu(program, fake_driver, FAKE_CUDA_KERNEL_FAULT="1")
    assert (done.returncode, done.stdout) == (0, "2 2\n"), done.stderr
    assert ("offload to device 0 failed (cuCtxSynchronize: CUDA_ERROR_ILLEGAL_ADDRESS" in done.stderr
            and "running the region on the host" in done.stderr), done.stderr


def test_a_fault_under_mandatory_offload_ends_the_program(program, fake_driver):
    done = on_fake_gpu(program, fake_driver, OMP_TARGET_OFFLOAD="MANDATORY", FAKE_CUDA_KERNEL_FAULT="1")
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    assert "CUDA_ERROR_ILLEGAL_ADDRESS" in done.stderr and "MANDATORY" in done.stderr, done.stderr
