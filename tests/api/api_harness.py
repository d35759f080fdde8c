"""What the Python API's tests share. They load C files into this process, as a user's
script does: target regions run on the CPU device (the `gpu` tests: on the GPU), in a
launcher made for the test; loaded libraries are cached while that launcher lives."""

from __future__ import annotations

import textwrap

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
