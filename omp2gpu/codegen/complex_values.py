"""Complex values in IR (C99 6.2.5p11-13, 6.3.1.6-7): a complex value is the literal
struct {real, imaginary} of its real type, in registers as in memory.

Here: building and taking apart such values, conversions to and from complex types,
truth values, and the packed form the x86-64 ABI gives `float _Complex` at calls
(ctypes.abi_ir_type). The operators are in complex_operators.py.
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct


def make(builder: ir.IRBuilder, ctype: ct.ComplexType, real: ir.Value, imaginary: ir.Value) -> ir.Value:
    value = ir.Constant(ctype.ir_type(), ir.Undefined)
    value = builder.insert_value(value, real, 0)
    return builder.insert_value(value, imaginary, 1)


def parts(builder: ir.IRBuilder, value: ir.Value) -> tuple[ir.Value, ir.Value]:
    return builder.extract_value(value, 0), builder.extract_value(value, 1)


def zero_of(ctype: ct.CType) -> ir.Constant:
    return ir.Constant(ctype.ir_type(), 0.0)


def convert_complex(builder: ir.IRBuilder, value: ir.Value, source: ct.CType, target: ct.CType,
                    convert_real, coord=None) -> ir.Value:
    """A conversion where `source` or `target` is complex; `convert_real` converts
    between real types (conversions.convert). A real value becomes the real part, the
    imaginary part zero (6.3.1.7); a complex value becomes a real one by its real part,
    the imaginary part discarded (6.3.1.7p2), or _Bool by either part (6.3.1.2)."""
    if not (source.is_complex or source.is_arithmetic) or not (target.is_complex or target.is_arithmetic):
        raise CompileError(f"cannot convert from '{source}' to '{target}'", coord)
    if target.is_complex and source.is_complex:
        real, imaginary = parts(builder, value)
        return make(builder, target, convert_real(builder, real, source.real, target.real),
                    convert_real(builder, imaginary, source.real, target.real))
    if target.is_complex:
        return make(builder, target, convert_real(builder, value, source, target.real), zero_of(target.real))
    if target.is_integer and target.is_bool:
        return builder.zext(truth(builder, value), ir.IntType(8))
    return convert_real(builder, builder.extract_value(value, 0), source.real, target)


def truth(builder: ir.IRBuilder, value: ir.Value) -> ir.Value:
    """`z != 0` as i1: either part nonzero (or NaN)."""
    real, imaginary = parts(builder, value)
    zero = ir.Constant(real.type, 0.0)
    return builder.or_(builder.fcmp_unordered("!=", real, zero), builder.fcmp_unordered("!=", imaginary, zero))


# ----------------------------------------------------------------- the ABI's packed form
def to_abi(builder: ir.IRBuilder, value: ir.Value, ctype: ct.CType) -> ir.Value:
    """A value of `ctype` as a call passes or returns it (ctypes.abi_ir_type)."""
    if ctype != ct.COMPLEX_FLOAT:
        return value
    real, imaginary = parts(builder, value)
    packed = ir.Constant(ct.abi_ir_type(ctype), ir.Undefined)
    packed = builder.insert_element(packed, real, ir.Constant(ir.IntType(32), 0))
    return builder.insert_element(packed, imaginary, ir.Constant(ir.IntType(32), 1))


def from_abi(builder: ir.IRBuilder, value: ir.Value, ctype: ct.CType) -> ir.Value:
    """The value of `ctype` a call received or returned in its ABI form."""
    if ctype != ct.COMPLEX_FLOAT:
        return value
    return make(builder, ctype, builder.extract_element(value, ir.Constant(ir.IntType(32), 0)),
                builder.extract_element(value, ir.Constant(ir.IntType(32), 1)))
