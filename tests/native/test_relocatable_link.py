"""runtime/offload/cuda_device.c: an image whose PTX asks for a relocatable build (code with
recursion, omp2gpu/targets/nvptx/relocatable.py) is loaded through the driver's linker
(cuLink*), others through cuModuleLoadDataEx as before: on the stand-in driver
(fake_cuda/libcuda.c), whose log has a line for each PTX it links. The recursive program
prints gcc's output on the CPU device and, linked so, on a GPU."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from test_native_executables import ONE_GPU, PROGRAMS, build, run_bare

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc (the C toolchain and reference)")

RECURSIVE = "recursive_row_sort.c"


@pytest.fixture(scope="module")
def gcc_output(tmp_path_factory) -> str:
    reference = tmp_path_factory.mktemp("gcc") / "ref"
    subprocess.run(["gcc", "-O1", "-fopenmp", "-foffload=disable", str(PROGRAMS / RECURSIVE), "-o", str(reference)],
                   check=True)
    done = run_bare(reference)          # with no environment: no OMP_TARGET_OFFLOAD another test set
    assert done.returncode == 0, done.stderr
    return done.stdout


def linked_images(tmp_path, fake_driver, source: str, **env: str) -> list[str]:
    program, log = build(tmp_path, source), tmp_path / "driver.log"
    done = run_bare(program, env={"LD_LIBRARY_PATH": str(fake_driver), "OMP2GPU_DEVICES": "gpu",
                                  "OMP_TARGET_OFFLOAD": "MANDATORY", "FAKE_CUDA_KERNEL_MS": "1",
                                  "FAKE_CUDA_LOG": str(log), **env})
    assert done.returncode == 0 and "FAKE-CUDA: end __omp_offloading" in done.stderr, done.stderr
    return [line for line in log.read_text().splitlines() if line.startswith("link-ptx ")] if log.exists() else []


def test_the_image_with_recursion_is_linked(tmp_path, fake_driver):
    assert linked_images(tmp_path, fake_driver, RECURSIVE) == ["link-ptx omp2gpu-image.ptx"]


def test_a_link_the_driver_refuses_falls_back_to_the_whole_program_load(tmp_path, fake_driver):
    # the kernels still run on the "GPU" (MANDATORY: a failed load would end the program)
    assert linked_images(tmp_path, fake_driver, RECURSIVE, FAKE_CUDA_LINK_FAILS="1") == ["link-ptx omp2gpu-image.ptx"]


def test_an_image_without_recursion_is_loaded_as_before(tmp_path, fake_driver):
    assert linked_images(tmp_path, fake_driver, "declare_target_unused_global.c") == []


def test_on_the_cpu_device_it_prints_gccs_output(tmp_path, gcc_output):
    done = run_bare(build(tmp_path, RECURSIVE), env={"OMP2GPU_DEVICES": "cpu", "OMP_TARGET_OFFLOAD": "MANDATORY"})
    assert done.returncode == 0 and done.stdout == gcc_output, done.stderr


@pytest.mark.gpu
@pytest.mark.parametrize("flags", [(), ("--offload-arch", "sm_90")], ids=["driver-linked", "nvlink"])
def test_on_the_gpu_it_prints_gccs_output(tmp_path, gcc_output, flags):
    done = run_bare(build(tmp_path, RECURSIVE, *flags), env=ONE_GPU)
    assert done.returncode == 0 and done.stdout == gcc_output, done.stderr
