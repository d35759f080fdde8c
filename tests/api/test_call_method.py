"""A CFunction's __call__ as written out for its parameters (api/call_method.py), on a
stand-in function: what C gets, with each array's extent for the runtime (its bytes,
negative for device memory), packed in one frame for one call, and that a NumPy array
off the inline path (a dtype not yet seen, a wrong one, read-only) goes to its
parameter, which says why it cannot be passed."""

from __future__ import annotations

import ctypes
import struct
import sys

import numpy as np
import pytest
from api_harness import StandInCupy

from omp2gpu.api.call_method import call_method
from omp2gpu.api.parameters import parameter
from omp2gpu.sema import ctypes as ct


class StandIn:
    """What call_method binds of a CFunction: `int f(int n, double *a)`, its C side (one
    call: the runtime's begin, f, the runtime's end) recorded, answering `status`."""

    _result_type = ctypes.c_int
    _to_python = None
    _frame = struct.Struct("=iQq")           # n, a, a's extent

    def __init__(self, status=0, waits=None):
        pointer = ct.PointerType(ct.DOUBLE)
        self.parameters = [parameter("f", "n", ct.INT), parameter("f", "a", pointer, waits)]
        self.status = status
        self.calls, self.extents = [], []

    def _call(self, frame, result):
        n, a, extent = self._frame.unpack(frame)
        self.extents.append(extent)
        if self.status >= 0:                      # a refused begin calls nothing
            self.calls.append((n, a))
            result.value = 7
        return self.status

    def _bind(self, args, kwargs):
        return (kwargs.get("n", args[0] if args else None), kwargs.get("a"))

    def _failed(self, status, extents):
        raise ValueError(f"refused {status} {extents}") if status < 0 else RuntimeError("pending")


def _call(function, *args, **kwargs):
    return call_method(function)(function, *args, **kwargs)


def test_numpy_arrays_are_converted_inline_once_their_dtype_is_known():
    function = StandIn()
    a = np.zeros(3)
    assert _call(function, 3, a) == 7 and _call(function, n=3, a=a) == 7
    assert function.calls == [(3, a.ctypes.data)] * 2
    assert function.extents == [24] * 2
    assert function.parameters[1]._dtypes == {a.dtype: None}          # learned by the first call


@pytest.mark.parametrize("array, error, message", [
    (np.zeros(3, dtype=np.float32), TypeError, "it takes float64 data, not float32"),
    (np.zeros((3, 3))[:, 0], ValueError, "not C-contiguous"),
])
def test_an_array_off_the_inline_path_is_refused_by_its_parameter_every_call(array, error, message):
    function = StandIn()
    for _ in range(2):
        with pytest.raises(error, match=message):
            _call(function, 3, array)
    assert function.calls == function.extents == []


def test_no_array_no_extent_and_a_pending_error_is_raised():
    function = StandIn()
    assert _call(function, 3, None) == 7 and function.extents == [0] and function.calls == [(3, 0)]
    function.status = 1
    with pytest.raises(RuntimeError, match="pending"):
        _call(function, 3, None)


def test_a_refused_begin_calls_nothing_and_an_error_at_the_end_is_raised():
    function = StandIn(status=-1)
    with pytest.raises(ValueError, match=r"refused -1 \(16,\)"):
        _call(function, 3, np.zeros(2))
    assert function.calls == [] and function.extents == [16]
    function = StandIn(status=1)
    with pytest.raises(RuntimeError, match="pending"):
        _call(function, 3, np.zeros(2))
    assert len(function.calls) == 1


def test_without_numpy_imported_arrays_take_their_parameters_conversion(monkeypatch):
    monkeypatch.delitem(sys.modules, "numpy")
    function = StandIn()
    call = call_method(function)
    monkeypatch.undo()
    a = np.ones(2)
    assert call(function, 2, a) == 7 and function.calls == [(2, a.ctypes.data)]


def test_cupy_arrays_of_a_known_layout_are_inline_and_the_stream_read_once_a_call(monkeypatch):
    cupy = StandInCupy()
    monkeypatch.setitem(sys.modules, "cupy", cupy)
    waits: list = []
    function = StandIn(waits=waits.append)
    first, second = cupy.ndarray(0x7F0000000000, (4,)), cupy.ndarray(0x7F0000001000, (4,))
    _call(function, 4, first)                          # through the parameter: its layout learned
    cupy.current = 0x42
    assert _call(function, 4, second) == 7 and second.interface_reads == 0
    assert function.calls[-1] == (4, 0x7F0000001000) and function.extents[-1] == -32
    assert waits == [0x42]
