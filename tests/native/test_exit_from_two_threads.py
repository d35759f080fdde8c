"""exit() called by two OpenMP threads at once after target regions ran (issue 32: the
old Python-run programs segfaulted in 84 of 90 runs, llvmlite's destructors racing glibc's
exit handlers): a native executable ends with the status given to exit, every time, with
nothing on stderr, on the host, the CPU device and the GPU; also while the other thread is
launching target regions, and with `target nowait` kernels left running
(tests/native/programs/exit_from_two_threads.c; gcc's binary exits with 3 in each mode).
On the stand-in CUDA driver whose exit handler tears it down for 50 ms (as a real driver's
does): the thread still offloading finds its device gone; that is the process ending, not
its error (device_table.c's exit_begins): no message, no status 1 under MANDATORY."""

from __future__ import annotations

import shutil

import pytest
from test_native_executables import build, run_bare

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc (the C toolchain)")

RUNS = 50
MODES = ["after", "inside", "nowait"]
DEVICES = {"host": {"OMP_TARGET_OFFLOAD": "DISABLED"}, "cpu": {"OMP2GPU_DEVICES": "cpu"},
           "cpu-8-threads": {"OMP2GPU_DEVICES": "cpu", "OMP_NUM_THREADS": "8"}}


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    return build(tmp_path_factory.mktemp("exit_two"), "exit_from_two_threads.c")


def assert_exits_cleanly(program, mode: str, env: dict, printed: str = "field[0][0] = 1\n") -> None:
    outcomes = {}
    for _ in range(RUNS):
        done = run_bare(program, mode, env=env)
        stderr = "".join(line for line in done.stderr.splitlines(True) if not line.startswith("FAKE-CUDA: "))
        key = (done.returncode, done.stdout, stderr)
        outcomes[key] = outcomes.get(key, 0) + 1
    assert outcomes == {(3, printed, ""): RUNS}, outcomes


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("mode", MODES)
def test_two_threads_calling_exit_end_with_its_status(program, mode, device):
    assert_exits_cleanly(program, mode, DEVICES[device])


@pytest.mark.parametrize("policy", ["MANDATORY", "DEFAULT"])
@pytest.mark.parametrize("mode", MODES)
def test_two_threads_calling_exit_while_the_driver_tears_down(program, fake_driver, mode, policy):
    """The stand-in's kernels compute nothing: field[0][0] stays 0."""
    assert_exits_cleanly(program, mode, {"LD_LIBRARY_PATH": str(fake_driver), "OMP2GPU_DEVICES": "gpu",
                                         "OMP_TARGET_OFFLOAD": policy, "FAKE_CUDA_KERNEL_MS": "1",
                                         "FAKE_CUDA_EXIT_TEARDOWN": "50"}, printed="field[0][0] = 0\n")


@pytest.mark.gpu
@pytest.mark.parametrize("mode", MODES)
def test_two_threads_calling_exit_on_the_gpu(program, mode):
    assert_exits_cleanly(program, mode, {"OMP2GPU_DEVICES": "gpu", "OMP_TARGET_OFFLOAD": "MANDATORY"})
