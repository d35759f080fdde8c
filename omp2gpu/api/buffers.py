"""Host memory through the buffer protocol (PEP 3118): NumPy arrays, array.array,
bytearray, memoryview, bytes, ctypes arrays. A memoryview holds the buffer (a bytearray
cannot be resized, say) until the C function returns."""

from __future__ import annotations

import ctypes
from functools import lru_cache

from omp2gpu.api.element_types import Element, from_format
from omp2gpu.api.memory import ArrayMemory


class _PyBuffer(ctypes.Structure):
    """CPython's Py_buffer: only a read-only buffer's address needs it."""
    _fields_ = [("buf", ctypes.c_void_p), ("obj", ctypes.c_void_p), ("len", ctypes.c_ssize_t),
                ("itemsize", ctypes.c_ssize_t), ("readonly", ctypes.c_int), ("ndim", ctypes.c_int),
                ("format", ctypes.c_char_p), ("shape", ctypes.c_void_p), ("strides", ctypes.c_void_p),
                ("suboffsets", ctypes.c_void_p), ("internal", ctypes.c_void_p)]


_get_buffer = ctypes.pythonapi.PyObject_GetBuffer
_get_buffer.argtypes = [ctypes.py_object, ctypes.POINTER(_PyBuffer), ctypes.c_int]
_get_buffer.restype = ctypes.c_int
_release_buffer = ctypes.pythonapi.PyBuffer_Release
_release_buffer.argtypes = [ctypes.POINTER(_PyBuffer)]
_release_buffer.restype = None
_SIMPLE = 0                                     # PyBUF_SIMPLE: a contiguous read-only buffer


@lru_cache(maxsize=256)
def _element(format_: str, itemsize: int) -> Element:
    return from_format(format_, itemsize)


def _address(view: memoryview) -> int:
    """The first byte of a C-contiguous, non-empty `view`, which holds the buffer."""
    if not view.readonly:
        return ctypes.addressof(ctypes.c_char.from_buffer(view))   # the quick way, writable only
    buffer = _PyBuffer()
    _get_buffer(view, ctypes.byref(buffer), _SIMPLE)
    address = buffer.buf
    _release_buffer(ctypes.byref(buffer))      # the view itself still holds the memory
    return address


def memory(value) -> ArrayMemory | None:
    """The host memory of `value`, held until the result's release(); None when `value`
    has no buffer."""
    try:
        view = memoryview(value)
    except TypeError:
        return None
    contiguous = view.c_contiguous
    address = _address(view) if contiguous and view.nbytes else 0
    return ArrayMemory(address, view.nbytes, _element(view.format, view.itemsize), view.readonly, contiguous,
                       release=view.release)


def element(value) -> Element:
    """The element of `value`'s buffer (a NumPy array's dtype read once, api/parameters.py)."""
    with memoryview(value) as view:
        return _element(view.format, view.itemsize)
