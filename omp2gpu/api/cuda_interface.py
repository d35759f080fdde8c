"""Device memory through __cuda_array_interface__ (version 2 and 3): CuPy arrays, Numba
device arrays, PyTorch CUDA tensors."""

from __future__ import annotations

from omp2gpu.api.element_types import from_typestr
from omp2gpu.api.memory import ArrayMemory, c_contiguous, element_count

# Stream values that need no wait: the launcher's work runs on the legacy default stream
# (1), which orders itself after work on other blocking streams, the per-thread default
# stream (2) among them; 0 is not a valid value.
_NO_WAIT = (None, 0, 1, 2)


def memory(interface: dict) -> ArrayMemory:
    """The device memory an interface describes."""
    if interface.get("mask") is not None:
        raise ValueError("a masked array cannot be passed to C")
    address, readonly = interface["data"]
    element = from_typestr(interface["typestr"])
    shape = interface["shape"]
    stream = interface.get("stream")
    return ArrayMemory(int(address or 0), element_count(shape) * element.size, element, bool(readonly),
                       c_contiguous(shape, interface.get("strides"), element.size), on_device=True,
                       stream=None if stream in _NO_WAIT else int(stream))
