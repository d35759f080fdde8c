"""What the Python API's tests share. They load C files into this process, as a user's
script does, on the process's one offload runtime (libomp2gpu.so), which reads its
environment once: SESSION_DEVICE, the GPU where there is one, else the CPU device
(conftest.py sets it before the first load). A test that needs other settings runs
Python in a child process (tests/native/test_native_api.py)."""

from __future__ import annotations

import ctypes
import tempfile
import textwrap
from pathlib import Path

import numpy as np
import pytest
from gpu_presence import gpu_present

import omp2gpu
from omp2gpu import native_link

SAXPY = """
    #include <stddef.h>
    #include <omp.h>
    void saxpy(int n, float a, const float *x, float *y) {
        #pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
        for (int i = 0; i < n; i++)
            y[i] = a * x[i] + y[i];
    }
    double dot(size_t n, const double x[n], const double y[n]) {
        double sum = 0;
        #pragma omp target teams distribute parallel for reduction(+: sum) map(to: x[0:n], y[0:n])
        for (size_t i = 0; i < n; i++)
            sum += x[i] * y[i];
        return sum;
    }
    int on_device(void) {
        int initial = 1;
        #pragma omp target map(from: initial)
        initial = omp_is_initial_device();
        return !initial;
    }
    static int twice(int v) { return 2 * v; }
    long twice_plus(long v, unsigned char c, _Bool b) { return twice((int)v) + c + b; }
    void fill(void *p, size_t n) {
        unsigned char *bytes = p;
        for (size_t i = 0; i < n; i++) bytes[i] = (unsigned char)i;
    }
    struct pair { int a; double b; };
    double sum_pairs(const struct pair *p, int n) {
        double s = 0;
        for (int i = 0; i < n; i++) s += p[i].a + p[i].b;
        return s;
    }
    int by_value(struct pair p) { return p.a; }
    int varargs(int n, ...) { return n; }
"""


SESSION_DEVICE = "gpu" if gpu_present() else "cpu"


LOGS = Path(tempfile.mkdtemp(prefix="omp2gpu-api-tests-"))
LAUNCH_LOG, COPY_LOG = LOGS / "launches.log", LOGS / "copies.log"


def session_environment(environ) -> None:
    """Target regions on SESSION_DEVICE only, every launch and copy logged (conftest.py,
    before the runtime starts)."""
    environ.update(SESSION_VALUES)


# What session_environment sets (tests/conftest.py keeps it from other tests' programs).
SESSION_VALUES = {"OMP2GPU_DEVICES": SESSION_DEVICE, "OMP_TARGET_OFFLOAD": "MANDATORY",
                  "OMP2GPU_OFFLOAD_LOG": str(LAUNCH_LOG), "OMP2GPU_COPY_LOG": str(COPY_LOG)}


def lines_from_now(log: Path):
    """A function that gives the lines `log` (LAUNCH_LOG, COPY_LOG) gains after this call."""
    start = log.stat().st_size if log.exists() else 0

    def lines() -> list[str]:
        if not log.exists():
            return []
        with open(log) as text:
            text.seek(start)
            return text.read().splitlines()
    return lines


def use_device(kind: str) -> None:
    """The test needs target regions on `kind` ("cpu" or "gpu"): skipped in a session on
    the other one."""
    if kind != SESSION_DEVICE:
        pytest.skip(f"this session's offload runtime runs target regions on the {SESSION_DEVICE} device")


_loaded: dict = {}     # (source, flags) -> Library


def load_once(source: str, flags=()):
    """omp2gpu.load(source=...), loaded once per session."""
    key = (source, tuple(flags))
    if key not in _loaded:
        _loaded[key] = omp2gpu.load(source=textwrap.dedent(source), flags=flags)
    return _loaded[key]


class FakeDeviceArray:
    """What CuPy's __cuda_array_interface__ looks like (version 3)."""

    def __init__(self, address=0x7F0000000000, shape=(4,), typestr="<f4", strides=None, stream=1,
                 readonly=False):
        self.__cuda_array_interface__ = {"data": (address, readonly), "shape": shape, "typestr": typestr,
                                         "strides": strides, "version": 3, "stream": stream}


# A device array passed again, twice in one call, or where a target data region maps it.
LENDING = """
    #include <stddef.h>
    void add_one(int n, double *a) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
        for (int i = 0; i < n; i++)
            a[i] += 1.0;
    }
    void add(int n, double *a, const double *b) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n]) map(to: b[0:n])
        for (int i = 0; i < n; i++)
            a[i] += b[i];
    }
    /* the memory at `address` mapped as host data (no copy), then unmapped */
    void map_at(size_t address, int n) {
        double *p = (double *)address;
        #pragma omp target enter data map(alloc: p[0:n])
    }
    void unmap_at(size_t address, int n) {
        double *p = (double *)address;
        #pragma omp target exit data map(delete: p[0:n])
    }
"""


class CpuDeviceArray(FakeDeviceArray):
    """n doubles of the CPU device's memory (omp_target_alloc), lent as a CuPy array is;
    `values` reads and writes them (the CPU device's memory is the host's)."""

    def __init__(self, values):
        alloc = getattr(native_link.shared_runtime(), "__omp2gpu_target_alloc")   # no name mangling
        alloc.restype, alloc.argtypes = ctypes.c_void_p, [ctypes.c_size_t, ctypes.c_int]
        self.address = alloc(8 * len(values), 0)          # device 0, the CPU device
        super().__init__(self.address, shape=(len(values),), typestr="<f8")
        self.values = np.ctypeslib.as_array((ctypes.c_double * len(values)).from_address(self.address))
        self.values[:] = values


class StandInCupy:
    """A `cupy` module as the CuPy fast path reads it (api/cupy_arrays.py): an ndarray
    with dtype, shape, strides, nbytes and data.ptr beside its interface, and the current
    stream."""

    def __init__(self):
        cupy = self
        self.current = 0

        class Stream:
            @property
            def ptr(self):
                return cupy.current

        class ndarray:  # noqa: N801 (CuPy's name)
            def __init__(self, address, shape, dtype="<f8"):
                self.dtype, self.shape = np.dtype(dtype), shape
                self.size, self._c_contiguous = int(np.prod(shape)), True
                self.strides = tuple(int(s) for s in np.empty(shape, dtype).strides)
                self.nbytes = int(np.prod(shape)) * self.dtype.itemsize
                self.data = type("MemoryPointer", (), {"ptr": address})()
                self.interface_reads = 0

            @property
            def __cuda_array_interface__(self):
                self.interface_reads += 1
                return {"data": (self.data.ptr, False), "shape": self.shape, "typestr": self.dtype.str,
                        "version": 3, "stream": cupy.current or 1}

        self.ndarray = ndarray
        self.cuda = type("cuda", (), {"get_current_stream": staticmethod(Stream)})
