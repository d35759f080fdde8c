"""Target tasks that run ahead (runtime/native_launch/run_ahead.c, docs/async.md) without
a GPU: a thread's ring of kernel events, waited for in launch order by the GOMP entry
points that end a task's life, a full ring waiting for its oldest, a failed kernel
reported; and the wrappers bound in place of the OpenMP runtime's entry points leave
host OpenMP programs printing what gcc's builds print. The kernels themselves run ahead
on the GPU only (tests/offload/test_cuda_native.py)."""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from omp2gpu import device_driver
from omp2gpu.offload.devices import cuda_native
from omp2gpu.targets import openmp_runtime

REPO = Path(__file__).resolve().parents[2]
RING = 32
MAKE = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_void_p))
WAIT = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p)
FAILED = ctypes.CFUNCTYPE(None, ctypes.c_int)


class PretendDevice:
    """Events numbered as made; each wait logged, and failing with `failures[event]`."""

    def __init__(self, engine):
        self.made, self.waited, self.failed, self.failures = 0, [], [], {}
        self._callbacks = (MAKE(self._make), WAIT(self._wait), FAILED(self.failed.append))
        use = ctypes.CFUNCTYPE(None, MAKE, WAIT, FAILED)(engine.get_function_address("run_ahead_use"))
        use(*self._callbacks)
        self.next_event = ctypes.CFUNCTYPE(ctypes.c_void_p)(engine.get_function_address("run_ahead_next_event"))
        self.recorded = ctypes.CFUNCTYPE(None)(engine.get_function_address("run_ahead_recorded"))

    def _make(self, event):
        self.made += 1
        event[0] = self.made
        return 0

    def _wait(self, event):
        self.waited.append(event)
        return self.failures.get(event, 0)

    def launch(self) -> int:
        event = self.next_event()
        self.recorded()
        return event


@pytest.fixture
def engine():
    """A module of its own: its rings start empty, with no event made."""
    openmp_runtime.load()                 # the wrappers call the OpenMP runtime's own entry points
    return device_driver.gpu_launch_engine()


def _entry(engine, name, result=None, *arguments):
    return ctypes.CFUNCTYPE(result, *arguments)(engine.get_function_address(name))


def test_a_taskwait_waits_for_the_threads_kernels_in_launch_order_then_for_nothing(engine):
    device = PretendDevice(engine)
    launched = [device.launch() for _ in range(3)]
    taskwait = _entry(engine, "__omp2gpu_run_ahead_GOMP_taskwait")
    taskwait()
    assert device.waited == launched == [1, 2, 3]
    taskwait()
    _entry(engine, "__omp2gpu_run_ahead_GOMP_barrier")()
    assert device.waited == [1, 2, 3] and device.failed == []


def test_a_full_ring_waits_for_its_oldest_and_reuses_its_event(engine):
    device = PretendDevice(engine)
    launched = [device.launch() for _ in range(RING + 3)]
    assert device.waited == [1, 2, 3]                       # each launch past the ring's size
    assert launched[RING:] == [1, 2, 3] and device.made == RING
    _entry(engine, "__omp2gpu_gpu_run_ahead_wait")()
    assert device.waited == [1, 2, 3, *range(4, RING + 1), 1, 2, 3]


def test_a_failed_kernel_is_reported_and_the_rest_still_waited_for(engine):
    device = PretendDevice(engine)
    for _ in range(4):
        device.launch()
    device.failures[2] = 719                                # CUDA_ERROR_LAUNCH_FAILED
    _entry(engine, "__omp2gpu_gpu_run_ahead_wait")()
    assert device.failed == [719] and device.waited == [1, 2, 3, 4]


def test_the_next_modules_wait_follows(engine):
    """Several GPUs: a thread's wait reaches every module along the chain."""
    other = device_driver.gpu_launch_engine()
    first, second = PretendDevice(engine), PretendDevice(other)
    _entry(engine, "__omp2gpu_gpu_run_ahead_next", None, ctypes.c_void_p)(
        other.get_function_address("__omp2gpu_gpu_run_ahead_wait"))
    try:
        first.launch()
        second.launch()
        _entry(engine, "__omp2gpu_run_ahead_GOMP_taskwait")()
        assert first.waited == [1] and second.waited == [1]
    finally:
        _entry(engine, "__omp2gpu_gpu_run_ahead_next", None, ctypes.c_void_p)(None)


def test_every_wrapper_is_compiled():
    engine = device_driver.gpu_launch_engine()
    assert all(engine.get_function_address(f"__omp2gpu_run_ahead_{name}") for name in cuda_native.RUN_AHEAD_WAITS)


# Host OpenMP programs with every wrapped entry point (taskloop's eleven arguments,
# cancellable barriers, copyprivate, sections, taskgroups), run with the wrappers bound
# in place of the runtime's own, as a GPU run binds them.
WRAPPED_PROGRAMS = ("host_taskloop_grainsize_num_tasks.c", "host_cancel_search.c",
                    "host_single_copyprivate_broadcast.c", "host_sections_reduction_nowait.c",
                    "host_taskgroup_vs_taskwait.c", "target_nowait_sequential_waits.c")
BOUND_RUN = textwrap.dedent("""
    import sys
    import llvmlite.binding as llvm
    from omp2gpu import device_driver, driver
    from omp2gpu.offload.devices import cuda_native
    engine = device_driver.gpu_launch_engine()
    for name in cuda_native.RUN_AHEAD_WAITS:
        llvm.add_symbol(name, engine.get_function_address(f"__omp2gpu_run_ahead_{name}"))
    sys.exit(driver.run_program(sys.argv[1]))
""")


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc -fopenmp for the expected output")
@pytest.mark.parametrize("program", WRAPPED_PROGRAMS)
def test_programs_with_the_wrappers_bound_print_what_gcc_builds_print(tmp_path, program):
    source = REPO / "tests" / "programs" / program
    env = dict(os.environ, OMP_NUM_THREADS="4", OMP2GPU_DEVICES="cpu")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")]))
    binary = tmp_path / "ref"
    subprocess.run(["gcc", "-fopenmp", "-O1", str(source), "-o", str(binary)], check=True)
    expected = subprocess.run([str(binary)], capture_output=True, text=True, check=True, env=env,
                              timeout=120).stdout
    got = subprocess.run([sys.executable, "-c", BOUND_RUN, str(source)], capture_output=True, text=True,
                         env=env, timeout=300)
    assert got.returncode == 0, got.stderr
    assert got.stdout == expected
