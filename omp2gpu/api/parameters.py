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

from omp2gpu.api import buffers, cuda_interface, cupy_arrays
from omp2gpu.api.arrays import array_memory, is_numpy_array
from omp2gpu.api.element_types import mismatch
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


# Each parameter's field in a call's frame (targets/python_call_wrappers.py): the struct
# module's format, standard sizes and no padding ("="), of frame_field_bytes(ctype) bytes.
_FRAME_FORMATS = {ctypes.c_int8: "b", ctypes.c_uint8: "B", ctypes.c_int16: "h", ctypes.c_uint16: "H",
                  ctypes.c_int32: "i", ctypes.c_uint32: "I", ctypes.c_int64: "q", ctypes.c_uint64: "Q",
                  ctypes.c_bool: "?", ctypes.c_float: "f", ctypes.c_double: "d", ctypes.c_longdouble: "16s",
                  _FloatComplex: "ff", _DoubleComplex: "dd", ctypes.c_void_p: "Q"}


class Parameter:
    """A scalar parameter; subclasses convert."""

    def __init__(self, function: str, name: str, ctype: ct.CType):
        self.name = name
        self.ctype = ctype
        self.ctypes_type = ctypes_type(ctype)
        self.frame_format = _FRAME_FORMATS[self.ctypes_type]
        self.where = f"{function}(): parameter '{name}' ({ctype})"

    def convert(self, value, releases: list):
        """The value for the call's frame (a complex: its Python complex, whose parts are
        packed; PointerParameter: the address and the array's extent); what releases an
        array's memory after the call appended to `releases`."""
        raise NotImplementedError


class IntegerParameter(Parameter):
    def __init__(self, function: str, name: str, ctype: ct.IntType):
        super().__init__(function, name, ctype)
        self.is_bool = ctype.is_bool
        self.low, self.high = ctype.min_value, ctype.max_value

    def convert(self, value, releases):
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
    """float, double, long double: a float converted as C converts a double to the type (a
    float past float's range is infinite; a long double is its 16 bytes)."""

    def convert(self, value, releases):
        if isinstance(value, (str, bytes, bytearray)):
            raise TypeError(f"{self.where} takes a number, not {type(value).__name__}")
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise TypeError(f"{self.where} takes a number, not {type(value).__name__}") from None
        if self.ctypes_type is ctypes.c_double:
            return number
        converted = self.ctypes_type(number)
        return bytes(converted) if self.ctypes_type is ctypes.c_longdouble else converted.value


class ComplexParameter(Parameter):
    def convert(self, value, releases):
        if isinstance(value, (str, bytes, bytearray)):
            raise TypeError(f"{self.where} takes a number, not {type(value).__name__}")
        try:
            number = complex(value)
        except (TypeError, ValueError):
            raise TypeError(f"{self.where} takes a number, not {type(value).__name__}") from None
        if self.ctypes_type is _FloatComplex:      # each part as a float
            parts = _FloatComplex(number.real, number.imag)
            return complex(parts.real, parts.imag)
        return number


def python_result(ctype: ct.CType):
    """The conversion of a C function's result to Python's value; None where ctypes
    gives it already (a complex result comes back as a struct)."""
    if ctype in _COMPLEX:
        return lambda result: complex(result.real, result.imag)
    return None


class PointerParameter(Parameter):
    """An array's checks, its address and its extent for the runtime: its bytes, negative
    for device memory, 0 for none (NULL, an empty array). The runtime lends device memory
    for the call and refuses a map section that runs past an array passed, naming the
    parameter (targets/python_call_wrappers.py)."""

    def __init__(self, function: str, name: str, ctype: ct.PointerType, wait_stream=None):
        """`wait_stream(handle)`: the work a caller queued on a CUDA stream done first
        (native_link.wait_stream; LookupError if it cannot be)."""
        super().__init__(function, name, ctype)
        self.function = function
        self.writes = not ctype.pointee_const
        self.pointee = ctype.pointee
        self._wait_stream = wait_stream
        self._mismatches: dict = {}       # element -> why it cannot be passed here (None: it can)
        self._dtypes: dict = {}           # a NumPy dtype -> the same
        self._numpy_array = None          # numpy.ndarray, once one is passed here
        self._device_layouts: dict = {}   # a device array's layout that passed the checks -> its bytes
        self._cupy_array = None           # cupy.ndarray, once one passed the checks here
        self._cupy_layouts: dict = {}     # (dtype, size) of a C-contiguous CuPy array that did -> its bytes
        self._cupy_stream = None          # cupy.cuda.get_current_stream

    def convert(self, value, releases: list) -> tuple:
        """(the address, 0 for NULL; the extent); `releases`: what to call once the C function
        has returned (an array's memory held until then)."""
        if value is None:
            return 0, 0
        if type(value) is self._numpy_array or is_numpy_array(value):
            try:
                address = _addressof(_char_from_buffer(value))
            except (TypeError, ValueError):       # read-only, not C-contiguous, empty: the long way
                pass
            else:
                why = self._dtypes.get(value.dtype, _UNSEEN)
                if why is not None:
                    self._numpy_dtype(value, why)
                return address, value.nbytes
        if type(value) is self._cupy_array and value._c_contiguous:
            nbytes = self._cupy_layouts.get((value.dtype, value.size))
            if nbytes is not None:
                stream = self._cupy_stream().ptr
                if stream:
                    self._wait(stream)
                return value.data.ptr, -nbytes
        interface = getattr(value, "__cuda_array_interface__", None)
        if interface is not None:
            converted = self._device_array(interface)
            if type(value) is cupy_arrays.ndarray_type():
                self._learn_cupy_layout(value)
            return converted
        memory = self._host_memory(value, releases)
        self._check(memory.element, memory.c_contiguous, memory.readonly)
        return memory.address or 0, -memory.nbytes if memory.on_device else memory.nbytes

    def _device_array(self, interface: dict) -> tuple:
        """A __cuda_array_interface__'s array: the checks of a layout (typestr, shape,
        strides, read-only) made once for this parameter, then only looked up; its mask and
        stream read every call."""
        try:
            address, readonly = interface["data"]
            layout = interface["typestr"], interface["shape"], interface.get("strides"), readonly
            nbytes = self._device_layouts.get(layout)
            if nbytes is not None and interface.get("mask") is None:
                address, stream = int(address or 0), cuda_interface.stream_to_wait(interface)
            else:
                nbytes = None
        except (TypeError, KeyError, ValueError):    # unhashable (a list for a tuple), malformed: read it all
            layout = nbytes = None
        if nbytes is None:
            try:
                address, nbytes, element, readonly, contiguous, stream = cuda_interface.read(interface)
            except (ValueError, TypeError, KeyError) as error:     # an array this API cannot use
                raise ValueError(f"{self.where}: {error}") from None
            self._check(element, contiguous, readonly)
            if layout is not None and len(self._device_layouts) < 64:
                self._device_layouts[layout] = nbytes
        if stream is not None:
            self._wait(stream)
        return address or 0, -nbytes

    def _learn_cupy_layout(self, array) -> None:
        """A CuPy array that passed the checks through its interface: the next of its
        layout are read from their attributes (api/cupy_arrays.py)."""
        if not hasattr(array, "_c_contiguous"):       # a CuPy of another make: the interface each call
            return
        if self._cupy_array is None:
            self._cupy_array, self._cupy_stream = type(array), cupy_arrays.current_stream_getter()
        if array._c_contiguous and len(self._cupy_layouts) < 64:
            self._cupy_layouts[array.dtype, array.size] = array.nbytes

    def _host_memory(self, value, releases: list):
        """The memory of an array of the buffer protocol or DLPack (api/arrays.py); what
        releases it to `releases`."""
        try:
            memory = array_memory(value)
        except (ValueError, TypeError, BufferError) as error:     # an array this API cannot use
            raise ValueError(f"{self.where}: {error}") from None
        if memory is None:
            raise TypeError(f"{self.where} takes an array (a NumPy or CuPy array, any buffer) or "
                            f"None, not {type(value).__name__}")
        if memory.release is not None:
            releases.append(memory.release)
        return memory

    def _numpy_dtype(self, value, why) -> None:
        """A NumPy array's dtype seen first here (`why` _UNSEEN), its mismatch kept; or the
        TypeError of a known mismatch."""
        if why is _UNSEEN:
            self._numpy_array = type(value)
            why = self._mismatch(buffers.element(value))
            if len(self._dtypes) < 64:
                self._dtypes[value.dtype] = why
        if why:
            raise TypeError(f"{self.where}: {why}")

    def _mismatch(self, element) -> str | None:
        why = self._mismatches.get(element, _UNSEEN)
        if why is _UNSEEN:
            why = self._mismatches[element] = mismatch(self.pointee, element)
        return why

    def _check(self, element, contiguous: bool, readonly: bool) -> None:
        why = self._mismatch(element)
        if why:
            raise TypeError(f"{self.where}: {why}")
        if not contiguous:
            raise ValueError(f"{self.where}: the array is not C-contiguous (numpy.ascontiguousarray "
                             "gives a copy that is)")
        if readonly and self.writes:
            raise ValueError(f"{self.where}: the array is read-only, and the C function may write "
                             "to it (a 'const' pointee says it does not)")

    def _wait(self, stream: int) -> None:
        try:
            self._wait_stream(stream)
        except LookupError as error:
            raise ValueError(f"{self.function}(): '{self.name}': device array(s) the target regions "
                             f"cannot use: {error}") from None


_UNSEEN = object()
_addressof, _char_from_buffer = ctypes.addressof, ctypes.c_char.from_buffer


def parameter(function: str, name: str, ctype: ct.CType, wait_stream=None) -> Parameter:
    """The parameter of `ctype`; TypeError for one no Python value can be passed to.
    `wait_stream`: a pointer parameter's (PointerParameter)."""
    if ctype.is_pointer:
        if ctype.pointee.is_function:
            raise TypeError(f"{function}(): parameter '{name}' is a function pointer, which "
                            "cannot be passed from Python")
        return PointerParameter(function, name, ctype, wait_stream)
    if ctype.is_integer:
        return IntegerParameter(function, name, ctype)
    if ctype.is_floating:
        return FloatParameter(function, name, ctype)
    if ctype in _COMPLEX:
        return ComplexParameter(function, name, ctype)
    raise TypeError(f"{function}(): parameter '{name}' is '{ctype}', which cannot be passed from Python")
