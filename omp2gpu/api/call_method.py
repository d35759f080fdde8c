"""CFunction.__call__ written out for one C function (as dataclasses writes its methods):
the arguments unpacked by name, each converted by its parameter, a NumPy array of a
known dtype converted inline (its address from ctypes, its record for the runtime), a
CuPy array of a known layout too (the current stream read once a call, not once an
array), an int or a float in range too, then one call into C (the runtime's begin, the
function, the runtime's end: targets/python_call_wrappers.py). A call from Python costs a
few microseconds, and a generic __call__'s loop over the parameters, method call per
argument and attribute lookups were a tenth of them (bench/python/phases.py times the
steps)."""

from __future__ import annotations

import ctypes
import sys
from collections.abc import Callable

from omp2gpu.api.parameters import FloatParameter, IntegerParameter, PointerParameter


class _NeverAnArray:
    """Stands for numpy.ndarray where NumPy was not imported when the function was made:
    its arrays then take their parameter's own conversion."""


def call_method(function) -> Callable:
    """The __call__ of `function` (a CFunction whose parameters, frame and call are bound)."""
    parameters = function.parameters
    names = "".join(f"v{i}, " for i in range(len(parameters)))
    numpy = sys.modules.get("numpy")
    namespace = {"bind": function._bind, "call": function._call, "pack": function._frame.pack,
                 "result_type": function._result_type, "to_python": function._to_python,
                 "ndarray": getattr(numpy, "ndarray", _NeverAnArray), "address_of": ctypes.addressof,
                 "char_from_buffer": ctypes.c_char.from_buffer, "unseen": object(), "unread": object()}
    lines = ["def __call__(self, *args, **kwargs):",
             f"    if kwargs or len(args) != {len(parameters)}:",
             "        args = bind(args, kwargs)",
             f"    ({names}) = args",
             "    releases = []",
             "    stream = unread",
             "    try:"]
    for i, parameter in enumerate(parameters):
        namespace[f"c{i}"] = parameter.convert
        if isinstance(parameter, PointerParameter):
            namespace[f"p{i}"], namespace[f"dtypes{i}"] = parameter, parameter._dtypes
            namespace[f"layouts{i}"] = parameter._cupy_layouts
            lines += _numpy_inline(i) + _cupy_inline(i)
        else:
            lines += _scalar_inline(i, parameter, namespace)
    result = function._result_type
    if result is None:
        out, returned = "None", None
    else:
        lines.append("        out = result_type()")
        out, returned = "out", "to_python(out)" if function._to_python else "out.value"
    extents = extents_of(parameters)
    lines += [f"        status = call(pack({frame_items(parameters)}), {out})",
              "        if status:",
              f"            self._failed(status, ({extents}))"]
    if returned:
        lines.append(f"        return {returned}")
    lines += ["    finally:",
              "        for release in releases:",
              "            release()"]
    exec("\n".join(lines) + "\n", namespace)     # noqa: S102 (our text: names and numbers only)
    return namespace["__call__"]


def extents_of(parameters) -> str:
    """The pointer parameters' extents, as the generated code names them."""
    return "".join(f"e{i}, " for i, p in enumerate(parameters) if isinstance(p, PointerParameter))


def frame_items(parameters) -> str:
    """What the frame packs (CFunction._frame): each converted argument v{i} (a complex's
    two parts), then the pointer parameters' extents."""
    items = "".join(f"v{i}.real, v{i}.imag, " if len(p.frame_format) == 2 else f"v{i}, "
                    for i, p in enumerate(parameters))
    return items + extents_of(parameters)


_FLOAT_MAX = 3.4028234663852886e38        # float's largest finite value: packs as itself


def _scalar_inline(i: int, parameter, namespace: dict) -> list[str]:
    """Parameter i's conversion with the common case inline: an int in the C type's range, a
    float a double or float holds; anything else goes to the parameter (the same checks,
    its messages)."""
    if isinstance(parameter, IntegerParameter) and not parameter.is_bool:
        namespace[f"low{i}"], namespace[f"high{i}"] = parameter.low, parameter.high
        return [f"        if type(v{i}) is not int or not low{i} <= v{i} <= high{i}:",
                f"            v{i} = c{i}(v{i}, releases)"]
    if isinstance(parameter, FloatParameter) and parameter.frame_format == "d":
        return [f"        if type(v{i}) is not float:",
                f"            v{i} = c{i}(v{i}, releases)"]
    if isinstance(parameter, FloatParameter) and parameter.frame_format == "f":
        namespace["float_max"] = _FLOAT_MAX
        return [f"        if type(v{i}) is not float or not -float_max <= v{i} <= float_max:",
                f"            v{i} = c{i}(v{i}, releases)"]
    return [f"        v{i} = c{i}(v{i}, releases)"]


def _numpy_inline(i: int) -> list[str]:
    """Parameter i's conversion (its address v{i}, its extent e{i}) with a NumPy array's
    common case inline: writable, C-contiguous, not empty, of a dtype the parameter already
    took (PointerParameter.convert's first branch); anything else goes to the parameter."""
    return [f"        if type(v{i}) is ndarray:",
            "            try:",
            f"                address = address_of(char_from_buffer(v{i}))",
            "            except (TypeError, ValueError):",
            f"                v{i}, e{i} = c{i}(v{i}, releases)",
            "            else:",
            f"                if dtypes{i}.get(v{i}.dtype, unseen) is None:",
            f"                    e{i} = v{i}.nbytes",
            f"                    v{i} = address",
            "                else:",
            f"                    v{i}, e{i} = c{i}(v{i}, releases)"]


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
            f"            e{i} = -nbytes",
            f"            v{i} = v{i}.data.ptr",
            "        else:",
            f"            v{i}, e{i} = c{i}(v{i}, releases)"]
