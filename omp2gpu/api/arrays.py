"""Which protocol an array argument speaks, asked in this order:

    __cuda_array_interface__   CuPy, Numba device arrays, PyTorch CUDA tensors: device memory
    the buffer protocol        NumPy arrays, array.array, bytearray, bytes: host memory
    DLPack                     other arrays (JAX, PyTorch CPU tensors): device memory on a
                               CUDA device, else host memory

(CuPy arrays speak DLPack too, NumPy arrays all but the first.)

A call reads its arrays every time (api/parameters.py), so the two common kinds have a
short way: a NumPy array (numpy.ndarray itself, is_numpy_array) writable, C-contiguous and
not empty has its address from ctypes and its element from its dtype, read once; a
__cuda_array_interface__ is read by cuda_interface.read, its layout once.
"""

from __future__ import annotations

from omp2gpu.api import buffers, cuda_interface, dlpack
from omp2gpu.api.memory import ArrayMemory

_numpy_types: dict[type, bool] = {}       # type -> whether it is numpy.ndarray


def is_numpy_array(value) -> bool:
    """Whether `value` is a numpy.ndarray (not a subclass: a masked array, a matrix), told
    by its type alone, without importing NumPy."""
    kind = type(value)
    known = _numpy_types.get(kind)
    if known is None:
        known = kind.__module__ == "numpy" and kind.__qualname__ == "ndarray"
        if len(_numpy_types) < 256:              # types made on the fly are not all kept
            _numpy_types[kind] = known
    return known


def array_memory(value) -> ArrayMemory | None:
    """The memory of `value`, or None when it is no array of any protocol."""
    interface = getattr(value, "__cuda_array_interface__", None)
    if interface is not None:
        return cuda_interface.memory(interface)
    memory = buffers.memory(value)
    if memory is not None:
        return memory
    if hasattr(value, "__dlpack__"):
        return dlpack.memory(value)
    return None
