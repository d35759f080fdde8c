"""Which protocol an array argument speaks, asked in this order:

    __cuda_array_interface__   CuPy, Numba device arrays, PyTorch CUDA tensors: device memory
    the buffer protocol        NumPy arrays, array.array, bytearray, bytes: host memory
    DLPack                     other arrays (JAX, PyTorch CPU tensors): device memory on a
                               CUDA device, else host memory

(CuPy arrays speak DLPack too, NumPy arrays all but the first.)
"""

from __future__ import annotations

from omp2gpu.api import buffers, cuda_interface, dlpack
from omp2gpu.api.memory import ArrayMemory


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
