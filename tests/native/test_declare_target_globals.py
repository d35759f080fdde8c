"""declare target variables that no kernel reads still have a device copy
(codegen/openmp/gpu/device_module.py export_declare_target), in a file with no target
region too (its device image holds only them): omp_target_is_present says so, and
`target update` moves their values (before session 27 the image left them out and both
answered as if the device had none). The host's own run (gcc, no device) shares one copy,
so the expected output is the device's, not gcc's."""

from __future__ import annotations

import pytest
from test_native_executables import ONE_GPU, build, run_bare

EXPECTED = "present: steps 1, table 1, scale 1\nsteps 7, table[2] 20.0, read 6\n"
NO_REGION = "declare_target_no_region.c"
NO_REGION_EXPECTED = "present: coefficients 1, generation 1\ngeneration 2, coefficients[1] 4.00\n"


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build(tmp_path_factory.mktemp("declare_target"), "declare_target_unreferenced.c")


def test_on_the_cpu_device_each_has_a_device_copy(program):
    done = run_bare(program, env={"OMP2GPU_DEVICES": "cpu", "OMP_TARGET_OFFLOAD": "MANDATORY"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == EXPECTED


@pytest.mark.gpu
def test_on_the_gpu_each_has_a_device_copy(program):
    done = run_bare(program, env=ONE_GPU)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == EXPECTED


@pytest.fixture(scope="module")
def no_region(tmp_path_factory):
    return build(tmp_path_factory.mktemp("declare_target_no_region"), NO_REGION)


def test_a_file_with_no_target_region_has_device_copies_on_the_cpu_device(no_region):
    done = run_bare(no_region, env={"OMP2GPU_DEVICES": "cpu", "OMP_TARGET_OFFLOAD": "MANDATORY"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == NO_REGION_EXPECTED


def test_a_file_with_no_target_region_loads_its_gpu_image_for_the_variables(no_region, fake_driver, tmp_path):
    """On the stand-in driver (whose modules have no globals) the image is loaded and the
    variables looked up in it; before, there was no GPU image to look in."""
    log = tmp_path / "driver.log"
    done = run_bare(no_region, env={"LD_LIBRARY_PATH": str(fake_driver), "OMP_TARGET_OFFLOAD": "MANDATORY",
                                    "FAKE_CUDA_KERNEL_MS": "1", "FAKE_CUDA_LOG": str(log)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert {"module-global coefficients", "module-global generation"} <= set(log.read_text().splitlines())


@pytest.mark.gpu
def test_a_file_with_no_target_region_has_device_copies_on_the_gpu(no_region):
    done = run_bare(no_region, env=ONE_GPU)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == NO_REGION_EXPECTED
