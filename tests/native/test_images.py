"""runtime/offload/images.c: a registered global is looked up in the device's modules once
(a driver call), not at every launch, even where no module holds it; a new image or
global is looked up when it comes. On the stand-in driver (fake_cuda/libcuda.c), whose log
names each module global asked for and which holds none of the program's; on the CPU
device the program prints gcc's output."""

from __future__ import annotations

import collections
import shutil
import subprocess

import pytest
from test_native_executables import PROGRAMS, build, run_bare

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc (the C toolchain and reference)")

SOURCE = "declare_target_unused_global.c"


def test_globals_are_looked_up_once_a_device_not_at_each_launch(tmp_path, fake_driver):
    program, log = build(tmp_path, SOURCE), tmp_path / "driver.log"
    done = run_bare(program, env={"LD_LIBRARY_PATH": str(fake_driver), "OMP2GPU_DEVICES": "gpu",
                                  "OMP_TARGET_OFFLOAD": "MANDATORY", "FAKE_CUDA_KERNEL_MS": "1",
                                  "FAKE_CUDA_LOG": str(log)})
    assert done.returncode == 0, done.stderr
    asked = collections.Counter(line.split()[1] for line in log.read_text().splitlines()
                                if line.startswith("module-global "))
    assert asked["used_on_device"] == 1 and asked["never_on_device"] == 1, asked    # 50 launches


def test_on_the_cpu_device_it_prints_gccs_output(tmp_path):
    program = build(tmp_path, SOURCE)
    subprocess.run(["gcc", "-fopenmp", "-foffload=disable", str(PROGRAMS / SOURCE), "-o", str(tmp_path / "ref")],
                   check=True)
    expected = subprocess.run([str(tmp_path / "ref")], capture_output=True, text=True, check=True).stdout
    done = run_bare(program, env={"OMP2GPU_DEVICES": "cpu", "OMP_TARGET_OFFLOAD": "MANDATORY"})
    assert done.returncode == 0 and done.stdout == expected == "sum 150, the host's own 5\n", (done, expected)
