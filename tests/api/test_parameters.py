"""A pointer parameter's conversion of an array, as each call makes it: its address and
its extent for the runtime (its bytes, negative for device memory), and the short ways of the
two common kinds (a NumPy array; a __cuda_array_interface__, its layout's checks made
once) giving what the long way gives, and refusing what it refuses, every call."""

from __future__ import annotations

import numpy as np
import pytest
from api_harness import FakeDeviceArray, StandInCupy

from omp2gpu.api.parameters import PointerParameter
from omp2gpu.sema import ctypes as ct


def _parameter(pointee=ct.DOUBLE, const=False, waits=None) -> PointerParameter:
    ptype = ct.PointerType(pointee, pointee_const=const)
    return PointerParameter("f", "a", ptype, waits.append if waits is not None else None)


def _convert(parameter, value):
    """(what C gets, the extent for the runtime, the releases) of one conversion."""
    releases: list = []
    address, extent = parameter.convert(value, releases)
    return address, extent, releases


def test_a_numpy_array_gives_its_address_and_a_host_record_naming_the_parameter():
    parameter = _parameter()
    a = np.zeros(5)
    for _ in range(2):                                       # the dtype's check made once, then known
        address, extent, releases = _convert(parameter, a)
        assert address == a.ctypes.data and extent == 40 and releases == []


@pytest.mark.parametrize("array, error, message", [
    (np.zeros(4, dtype=np.float32), TypeError,
     r"f\(\): parameter 'a' \(double \*\): it takes float64 data, not float32"),
    (np.zeros((4, 4))[:, 1], ValueError, "the array is not C-contiguous"),
    (np.zeros((2, 3), order="F"), ValueError, "the array is not C-contiguous"),
])
def test_a_numpy_array_the_parameter_cannot_take_is_refused_each_time(array, error, message):
    parameter = _parameter()
    for _ in range(2):
        with pytest.raises(error, match=message):
            _convert(parameter, array)


def test_read_only_and_empty_numpy_arrays_take_the_long_way():
    read_only = np.ones(3)
    read_only.flags.writeable = False
    with pytest.raises(ValueError, match="the array is read-only"):
        _convert(_parameter(), read_only)
    address, extent, releases = _convert(_parameter(const=True), read_only)
    assert address == read_only.ctypes.data and extent == 24 and len(releases) == 1
    releases[0]()
    address, extent, _ = _convert(_parameter(), np.zeros(0))
    assert extent == 0                                       # nothing for the runtime to know


def test_a_numpy_subclass_is_read_as_any_buffer():
    masked = np.ma.masked_array(np.arange(3.0), mask=[0, 1, 0])
    address, extent, releases = _convert(_parameter(), masked)
    assert address == masked.data.ctypes.data and extent == 24 and len(releases) == 1
    releases[0]()


def test_a_device_array_gives_a_device_record_and_its_stream_is_waited_for_every_call():
    waits: list = []
    parameter = _parameter(waits=waits)
    array = FakeDeviceArray(shape=(2, 3), typestr="<f8", stream=0x1234)
    for _ in range(2):                                       # the layout's checks made once
        address, extent, _ = _convert(parameter, array)
        assert address == 0x7F0000000000 and extent == -48      # device memory: negative
    assert waits == [0x1234, 0x1234]
    _convert(parameter, FakeDeviceArray(typestr="<f8", stream=1))    # the launcher's own stream
    assert waits == [0x1234, 0x1234]


def test_a_device_array_is_checked_again_when_its_interface_changes():
    parameter = _parameter()
    array = FakeDeviceArray(shape=(4,), typestr="<f8")
    _convert(parameter, array)
    interface = array.__cuda_array_interface__
    interface["data"] = (0x7F0000000000, True)
    with pytest.raises(ValueError, match=r"parameter 'a' \(double \*\): the array is read-only"):
        _convert(parameter, array)
    interface["data"] = (0x7F0000000000, False)
    interface["mask"] = object()
    with pytest.raises(ValueError, match="masked"):
        _convert(parameter, array)
    del interface["mask"]
    interface["shape"], interface["strides"] = (2, 2), (8, 16)
    with pytest.raises(ValueError, match="not C-contiguous"):
        _convert(parameter, array)
    interface["shape"], interface["strides"] = [3], None    # a list for a tuple: read uncached
    assert _convert(parameter, array)[1] == -24
    interface["typestr"] = "<f4"
    with pytest.raises(TypeError, match="it takes float64 data, not float32"):
        _convert(parameter, array)
    interface["typestr"], interface["shape"] = "<f8", (3,)
    assert _convert(parameter, array)[1] == -24                # the layout known again
    interface["stream"] = "not a stream"
    with pytest.raises(ValueError, match=r"parameter 'a' \(double \*\): invalid literal"):
        _convert(parameter, array)
    del interface["typestr"]
    with pytest.raises(ValueError, match=r"parameter 'a' \(double \*\): 'typestr'"):
        _convert(parameter, array)


def test_an_empty_device_array_passes_null():
    assert _convert(_parameter(), FakeDeviceArray(address=0, shape=(0,), typestr="<f8")) == (0, 0, [])


def test_a_stream_that_cannot_be_waited_for_names_the_parameter():
    def refuse(stream):
        raise LookupError("no such stream")
    parameter = PointerParameter("f", "a", ct.PointerType(ct.DOUBLE), refuse)
    with pytest.raises(ValueError, match=r"f\(\): 'a': device array\(s\) the target regions cannot use: "
                                         "no such stream"):
        _convert(parameter, FakeDeviceArray(typestr="<f8", stream=0x99))


def test_a_cupy_array_of_a_checked_layout_is_read_from_its_attributes(monkeypatch):
    cupy = StandInCupy()
    monkeypatch.setitem(__import__("sys").modules, "cupy", cupy)
    waits: list = []
    parameter = _parameter(waits=waits)
    first, second = cupy.ndarray(0x7F0000000000, (2, 3)), cupy.ndarray(0x7F0000001000, (2, 3))
    assert _convert(parameter, first)[:2] == (0x7F0000000000, -48)
    cupy.current = 0x5678                          # a stream of the caller's: waited for
    assert _convert(parameter, second)[:2] == (0x7F0000001000, -48)
    assert (first.interface_reads, second.interface_reads, waits) == (1, 0, [0x5678])
    cupy.current = 0
    with pytest.raises(TypeError, match="it takes float64 data, not float32"):    # a new layout: checked
        _convert(parameter, cupy.ndarray(0x7F0000002000, (4,), "<f4"))
    assert _convert(parameter, cupy.ndarray(0, (0,)))[:2] == (0, 0)
    assert waits == [0x5678]
    sliced = cupy.ndarray(0x7F0000003000, (6,))
    sliced._c_contiguous = False                   # not C-contiguous: its interface read each call
    assert sliced.interface_reads == 0 and _convert(parameter, sliced)[1] == -48 and sliced.interface_reads == 1
