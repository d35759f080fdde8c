"""The memory behind one array argument, as the C function gets it (api/arrays.py reads
it from the object)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from omp2gpu.api.element_types import Element


@dataclass(slots=True)
class ArrayMemory:
    address: int                  # the first byte (0: an empty array may have none)
    nbytes: int
    element: Element
    readonly: bool
    c_contiguous: bool
    on_device: bool = False       # CUDA device memory, not host memory
    stream: int | None = None     # a CUDA stream handle whose queued work must finish first
    release: Callable[[], None] | None = None   # to call once the C function has returned


def c_contiguous(shape, strides, itemsize: int) -> bool:
    """Whether `strides` (in bytes; None: row-major) lay `shape` out row-major with no gaps.
    An extent of 1 takes any stride, as NumPy's flags say."""
    if strides is None:
        return True
    expected = itemsize
    for extent, stride in zip(reversed(tuple(shape)), reversed(tuple(strides))):
        if extent > 1 and stride != expected:
            return False
        expected *= extent
    return True


def element_count(shape) -> int:
    count = 1
    for extent in shape:
        count *= int(extent)
    return count
