"""One external function of a loaded C file (native_link.load_library), called with Python
arguments (positional, or by the C parameters' names). Device arrays among them are lent
to the offload runtime's present table for the call; every array is let go when it
returns. The runtime's error after the call is raised as OffloadError (a bad map, a map
section longer than the array passed for it, a MANDATORY device that cannot run): no
target construct of the call ran after the error, on a device or on the host."""

from __future__ import annotations

import ctypes

from omp2gpu.api.parameters import ctypes_type, parameter, python_result
from omp2gpu.codegen.prototypes import Prototype


class OffloadError(RuntimeError):
    """The offload runtime refused what a call asked of it (omp2gpu.OffloadError)."""


class CFunction:
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
        self.parameters = [parameter(name, parameter_name, ptype)
                           for parameter_name, ptype in zip(prototype.parameter_names, ftype.params)]
        self._converters = [p.convert for p in self.parameters]
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
        # the C parameters' names as the runtime names them: kept alive, it holds their addresses
        self._c_names = {p.name: p.name.encode() for p in self.parameters}
        self._c_name_addresses = {name: native.c_string_address(text) for name, text in self._c_names.items()}
        self.__doc__ = f"{self.signature}\n\n(C, from {prototype.location})"

    @property
    def signature(self) -> str:
        """The C prototype, e.g. `void saxpy(int n, float a, const float *x, float *y)`."""
        ftype = self.prototype.ctype
        params = ", ".join(f"{p.ctype} {p.name}".replace("* ", "*") for p in self.parameters)
        return f"{ftype.result} {self.__name__}({params or 'void'})"

    def __repr__(self) -> str:
        return f"<C function {self.signature}>"

    def __call__(self, *args, **kwargs):
        if kwargs or len(args) != len(self._converters):
            args = self._bind(args, kwargs)
        held = []
        try:
            converted = [convert(value, held) for convert, value in zip(self._converters, args)]
            return self._native_call(converted, held)
        finally:
            for _, memory in held:
                if memory.release is not None:
                    memory.release()

    def _native_call(self, converted: list, held: list):
        """The call on the native runtime: its arrays lent for the call, its error (if any)
        raised afterwards."""
        loans, records = self._lend(held)
        try:
            result = self._call(*converted)
        finally:
            self._end_loans(loans, records)
        self._raise_pending_error()
        return result

    def _lend(self, held: list) -> tuple[list, bytes | None]:
        """Device arrays lent to the runtime's present table, every array's extent known to
        it (a map section longer than the array passed is refused before any copy, naming
        the parameter) until _end_loans(the result)."""
        loans = []
        lent = [(name, memory) for name, memory in held if memory.on_device and memory.nbytes]
        if lent:
            streams = {memory.stream for _, memory in lent if memory.stream is not None}
            try:
                loans = self._native.lend([(memory.address, memory.nbytes) for _, memory in lent], streams)
            except LookupError as error:
                names = ", ".join(f"'{name}'" for name, _ in lent)
                raise ValueError(f"{self.__name__}(): {names}: device array(s) the target regions "
                                 f"cannot use: {error}") from None
        try:
            records = self._native.pass_arrays([(memory.address, memory.nbytes, self._c_name_addresses[name])
                                                for name, memory in held if memory.nbytes])
        except BaseException:
            self._native.end_loans(loans)
            raise
        return loans, records

    def _end_loans(self, loans: list, records: bytes | None) -> None:
        self._native.end_arrays(records)
        self._native.end_loans(loans)

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
