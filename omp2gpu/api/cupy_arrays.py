"""CuPy arrays read from their attributes instead of their __cuda_array_interface__, whose
`descr` entry (NumPy's dtype.descr, built in Python) costs microseconds a call: a
parameter that was passed a CuPy array reads the next ones of a layout it has checked
through the interface (api/parameters.py) as the interface would give them: the address
(`data.ptr`, the view's offset in it) and the stream to wait for (CuPy's current stream;
none for the legacy default stream, where the runtime works, cuda_interface.py). A layout
is its dtype and size, with C-contiguity (CuPy's `_c_contiguous`, kept by the array): the
checks depend on nothing else (CuPy arrays are writable)."""

from __future__ import annotations

import sys


def ndarray_type():
    """cupy.ndarray where CuPy is imported (a CuPy array exists only then), else None."""
    return getattr(sys.modules.get("cupy"), "ndarray", None)


def current_stream_getter():
    """The function giving CuPy's current stream (its `ptr` 0: the default stream)."""
    return sys.modules["cupy"].cuda.get_current_stream

