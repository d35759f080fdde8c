"""What the Python API's tests share. They load C files into this process, as a user's
script does: target regions run on the CPU device (the `gpu` tests: on the GPU), in a
launcher made for the test; loaded libraries are cached while that launcher lives."""

from __future__ import annotations

import ctypes
import textwrap

import numpy as np

import omp2gpu
from omp2gpu.offload import runtime

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


def use_device(monkeypatch, kind: str) -> None:
    """Target regions on `kind` ("cpu" or "gpu") only, in a fresh launcher."""
    monkeypatch.setenv("OMP2GPU_DEVICES", kind)
    monkeypatch.setenv("OMP_TARGET_OFFLOAD", "MANDATORY")
    runtime.reset()


_loaded: dict = {}     # (source, flags, launcher) -> Library


def load_once(monkeypatch, source: str, kind: str = "cpu", flags=()):
    """omp2gpu.load(source=...) on `kind`, reused while the launcher it was loaded into is
    the process's (another test may have made a new one)."""
    key = (source, tuple(flags), kind)
    library, launcher = _loaded.get(key, (None, None))
    if library is None or runtime._runtime is not launcher:
        use_device(monkeypatch, kind)
        library = omp2gpu.load(source=textwrap.dedent(source), flags=flags)
        _loaded[key] = library, runtime._runtime
    return library


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
        launcher = runtime.runtime()
        self.address = launcher.target_alloc(8 * len(values), launcher.default_device)
        super().__init__(self.address, shape=(len(values),), typestr="<f8")
        self.values = np.ctypeslib.as_array((ctypes.c_double * len(values)).from_address(self.address))
        self.values[:] = values
