"""The native launch path (offload/native_launch.py, runtime/native_launch/) on the CPU
device: whole programs give the same output and the same offload log natively as
through the launcher; transient mappings, present data and the cases left to the
launcher; host threads launching at once; the launch shape; the launcher's lock; device
memory lent for a Python call (loans.c) and the data environment's view of it."""

from __future__ import annotations

import ctypes
import os
import re
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import pytest
from program_runs import CONCURRENT, MAP_CASES, UPDATE_CASES, both_ways, run_in_process

from omp2gpu import cpu_driver
from omp2gpu.offload import policy
from omp2gpu.offload.abi import CPU_MAX_TEAM, KernelInfo, MapType
from omp2gpu.offload.data_environment import MapEntry, Mapping, MappingError
from omp2gpu.offload.devices import cpu_pool
from omp2gpu.offload.devices.host_memory import HostMemoryDevice
from omp2gpu.offload.launcher_lock import LauncherLock
from omp2gpu.offload.native_launch import MirroredDataEnvironment, wanted
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
    assert re.search(r"partial\.c:10:25: host range .* is partially mapped", done.stderr)


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


GLOBAL_UPDATES = """
    #include <stdio.h>
    #pragma omp declare target
    int counter = 1;
    double table[4] = {1, 2, 3, 4};
    #pragma omp end declare target
    int main(void) {
        int round, seen = 0;
        for (round = 0; round < 3; round++) {
            #pragma omp target map(tofrom: seen)
            { seen += counter; counter += 10; table[round] *= 2; }
            #pragma omp target update from(counter, table)
            printf("round %d: counter %d table %g %g seen %d\\n", round, counter, table[0], table[2], seen);
            counter = 5 * round;
            #pragma omp target update to(counter)
        }
        return 0;
    }
"""


def test_target_update_of_a_declare_target_global_copies_in_zero_copy_mode(tmp_path, monkeypatch, capfd):
    """A declare target global has module storage of its own even with
    OMP2GPU_CPU_UNIFIED: the native path skipped its `target update` copies there."""
    (out, _, _), (fast_out, _, _) = _both_ways(tmp_path, monkeypatch, capfd, GLOBAL_UPDATES,
                                               {"OMP2GPU_CPU_UNIFIED": "1"})
    assert fast_out == out == ("round 0: counter 11 table 2 3 seen 1\n"
                               "round 1: counter 10 table 2 3 seen 1\n"
                               "round 2: counter 15 table 2 6 seen 6\n")


# ----------------------------------------------------------------- device memory lent for a Python call (loans.c)
@pytest.fixture
def native():
    """The CPU pool's native path with nothing registered, mapped nor lent (and so after)."""
    launcher = cpu_pool.pool().native
    launcher.reset()
    yield launcher
    launcher.reset()


@pytest.fixture
def memory():
    buffer = (ctypes.c_char * 8192)()
    yield ctypes.addressof(buffer)
    del buffer


def test_a_loan_is_counted_and_ends_with_its_last_use(native, memory):
    generation = native.loan_generation
    assert native.lend(memory, 256) == 0
    assert native.lend(memory + 8, 8) == 0                  # inside it: another use
    assert native.loans() == [(memory, memory + 256)] and native.loan_generation != generation
    generation = native.loan_generation
    assert native.end_loan(memory + 8, 8) == 0
    assert native.loans() == [(memory, memory + 256)] and native.loan_generation == generation
    assert native.end_loan(memory, 256) == 0
    assert native.loans() == [] and native.loan_generation != generation
    assert native.end_loan(memory, 256) == -1               # nothing lent there now


def test_ranges_that_touch_a_mapping_or_cross_a_loan_are_left_to_the_launcher(native, memory):
    native.push([Mapping(memory + 1024, 512, memory + 4096)])
    assert native.lend(memory + 1000, 100) == 1             # across the mapping's start
    assert native.lend(memory + 1100, 8) == 1               # inside it: counted there by the launcher
    assert native.lend(memory, 256) == 0
    assert native.lend(memory + 128, 256) == 1              # across the loan: the launcher refuses it
    assert native.lend(memory + 1536, 64) == 0              # just past the mapping
    assert native.loans() == [(memory, memory + 256), (memory + 1536, memory + 1600)]


def test_the_loan_table_full_leaves_the_rest_to_the_launcher_and_reset_forgets_loans(native, memory):
    lent = [native.lend(memory + 64 * i, 32) for i in range(70)]
    assert lent.count(0) == 64 and set(lent[64:]) == {1}
    assert sorted(native.loans()) == [(memory + 64 * i, memory + 64 * i + 32) for i in range(64)]
    native.reset()
    assert native.loans() == [] and native.end_loan(memory, 32) == -1


def test_the_data_environment_reads_native_loans_back_as_borrowed_mappings(native, memory):
    env = MirroredDataEnvironment(HostMemoryDevice(), lambda: native)
    loan = env.lend_natively(memory, 256)
    mapping = env.lookup(memory + 8, 8)
    assert mapping.borrowed and mapping.native_loan and mapping.device_address_of(memory + 8) == memory + 8
    with pytest.raises(MappingError, match="partially mapped"):
        env.borrow(memory + 128, 256)                       # across the loan, as before
    host = MapEntry(memory + 4096, memory + 4096, 64, MapType.TO)
    env.begin([host])                                       # a push: the loan stays out of the mirror
    assert native.lend(memory + 4096, 8) == 1 and native.lend(memory + 16, 8) == 0
    assert env.lend_natively(memory + 4100, 8) is None      # inside the mapping: borrow() counts it there
    env.end([host])
    native.end_loan(memory + 16, 8)
    loan.end()
    assert env.lookup(memory, 256) is None and len(env) == 0


NOWAIT_CHAIN = """
    #include <stdio.h>
    int main(void) {
        int n = 1000, i, step;
        double u[1000];
        for (i = 0; i < n; i++) u[i] = i;
        #pragma omp target data map(tofrom: u[0:n])
        #pragma omp parallel num_threads(2)
        #pragma omp single
        for (step = 0; step < 6; step++) {
            #pragma omp target teams distribute parallel for nowait depend(inout: u[0])
            for (i = 0; i < n; i++) u[i] = u[i] * 0.5 + step;
        }
        printf("%.6f %.6f\\n", u[0], u[n - 1]);
        return 0;
    }
"""


def test_nowait_bodies_offer_the_event_the_runtime_wrote(tmp_path, monkeypatch, capfd):
    """A `target nowait` task is created detached (GOMP_task's detach flag, gcc's value),
    so libgomp writes its completion event and each body offers one: with a wrong flag
    the runtime writes none and every nowait launch waits, silently. libiomp5's GOMP_task
    does not take the detach argument: no event, the launches wait (docs/async.md)."""
    before = cpu_pool.pool().native.task_events() if cpu_pool.started() else 0
    status, out, _ = run_in_process(tmp_path, monkeypatch, capfd, NOWAIT_CHAIN)
    assert status == 0 and out == "8.062500 23.671875\n"
    offered = 6 if openmp_runtime.load().name == "libgomp" else 0
    assert cpu_pool.pool().native.task_events() - before == offered


# ----------------------------------------------------------------- footprints (footprints.c), for automatic concurrency
def _footprint_of(native, name, entries):
    """The footprint footprints.c finds for a launch of `name` with `entries` (MapEntry
    list): [(device begin, device end, writes)], or None when it is not known."""
    count = len(entries)
    arrays = [(ctypes.c_void_p * count)(*[e.base for e in entries]),
              (ctypes.c_void_p * count)(*[e.begin for e in entries]),
              (ctypes.c_long * count)(*[e.size for e in entries]),
              (ctypes.c_long * count)(*[int(e.type) for e in entries])]
    begins, ends, writes = (ctypes.c_long * 8)(), (ctypes.c_long * 8)(), (ctypes.c_char * 8)()
    footprint_of = native.function("__omp2gpu_native_footprint_of", ctypes.c_int, ctypes.c_char_p, ctypes.c_int,
                                   *[ctypes.c_void_p] * 7)
    found = footprint_of(name.encode(), count, *[ctypes.addressof(a) for a in arrays],
                         ctypes.addressof(begins), ctypes.addressof(ends), ctypes.addressof(writes))
    return None if found < 0 else [(begins[i], ends[i], writes.raw[i] == 1) for i in range(found)]


def test_a_footprint_is_the_whole_mappings_of_the_pointer_arguments(native, memory):
    """A kernel that writes only through its pointers (args_only): each pointer argument's
    whole present mapping, written unless the compiler found it read-only; a literal
    touches nothing. Not known for any other kernel, nor for a pointer to no mapping."""
    param = MapType.TARGET_PARAM | MapType.TO
    native.push([Mapping(memory, 1024, 0x10000), Mapping(memory + 2048, 512, 0x20000)])
    native.configure(0, 0, 1024, 1024, False)
    value = ctypes.c_int(7)
    entries = [MapEntry(memory + 64, memory + 64, 256, param),            # inside the first mapping
               MapEntry(ctypes.addressof(value), ctypes.addressof(value), 4, MapType.TARGET_PARAM | MapType.LITERAL),
               MapEntry(memory + 2048, memory + 2048, 512, param)]
    native.register("reads_then_writes", 0, KernelInfo("reads_then_writes", ["pointer", "bytes", "pointer"],
                                                        args_only=True, read_only_params=(0,)))
    assert _footprint_of(native, "reads_then_writes", entries) == [(0x10000, 0x10400, False),
                                                                   (0x20000, 0x20200, True)]
    native.register("writes_anything", 0, KernelInfo("writes_anything", ["pointer", "bytes", "pointer"]))
    assert _footprint_of(native, "writes_anything", entries) is None
    device_pointer = MapEntry(0x90000, 0x90000, 0, MapType.TARGET_PARAM | MapType.IS_DEVICE_PTR)
    native.register("on_a_device_pointer", 0, KernelInfo("on_a_device_pointer", ["pointer"], args_only=True))
    assert _footprint_of(native, "on_a_device_pointer", [device_pointer]) is None


def test_update_ranges_are_locked_once_and_unlocked_with_their_mapping(native):
    """pinned_ranges.c's table, with locking pretended (the GPU build locks pages): a range
    of 256 KiB or more is locked at its first copy and not again; a smaller one never;
    all are forgotten when their mapping leaves the present table."""
    buffer = (ctypes.c_char * (2 << 20))()
    begin = ctypes.addressof(buffer)
    pin = native.function("__omp2gpu_native_pin_range", ctypes.c_int, ctypes.c_long, ctypes.c_long)
    pretend = native.function("__omp2gpu_native_pin_pretend", None, ctypes.c_int)
    pretend(1)
    try:
        native.push([Mapping(begin, 2 << 20, 0x100000)])
        _, locked_before, _ = native.pinned()
        assert pin(begin + 100, 1 << 20) == 1 and pin(begin + 100, 1 << 20) == 1
        assert pin(begin + (1 << 20), 8192) == 0                 # too small to be worth locking
        now, locked, refused = native.pinned()
        assert (now, locked - locked_before) == (1, 1)
        # copies are cut at the locked range's page-aligned ends (the driver refuses one
        # that straddles them); a copy inside it, or one ending there, is not cut
        first, last = (begin + 100 + 4095) & ~4095, (begin + 100 + (1 << 20)) & ~4095
        assert native.pinned_cuts(begin, 2 << 20) == [first, last]
        assert native.pinned_cuts(first + 8, 64) == [] and native.pinned_cuts(first, last - first) == []
        assert native.pinned_cuts(last - 8, 64) == [last]
        native.push([])                                          # unmapped: unlocked
        assert native.pinned()[0] == 0
    finally:
        pretend(0)
    assert pin(begin, 1 << 20) == 0                              # nothing locks pages here


@pytest.mark.parametrize("first,second,conflict", [
    ([(0, 100, False)], [(50, 150, False)], False),       # both only read the overlap
    ([(0, 100, True)], [(50, 150, False)], True),         # one writes what the other reads
    ([(0, 100, False)], [(99, 150, True)], True),
    ([(0, 100, True)], [(100, 150, True)], False),        # adjacent ranges do not overlap
    ([(0, 10, False), (20, 30, True)], [(25, 26, False)], True),
    ([], [(0, 1 << 40, True)], False),                    # a kernel of literals only
])
def test_footprints_conflict_where_one_writes_what_the_other_touches(native, first, second, conflict):
    conflicts = native.function("__omp2gpu_native_footprints_conflict", ctypes.c_int,
                                *[ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p] * 2)

    def arrays(ranges):
        n = max(len(ranges), 1)
        made = ((ctypes.c_long * n)(*[r[0] for r in ranges]), (ctypes.c_long * n)(*[r[1] for r in ranges]),
                (ctypes.c_char * n)(*[bytes([r[2]]) for r in ranges]))
        return made, [len(ranges), *[ctypes.addressof(a) for a in made]]
    first_arrays, second_arrays = arrays(first), arrays(second)    # kept alive through the calls
    assert conflicts(*first_arrays[1], *second_arrays[1]) == int(conflict)
    assert conflicts(*second_arrays[1], *first_arrays[1]) == int(conflict)
