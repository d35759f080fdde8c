"""bench/python/run.py --breakdown: where the time of one call with a device array goes,
phase by phase, as CFunction.__call__ (omp2gpu/api/c_function.py) makes them:

    convert    the arguments converted by their parameters (api/parameters.py): a device
               array's __cuda_array_interface__ read, its layout's checks looked up, its
               address and extent for the runtime; all packed in the call's frame
    call       one call into C (targets/python_call_wrappers.py): the arrays' records
               written, the runtime's begin (the device arrays lent to its present table,
               every array's extent made known to it: runtime/offload/python_calls.c), the
               C function (its target region finds the array present), the runtime's end
               (the loans ended, whether an error is pending)
    release    the arrays' memory let go

Each phase is timed on its own around each call (time.perf_counter_ns, about 0.1 us of
its own per phase), and the whole call too, untouched. The device array: a CuPy array
on a GPU; on the CPU device, device memory (omp_target_alloc) behind a
__cuda_array_interface__, which the CPU device lends as a GPU lends a CuPy array.
"""

from __future__ import annotations

import ctypes
import statistics
import time

from omp2gpu import native_link

PHASES = ("convert", "call", "release")


class DeviceMemoryArray:
    """n doubles of the default device's memory, as a CuPy array describes itself."""

    def __init__(self, n: int):
        alloc = getattr(native_link.shared_runtime(), "__omp2gpu_target_alloc")     # no name mangling
        alloc.restype, alloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t, ctypes.c_int]
        self.address = alloc(8 * n, 0)             # device 0: the default device of the breakdown's runs
        if not self.address:
            raise RuntimeError("no device memory for the breakdown's array")
        self.__cuda_array_interface__ = {"data": (self.address, False), "shape": (n,), "typestr": "<f8",
                                         "strides": None, "version": 3, "stream": 1}


def device_array_kind(device: str) -> str:
    """How the tables name device_array(n, device)'s arrays."""
    return "CPU-device memory" if device in ("cpu", "host") else "CuPy"


def device_array(n: int, device: str):
    if device in ("cpu", "host"):
        return DeviceMemoryArray(n)
    import cupy  # optional: only on a GPU
    return cupy.zeros(n)


def one_call(function, args, clock=time.perf_counter_ns) -> list[int]:
    """The nanoseconds of each phase of function(*args), made as CFunction.__call__ makes it."""
    releases: list = []
    t0 = clock()
    frame = function._frame.pack(*function._arguments(args, releases))
    result = function._result_type() if function._result_type else None
    t1 = clock()
    status = function._call(frame, result)
    if status:
        packed = function._frame.unpack(frame)          # the arguments, then the extents
        function._failed(status, packed[len(packed) - len(function._pointer_names):])
    t2 = clock()
    for release in releases:
        release()
    t3 = clock()
    return [t1 - t0, t2 - t1, t3 - t2]


def breakdown(function, args, reps: int, trials: int) -> dict[str, float]:
    """Phase -> median over trials of the mean microseconds per call; "whole call": the
    call made as a user makes it; "sum of phases": what the phases add up to."""
    for _ in range(max(reps // 10, 1)):
        function(*args)                               # warm: the image loaded, the kernel found
    per_trial: dict[str, list[float]] = {name: [] for name in (*PHASES, "whole call")}
    for _ in range(trials):
        totals = [0] * len(PHASES)
        for _ in range(reps):
            for index, nanoseconds in enumerate(one_call(function, args)):
                totals[index] += nanoseconds
        for name, total in zip(PHASES, totals):
            per_trial[name].append(total / reps / 1e3)
        start = time.perf_counter()
        for _ in range(reps):
            function(*args)
        per_trial["whole call"].append((time.perf_counter() - start) / reps * 1e6)
    rows = {name: statistics.median(values) for name, values in per_trial.items()}
    rows["sum of phases"] = sum(rows[name] for name in PHASES)
    return rows
