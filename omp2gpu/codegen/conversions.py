"""Conversions between C types on IR values (C99 6.3)."""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen import complex_values
from omp2gpu.codegen.ir_types import I1, I8
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct


def is_null_pointer_constant(value: ir.Value, ctype: ct.CType) -> bool:
    return ctype.is_integer and isinstance(value, ir.Constant) and value.constant == 0


def truth_value(builder: ir.IRBuilder, value: ir.Value, ctype: ct.CType) -> ir.Value:
    """`value != 0` as i1: the test of if/while/&&/||/!. A comparison's or a logical
    operator's int (its i1 widened) is tested by that i1 itself."""
    if isinstance(value, ir.CastInstr) and value.opname == "zext" and value.operands[0].type == I1:
        return value.operands[0]
    if ctype.is_floating:
        return builder.fcmp_unordered("!=", value, ir.Constant(value.type, 0.0))
    if ctype.is_pointer:
        return builder.icmp_unsigned("!=", value, ir.Constant(value.type, None))
    if ctype.is_integer:
        return builder.icmp_unsigned("!=", value, ir.Constant(value.type, 0))
    if ctype.is_complex:
        return complex_values.truth(builder, value)
    raise CompileError(f"used type '{ctype}' where a scalar is required")


def convert(builder: ir.IRBuilder, value: ir.Value, source: ct.CType, target: ct.CType,
            coord=None) -> ir.Value:
    """Convert `value` of C type `source` to C type `target` (as if by assignment or cast)."""
    if target.is_void:
        return value
    if source == target or (source.is_struct and source is target):
        return value
    if source.is_complex or target.is_complex:
        return complex_values.convert_complex(builder, value, source, target, convert, coord)
    if target.is_integer and target.is_bool:
        if source.is_scalar:
            return builder.zext(truth_value(builder, value, source), I8)
        raise CompileError(f"cannot convert '{source}' to '_Bool'", coord)
    if target.is_integer:
        if source.is_integer:
            return _int_to_int(builder, value, source, target)
        if source.is_floating:
            convert_fn = builder.fptosi if target.signed else builder.fptoui
            return convert_fn(value, target.ir_type())
        if source.is_pointer:
            return builder.ptrtoint(value, target.ir_type())
    if target.is_floating:
        if source.is_integer:
            to_fp = builder.sitofp if source.signed else builder.uitofp
            return to_fp(value, target.ir_type())
        if source.is_floating:
            if source.bits < target.bits:
                return builder.fpext(value, target.ir_type())
            if source.bits > target.bits:
                return builder.fptrunc(value, target.ir_type())
            return value
    if target.is_pointer:
        if source.is_pointer:
            if value.type == target.ir_type():
                return value
            return builder.bitcast(value, target.ir_type())
        if source.is_integer:
            if isinstance(value, ir.Constant) and value.constant == 0:
                return ir.Constant(target.ir_type(), None)
            # inttoptr zero-extends a narrower integer; C (6.3.2.3, as gcc on
            # LP64) widens it by its own signedness first: (void *)-1 is all ones.
            widened = convert(builder, value, source, ct.LONG if source.signed else ct.ULONG)
            return builder.inttoptr(widened, target.ir_type())
    if target.is_struct and source.is_struct and source.ir_type() == target.ir_type():
        return value
    raise CompileError(f"cannot convert from '{source}' to '{target}'", coord)


def _int_to_int(builder, value, source: ct.IntType, target: ct.IntType):
    source_bits = value.type.width
    target_bits = target.ir_type().width
    if source_bits == target_bits:
        return value
    if source_bits > target_bits:
        return builder.trunc(value, target.ir_type())
    if source.signed and not source.is_bool:
        return builder.sext(value, target.ir_type())
    return builder.zext(value, target.ir_type())


def default_argument_promotion(ctype: ct.CType, coord=None) -> ct.CType:
    """Arguments matching `...` (C99 6.5.2.2p6)."""
    if ctype.is_floating and ctype.bits < 64:
        return ct.DOUBLE
    if ctype.is_integer and ctype.ir_type().width not in (8, 16, 32, 64):
        return ct.LLONG if ctype.signed else ct.ULLONG     # a wide bit-field's value, as gcc
    if ctype.is_integer:
        return ct.integer_promotion(ctype)
    return ct.decay(ctype)
