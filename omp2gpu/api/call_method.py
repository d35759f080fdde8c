"""CFunction.__call__ written out for one C function (as dataclasses writes its methods):
the arguments unpacked by name, each converted by its parameter, a NumPy array of a
known dtype converted inline (its address from ctypes, its record for the runtime), a
CuPy array of a known layout too (the current stream read once a call, not once an
array), the runtime called before and after when there are arrays. A call from Python
costs a few microseconds, and a generic __call__'s loop over the parameters, method call per array
and attribute lookups were a tenth of them (bench/python/phases.py times the steps)."""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable

from omp2gpu.api.parameters import PointerParameter


class _NeverAnArray:
    """Stands for numpy.ndarray where NumPy was not imported when the function was made:
    its arrays then take their parameter's own conversion."""


def call_method(function) -> Callable:
    """The __call__ of `function` (a CFunction whose parameters and runtime entry points
    are bound)."""
    parameters = function.parameters
    names = [f"v{i}" for i in range(len(parameters))]
    numpy = sys.modules.get("numpy")
    namespace = {"bind": function._bind, "packings": function._packings, "begin": function._begin,
                 "end": function._end, "pending_flag": function._pending, "call": function._call,
                 "ndarray": getattr(numpy, "ndarray", _NeverAnArray), "address_of": ctypes.addressof,
                 "char_from_buffer": ctypes.c_char.from_buffer, "unseen": object(), "unread": object()}
    lines = ["def __call__(self, *args, **kwargs):",
             f"    if kwargs or len(args) != {len(parameters)}:",
             "        args = bind(args, kwargs)",
             f"    ({''.join(name + ', ' for name in names)}) = args",
             "    arrays, releases = [], []",
             "    stream = unread",
             "    try:"]
    for i, parameter in enumerate(parameters):
        namespace[f"c{i}"] = parameter.convert
        if isinstance(parameter, PointerParameter):
            namespace[f"p{i}"], namespace[f"dtypes{i}"] = parameter, parameter._dtypes
            namespace[f"layouts{i}"], namespace[f"name{i}"] = parameter._cupy_layouts, parameter.name_address
            lines += _numpy_inline(i) + _cupy_inline(i)
        else:
            lines.append(f"        v{i} = c{i}(v{i}, arrays, releases)")
    arguments = ", ".join(names)
    lines += ["        if arrays:",
              f"            count = len(arrays) // {function._fields}",
              "            packed = packings[count].pack(*arrays)",
              "            begun = begin(count, packed)",
              "            if begun:",
              "                self._refuse(begun, arrays)",
              "            try:",
              f"                result = call({arguments})",
              "            finally:",
              "                pending = end(count, packed)",
              "            if pending:",
              "                self._raise_pending_error()",
              "            return result",
              f"        result = call({arguments})",
              "        if pending_flag.value:",
              "            self._raise_pending_error()",
              "        return result",
              "    finally:",
              "        for release in releases:",
              "            release()"]
    exec("\n".join(lines) + "\n", namespace)     # noqa: S102 (our text: names and numbers only)
    return namespace["__call__"]


def _numpy_inline(i: int) -> list[str]:
    """Parameter i's conversion with a NumPy array's common case inline: writable,
    C-contiguous, not empty, of a dtype the parameter already took (PointerParameter.convert's
    first branch); anything else goes to the parameter."""
    return [f"        if type(v{i}) is ndarray:",
            "            try:",
            f"                address = address_of(char_from_buffer(v{i}))",
            "            except (TypeError, ValueError):",
            f"                v{i} = c{i}(v{i}, arrays, releases)",
            "            else:",
            f"                if dtypes{i}.get(v{i}.dtype, unseen) is None:",
            f"                    arrays += (address, v{i}.nbytes, name{i}, 0)",
            f"                    v{i} = address",
            "                else:",
            f"                    v{i} = c{i}(v{i}, arrays, releases)"]


def _cupy_inline(i: int) -> list[str]:
    """A CuPy array of a layout the parameter already took (PointerParameter.convert's
    CuPy branch), the current stream read once a call and waited for if it is not the
    default; anything else goes to the parameter."""
    return [f"        elif (type(v{i}) is p{i}._cupy_array and v{i}._c_contiguous",
            f"              and (nbytes := layouts{i}.get((v{i}.dtype, v{i}.size))) is not None):",
            "            if stream is unread:",
            f"                stream = p{i}._cupy_stream().ptr",
            "                if stream:",
            f"                    p{i}._wait(stream)",
            f"            address = v{i}.data.ptr",
            "            if nbytes:",
            f"                arrays += (address, nbytes, name{i}, 1)",
            f"            v{i} = address or None",
            "        else:",
            f"            v{i} = c{i}(v{i}, arrays, releases)"]
