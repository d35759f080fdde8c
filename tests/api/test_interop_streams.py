"""An `interop` object shared with CuPy from the Python API (issue 28: "an interop shared
with a CuPy kernel from the Python API"): the C library makes a `targetsync` interop, Python
launches CuPy kernels on its CUDA stream, and the library's target regions, given the same
CuPy arrays, see those kernels' results in order with no synchronisation by the caller.
On a GPU the interop's stream is a blocking stream (runtime/offload/interop.c), so the
runtime's launches on the legacy default stream wait for the work queued on it."""

from __future__ import annotations

import pytest

import omp2gpu

SOURCE = r"""
#include <omp.h>
#include <stdint.h>

static omp_interop_t shared_stream = omp_interop_none;

/* The CUDA stream target regions and the caller's kernels share: made once, kept. */
uintptr_t open_stream(void) {
    int rc = 0;
    if (shared_stream == omp_interop_none) {
#pragma omp interop init(prefer_type("cuda"), targetsync: shared_stream)
    }
    uintptr_t stream = (uintptr_t)omp_get_interop_ptr(shared_stream, omp_ipr_targetsync, &rc);
    return rc == omp_irc_success ? stream : 0;
}

int close_stream(void) {
#pragma omp interop destroy(shared_stream)
    return shared_stream == omp_interop_none;
}

void ramp(int n, double *a) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
    for (int i = 0; i < n; i++)
        a[i] = (double)i;
}

void add_one(int n, double *a) {
#pragma omp target teams distribute parallel for map(tofrom: a[0:n])
    for (int i = 0; i < n; i++)
        a[i] += 1.0;
}
"""


@pytest.fixture(scope="module")
def library():
    return omp2gpu.load(source=SOURCE)


def test_without_a_gpu_the_interop_has_no_stream(library):
    if omp2gpu.target_device() not in ("cpu", "host"):
        pytest.skip("a GPU is the default device here")
    assert library.open_stream() == 0
    assert library.close_stream() == 1


@pytest.mark.gpu
def test_cupy_kernels_on_the_interop_stream_are_ordered_with_target_regions(library):
    cupy = pytest.importorskip("cupy")
    n = 1 << 24                                   # large: the CuPy work takes long enough to race
    x = cupy.empty(n, dtype=cupy.float64)
    library.ramp(n, x)
    pointer = library.open_stream()
    assert pointer != 0
    stream = cupy.cuda.ExternalStream(pointer)
    for _ in range(4):
        with stream:                              # queued on the interop's stream, not waited for
            x *= 2.0
            x -= 1.0
        library.add_one(n, x)                     # must see the CuPy kernels' results
    stream.synchronize()
    expected = cupy.arange(n, dtype=cupy.float64)
    for _ in range(4):
        expected = expected * 2.0
    assert bool((x == expected).all()), "a target region ran before the CuPy kernels on the interop stream"
    assert library.close_stream() == 1
