"""The GPU's native launch path (offload/devices/cuda_native.py,
runtime/native_launch/cuda_launch.c) on a real GPU (skipped without one): whole
programs give the launcher's output and offload log; eight host threads launching at
once, natively and through the launcher, lose no update and leave the device's memory
in use as it was."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import textwrap
import threading
from ctypes import POINTER, c_char_p, c_int, c_int32, c_int64, c_void_p
from pathlib import Path

import pytest
from program_runs import CONCURRENT, MAP_CASES, UPDATE_CASES, both_ways, run_in_process
from test_cuda_device import PTX

from omp2gpu import device_driver
from omp2gpu.offload import abi, entry_points, runtime
from omp2gpu.offload.abi import KernelInfo
from omp2gpu.offload.abi import MapType as M
from omp2gpu.offload.devices import cuda, cuda_native

pytestmark = pytest.mark.gpu

REPO = Path(__file__).resolve().parents[2]

cuda_native.provide_runtime(device_driver.gpu_launch_engine)

TARGET = ctypes.CFUNCTYPE(c_int, c_int64, c_char_p, c_int32, POINTER(c_void_p), POINTER(c_void_p),
                          POINTER(c_int64), POINTER(c_int64), c_int32, c_int32, c_int64, c_char_p)
DATA = ctypes.CFUNCTYPE(None, c_int64, c_int32, POINTER(c_void_p), POINTER(c_void_p), POINTER(c_int64),
                        POINTER(c_int64), c_char_p)


def _native_launches() -> int:
    native = cuda_native.launcher()
    return native.launches() if native is not None else 0


def _both_ways(tmp_path, monkeypatch, capfd, source, environ=None):
    return both_ways(tmp_path, monkeypatch, capfd, source, _native_launches, environ, devices="gpu")


def test_every_map_case_gives_the_launchers_results_and_log(tmp_path, monkeypatch, capfd):
    (out, log, native), (fast_out, fast_log, fast_native) = _both_ways(tmp_path, monkeypatch, capfd,
                                                                       MAP_CASES)
    assert native == 0 and fast_native == 16
    assert (fast_out, fast_log) == (out, log)


def test_target_update_of_present_data_natively(tmp_path, monkeypatch, capfd):
    """`target update` of present ranges copied by cuda_launch.c, with the launcher's results."""
    def updates():
        native = cuda_native.launcher()
        return native.updates() if native is not None else 0
    before = updates()
    (out, log, _), (fast_out, fast_log, _) = _both_ways(tmp_path, monkeypatch, capfd, UPDATE_CASES)
    assert (fast_out, fast_log) == (out, log) and out.startswith("s=5079.718750 ")
    assert updates() - before == 6 * 3 + 3 + 2      # as on the CPU device (test_native_launch.py)


HALO_UPDATES = r"""
#include <stdio.h>
#define N (1 << 18)                     /* 2 MiB of doubles: its copies are page-locked */
static double a[4 * N];
int main(void) {
    for (int i = 0; i < 4 * N; i++) a[i] = i % 5;
    #pragma omp target data map(tofrom: a[0:4*N])
    for (int step = 0; step < 4; step++) {
        #pragma omp target teams distribute parallel for
        for (int i = 0; i < 4 * N; i++) a[i] += i % 7;
        #pragma omp target update from(a[N:N])
        for (int i = N; i < 2 * N; i++) a[i] *= 0.5;
        #pragma omp target update to(a[N:N])
        #pragma omp target update from(a[3 * N + 1:1000])
        a[3 * N + 1] = -1.0;            /* a small copy (pageable), then overwritten by the next */
    }
    double sum = 0.0;
    for (int i = 0; i < 4 * N; i++) sum += a[i] * (i % 3 + 1);
    printf("sum=%.6f\n", sum);
    return 0;
}
"""


def test_repeated_update_copies_lock_their_pages_while_mapped(tmp_path, monkeypatch, capfd):
    """A `target update` range of 2 MiB is page-locked at its first copy and unlocked when
    its mapping ends (pinned_ranges.c); the 8 KiB one stays pageable; results as the
    launcher's."""
    launcher = cuda_native.start()
    _, locked_before, _ = launcher.pinned()
    (out, log, _), (fast_out, fast_log, _) = _both_ways(tmp_path, monkeypatch, capfd, HALO_UPDATES)
    assert (fast_out, fast_log) == (out, log) and out.startswith("sum=")
    locked_now, locked, _ = launcher.pinned()
    assert (locked_now, locked - locked_before) == (0, 1)


def test_each_gpu_gets_a_native_module_of_its_own(tmp_path, monkeypatch, capfd):
    """Two devices (the GPU presented twice, OMP2GPU_DEVICES=gpu,gpu): each is served by a
    module of its own in the chain, and both launch natively with the launcher's results."""
    source = (REPO / "tests/offload/programs/native_path_two_devices.c").read_text()

    def launches():
        return sum(native.launches() for native in cuda_native._chain)
    (out, log, _), (fast_out, fast_log, fast_native) = both_ways(
        tmp_path, monkeypatch, capfd, source, launches, devices="gpu,gpu")
    assert fast_out == out == "device 0: 4 4\ndevice 1: 130 130\n" and fast_log == log
    served = [native for native in cuda_native._chain if native.device is not None]
    assert len(served) == 2 and all(native.launches() > 0 for native in served)
    assert fast_native == 4            # two launches a device natively, the first of each in Python


def test_host_threads_launch_at_once_and_lose_nothing(tmp_path, monkeypatch, capfd):
    (out, log, _), (fast_out, fast_log, fast_native) = _both_ways(tmp_path, monkeypatch, capfd,
                                                                  CONCURRENT)
    assert out == fast_out == "lost=0\n"
    assert len(fast_log) == len(log) == 8 * 400 and fast_native >= 8 * 400 - 8


class _Binding:
    """The JIT's symbol table, for a test that calls the entry points itself."""
    def add_symbol(self, name, address):
        pass


def _entries(array, n):
    """bases, begins, sizes, types of add_one(array, n): the array mapped tofrom, n by value."""
    entries = [(ctypes.addressof(array), ctypes.sizeof(array), int(M.TO | M.FROM | M.TARGET_PARAM)),
               (ctypes.addressof(n), 4, int(M.LITERAL | M.TARGET_PARAM))]
    bases = (c_void_p * 2)(*[e[0] for e in entries])
    sizes = (c_int64 * 2)(*[e[1] for e in entries])
    types = (c_int64 * 2)(*[e[2] for e in entries])
    return bases, bases, sizes, types


def _memory_in_use() -> int:
    free, total = cuda._call("cuMemGetInfo")
    return int(total) - int(free)


def test_eight_threads_with_maps_leak_nothing_and_lose_nothing():
    """cuMemGetInfo counts the whole GPU's memory: run alone, with no other process on the
    GPU (bench/gpu_session.sh runs it after the parallel test run)."""
    native = cuda_native.start()
    rt = runtime.reset(environ={})
    entry_points.install_fast_path(native, binding=_Binding())
    rt.register_image(PTX, {"add_one": KernelInfo("add_one", ["pointer", "bytes"], 128)})
    target = TARGET(native.entry_points[abi.ENTRY_TARGET])
    data_begin = DATA(entry_points.address(abi.ENTRY_DATA_BEGIN))
    data_end = DATA(entry_points.address(abi.ENTRY_DATA_END))
    length, rounds, threads = 300, 2000, 8
    n = ctypes.c_int(length)
    warm = (ctypes.c_int * length)()
    for _ in range(3):                                  # the first launch registers the kernel
        assert target(-1, b"add_one", 2, *_entries(warm, n), 0, 0, length, b"") == 0
    data_begin(-1, 1, *_entries(warm, n), b"")          # and the launcher's own allocations
    data_end(-1, 1, *_entries(warm, n), b"")
    native.release_cache()
    in_use = _memory_in_use()
    launches = native.launches()
    arrays = [(ctypes.c_int * length)(*range(length)) for _ in range(threads)]
    failures = []

    def work(me):
        entries = _entries(arrays[me], n)
        present = me % 2 == 0                           # half map their array for a while
        for k in range(rounds):
            if present and k % 500 == 0:
                data_begin(-1, 1, *entries, b"")
            if target(-1, b"add_one", 2, *entries, 0, 0, length, b"") != 0:
                failures.append(me)
            if present and k % 500 == 499:
                data_end(-1, 1, *entries, b"")
    workers = [threading.Thread(target=work, args=(me,)) for me in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert failures == []
    assert all(list(array) == [i + rounds for i in range(length)] for array in arrays)
    assert native.launches() - launches == threads * rounds
    assert len(rt.states[0].data) == 0
    native.release_cache()
    assert _memory_in_use() == in_use


DEVICE_FAULT = """
    #include <stdio.h>
    #include <omp.h>
    int main(void) {
        int x[2] = {0, 0}, i;
        int *good = omp_target_alloc(sizeof(int), 0), *p;
        for (i = 0; i < 2; i++) {
            p = i == 0 ? good : (int *)16;      /* the second launch writes a bad address */
            #pragma omp target is_device_ptr(p) map(tofrom: x)
            {
                if (!omp_is_initial_device()) p[0] = 1;
                x[i] = 1;
            }
        }
        printf("%d %d\\n", x[0], x[1]);
        return 0;
    }
"""


def _run_on_the_gpu(tmp_path, source: str) -> subprocess.CompletedProcess:
    """`source` run by `omp2gpu run` in a process of its own on the GPU, offloading DEFAULT
    (a failed device is given up and the program goes on)."""
    path = tmp_path / "fault.c"
    path.write_text(textwrap.dedent(source))
    environ = dict(os.environ, OMP2GPU_DEVICES="gpu", OMP_TARGET_OFFLOAD="DEFAULT",
                   PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    return subprocess.run([sys.executable, "-m", "omp2gpu", "run", str(path)], capture_output=True,
                          text=True, env=environ, timeout=300)


def test_a_kernel_fault_in_a_native_launch_runs_the_region_on_the_host(tmp_path):
    """The native launch's error gives the device up as the launcher does: the region
    runs on the host from the host's data (the transient x was not copied back)."""
    done = _run_on_the_gpu(tmp_path, DEVICE_FAULT)
    assert (done.returncode, done.stdout) == (0, "1 1\n"), done.stderr
    assert "offload to device 0 failed (cu" in done.stderr


# The second launch of a nowait region met in sequential code runs ahead (run_ahead.c)
# and faults: the taskwait meets the fault.
RUN_AHEAD_FAULT = """
    #include <stdio.h>
    #include <omp.h>
    int main(void) {
        int *good = omp_target_alloc(sizeof(int), 0), *p, i, k;
        for (i = 0; i < 2; i++) {
            p = i == 0 ? good : (int *)16;
            #pragma omp target teams distribute parallel for is_device_ptr(p) nowait
            for (k = 0; k < 1; k++)
                if (!omp_is_initial_device()) p[0] = 1;
            #pragma omp taskwait
            printf("step %d\\n", i);
        }
        return 0;
    }
"""


@pytest.mark.parametrize("wait", ["#pragma omp taskwait", ""])
def test_a_fault_of_a_kernel_run_ahead_is_reported_at_its_wait(tmp_path, wait):
    """The taskwait that waits for the faulting kernel, or with none the end of main,
    gives the device up, naming the failed wait; the program goes on
    (OMP_TARGET_OFFLOAD=DEFAULT)."""
    done = _run_on_the_gpu(tmp_path, RUN_AHEAD_FAULT.replace("#pragma omp taskwait", wait))
    assert (done.returncode, done.stdout) == (0, "step 0\nstep 1\n"), done.stderr
    assert "offload to device 0 failed (cuEventSynchronize: CUDA_ERROR_" in done.stderr


# Deferred target regions in a time-step loop: each step a chain ordered by depend, two
# independent regions beside it, and a taskwait; the chain's kernels may overlap the others.
NOWAIT_STEPS = """
    #include <stdio.h>
    #define N 100000
    double a[N], b[N], c[N], d[N];
    int main(void) {
        int i, step;
        for (i = 0; i < N; i++) { a[i] = i % 13; b[i] = 0; c[i] = 1; d[i] = 2; }
        #pragma omp target data map(tofrom: a[0:N], b[0:N], c[0:N], d[0:N])
        #pragma omp parallel num_threads(3)
        #pragma omp single
        for (step = 0; step < 20; step++) {
            #pragma omp target teams distribute parallel for nowait depend(out: b[0:N]) depend(in: a[0:N])
            for (i = 0; i < N; i++) b[i] = a[i] * 2 + 1;
            #pragma omp target teams distribute parallel for nowait depend(inout: c[0:N])
            for (i = 0; i < N; i++) c[i] = c[i] * 0.5 + 1;
            #pragma omp target teams distribute parallel for nowait depend(inout: d[0:N])
            for (i = 0; i < N; i++) d[i] = d[i] * 0.25 + 3;
            #pragma omp target teams distribute parallel for nowait depend(in: b[0:N]) depend(out: a[0:N])
            for (i = 0; i < N; i++) a[i] = b[i] * 0.5;
            #pragma omp taskwait
        }
        double s = 0;
        for (i = 0; i < N; i++) s += a[i] + b[i] + c[i] + d[i];
        printf("%.6f\\n", s);
        return 0;
    }
"""


@pytest.mark.parametrize("completion", ["hostfunc", "poll"])
def test_nowait_regions_run_on_streams_and_give_the_launchers_results(tmp_path, monkeypatch, capfd, completion):
    """Each nowait kernel on a stream, its task completed by a host function or by the
    poller thread (OMP2GPU_NOWAIT_COMPLETION)."""
    launcher = cuda_native.start()
    before = launcher.asynchronous_launches()
    launcher.nowait_streams(1)                          # OMP2GPU_NOWAIT_STREAMS=1
    launcher.nowait_completion(int(completion == "poll"))
    try:
        (out, log, native), (fast_out, fast_log, fast_native) = _both_ways(tmp_path, monkeypatch, capfd,
                                                                           NOWAIT_STEPS)
    finally:
        launcher.nowait_streams(int(cuda_native.NOWAIT_STREAMS_DEFAULT))
        launcher.nowait_completion(int(cuda_native.NOWAIT_COMPLETION_DEFAULT == "poll"))
    print("target task events:", launcher.event_counts(), "native launches:", fast_native,
          "asynchronous:", launcher.asynchronous_launches() - before)   # why launches were not enqueued
    assert out == fast_out and len(out.splitlines()) == 1
    assert sorted(fast_log) == sorted(log) and len(log) == 4 * 20
    assert native == 0 and fast_native >= 4 * 20 - 4          # all but each kernel's first launch
    assert cuda_native.launcher().asynchronous_launches() - before == fast_native


# What each of the first eight regions of a step writes and reads (target_auto_async_footprints.c)
AUTO_ASYNC_PROGRAM = REPO / "tests" / "programs" / "target_auto_async_footprints.c"
AUTO_ASYNC_REGIONS = [({"pressure"}, {"pressure"}), ({"volume"}, {"volume"}), ({"energy"}, {"energy", "mass"}),
                      ({"scratch"}, {"mass"}), ({"scratch"}, {"scratch", "pressure"}),
                      ({"mass"}, {"mass", "scratch"}), ({"pressure"}, {"pressure", "mass"}),
                      ({"energy"}, {"energy", "volume"})]


def _auto_async_kernels() -> list[str]:
    """The kernel names of the program's combined regions, in source order."""
    lines = AUTO_ASYNC_PROGRAM.read_text().splitlines()
    return [f"__omp_offloading_main_l{number}" for number, line in enumerate(lines, 1)
            if "#pragma omp target teams distribute parallel for" in line]


def test_automatic_concurrency_overlaps_only_launches_whose_footprints_do_not_conflict(tmp_path, monkeypatch,
                                                                                       capfd):
    """OMP2GPU_AUTO_ASYNC=1: the program prints what it prints with every launch waited for;
    launches run beside others (one log line a pair), never beside one whose data they
    read or write while it writes, or that writes what they read."""
    launcher = cuda_native.start()
    before = launcher.overlapped_pairs()
    launcher.auto_async(1)
    try:
        (out, log, _), (fast_out, fast_log, _) = _both_ways(tmp_path, monkeypatch, capfd,
                                                           AUTO_ASYNC_PROGRAM.read_text())
    finally:
        launcher.auto_async(int(cuda_native.AUTO_ASYNC_DEFAULT == "1"))
    overlaps = [line.split() for line in fast_log if " overlaps " in line]
    assert out == fast_out and sorted(line for line in fast_log if " overlaps " not in line) == sorted(log)
    print("overlapped pairs:", len(overlaps), "counted:", launcher.overlapped_pairs() - before)
    assert launcher.overlapped_pairs() - before == len(overlaps) > 0
    regions = dict(zip(_auto_async_kernels(), AUTO_ASYNC_REGIONS))
    for words in overlaps:
        # KERNEL device=NAME (spaces and all) overlaps OTHER
        (writes, reads), (other_writes, other_reads) = regions[words[0]], regions[words[-1]]
        assert not (writes & (other_writes | other_reads) or other_writes & reads), words


RUN_AHEAD_PROGRAM = REPO / "tests" / "programs" / "target_nowait_sequential_waits.c"


def test_nowait_regions_in_sequential_code_run_ahead_until_their_waits(tmp_path, monkeypatch, capfd):
    """target_nowait_sequential_waits.c: kernels of tasks with no `depend` met outside
    any parallel region run ahead of the host (run_ahead.c), and each wait the program
    relies on (taskwait, barrier, taskgroup, a loop's and a single's barrier) waits for
    them: the program prints gcc's output. `target update from` copies on a stream that
    does not wait for them, so a missed wait would print stale checksums."""
    binary = tmp_path / "reference"
    subprocess.run(["gcc", "-fopenmp", "-O1", str(RUN_AHEAD_PROGRAM), "-o", str(binary)], check=True)
    expected = subprocess.run([str(binary)], capture_output=True, text=True, check=True).stdout
    launcher = cuda_native.start()
    before = launcher.run_ahead_launches()
    status, out, err = run_in_process(tmp_path, monkeypatch, capfd, RUN_AHEAD_PROGRAM.read_text(), devices="gpu")
    ahead = launcher.run_ahead_launches() - before
    print("run-ahead kernels:", ahead, "target task events:", launcher.event_counts())
    assert status == 0, err
    assert out == expected
    # 138 regions have no depend; each kernel's first launch is the launcher's own (11)
    assert ahead >= 100
