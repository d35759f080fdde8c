"""Device memory through __cuda_array_interface__ (version 2 and 3): CuPy arrays, Numba
device arrays, PyTorch CUDA tensors."""

from __future__ import annotations

from functools import lru_cache

from omp2gpu.api.element_types import Element, from_typestr
from omp2gpu.api.memory import ArrayMemory, c_contiguous, element_count

# Stream values that need no wait: the launcher's work runs on the legacy default stream
# (1), which orders itself after work on other blocking streams, the per-thread default
# stream (2) among them; 0 is not a valid value.
_NO_WAIT = (None, 0, 1, 2)


def read(interface: dict) -> tuple[int, int, Element, bool, bool, int | None]:
    """(address, bytes, element, read-only, C-contiguous, the stream to wait for or None)
    of the device memory an interface describes: what a call reads of a device array
    (api/parameters.py), every call, so its layout is read once per typestr, shape and
    strides."""
    if interface.get("mask") is not None:
        raise ValueError("a masked array cannot be passed to C")
    address, readonly = interface["data"]
    typestr, shape, strides = interface["typestr"], interface["shape"], interface.get("strides")
    try:
        element, nbytes, contiguous = _layout(typestr, shape, strides)
    except TypeError:                          # a list for a tuple: read it uncached
        element, nbytes, contiguous = _layout.__wrapped__(typestr, shape, strides)
    return int(address or 0), nbytes, element, bool(readonly), contiguous, stream_to_wait(interface)


def stream_to_wait(interface: dict) -> int | None:
    """The stream whose queued work must finish before the runtime's, or None."""
    stream = interface.get("stream")
    return None if stream in _NO_WAIT else int(stream)


def memory(interface: dict) -> ArrayMemory:
    """The device memory an interface describes."""
    address, nbytes, element, readonly, contiguous, stream = read(interface)
    return ArrayMemory(address, nbytes, element, readonly, contiguous, True, stream)


@lru_cache(maxsize=256)
def _layout(typestr: str, shape: tuple, strides: tuple | None) -> tuple[Element, int, bool]:
    """(element, bytes, C-contiguous) of an array of `shape`: an array passed again and
    again (the common case) is read once."""
    element = from_typestr(typestr)
    return element, element_count(shape) * element.size, c_contiguous(shape, strides, element.size)
