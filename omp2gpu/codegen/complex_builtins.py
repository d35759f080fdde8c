"""The complex builtins: gcc's `__builtin_complex(x, y)` (<complex.h>'s CMPLX) and
creal, cimag and conj with their f and l variants, which gcc also expands in place,
so that they need no library on any device."""

from __future__ import annotations

from omp2gpu.codegen import complex_values
from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.values import RValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct

_BY_SUFFIX = {"": ct.COMPLEX_DOUBLE, "f": ct.COMPLEX_FLOAT, "l": ct.COMPLEX_LONG_DOUBLE}


def _one_argument(emitter, node):
    args = node.args.exprs if node.args else []
    if len(args) != 1:
        raise CompileError(f"too {'few' if not args else 'many'} arguments to function "
                           f"'{node.name.name}'", node.coord)
    return emitter.expr(args[0]), args[0]


def _as_complex(emitter, node, ctype: ct.ComplexType):
    value, arg = _one_argument(emitter, node)
    if not (value.ctype.is_complex or value.ctype.is_arithmetic):
        raise CompileError(f"incompatible type for argument 1 of '{node.name.name}'", arg.coord)
    return convert(emitter.builder, value.value, value.ctype, ctype, arg.coord)


def _part(ctype: ct.ComplexType, index: int):
    def emit(emitter, node):
        value = _as_complex(emitter, node, ctype)
        return RValue(ctype.real, emitter.builder.extract_value(value, index))
    return emit


def _conjugate(ctype: ct.ComplexType):
    def emit(emitter, node):
        real, imaginary = complex_values.parts(emitter.builder, _as_complex(emitter, node, ctype))
        return RValue(ctype, complex_values.make(emitter.builder, ctype, real, emitter.builder.fneg(imaginary)))
    return emit


def _builtin_complex(emitter, node):
    """`__builtin_complex(x, y)`: x + yi, both of one real floating type (gcc's rule)."""
    args = node.args.exprs if node.args else []
    if len(args) != 2:
        raise CompileError("__builtin_complex takes 2 arguments", node.coord)
    real, imaginary = emitter.expr(args[0]), emitter.expr(args[1])
    if not real.ctype.is_floating or real.ctype != imaginary.ctype:
        raise CompileError("__builtin_complex operands of different types or not of a real "
                           "floating type", node.coord)
    ctype = ct.ComplexType(real.ctype)
    return RValue(ctype, complex_values.make(emitter.builder, ctype, real.value, imaginary.value))


COMPLEX_BUILTINS = {"__builtin_complex": _builtin_complex}
for _suffix, _ctype in _BY_SUFFIX.items():
    COMPLEX_BUILTINS[f"creal{_suffix}"] = _part(_ctype, 0)
    COMPLEX_BUILTINS[f"cimag{_suffix}"] = _part(_ctype, 1)
    COMPLEX_BUILTINS[f"conj{_suffix}"] = _conjugate(_ctype)
