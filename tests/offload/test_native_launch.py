"""The native launch path (offload/native_launch.py, runtime/native_launch/) on the CPU
device: whole programs give the same output and the same offload log natively as
through the launcher; transient mappings, present data and the cases left to the
launcher; host threads launching at once; the launch shape; the launcher's lock."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from program_runs import CONCURRENT, MAP_CASES, UPDATE_CASES, both_ways, run_in_process

from omp2gpu import cpu_driver
from omp2gpu.offload import policy
from omp2gpu.offload.abi import CPU_MAX_TEAM, KernelInfo
from omp2gpu.offload.devices import cpu_pool
from omp2gpu.offload.launcher_lock import LauncherLock
from omp2gpu.offload.native_launch import wanted
from omp2gpu.targets import openmp_runtime

REPO = Path(__file__).resolve().parents[2]

cpu_pool.provide_runtime(cpu_driver.pool_engine)


def _native_launches() -> int:
    return cpu_pool.pool().native.launches() if cpu_pool.started() else 0


def _both_ways(tmp_path, monkeypatch, capfd, source, environ=None):
    return both_ways(tmp_path, monkeypatch, capfd, source, _native_launches, environ)


def test_every_map_case_gives_the_launchers_results_and_log(tmp_path, monkeypatch, capfd):
    (out, log, native), (fast_out, fast_log, fast_native) = _both_ways(tmp_path, monkeypatch, capfd,
                                                                       MAP_CASES)
    assert native == 0 and fast_native > 0
    assert fast_out == out and out.startswith("x=")
    assert fast_log == log and len(log) == 3 * 4 + 3 * 5 + 1


def test_zero_copy_mode_natively(tmp_path, monkeypatch, capfd):
    (out, log, _), (fast_out, fast_log, fast_native) = _both_ways(
        tmp_path, monkeypatch, capfd, MAP_CASES, {"OMP2GPU_CPU_UNIFIED": "1"})
    assert fast_native > 0 and (fast_out, fast_log) == (out, log)


def test_host_threads_launch_at_once_and_lose_nothing(tmp_path, monkeypatch, capfd):
    (out, log, _), (fast_out, fast_log, fast_native) = _both_ways(tmp_path, monkeypatch, capfd,
                                                                  CONCURRENT)
    assert out == fast_out == "lost=0\n"
    assert len(fast_log) == len(log) == 8 * 400 and fast_native >= 8 * 400 - 8


def test_copy_log_keeps_transients_in_the_launcher(tmp_path, monkeypatch, capfd):
    copies = tmp_path / "copies.log"
    before = _native_launches()
    status, out, _ = run_in_process(tmp_path, monkeypatch, capfd, """
        #include <stdio.h>
        int main(void) {
            int x = 0, i;
            for (i = 0; i < 10; i++) {
                #pragma omp target map(tofrom: x)
                x++;
            }
            printf("%d\\n", x);
            return 0;
        }""", {"OMP2GPU_COPY_LOG": str(copies)})
    assert (status, out) == (0, "10\n")
    assert _native_launches() == before                  # each launch maps x: the launcher's
    assert len(copies.read_text().splitlines()) == 20    # ... which logs every copy


PARTIAL_OVERLAP = """
    #include <stdio.h>
    int main(void) {
        int a[20] = {0}, i;
        for (i = 0; i < 2; i++) {
            /* the first time nothing is mapped (the launcher's first launch registers the
               kernel); the second, a[5:10] sticks out of the mapped a[0:10] */
            #pragma omp target data map(tofrom: a[0:10]) if(i == 1)
            {
                #pragma omp target map(tofrom: a[5:10])
                a[5] += 1;
            }
            printf("round %d: %d\\n", i, a[5]);
        }
        return 0;
    }
"""


@pytest.mark.parametrize("fast", ["0", "1"])
def test_a_partially_present_range_is_the_launchers_error(tmp_path, fast):
    path = tmp_path / "partial.c"
    path.write_text(textwrap.dedent(PARTIAL_OVERLAP))
    environ = dict(os.environ, OMP2GPU_DEVICES="cpu", OMP_TARGET_OFFLOAD="MANDATORY",
                   OMP2GPU_FAST_PATH=fast, PYTHONPATH=os.pathsep.join(filter(None, [
                       str(REPO), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-m", "omp2gpu", "run", str(path)], capture_output=True,
                          text=True, env=environ, timeout=300, cwd=str(tmp_path))
    assert (done.returncode, done.stdout) == (1, "round 0: 1\n")
    assert "partially mapped" in done.stderr


@pytest.mark.parametrize("scheme,cap", [("cpu-combined", 0), ("cpu-teams", CPU_MAX_TEAM)])
@pytest.mark.parametrize("teams,limit,trips", [(0, 0, 10**6), (0, 0, 5), (3, 0, 0), (0, 900, 10**4),
                                               (4, 5000, 0), (0, 0, -1), (0, 300, 7)])
def test_the_launch_shape_is_the_launchers(scheme, cap, teams, limit, trips):
    native = cpu_pool.pool().native
    info = KernelInfo("shape_probe", ["pointer"], default_block_size=None, scheme=scheme)

    class Device:
        max_threads_per_block, multiprocessor_count = 4096, 3
    native.register("shape_probe", 0, info, block_cap=cap)
    native.configure(-2, 0, Device.max_threads_per_block,
                     Device.multiprocessor_count * policy.BLOCKS_PER_MULTIPROCESSOR, False)
    try:
        grid, block = policy.launch_configuration(info, Device, teams, limit, trips)
        expected = (max(1, grid), min(block, cap) if cap else block)
        assert native.shape("shape_probe", teams, limit, trips) == expected
    finally:
        native.reset()
    assert native.shape("shape_probe", 0, 0, 0) is None


def test_the_launcher_lock_holds_the_native_mutex_nested():
    calls = []

    class Native:
        def lock(self):
            calls.append("lock")

        def unlock(self):
            calls.append("unlock")
    lock = LauncherLock()
    with lock:
        lock.use_native(Native())          # taken while held: released as it was taken
    assert calls == []
    with lock, lock:
        assert calls == ["lock", "lock"]
    assert calls == ["lock", "lock", "unlock", "unlock"]


def test_a_native_launch_waits_for_the_launchers_call():
    """The real mutex: while the launcher holds it, another thread cannot take it."""
    native = cpu_pool.pool().native
    lock = LauncherLock()
    lock.use_native(native)
    taken = threading.Event()

    def other():
        native.lock()
        taken.set()
        native.unlock()
    with lock:
        thread = threading.Thread(target=other)
        thread.start()
        assert not taken.wait(0.2)
    thread.join(5)
    assert taken.is_set()


def test_switches():
    assert wanted({}, "OMP2GPU_CPU_FAST_PATH")
    assert not wanted({"OMP2GPU_FAST_PATH": "0"}, "OMP2GPU_CPU_FAST_PATH")
    assert not wanted({"OMP2GPU_CPU_FAST_PATH": "0"}, "OMP2GPU_CPU_FAST_PATH")


def test_an_offered_event_is_taken_by_a_launch_once_and_reported():
    """target_tasks.c: a detached task's event, offered by its body, is what a device half
    takes (once the OpenMP runtime, whose omp_fulfill_event will fulfil it, is loaded);
    the body's end call says whether it was taken, and forgets it either way."""
    openmp_runtime.load()
    native = cpu_pool.pool().native
    begin = native.function("__omp2gpu_target_task_begin", None, ctypes.c_void_p)
    end = native.function("__omp2gpu_target_task_end", ctypes.c_int)
    take = native.function("native_take_task_event", ctypes.c_void_p)
    taken = native.function("native_task_event_taken", None)
    assert take() is None                               # nothing offered: a synchronous launch
    begin(0x1230)
    assert take() == 0x1230
    taken()
    assert take() is None                               # one launch per event
    assert end() == 1 and end() == 0
    begin(0x4560)
    assert end() == 0 and take() is None                # not taken: the body fulfils it


def test_target_update_of_present_data_natively(tmp_path, monkeypatch, capfd):
    """`target update` of present ranges is copied natively, with the launcher's results
    (an absent item skipped, an attached pointer's holder and the tasks' updates too)."""
    def updates():
        return cpu_pool.pool().native.updates() if cpu_pool.started() else 0
    for environ in ({}, {"OMP2GPU_CPU_UNIFIED": "1"}):
        before = updates()
        (out, log, _), (fast_out, fast_log, _) = _both_ways(tmp_path, monkeypatch, capfd, UPDATE_CASES,
                                                            environ)
        assert (fast_out, fast_log) == (out, log) and out.startswith("s=5079.718750 ")
        # three a step, `to(f.values[0:2])` on the odd steps (`to(f)` holds an attached
        # pointer: the launcher's), the two after the loop
        assert updates() - before == 6 * 3 + 3 + 2
