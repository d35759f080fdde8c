"""The GPU's native launch path (offload/devices/cuda_native.py,
runtime/native_launch/cuda_launch.c) on a real GPU (skipped without one): whole
programs give the launcher's output and offload log; eight host threads launching at
once, natively and through the launcher, lose no update and leave the device's memory
in use as it was."""

from __future__ import annotations

import ctypes
import threading
from ctypes import POINTER, c_char_p, c_int, c_int32, c_int64, c_void_p

import pytest
from program_runs import CONCURRENT, MAP_CASES, run_in_process
from test_cuda_device import PTX

from omp2gpu import device_driver
from omp2gpu.offload import abi, entry_points, runtime
from omp2gpu.offload.abi import KernelInfo
from omp2gpu.offload.abi import MapType as M
from omp2gpu.offload.devices import cuda, cuda_native

pytestmark = pytest.mark.gpu

cuda_native.provide_runtime(device_driver.gpu_launch_engine)

TARGET = ctypes.CFUNCTYPE(c_int, c_int64, c_char_p, c_int32, POINTER(c_void_p), POINTER(c_void_p),
                          POINTER(c_int64), POINTER(c_int64), c_int32, c_int32, c_int64, c_char_p)
DATA = ctypes.CFUNCTYPE(None, c_int64, c_int32, POINTER(c_void_p), POINTER(c_void_p), POINTER(c_int64),
                        POINTER(c_int64), c_char_p)


def _native_launches() -> int:
    native = cuda_native.launcher()
    return native.launches() if native is not None else 0


def _both_ways(tmp_path, monkeypatch, capfd, source):
    results = []
    for fast in ("0", "1"):
        log = tmp_path / f"launches-{fast}.log"
        before = _native_launches()
        status, out, err = run_in_process(tmp_path, monkeypatch, capfd, source, {
            "OMP2GPU_FAST_PATH": fast, "OMP2GPU_OFFLOAD_LOG": str(log)}, devices="gpu")
        assert status == 0, err
        results.append((out, log.read_text().splitlines(), _native_launches() - before))
    return results


def test_every_map_case_gives_the_launchers_results_and_log(tmp_path, monkeypatch, capfd):
    (out, log, native), (fast_out, fast_log, fast_native) = _both_ways(tmp_path, monkeypatch, capfd,
                                                                       MAP_CASES)
    assert native == 0 and fast_native == 16
    assert (fast_out, fast_log) == (out, log)


def test_host_threads_launch_at_once_and_lose_nothing(tmp_path, monkeypatch, capfd):
    (out, log, _), (fast_out, fast_log, fast_native) = _both_ways(tmp_path, monkeypatch, capfd,
                                                                  CONCURRENT)
    assert out == fast_out == "lost=0\n"
    assert len(fast_log) == len(log) == 8 * 400 and fast_native >= 8 * 400 - 8


class _Binding:
    """The JIT's symbol table, for a test that calls the entry points itself."""
    def add_symbol(self, name, address):
        pass


def _arrays(array, n):
    entries = [(ctypes.addressof(array), ctypes.sizeof(array), int(M.TO | M.FROM | M.TARGET_PARAM)),
               (ctypes.addressof(n), 4, int(M.LITERAL | M.TARGET_PARAM))]
    bases = (c_void_p * 2)(*[e[0] for e in entries])
    sizes = (c_int64 * 2)(*[e[1] for e in entries])
    types = (c_int64 * 2)(*[e[2] for e in entries])
    return bases, sizes, types


def _memory_in_use() -> int:
    free, total = cuda._call("cuMemGetInfo")
    return int(total) - int(free)


def test_eight_threads_with_maps_leak_nothing_and_lose_nothing():
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
        assert target(-1, b"add_one", 2, *_arrays(warm, n), 0, 0, length, b"") == 0
    bases, sizes, types = _arrays(warm, n)
    data_begin(-1, 1, bases, bases, sizes, types, b"")  # and the launcher's own allocations
    data_end(-1, 1, bases, bases, sizes, types, b"")
    native.release_cache()
    in_use = _memory_in_use()
    launches = native.launches()
    arrays = [(ctypes.c_int * length)(*range(length)) for _ in range(threads)]
    failures = []

    def work(me):
        array = arrays[me]
        bases, sizes, types = _arrays(array, n)
        present = me % 2 == 0                           # half map their array for a while
        for k in range(rounds):
            if present and k % 500 == 0:
                data_begin(-1, 1, bases, bases, sizes, types, b"")
            if target(-1, b"add_one", 2, bases, bases, sizes, types, 0, 0, length, b"") != 0:
                failures.append(me)
            if present and k % 500 == 499:
                data_end(-1, 1, bases, bases, sizes, types, b"")
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
