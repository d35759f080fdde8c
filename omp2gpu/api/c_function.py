"""One external function of a loaded C file (native_link.load_library), called with Python
arguments (positional, or by the C parameters' names). Device arrays among them are lent
to the offload runtime's present table for the call; every array is let go when it
returns. The runtime's error after the call is raised as OffloadError (a bad map, a map
section longer than the array passed for it, a MANDATORY device that cannot run): no
target construct of the call ran after the error, on a device or on the host."""

from __future__ import annotations

import ctypes
import struct
from collections.abc import Callable

from omp2gpu.api.call_method import call_method, frame_items
from omp2gpu.api.parameters import PointerParameter, ctypes_type, parameter, python_result
from omp2gpu.codegen.prototypes import Prototype


class OffloadError(RuntimeError):
    """The offload runtime refused what a call asked of it (omp2gpu.OffloadError)."""


class CFunction:
    """A C function to call as `f(*args, **kwargs)`. Each gets a class of its own whose
    __call__ is written out for its parameters (api/call_method.py): the arguments bound,
    converted by their parameters (_arguments: the same conversions, one after another, for
    bench/python/phases.py), then one call into C: the runtime's begin, the C function,
    the runtime's end."""

    def __init__(self, prototype: Prototype, call_address: int | None, native):
        """TypeError for a function no Python call can make (a struct parameter, `...`).
        `call_address`: the function a Python call of it makes
        (targets/python_call_wrappers.py: the runtime's begin, the function and the
        runtime's end in one call from Python). `native`: the module that lends device
        arrays to the offload runtime and takes its errors (native_link)."""
        ftype = prototype.ctype
        name = prototype.name
        if ftype.variadic:
            raise TypeError(f"{name}() takes a variable number of arguments ('...'), which "
                            "cannot be passed from Python")
        self.prototype = prototype
        self.__name__ = name
        self.parameters = [parameter(name, parameter_name, ptype, native.wait_stream)
                           for parameter_name, ptype in zip(prototype.parameter_names, ftype.params)]
        try:
            result = ctypes_type(ftype.result)
        except TypeError:
            raise TypeError(f"{name}() returns '{ftype.result}', which cannot be passed to Python") from None
        if call_address is None:
            raise TypeError(f"{name}(): its parameters cannot be passed from Python")
        # call(frame, result): 0, or the runtime's status. The frame: the arguments, then
        # an extent per pointer parameter (its array's bytes, negative on a device, 0 for none)
        pointers = [p for p in self.parameters if isinstance(p, PointerParameter)]
        self._pointer_names = [p.name for p in pointers]
        self._frame = struct.Struct("=" + "".join(p.frame_format for p in self.parameters) + "q" * len(pointers))
        self._result_type = result
        self._call = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_char_p,
                                      ctypes.POINTER(result) if result else ctypes.c_void_p)(call_address)
        self._to_python = python_result(ftype.result)      # a complex result: a Python complex
        self._arguments = unrolled(self.parameters)
        self._native = native
        self.__doc__ = f"{self.signature}\n\n(C, from {prototype.location})"
        # its own class, whose __call__ is this function's written out (api/call_method.py)
        self.__class__ = type(type(self).__name__, (type(self),), {"__call__": call_method(self)})

    @property
    def signature(self) -> str:
        """The C prototype, e.g. `void saxpy(int n, float a, const float *x, float *y)`."""
        ftype = self.prototype.ctype
        params = ", ".join(f"{p.ctype} {p.name}".replace("* ", "*") for p in self.parameters)
        return f"{ftype.result} {self.__name__}({params or 'void'})"

    def __repr__(self) -> str:
        return f"<C function {self.signature}>"

    def _failed(self, status: int, extents: tuple) -> None:
        """The exception of a call's nonzero status: an error pending after the call (> 0),
        or the runtime's refusal of its device arrays (< 0), the function not called;
        `extents`: the pointer parameters' (a device array's negative)."""
        if status > 0:
            self._raise_pending_error()
        else:
            self._refuse(status, extents)

    def _refuse(self, begun: int, extents: tuple) -> None:
        if begun == -2:
            raise MemoryError("the offload runtime cannot hold the call's arrays")
        lent = [name for name, extent in zip(self._pointer_names, extents) if extent < 0]
        names = ", ".join(f"'{name}'" for name in lent)
        raise ValueError(f"{self.__name__}(): {names}: device array(s) the target regions cannot use: "
                         f"{self._native.call_why()}")

    def _raise_pending_error(self) -> None:
        error = self._native.take_error()
        if error is not None:
            raise OffloadError(f"{self.__name__}(): {error}")

    def _bind(self, args: tuple, kwargs: dict) -> tuple:
        """The arguments in parameter order; TypeError as Python's own calls say it."""
        count = len(self.parameters)
        names = [p.name for p in self.parameters]
        if len(args) > count:
            raise TypeError(f"{self.__name__}() takes {count} argument{'s' if count != 1 else ''} "
                            f"({', '.join(names)}) but {len(args)} were given")
        values = list(args) + [_MISSING] * (count - len(args))
        for key, value in kwargs.items():
            if key not in names:
                raise TypeError(f"{self.__name__}() got an unexpected keyword argument '{key}'")
            index = names.index(key)
            if values[index] is not _MISSING:
                raise TypeError(f"{self.__name__}() got multiple values for argument '{key}'")
            values[index] = value
        missing = [name for name, value in zip(names, values) if value is _MISSING]
        if missing:
            raise TypeError(f"{self.__name__}() missing {len(missing)} required argument"
                            f"{'s' if len(missing) != 1 else ''}: {', '.join(map(repr, missing))}")
        return tuple(values)


_MISSING = object()


def unrolled(parameters: list) -> Callable[[tuple, list], tuple]:
    """What a call's frame packs for its Python arguments (the parameters' conversions one
    after another, then the pointer parameters' extents), written out for their number as
    dataclasses writes its methods: what a generated __call__ does, for
    bench/python/phases.py to time apart."""
    pointers = [i for i, p in enumerate(parameters) if isinstance(p, PointerParameter)]
    targets = "".join(f"(v{i}, e{i}), " if i in pointers else f"v{i}, " for i in range(len(parameters)))
    values = "".join(f"v{i}, " for i in range(len(parameters)))
    calls = "".join(f"c{i}(v{i}, releases), " for i in range(len(parameters)))
    source = (f"def arguments(args, releases):\n    ({values}) = args\n    ({targets}) = ({calls})\n"
              f"    return ({frame_items(parameters)})\n")
    namespace = {f"c{i}": p.convert for i, p in enumerate(parameters)}
    exec(source, namespace)                      # noqa: S102 (our text: names and numbers only)
    return namespace["arguments"]
