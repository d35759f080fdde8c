"""The launch memo (runtime/offload/launch_memo.c): a region launched again with the same
map entries, all present, while the present table kept its mappings, takes the table's
answers from its earlier launch. tests/native/programs/launch_memo_cases.c has a time-step
loop inside `target data` (taken from the memo after the first step) and three loops that
must go through the table each time: the array mapped anew each step, `map(always, to:)`
of data the host changes, and a struct whose pointer member is copied over between steps.
The program prints what gcc's host build prints, on the CPU device and on a GPU; the
runtime's debug log (LIBOMPTARGET_DEBUG=2) says which launches the memo answered, here
and on the stand-in CUDA driver."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from test_native_executables import ONE_GPU, PROGRAMS, build, gcc_reference, run_bare

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc (the C toolchain and reference)")

SOURCE = "launch_memo_cases.c"
MEMO_LINE = re.compile(r"omp2gpu: debug: launch of __omp_offloading_(\w+)_l\d+: "
                       r"its map entries as at an earlier launch")
# the steps loop's region: 6 launches, the first through the table
EXPECTED_HITS = {"steps": 5}


@pytest.fixture(scope="module")
def program(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("memo"), SOURCE)


@pytest.fixture(scope="module")
def gcc_output(tmp_path_factory) -> str:
    return gcc_reference(tmp_path_factory.mktemp("memo_gcc"), PROGRAMS / SOURCE, flags=("-std=gnu99",))


def memo_hits(stderr: str) -> dict[str, int]:
    return dict(Counter(match[1] for match in map(MEMO_LINE.match, stderr.splitlines()) if match))


def test_the_cpu_device_takes_repeated_launches_from_the_memo(program, gcc_output):
    done = run_bare(program, env={"OMP2GPU_DEVICES": "cpu", "OMP_TARGET_OFFLOAD": "MANDATORY",
                                  "LIBOMPTARGET_DEBUG": "2", "OMP_NUM_THREADS": "2"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == gcc_output
    assert memo_hits(done.stderr) == EXPECTED_HITS


@pytest.mark.parametrize("auto_async", ["0", "1"])
def test_the_cuda_launch_path_takes_them_from_the_memo(program, fake_driver, auto_async):
    """The stand-in driver's kernels compute nothing: the log is what is checked. With
    OMP2GPU_AUTO_ASYNC=1 the launch asks whether its entries are all present before it
    maps them, and the memo takes that answer instead of asking again after."""
    done = run_bare(program, env={"LD_LIBRARY_PATH": str(fake_driver), "OMP_TARGET_OFFLOAD": "MANDATORY",
                                  "FAKE_CUDA_KERNEL_MS": "1", "LIBOMPTARGET_DEBUG": "2",
                                  "OMP2GPU_AUTO_ASYNC": auto_async})
    assert done.returncode == 0, done.stderr[-2000:]
    assert memo_hits(done.stderr) == EXPECTED_HITS


@pytest.mark.gpu
def test_on_the_gpu_the_program_prints_gccs_output(program, gcc_output):
    done = run_bare(program, env={**ONE_GPU, "LIBOMPTARGET_DEBUG": "2"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == gcc_output
    assert memo_hits(done.stderr) == EXPECTED_HITS
