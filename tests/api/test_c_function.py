"""Calling one C function: binding the arguments (positional or by the C names), every
error naming the function and the parameter, and device arrays lent for the call (on
the CPU device, which lends its own memory as a GPU lends a CuPy array)."""

from __future__ import annotations

import textwrap
import threading

import numpy as np
import pytest
from api_harness import COPY_LOG, LAUNCH_LOG, LENDING, CpuDeviceArray, FakeDeviceArray, lines_from_now, use_device

import omp2gpu


def _arrays(n=4):
    return np.arange(n, dtype=np.float32), np.zeros(n, dtype=np.float32)


def test_arguments_by_the_c_parameter_names(saxpy_library):
    x, y = _arrays()
    saxpy_library.saxpy(4, y=y, x=x, a=3.0)
    np.testing.assert_array_equal(y, 3 * x)


@pytest.mark.parametrize("call, message", [
    (lambda f, x, y: f(4, 2.0, x), r"saxpy\(\) missing 1 required argument: 'y'"),
    (lambda f, x, y: f(4, 2.0, x, y, 5), r"saxpy\(\) takes 4 arguments \(n, a, x, y\) but 5 were given"),
    (lambda f, x, y: f(4, 2.0, x, y, z=1), "unexpected keyword argument 'z'"),
    (lambda f, x, y: f(4, 2.0, x, n=4, y=y), "multiple values for argument 'n'"),
])
def test_wrong_argument_counts_are_type_errors(saxpy_library, call, message):
    x, y = _arrays()
    with pytest.raises(TypeError, match=message):
        call(saxpy_library.saxpy, x, y)


def test_a_wrong_dtype_names_the_parameter_and_both_types(saxpy_library):
    x, y = _arrays()
    with pytest.raises(TypeError, match=r"saxpy\(\): parameter 'x' \(const float \*\): it takes "
                                        "float32 data, not float64"):
        saxpy_library.saxpy(4, 2.0, x.astype(np.float64), y)


def test_a_non_contiguous_array_is_a_value_error(saxpy_library):
    x, y = _arrays(8)
    with pytest.raises(ValueError, match=r"parameter 'y' \(float \*\): the array is not C-contiguous"):
        saxpy_library.saxpy(4, 2.0, x[:4], y[::2])


def test_a_read_only_array_only_passes_to_a_const_pointee(saxpy_library):
    x, y = _arrays()
    x.flags.writeable = False
    saxpy_library.saxpy(4, 1.0, x, y)                     # x is const float *
    y.flags.writeable = False
    with pytest.raises(ValueError, match=r"parameter 'y' \(float \*\): the array is read-only"):
        saxpy_library.saxpy(4, 1.0, x, y)


def test_a_const_array_parameter_takes_read_only_arrays(saxpy_library):
    """`const double x[n]` is a pointer to const double (sema adjusts it so)."""
    x = np.ones(3)
    x.flags.writeable = False
    assert saxpy_library.dot(3, x, x) == 3.0


def test_scalar_errors_name_the_parameter(saxpy_library):
    x, y = _arrays()
    with pytest.raises(TypeError, match=r"parameter 'n' \(int\) takes an integer, not float"):
        saxpy_library.saxpy(4.0, 2.0, x, y)
    with pytest.raises(ValueError, match=r"parameter 'n' \(int\): 4294967296 is out of its range"):
        saxpy_library.saxpy(2**32, 2.0, x, y)
    with pytest.raises(TypeError, match=r"parameter 'a' \(float\) takes a number, not str"):
        saxpy_library.saxpy(4, "2", x, y)
    with pytest.raises(ValueError, match=r"parameter 'c' \(unsigned char\): 256 is out of its range"):
        saxpy_library.twice_plus(1, 256, False)


def test_none_is_null_and_non_arrays_are_refused(saxpy_library):
    saxpy_library.saxpy(0, 1.0, None, None)               # n = 0: nothing is read
    with pytest.raises(TypeError, match=r"parameter 'x' \(const float \*\) takes an array .* not list"):
        saxpy_library.saxpy(1, 1.0, [1.0], np.zeros(1, np.float32))


def test_arrays_are_let_go_after_the_call_even_when_it_fails(saxpy_library):
    data = bytearray(4)
    saxpy_library.fill(data, 4)
    data.extend(b"more")                  # a held buffer could not be resized
    x, y = _arrays()
    with pytest.raises(TypeError):
        saxpy_library.saxpy(4, 1.0, x, data)
    data.extend(b"!")


def test_device_arrays_need_a_gpu_where_target_regions_run(saxpy_library):
    x, _ = _arrays()
    with pytest.raises(ValueError, match=r"saxpy\(\): 'y': device array\(s\) the target regions cannot use: "
                                         r"memory at 0x7f0000000000 is not on device 0 \(.+\)"):
        saxpy_library.saxpy(4, 1.0, x, FakeDeviceArray())


# ----------------------------------------------------------------- device arrays on the CPU device
_lending_library = []


@pytest.fixture
def lending():
    """LENDING on the CPU device, which lends its own memory as a GPU lends a CuPy array;
    what the copy log gains, which must stay empty."""
    use_device("cpu")
    if not _lending_library:
        _lending_library.append(omp2gpu.load(source=textwrap.dedent(LENDING)))
    return _lending_library[0], lines_from_now(COPY_LOG)


def test_a_device_array_passed_again_is_used_in_place(lending):
    library, copies = lending
    a = CpuDeviceArray(np.arange(4.0))
    launches = lines_from_now(LAUNCH_LOG)
    for _ in range(3):
        library.add_one(4, a)
    assert len(launches()) == 3 and all("device='cpu'" in line for line in launches())
    np.testing.assert_array_equal(a.values, np.arange(4.0) + 3)
    assert copies() == []


def test_one_device_array_as_two_arguments(lending):
    library, copies = lending
    a = CpuDeviceArray(np.arange(4.0))
    library.add(4, a, a)
    library.add(4, a, a)
    np.testing.assert_array_equal(a.values, np.arange(4.0) * 4)
    assert copies() == []


def test_overlapping_views_of_one_device_array_are_lent_as_one_range(lending, saxpy_library):
    """Two views of one device array that overlap in part: lent one by one, the second
    would lie partly in the first's range (refused); the runtime joins them."""
    library, copies = lending
    a = CpuDeviceArray(np.arange(8.0))
    head = FakeDeviceArray(a.address, shape=(4,), typestr="<f8")
    middle = FakeDeviceArray(a.address + 16, shape=(4,), typestr="<f8")
    assert saxpy_library.dot(4, head, middle) == 0 * 2 + 1 * 3 + 2 * 4 + 3 * 5
    library.add_one(8, a)                     # nothing is left lent in part
    np.testing.assert_array_equal(a.values, np.arange(8.0) + 1)
    assert all("bytes=8 " in line for line in copies())     # dot's sum, no array


def test_a_device_array_inside_mapped_host_data_is_refused(lending):
    library, copies = lending
    a = CpuDeviceArray(np.arange(4.0))
    library.add_one(4, a)                     # the native path serves the device from now on
    library.map_at(a.address, 4)
    with pytest.raises(ValueError, match=r"add_one\(\): 'a': device array\(s\) the target regions cannot "
                                         r"use: device memory \[0x[0-9a-f]+, 0x[0-9a-f]+\) lies in the "
                                         r"mapped host range"):
        library.add_one(4, a)
    library.unmap_at(a.address, 4)
    library.add_one(4, a)
    np.testing.assert_array_equal(a.values, np.arange(4.0) + 2)
    assert copies() == []


def test_threads_lend_device_arrays_at_once_and_lose_nothing(lending):
    library, copies = lending
    arrays = [CpuDeviceArray(np.zeros(64)) for _ in range(4)]
    library.add_one(64, arrays[0])            # the native path serves the device from now on

    def calls(a):
        for _ in range(50):
            library.add_one(64, a)
            library.add(64, a, arrays[0])     # arrays[0] lent by several threads at once
    threads = [threading.Thread(target=calls, args=(a,)) for a in arrays[1:]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for a in arrays[1:]:
        np.testing.assert_array_equal(a.values, np.full(64, 100.0))
    assert copies() == []


COMPLEX = """
#include <complex.h>
double norm2(const double complex *z, int n) {
    double sum = 0.0;
    for (int i = 0; i < n; i++)
        sum += creal(z[i] * conj(z[i]));
    return sum;
}
double complex twice(double complex z) { return 2.0 * z; }
float complex mix(float complex z, double complex w) { return z / 2 + (float complex)w; }
long double complex same(long double complex z) { return z; }
"""


def test_complex_values_and_numpy_complex_arrays():
    library = omp2gpu.load(source=COMPLEX)
    assert library.norm2(np.array([1 + 2j, 3 - 4j]), 2) == 30.0
    assert library.twice(1 + 2j) == 2 + 4j and library.twice(3) == 6 + 0j
    assert library.mix(2 + 4j, 0.5j) == 1 + 2.5j          # float complex packed, as gcc passes it
    with pytest.raises(TypeError, match=r"norm2\(\): parameter 'z' \(const complex double \*\): it takes "
                                        "complex128 data, not complex64"):
        library.norm2(np.zeros(2, dtype=np.complex64), 2)
    with pytest.raises(TypeError, match=r"twice\(\): parameter 'z' \(complex double\) takes a number, not str"):
        library.twice("1")
    with pytest.raises(TypeError, match="'complex long double', which cannot be passed from Python"):
        library.same(1)
