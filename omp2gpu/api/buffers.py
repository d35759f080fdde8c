"""Host memory through the buffer protocol (PEP 3118): NumPy arrays, array.array,
bytearray, memoryview, bytes. The buffer is held (a bytearray cannot be resized, say)
until the C function returns."""

from __future__ import annotations

import ctypes
from functools import lru_cache

from omp2gpu.api.element_types import Element, from_format
from omp2gpu.api.memory import ArrayMemory

_STRIDES_AND_FORMAT = 0x0010 | 0x0008 | 0x0004   # PyBUF_STRIDES | PyBUF_ND | PyBUF_FORMAT; read-only ok


class _PyBuffer(ctypes.Structure):
    """CPython's Py_buffer."""
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
_is_contiguous = ctypes.pythonapi.PyBuffer_IsContiguous
_is_contiguous.argtypes = [ctypes.POINTER(_PyBuffer), ctypes.c_char]
_is_contiguous.restype = ctypes.c_int


@lru_cache(maxsize=256)
def _element(format_: bytes | None, itemsize: int) -> Element:
    return from_format((format_ or b"B").decode("ascii", "replace"), itemsize)


def memory(value) -> ArrayMemory | None:
    """The host memory of `value`, held until the result's release(); None when `value`
    has no buffer."""
    view = _PyBuffer()
    try:
        _get_buffer(value, ctypes.byref(view), _STRIDES_AND_FORMAT)
    except TypeError:
        return None

    def release() -> None:
        _release_buffer(ctypes.byref(view))

    return ArrayMemory(view.buf or 0, view.len, _element(view.format, view.itemsize), bool(view.readonly),
                       bool(_is_contiguous(ctypes.byref(view), b"C")), release=release)
