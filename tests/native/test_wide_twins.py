"""The runtime's choice between a kernel and its wide-register twin (runtime/offload/
cuda_device.c launch_function, policy.c wide_twin_fits), on the stand-in CUDA driver
(tests/native/fake_cuda: 2 multiprocessors; FAKE_CUDA_REGISTERS gives the kernel's and
the twin's registers; it logs the name of each function it runs): the twin for a launch
too small for its registers to cost occupancy, the kernel for a grid that fills the
device, the kernel where the twin has no more registers or OMP2GPU_WIDE_TWINS=0; and the
driver is never asked for a twin the PTX does not have (compute-sanitizer reports each
failed call: a kernel without nested loops has none). The
program's output under gcc and on a GPU: the GPU tests' corpus (tests/test_programs.py)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from test_native_executables import build

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc (the C toolchain)")

ROWS_KERNEL = "__omp_offloading_main_l22"
BIG_KERNEL = "__omp_offloading_main_l30"
PLAIN_KERNEL = "__omp_offloading_main_l38"


@pytest.fixture(scope="module")
def program(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("wide_twins"), "wide_twins.c")


def functions_run(program: Path, fake_driver: Path, **env: str) -> list[str]:
    done = subprocess.run([str(program)], capture_output=True, text=True, timeout=120,
                          env={"PATH": os.environ.get("PATH", ""), "OMP2GPU_DEVICES": "gpu",
                               "OMP_TARGET_OFFLOAD": "MANDATORY", "LD_LIBRARY_PATH": str(fake_driver),
                               "FAKE_CUDA_KERNEL_MS": "1", **env})
    assert done.returncode == 0, done.stderr
    assert "FAKE-CUDA: no function" not in done.stderr        # the PTX says which twins there are
    return re.findall(r"FAKE-CUDA: end (\S+)", done.stderr)


def test_a_small_launch_runs_the_twin_a_full_grid_the_kernel(program, fake_driver):
    run = functions_run(program, fake_driver, FAKE_CUDA_REGISTERS="28,80")
    assert run == [ROWS_KERNEL + "__wide", BIG_KERNEL, PLAIN_KERNEL]


@pytest.mark.parametrize("env", [{"FAKE_CUDA_REGISTERS": "80,28"}, {"FAKE_CUDA_REGISTERS": "40,40"},
                                 {"FAKE_CUDA_REGISTERS": "28,80", "OMP2GPU_WIDE_TWINS": "0"}, {}])
def test_the_kernel_itself_where_the_twin_gains_nothing_or_is_turned_off(program, fake_driver, env):
    assert functions_run(program, fake_driver, **env) == [ROWS_KERNEL, BIG_KERNEL, PLAIN_KERNEL]


def test_a_twin_too_wide_for_the_blocks_a_multiprocessor_gets_is_not_used(program, fake_driver):
    """One 512-thread block a multiprocessor at 160 registers needs 80K registers: more than one has
    (512 threads asked for: left to itself the launcher gives the 16 rows one warp, policy.c spread_block)."""
    run = functions_run(program, fake_driver, FAKE_CUDA_REGISTERS="28,160", OMP2GPU_LAUNCH="0,512")
    assert run == [ROWS_KERNEL, BIG_KERNEL, PLAIN_KERNEL]


def test_the_debug_output_names_each_twin_launch_once(program, fake_driver, tmp_path):
    """LIBOMPTARGET_DEBUG says which launches run the twin, once each, also when the profile
    asks what ran (cuda_kernel_resources looks the function up again, silently)."""
    done = subprocess.run([str(program)], capture_output=True, text=True, timeout=120,
                          env={"PATH": os.environ.get("PATH", ""), "OMP2GPU_DEVICES": "gpu",
                               "OMP_TARGET_OFFLOAD": "MANDATORY", "LD_LIBRARY_PATH": str(fake_driver),
                               "FAKE_CUDA_KERNEL_MS": "1", "FAKE_CUDA_REGISTERS": "28,80", "LIBOMPTARGET_DEBUG": "1",
                               "OMP2GPU_PROFILE": str(tmp_path / "trace.json")})
    assert done.returncode == 0, done.stderr
    assert done.stderr.count(f"kernel {ROWS_KERNEL}: its wide-register twin (80 registers)") == 1


def test_the_profile_gives_the_registers_of_what_ran(program, fake_driver, tmp_path):
    """OMP2GPU_PROFILE's registers a launch are the twin's where the twin ran (`omp2gpu report --run`
    reads them as the driver's)."""
    profile = tmp_path / "trace.json"
    functions_run(program, fake_driver, FAKE_CUDA_REGISTERS="28,80", OMP2GPU_PROFILE=str(profile))
    kernels = json.loads(profile.read_text())["otherData"]["kernels"]
    assert [kernels[name].get("registers") for name in (ROWS_KERNEL, BIG_KERNEL, PLAIN_KERNEL)] == [80, 28, 28]
