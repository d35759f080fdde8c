"""Compiler builtins the bundled headers rely on (`__builtin_*`), one small function each.

A table maps each name to its emitter; headers document which they use.
"""

from __future__ import annotations

import math

from llvmlite import ir

from omp2gpu.codegen.conversions import I32, convert
from omp2gpu.codegen.values import RValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct


def _args(node):
    return node.args.exprs if node.args else []


def _constant(ctype, value):
    return lambda emitter, node: RValue(ctype, ir.Constant(ctype.ir_type(), value))


def _expect(emitter, node):
    return emitter.expr(_args(node)[0])


def _floating_argument(emitter, node):
    args = _args(node)
    if len(args) != 1:
        raise CompileError("expected one argument", node.coord)
    value = emitter.expr(args[0])
    if not value.ctype.is_arithmetic:
        raise CompileError("expected a floating-point argument", node.coord)
    ctype = value.ctype if value.ctype.is_floating else ct.DOUBLE
    return ctype, convert(emitter.builder, value.value, value.ctype, ctype)


def _classify(predicate):
    def emit(emitter, node):
        ctype, value = _floating_argument(emitter, node)
        builder = emitter.builder
        test = predicate(builder, value, ctype)
        return RValue(ct.INT, builder.zext(test, I32))
    return emit


def _is_nan(builder, value, ctype):
    return builder.fcmp_unordered("uno", value, value)


def _is_inf(builder, value, ctype):
    magnitude = _fabs(builder, value)
    return builder.fcmp_ordered("==", magnitude, ir.Constant(value.type, math.inf))


def _is_finite(builder, value, ctype):
    magnitude = _fabs(builder, value)
    return builder.fcmp_ordered("<", magnitude, ir.Constant(value.type, math.inf))


def _sign_bit(builder, value, ctype):
    bits = ir.IntType(ctype.bits)
    return builder.icmp_signed("<", builder.bitcast(value, bits), ir.Constant(bits, 0))


def _fabs(builder, value):
    fabs = builder.module.declare_intrinsic("llvm.fabs", [value.type])
    return builder.call(fabs, [value])


BUILTINS = {
    "__builtin_inf": _constant(ct.DOUBLE, math.inf),
    "__builtin_inff": _constant(ct.FLOAT, math.inf),
    "__builtin_huge_val": _constant(ct.DOUBLE, math.inf),
    "__builtin_huge_valf": _constant(ct.FLOAT, math.inf),
    "__builtin_nan": _constant(ct.DOUBLE, math.nan),
    "__builtin_nanf": _constant(ct.FLOAT, math.nan),
    "__builtin_expect": _expect,
    "__builtin_isnan": _classify(_is_nan),
    "__builtin_isinf": _classify(_is_inf),
    "__builtin_isfinite": _classify(_is_finite),
    "__builtin_signbit": _classify(_sign_bit),
}


class Builtins:
    """Dispatches calls to names in BUILTINS; the host and device may extend the table."""

    def __init__(self, extra: dict | None = None):
        self.table = dict(BUILTINS)
        self.table.update(extra or {})

    def handles(self, name: str, emitter) -> bool:
        return name in self.table

    def emit(self, node, emitter) -> RValue:
        return self.table[node.name.name](emitter, node)
