"""runtime/offload/cuda_device.c: an image whose PTX asks for a relocatable build (code with
recursion, omp2gpu/targets/nvptx/relocatable.py) is loaded through the driver's linker
(cuLink*), others through cuModuleLoadDataEx as before: on the stand-in driver
(fake_cuda/libcuda.c), whose log has a line for each PTX it links. The recursive program
prints gcc's output on the CPU device and, linked so, on a GPU, where a recursion deeper than
the default stack runs with LIBOMPTARGET_STACK_SIZE."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from test_native_executables import ONE_GPU, PROGRAMS, build, run_bare

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc (the C toolchain and reference)")

RECURSIVE = "recursive_row_sort.c"


DEEP = ("64", "500")      # rows, and a recursion 500 calls deep: about 16 KB of stack a thread


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    program = tmp_path_factory.mktemp("gcc") / "ref"
    subprocess.run(["gcc", "-O1", "-fopenmp", "-foffload=disable", str(PROGRAMS / RECURSIVE), "-o", str(program)],
                   check=True)
    return program


def gcc_says(program, *args: str) -> str:
    done = run_bare(program, *args)     # with no environment: no OMP_TARGET_OFFLOAD another test set
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def gcc_output(reference) -> str:
    return gcc_says(reference)


def on_stand_in(tmp_path, fake_driver, source: str, **env: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    """The program run on the stand-in driver (`env` added), and the driver's log lines."""
    program, log = build(tmp_path, source), tmp_path / "driver.log"
    done = run_bare(program, env={"LD_LIBRARY_PATH": str(fake_driver), "OMP2GPU_DEVICES": "gpu",
                                  "OMP_TARGET_OFFLOAD": "MANDATORY", "FAKE_CUDA_LOG": str(log), **env})
    return done, log.read_text().splitlines() if log.exists() else []


def linked_images(tmp_path, fake_driver, source: str, **env: str) -> list[str]:
    done, log = on_stand_in(tmp_path, fake_driver, source, FAKE_CUDA_KERNEL_MS="1", **env)
    assert done.returncode == 0 and "FAKE-CUDA: end __omp_offloading" in done.stderr, done.stderr
    return [line for line in log if line.startswith("link-ptx ")]


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


def test_the_environment_sets_the_stack_and_heap_limits(tmp_path, fake_driver):
    done, log = on_stand_in(tmp_path, fake_driver, RECURSIVE, FAKE_CUDA_KERNEL_MS="1",
                            LIBOMPTARGET_STACK_SIZE="32768", LIBOMPTARGET_HEAP_SIZE="0x100000")
    assert done.returncode == 0, done.stderr
    limits = [line for line in log if line.startswith("limit ")]
    assert limits == ["limit 0 32768", "limit 2 1048576"]      # CU_LIMIT_STACK_SIZE, CU_LIMIT_MALLOC_HEAP_SIZE


@pytest.mark.gpu
@pytest.mark.parametrize("flags", [(), ("--offload-arch", "sm_90")], ids=["driver-linked", "nvlink"])
def test_on_the_gpu_it_prints_gccs_output(tmp_path, gcc_output, reference, flags):
    program = build(tmp_path, RECURSIVE, *flags)
    done = run_bare(program, env=ONE_GPU)
    assert done.returncode == 0 and done.stdout == gcc_output, done.stderr
    done = run_bare(program, *DEEP, env={**ONE_GPU, "LIBOMPTARGET_STACK_SIZE": "32768"})
    assert done.returncode == 0 and done.stdout == gcc_says(reference, *DEEP), done.stderr


@pytest.mark.parametrize("source, hinted", [(RECURSIVE, True), ("declare_target_unused_global.c", False)])
def test_a_fault_where_the_code_recurses_names_the_stack_size(tmp_path, fake_driver, source, hinted):
    done, _ = on_stand_in(tmp_path, fake_driver, source, FAKE_CUDA_KERNEL_FAULT="1")
    assert done.returncode != 0 and "CUDA_ERROR_ILLEGAL_ADDRESS" in done.stderr, done.stderr
    assert ("LIBOMPTARGET_STACK_SIZE sets it" in done.stderr) == hinted, done.stderr
