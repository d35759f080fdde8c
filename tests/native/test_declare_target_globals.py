"""declare target variables that no kernel reads still have a device copy
(codegen/openmp/gpu/device_module.py export_declare_target): omp_target_is_present says
so, and `target update` moves their values (before session 27 the image left them out and
both answered as if the device had none). The host's own run (gcc, no device) shares one
copy, so the expected output is the device's, not gcc's."""

from __future__ import annotations

import pytest
from test_native_executables import ONE_GPU, build, run_bare

EXPECTED = "present: steps 1, table 1, scale 1\nsteps 7, table[2] 20.0, read 6\n"


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
