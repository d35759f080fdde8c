"""One parameter of a C function called from Python: its ctypes type, and the check and
conversion of the Python value passed for it. Errors name the parameter by its C name.

    integers, _Bool      int (or anything with __index__: NumPy integers), range-checked
    float, double        int or float (or anything with __float__)
    float/double complex any number (or anything with __complex__); results are complex
    pointers             None (NULL), or an array (api/arrays.py) whose elements are the
                         pointee's type, contiguous, writable unless the pointee is const
"""

from __future__ import annotations

import ctypes
import operator

from omp2gpu.api.arrays import array_memory
from omp2gpu.api.element_types import mismatch
from omp2gpu.api.memory import ArrayMemory
from omp2gpu.sema import ctypes as ct

_INTEGERS = {(8, True): ctypes.c_int8, (8, False): ctypes.c_uint8, (16, True): ctypes.c_int16,
             (16, False): ctypes.c_uint16, (32, True): ctypes.c_int32, (32, False): ctypes.c_uint32,
             (64, True): ctypes.c_int64, (64, False): ctypes.c_uint64}
_FLOATS = {32: ctypes.c_float, 64: ctypes.c_double, 80: ctypes.c_longdouble}


class _FloatComplex(ctypes.Structure):
    _fields_ = [("real", ctypes.c_float), ("imag", ctypes.c_float)]


class _DoubleComplex(ctypes.Structure):
    _fields_ = [("real", ctypes.c_double), ("imag", ctypes.c_double)]


# float and double complex as libffi passes them: a struct of two floats (packed in one
# SSE register) or two doubles (two), which is the x86-64 ABI's complex. long double
# complex is not: the ABI returns it in st0:st1, a struct of two long doubles in memory.
_COMPLEX = {ct.COMPLEX_FLOAT: _FloatComplex, ct.COMPLEX_DOUBLE: _DoubleComplex}


def ctypes_type(ctype: ct.CType):
    """The ctypes type that passes or returns `ctype`; None for void; TypeError for a type
    no Python value can be (a struct by value)."""
    if ctype.is_void:
        return None
    if ctype.is_integer:
        return ctypes.c_bool if ctype.is_bool else _INTEGERS[(ctype.bits, ctype.signed)]
    if ctype.is_floating:
        return _FLOATS[ctype.bits]
    if ctype.is_pointer:
        return ctypes.c_void_p
    if ctype in _COMPLEX:
        return _COMPLEX[ctype]
    raise TypeError(f"'{ctype}' values cannot be passed between Python and C")


class Parameter:
    """A scalar parameter; subclasses convert."""

    def __init__(self, function: str, name: str, ctype: ct.CType):
        self.name = name
        self.ctype = ctype
        self.ctypes_type = ctypes_type(ctype)
        self.where = f"{function}(): parameter '{name}' ({ctype})"

    def convert(self, value, held: list[tuple[str, ArrayMemory]]):
        """The value to pass to C; an array's memory is appended to `held` with the
        parameter's name (the caller releases it after the call)."""
        raise NotImplementedError


class IntegerParameter(Parameter):
    def __init__(self, function: str, name: str, ctype: ct.IntType):
        super().__init__(function, name, ctype)
        self.is_bool = ctype.is_bool
        self.low, self.high = ctype.min_value, ctype.max_value

    def convert(self, value, held):
        try:
            number = operator.index(value)
        except TypeError:
            raise TypeError(f"{self.where} takes an integer, not {type(value).__name__}") from None
        if self.is_bool:
            return number != 0
        if not self.low <= number <= self.high:
            raise ValueError(f"{self.where}: {number} is out of its range [{self.low}, {self.high}]")
        return number


class FloatParameter(Parameter):
    def convert(self, value, held):
        if isinstance(value, (str, bytes, bytearray)):
            raise TypeError(f"{self.where} takes a number, not {type(value).__name__}")
        try:
            return float(value)
        except (TypeError, ValueError):
            raise TypeError(f"{self.where} takes a number, not {type(value).__name__}") from None


class ComplexParameter(Parameter):
    def convert(self, value, held):
        if isinstance(value, (str, bytes, bytearray)):
            raise TypeError(f"{self.where} takes a number, not {type(value).__name__}")
        try:
            number = complex(value)
        except (TypeError, ValueError):
            raise TypeError(f"{self.where} takes a number, not {type(value).__name__}") from None
        return self.ctypes_type(number.real, number.imag)


def python_result(ctype: ct.CType):
    """The conversion of a C function's result to Python's value; None where ctypes
    gives it already (a complex result comes back as a struct)."""
    if ctype in _COMPLEX:
        return lambda result: complex(result.real, result.imag)
    return None


class PointerParameter(Parameter):
    def __init__(self, function: str, name: str, ctype: ct.PointerType):
        super().__init__(function, name, ctype)
        self.writes = not ctype.pointee_const
        self.pointee = ctype.pointee
        self._mismatches: dict = {}       # element -> why it cannot be passed here (None: it can)

    def convert(self, value, held):
        if value is None:
            return None
        try:
            memory = array_memory(value)
        except (ValueError, TypeError, BufferError) as error:     # an array this API cannot use
            raise ValueError(f"{self.where}: {error}") from None
        if memory is None:
            raise TypeError(f"{self.where} takes an array (a NumPy or CuPy array, any buffer) or "
                            f"None, not {type(value).__name__}")
        held.append((self.name, memory))
        why = self._mismatches.get(memory.element, _UNSEEN)
        if why is _UNSEEN:
            why = self._mismatches[memory.element] = mismatch(self.pointee, memory.element)
        if why:
            raise TypeError(f"{self.where}: {why}")
        if not memory.c_contiguous:
            raise ValueError(f"{self.where}: the array is not C-contiguous (numpy.ascontiguousarray "
                             "gives a copy that is)")
        if memory.readonly and self.writes:
            raise ValueError(f"{self.where}: the array is read-only, and the C function may write "
                             "to it (a 'const' pointee says it does not)")
        return memory.address or None


_UNSEEN = object()


def parameter(function: str, name: str, ctype: ct.CType) -> Parameter:
    """The parameter of `ctype`; TypeError for one no Python value can be passed to."""
    if ctype.is_pointer:
        if ctype.pointee.is_function:
            raise TypeError(f"{function}(): parameter '{name}' is a function pointer, which "
                            "cannot be passed from Python")
        return PointerParameter(function, name, ctype)
    if ctype.is_integer:
        return IntegerParameter(function, name, ctype)
    if ctype.is_floating:
        return FloatParameter(function, name, ctype)
    if ctype in _COMPLEX:
        return ComplexParameter(function, name, ctype)
    raise TypeError(f"{function}(): parameter '{name}' is '{ctype}', which cannot be passed from Python")
