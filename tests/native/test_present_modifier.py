"""The `present` map-type modifier (OpenMP 5.1) on data the caller never mapped: the
runtime's located error, as libomptarget's "... not present on device", naming the list
item and its line, exit status 1, nothing copied and no kernel run (the program's output
so far, and its data, are as before the construct). On the map clause of a target
region, on `target update to(present: ...)`, and through `defaultmap(present)`."""

from __future__ import annotations

import shutil

import pytest
from test_native_executables import build, run_bare

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc (the C toolchain)")

_MAPPED = "mapped call: x[3] = 6\n"


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build(tmp_path_factory.mktemp("present"), "present_unmapped.c")


_CASES = [("0", "present_unmapped.c:12:17", "'x[0:n]' (line 12)"),
          ("1", "present_unmapped.c:18:17", "'x[0:n]' (line 18)"),
          ("2", "present_unmapped.c:22:17", "'table' (line 23)")]
_IDS = ["map", "target-update", "defaultmap"]


def _assert_located_fatal(done, where: str, item: str, device: str) -> None:
    assert done.returncode == 1, done.stderr
    assert done.stdout == _MAPPED               # nothing after the failing construct ran
    assert done.stderr.startswith("omp2gpu: error: ") and done.stderr.count("\n") == 1, done.stderr
    assert f"{where}: {item} is not present on device 0 ({device}" in done.stderr, done.stderr
    assert "'present' modifier" in done.stderr and "bytes) mapped already" in done.stderr


@pytest.mark.parametrize("which, where, item", _CASES, ids=_IDS)
def test_absent_data_is_a_located_fatal_error(program, which, where, item):
    done = run_bare(program, which, env={"OMP2GPU_DEVICES": "cpu"})
    _assert_located_fatal(done, where, item, "cpu)")


@pytest.mark.gpu
@pytest.mark.parametrize("which, where, item", _CASES, ids=_IDS)
def test_absent_data_on_the_gpu(program, which, where, item):
    done = run_bare(program, which, env={"OMP2GPU_DEVICES": "gpu", "OMP_TARGET_OFFLOAD": "MANDATORY"})
    _assert_located_fatal(done, where, item, "")


def test_on_the_host_everything_is_present(program):
    """With no device (OMP_TARGET_OFFLOAD=DISABLED) the host's data is the device's."""
    done = run_bare(program, "0", env={"OMP_TARGET_OFFLOAD": "DISABLED"})
    assert done.returncode == 0, done.stderr
    assert done.stdout == _MAPPED + "x[3] = 12 after the call that should have failed\n"
