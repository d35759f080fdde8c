"""Device arrays on the GPU (the lent one): CuPy and Numba device arrays, and DLPack,
passed to C functions whose target regions then use them where they are. The copy log
(OMP2GPU_COPY_LOG) shows that no map clause copied them; the offload log that the
kernels ran on the GPU. They are lent to the offload runtime's present table for each
call (runtime/offload/present_table.c). Skipped where there is no GPU (tests/conftest.py)."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest
from api_harness import COPY_LOG, LAUNCH_LOG, LENDING, FakeDeviceArray, lines_from_now, use_device

import omp2gpu

pytestmark = pytest.mark.gpu

SOURCE = """
    void add_one(int n, double *a) {
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
        for (int i = 0; i < n; i++)
            a[i] += 1.0;
    }
    void saxpy(int n, float a, const float *x, float *y) {
        #pragma omp target teams distribute parallel for map(to: x[0:n]) map(tofrom: y[0:n])
        for (int i = 0; i < n; i++)
            y[i] = a * x[i] + y[i];
    }
    /* a data region, an update and an `always` map: still nothing to copy */
    void add_two(int n, double *a) {
        #pragma omp target data map(tofrom: a[0:n])
        {
            #pragma omp target teams distribute parallel for
            for (int i = 0; i < n; i++)
                a[i] += 1.0;
            #pragma omp target update from(a[0:n])
            #pragma omp target teams distribute parallel for map(always, tofrom: a[0:n])
            for (int i = 0; i < n; i++)
                a[i] += 1.0;
        }
    }
"""
N = 100_000


@pytest.fixture
def cupy():
    return pytest.importorskip("cupy")


_libraries: dict = {}


def _logged(source: str):
    """A library of `source` (loaded once), and what the offload and copy logs gain from now."""
    use_device("gpu")
    if source not in _libraries:
        _libraries[source] = omp2gpu.load(source=textwrap.dedent(source))
    return _libraries[source], lines_from_now(LAUNCH_LOG), lines_from_now(COPY_LOG)


@pytest.fixture
def logs():
    return _logged(SOURCE)


@pytest.fixture
def lending():
    return _logged(LENDING)


def test_cupy_arrays_are_used_in_place(cupy, logs):
    library, launches, copies = logs
    a = cupy.arange(N, dtype=cupy.float64)
    library.add_one(N, a)
    library.add_two(N, a)
    np.testing.assert_array_equal(cupy.asnumpy(a), np.arange(N) + 3)
    assert len(launches()) == 3 and all("device='cpu'" not in line for line in launches())
    assert copies() == []
    assert omp2gpu.target_device() not in ("cpu", "host")


def test_numpy_arrays_are_copied_as_maps_say(logs):
    """The control: the same calls on host arrays copy (so the copy log can fail the test above)."""
    library, _, copies = logs
    a = np.arange(N, dtype=np.float64)
    library.add_one(N, a)
    np.testing.assert_array_equal(a, np.arange(N) + 1)
    assert [line.split()[0] for line in copies()] == ["to-device", "to-host"]


def test_host_and_device_arrays_in_one_call(cupy, logs):
    library, _, copies = logs
    x = np.arange(N, dtype=np.float32)
    y = cupy.ones(N, dtype=cupy.float32)
    library.saxpy(N, 2.0, x, y)
    np.testing.assert_array_equal(cupy.asnumpy(y), 2 * np.arange(N, dtype=np.float32) + 1)
    assert copies() == [f"to-device bytes={4 * N} device={omp2gpu.target_device()!r}"]   # x only


def test_another_librarys_kernel_and_a_target_region_on_one_cupy_array_in_turn(cupy, logs):
    """CuPy's own kernel, the target region, CuPy's again on the same device memory, in
    order (both on the legacy default stream), with nothing copied."""
    library, _, copies = logs
    a = cupy.arange(N, dtype=cupy.float64)
    a *= 2.0                                # a CuPy kernel
    library.add_one(N, a)
    a *= 2.0
    np.testing.assert_array_equal(cupy.asnumpy(a), (np.arange(N) * 2 + 1) * 2)
    assert copies() == []


def test_numba_device_arrays(logs):
    cuda = pytest.importorskip("numba.cuda")
    library, _, copies = logs
    a = cuda.to_device(np.arange(N, dtype=np.float64))
    library.add_one(N, a)
    np.testing.assert_array_equal(a.copy_to_host(), np.arange(N) + 1)
    assert copies() == []


def test_work_on_another_stream_is_waited_for(cupy, logs):
    library, _, _ = logs
    with cupy.cuda.Stream(non_blocking=True) as stream:
        a = cupy.zeros(N, dtype=cupy.float64)
        for _ in range(20):
            a += 1.0                       # queued on the stream, maybe not done yet
        assert a.__cuda_array_interface__["stream"] == stream.ptr
        library.add_one(N, a)              # the interface names the current stream: waited for
        np.testing.assert_array_equal(cupy.asnumpy(a), np.full(N, 21.0))


@pytest.mark.parametrize("non_blocking", [False, True])
def test_work_on_another_stream_is_ordered_before_natively_lent_arrays(cupy, lending, non_blocking):
    """Once the native path serves the GPU, only a non-blocking stream is waited for: the
    legacy default stream, where the launcher works, waits for a blocking one itself."""
    library, _, _ = lending
    library.add_one(N, cupy.zeros(N))                   # the native path serves the GPU
    with cupy.cuda.Stream(non_blocking=non_blocking):
        a = cupy.zeros(N, dtype=cupy.float64)
        for _ in range(20):
            a += 1.0
        library.add_one(N, a)
        library.add(N, a, a)
        np.testing.assert_array_equal(cupy.asnumpy(a), np.full(N, 42.0))


def test_dlpack_device_arrays(cupy, logs):
    class DLPackOnly:
        def __init__(self, array):
            self.array = array

        def __dlpack__(self, stream=None):
            return self.array.__dlpack__(stream=stream)

        def __dlpack_device__(self):
            return self.array.__dlpack_device__()

    library, _, copies = logs
    a = cupy.arange(N, dtype=cupy.float64)
    library.add_one(N, DLPackOnly(a))
    np.testing.assert_array_equal(cupy.asnumpy(a), np.arange(N) + 1)
    assert copies() == []


def test_a_wrong_dtype_on_the_device_names_the_parameter(cupy, logs):
    library, _, _ = logs
    with pytest.raises(TypeError, match=r"add_one\(\): parameter 'a' \(double \*\): it takes float64 "
                                        "data, not float32"):
        library.add_one(4, cupy.zeros(4, dtype=cupy.float32))


# ----------------------------------------------------------------- lent to the present table
def test_a_cupy_array_passed_again_is_lent_each_call(cupy, lending):
    library, launches, copies = lending
    a = cupy.arange(N, dtype=cupy.float64)
    for _ in range(3):
        library.add_one(N, a)
    np.testing.assert_array_equal(cupy.asnumpy(a), np.arange(N) + 3)
    assert len(launches()) == 3 and copies() == []


def test_one_cupy_array_as_two_arguments(cupy, lending):
    library, _, copies = lending
    a = cupy.arange(N, dtype=cupy.float64)
    library.add(N, a, a)
    library.add(N, a, a)
    np.testing.assert_array_equal(cupy.asnumpy(a), np.arange(N) * 4)
    assert copies() == []


def test_a_cupy_arrays_address_mapped_as_host_data_is_refused(cupy, lending):
    """Device memory is no host memory to map: the map check refuses `map(alloc:)` of a
    CuPy array's address (a located error, nothing mapped), and the array is lent as
    before. (A device array lying in a mapped host range, which only the CPU device's
    memory can be, is test_c_function.py's.)"""
    library, _, copies = lending
    a = cupy.arange(N, dtype=cupy.float64)
    library.add_one(N, a)                     # the native path serves the GPU from now on
    with pytest.raises(omp2gpu.OffloadError, match=r"map_at\(\): .*source.c:\d+:\d+: map entry 1 'p\[0:n\]' "
                                                   r".* runs past the host memory of the program"):
        library.map_at(a.data.ptr, N)
    library.add_one(N, a)
    np.testing.assert_array_equal(cupy.asnumpy(a), np.arange(N) + 2)
    assert copies() == []


def test_host_memory_posing_as_a_device_array_is_refused_natively(cupy, lending):
    library, _, _ = lending
    library.add_one(N, cupy.zeros(N))         # the native path serves the GPU (and answers holds)
    host = np.zeros(N)
    with pytest.raises(ValueError, match=r"memory at 0x[0-9a-f]+ is not on device 0"):
        library.add_one(N, FakeDeviceArray(host.ctypes.data, shape=(N,), typestr="<f8"))
