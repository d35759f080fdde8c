"""One external function of a loaded C file (native_link.load_library), called with Python
arguments (positional, or by the C parameters' names). Device arrays among them are lent
to the offload runtime's present table for the call; every array is let go when it
returns. The runtime's error after the call is raised as OffloadError (a bad map, a map
section longer than the array passed for it, a MANDATORY device that cannot run): no
target construct of the call ran after the error, on a device or on the host."""

from __future__ import annotations

import ctypes
from collections.abc import Callable

from omp2gpu.api.call_method import call_method
from omp2gpu.api.parameters import PointerParameter, ctypes_type, parameter, python_result
from omp2gpu.codegen.prototypes import Prototype


class OffloadError(RuntimeError):
    """The offload runtime refused what a call asked of it (omp2gpu.OffloadError)."""


class CFunction:
    """A C function to call as `f(*args, **kwargs)`. Each gets a class of its own whose
    __call__ is written out for its parameters (api/call_method.py): the arguments bound,
    converted by their parameters (_convert: the same conversions, one after another, for
    bench/python/phases.py), the runtime's begin, the C function, the runtime's end."""

    def __init__(self, prototype: Prototype, address: int, native):
        """TypeError for a function no Python call can make (a struct parameter, `...`).
        `native`: the module that lends device arrays to the offload runtime and takes its
        errors (native_link)."""
        ftype = prototype.ctype
        name = prototype.name
        if ftype.variadic:
            raise TypeError(f"{name}() takes a variable number of arguments ('...'), which "
                            "cannot be passed from Python")
        self.prototype = prototype
        self.__name__ = name
        self.parameters = [parameter(name, parameter_name, ptype, native.wait_stream)
                           for parameter_name, ptype in zip(prototype.parameter_names, ftype.params)]
        self._convert = unrolled([p.convert for p in self.parameters])
        try:
            result = ctypes_type(ftype.result)
        except TypeError:
            raise TypeError(f"{name}() returns '{ftype.result}', which cannot be passed to Python") from None
        self._call = ctypes.CFUNCTYPE(result, *(p.ctypes_type for p in self.parameters))(address)
        to_python = python_result(ftype.result)
        if to_python is not None:                # a complex result: a Python complex
            raw = self._call
            self._call = lambda *arguments: to_python(raw(*arguments))
        self._native = native
        # What every call uses, bound once: the runtime's entry points around a call, the
        # packing of its arrays by count, its pointer parameters by their names' addresses.
        entries = native.call_entries()
        self._begin, self._end, self._pending = entries.begin, entries.end, entries.pending
        pointers = [p for p in self.parameters if isinstance(p, PointerParameter)]
        self._packings = tuple(native.call_arrays(count) for count in range(len(pointers) + 1))
        self._fields = native.CALL_ARRAY_FIELDS
        self._pointer_names = {p.name_address: p.name for p in pointers}
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

    def _refuse(self, begun: int, arrays: list) -> None:
        if begun == -2:
            raise MemoryError("the offload runtime cannot hold the call's arrays")
        fields = self._fields
        lent = [self._pointer_names[arrays[i + 2]] for i in range(0, len(arrays), fields) if arrays[i + 3]]
        names = ", ".join(f"'{name}'" for name in dict.fromkeys(lent))
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


def unrolled(converters: list) -> Callable[[tuple, list, list], tuple]:
    """One function converting a call's arguments, `converters[i]` applied to `args[i]`,
    written out for their number (built once per C function, as dataclasses builds its
    methods: a loop over the parameters costs as much as converting a few scalars)."""
    values = "".join(f"v{i}, " for i in range(len(converters)))
    calls = "".join(f"c{i}(v{i}, arrays, releases), " for i in range(len(converters)))
    source = f"def convert(args, arrays, releases):\n    ({values}) = args\n    return ({calls})\n"
    namespace = {f"c{i}": convert for i, convert in enumerate(converters)}
    exec(source, namespace)                      # noqa: S102 (our text: names and numbers only)
    return namespace["convert"]
