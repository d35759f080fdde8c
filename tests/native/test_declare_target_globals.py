"""declare target variables that no kernel reads still have a device copy
(codegen/openmp/gpu/device_module.py export_declare_target), in a file with no target
region too (its device image holds only them): omp_target_is_present says so, and
`target update` moves their values (before session 27 the image left them out and both
answered as if the device had none). The host's own run (gcc, no device) shares one copy,
so the expected output is the device's, not gcc's."""

from __future__ import annotations

import pytest
from test_native_executables import ONE_GPU, build, run_bare

# each program and what it prints on a device of its own
EXPECTED = {"declare_target_unreferenced.c": "present: steps 1, table 1, scale 1\nsteps 7, table[2] 20.0, read 6\n",
            "declare_target_no_region.c": "present: coefficients 1, generation 1\ngeneration 2, coefficients[1] 4.00\n"}
CPU_DEVICE = {"OMP2GPU_DEVICES": "cpu", "OMP_TARGET_OFFLOAD": "MANDATORY"}


@pytest.fixture(scope="module")
def programs(tmp_path_factory) -> dict:
    return {source: build(tmp_path_factory.mktemp(source.removesuffix(".c")), source) for source in EXPECTED}


@pytest.mark.parametrize("source", EXPECTED)
@pytest.mark.parametrize("env", [pytest.param(CPU_DEVICE, id="cpu"),
                                 pytest.param(ONE_GPU, id="gpu", marks=pytest.mark.gpu)])
def test_each_declare_target_variable_has_a_device_copy(programs, source, env):
    done = run_bare(programs[source], env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == EXPECTED[source]


def test_a_file_with_no_target_region_loads_its_gpu_image_for_the_variables(programs, fake_driver, tmp_path):
    """On the stand-in driver (whose modules have no globals) the image is loaded and the
    variables looked up in it; before, there was no GPU image to look in."""
    log = tmp_path / "driver.log"
    done = run_bare(programs["declare_target_no_region.c"],
                    env={"LD_LIBRARY_PATH": str(fake_driver), "OMP_TARGET_OFFLOAD": "MANDATORY",
                         "FAKE_CUDA_KERNEL_MS": "1", "FAKE_CUDA_LOG": str(log)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert {"module-global coefficients", "module-global generation"} <= set(log.read_text().splitlines())
