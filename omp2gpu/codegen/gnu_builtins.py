"""GNU C's bit and hint builtins, which code takes under `#ifdef __GNUC__` (omp2gpu-cc
answers as GNU C: docs/drop-in-driver.md), each onto the LLVM intrinsic that computes it,
on the host and the devices alike:

    __builtin_popcount[l|ll]   ones          llvm.ctpop
    __builtin_parity[l|ll]     ones & 1      llvm.ctpop
    __builtin_clz[l|ll]        leading 0s    llvm.ctlz (undefined for 0, as GCC says)
    __builtin_ctz[l|ll]        trailing 0s   llvm.cttz (undefined for 0)
    __builtin_ffs[l|ll]        1 + the lowest set bit's index, 0 for 0
    __builtin_bswap16/32/64    bytes reversed  llvm.bswap
    __builtin_prefetch(p, ...) a hint: its operands evaluated, no code
    __builtin_constant_p(e)    1 where e is an integer constant expression, else 0 (e not evaluated)
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I32
from omp2gpu.codegen.values import RValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct

_WIDTHS = {"": ct.UINT, "l": ct.ULONG, "ll": ct.ULLONG}


def _operand(emitter, node, ctype):
    args = node.args.exprs if node.args else []
    if len(args) != 1:
        raise CompileError(f"'{node.name.name}' takes 1 argument, not {len(args)}", node.coord)
    value = emitter.expr(args[0])
    if not value.ctype.is_integer:
        raise CompileError(f"'{node.name.name}' takes an integer, not '{value.ctype}'", node.coord)
    return convert(emitter.builder, value.value, value.ctype, ctype)


def _intrinsic(emitter, name: str, value: ir.Value, *extra: ir.Value):
    function = emitter.module.module.declare_intrinsic(name, [value.type, *(e.type for e in extra)])
    return emitter.builder.call(function, [value, *extra])


def _as_int(emitter, value: ir.Value) -> RValue:
    """A count (of an unsigned int or long's bits) as the int GCC returns."""
    return RValue(ct.INT, convert(emitter.builder, value, ct.ULLONG if value.type.width == 64 else ct.UINT, ct.INT))


def _bits(kind: str, ctype):
    def emit(emitter, node):
        value = _operand(emitter, node, ctype)
        b = emitter.builder
        if kind == "popcount":
            return _as_int(emitter, _intrinsic(emitter, "llvm.ctpop", value))
        if kind == "parity":
            ones = _intrinsic(emitter, "llvm.ctpop", value)
            return _as_int(emitter, b.and_(ones, ir.Constant(value.type, 1)))
        if kind in ("clz", "ctz"):
            poison_at_zero = ir.Constant(ir.IntType(1), 1)
            return _as_int(emitter, _intrinsic(emitter, f"llvm.{kind[:1]}t{kind[1:]}", value, poison_at_zero))
        zero = ir.Constant(value.type, 0)                         # ffs
        trailing = _intrinsic(emitter, "llvm.cttz", value, ir.Constant(ir.IntType(1), 0))
        index = b.add(trailing, ir.Constant(value.type, 1))
        return _as_int(emitter, b.select(b.icmp_unsigned("==", value, zero), zero, index))
    return emit


def _bswap(ctype):
    def emit(emitter, node):
        return RValue(ctype, _intrinsic(emitter, "llvm.bswap", _operand(emitter, node, ctype)))
    return emit


def _prefetch(emitter, node):
    for arg in node.args.exprs if node.args else []:
        emitter.expr(arg)
    return RValue(ct.VOID, None)


def _constant_p(emitter, node):
    args = node.args.exprs if node.args else []
    if len(args) != 1:
        raise CompileError("'__builtin_constant_p' takes 1 argument", node.coord)
    try:
        emitter.constant_value(args[0])
        known = 1
    except CompileError:
        known = 0
    return RValue(ct.INT, ir.Constant(I32, known))


GNU_BUILTINS = {
    **{f"__builtin_{kind}{suffix}": _bits(kind, ctype) for kind in ("popcount", "parity", "clz", "ctz", "ffs")
       for suffix, ctype in _WIDTHS.items()},
    "__builtin_bswap16": _bswap(ct.USHORT),
    "__builtin_bswap32": _bswap(ct.UINT),
    "__builtin_bswap64": _bswap(ct.ULLONG),
    "__builtin_prefetch": _prefetch,
    "__builtin_constant_p": _constant_p,
}
