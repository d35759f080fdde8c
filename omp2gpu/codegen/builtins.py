"""Compiler builtins the bundled headers rely on (`__builtin_*`), one small function each.

A table maps each name to its emitter; headers document which they use.
"""

from __future__ import annotations

import math

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.atomic_builtins import ATOMIC_BUILTINS
from omp2gpu.codegen.complex_builtins import COMPLEX_BUILTINS
from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.gnu_builtins import GNU_BUILTINS
from omp2gpu.codegen.ir_types import I32
from omp2gpu.codegen.values import RValue
from omp2gpu.codegen.varargs import VARARG_BUILTINS
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.member_offsets import member_offset
from omp2gpu.sema.speculation.tree import SPECULATING


def _args(node, count: int | None = None):
    """The call's arguments; with `count`, exactly that many or a located error."""
    args = node.args.exprs if node.args else []
    if count is not None and len(args) != count:
        raise CompileError(f"'{node.name.name}' takes {count} argument{'s' * (count != 1)}, "
                           f"not {len(args)}", node.coord)
    return args


def _constant(ctype, value):
    return lambda emitter, node: RValue(ctype, ir.Constant(ctype.ir_type(), value))


def _expect(emitter, node):
    return emitter.expr(_args(node, 2)[0])


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


def _offsetof(emitter, node):
    """offsetof(type, member-designator): pycparser parses it as a call."""
    type_node, designator = _args(node, 2)
    offset = member_offset(emitter.resolve_type(type_node), designator,
                           lambda index: int(emitter.constant_value(index)[0]))
    return RValue(ct.SIZE_T, ir.Constant(ct.SIZE_T.ir_type(), offset))


def _unreachable(emitter, node):
    """A path the program promises never to take (GCC's __builtin_unreachable)."""
    emitter.builder.unreachable()
    emitter.builder.position_at_end(emitter.new_block("after.unreachable"))
    return RValue(ct.VOID, None)


def _trap(emitter, node):
    """GCC's __builtin_trap: the program stops here (x86's ud2; on a GPU, the kernel fails)."""
    module = emitter.module.module
    trap = module.globals.get("llvm.trap") or ir.Function(module, ir.FunctionType(ir.VoidType(), []),
                                                          name="llvm.trap")
    emitter.builder.call(trap, [])
    return _unreachable(emitter, node)


def _assume(emitter, node):
    """Clang's __builtin_assume(e): the optimiser may take e as true (llvm.assume); what an
    `assume` construct's holds(e) becomes (frontend/openmp/utility_directives.py)."""
    condition = emitter.condition(_args(node, 1)[0])
    module = emitter.module.module
    assume = module.globals.get("llvm.assume") or ir.Function(
        module, ir.FunctionType(ir.VoidType(), [ir.IntType(1)]), name="llvm.assume")
    emitter.builder.call(assume, [condition])
    return RValue(ct.VOID, None)


def _refused(what):
    def emit(emitter, node):
        raise CompileError(f"{what} is not supported", node.coord)
    return emit


# <tgmath.h>'s functions with a complex twin, called where an argument is complex
# (C11 7.25p4; fabs becomes cabs), and those that are complex whatever the arguments.
_COMPLEX_TWIN = {name: "c" + name for name in
                 "acos asin atan acosh asinh atanh cos sin tan cosh sinh tanh exp log sqrt pow".split()}
_COMPLEX_TWIN["fabs"] = "cabs"
_ALWAYS_COMPLEX = frozenset("carg cimag conj cproj creal".split())


def _type_generic(generic_arguments):
    """<tgmath.h>'s `__omp2gpu_tgmath(sqrt, x)`: the call of sqrtf, sqrt or sqrtl
    that C11 7.25 picks from the types of the first `generic_arguments`
    arguments (all of them when None): long double when one is, float when all
    are float, else double (the real types of complex ones); csqrt and the like
    where one is complex."""
    def emit(emitter, node):
        args = _args(node)
        if not args or not isinstance(args[0], c_ast.ID):
            raise CompileError("expected a function name", node.coord)
        operands = args[1:]
        chosen = operands if generic_arguments is None else operands[:generic_arguments]
        types = [emitter.type_of(a) for a in chosen]
        name = args[0].name
        if any(t.is_complex for t in types) and name not in _ALWAYS_COMPLEX:
            if name not in _COMPLEX_TWIN:
                raise CompileError(f"<tgmath.h>'s {name} has no complex version (C11 7.25p5)", node.coord)
            name = _COMPLEX_TWIN[name]
        types = [ct.real_type(t) for t in types]
        if any(t == ct.LONG_DOUBLE for t in types):
            suffix = "l"
        elif types and all(t == ct.FLOAT for t in types):
            suffix = "f"
        else:
            suffix = ""
        callee = c_ast.ID(name + suffix, args[0].coord)
        return emitter.expr(c_ast.FuncCall(callee, c_ast.ExprList(list(operands), node.coord), node.coord))
    return emit




BUILTINS = {
    "offsetof": _offsetof,
    "__builtin_inf": _constant(ct.DOUBLE, math.inf),
    "__builtin_inff": _constant(ct.FLOAT, math.inf),
    "__builtin_huge_val": _constant(ct.DOUBLE, math.inf),
    "__builtin_huge_valf": _constant(ct.FLOAT, math.inf),
    "__builtin_nan": _constant(ct.DOUBLE, math.nan),
    "__builtin_nanf": _constant(ct.FLOAT, math.nan),
    "__builtin_expect": _expect,
    "__builtin_unreachable": _unreachable,
    "__builtin_trap": _trap,
    "__builtin_assume": _assume,
    "__omp2gpu_tgmath": _type_generic(None),
    "__omp2gpu_tgmath1": _type_generic(1),
    "__omp2gpu_tgmath2": _type_generic(2),
    # sema/speculation/'s choice between a statement's speculated and written forms: 0
    # here (the host and the CPU device, whose branch predictors favour the written form),
    # 1 in GPU code (device_module.nvptx_builtins)
    SPECULATING: _constant(ct.INT, 0),
    # setjmp returns twice, which the generated code does not model.
    "setjmp": _refused("setjmp"),
    "_setjmp": _refused("setjmp"),
    "__sigsetjmp": _refused("sigsetjmp"),
    "__builtin_isnan": _classify(_is_nan),
    "__builtin_isinf": _classify(_is_inf),
    "__builtin_isfinite": _classify(_is_finite),
    "__builtin_signbit": _classify(_sign_bit),
}


BUILTINS.update(VARARG_BUILTINS)
BUILTINS.update(COMPLEX_BUILTINS)
BUILTINS.update(ATOMIC_BUILTINS)
BUILTINS.update(GNU_BUILTINS)


class Builtins:
    """Dispatches calls to names in BUILTINS; the host and device may extend the table."""

    def __init__(self, extra: dict | None = None):
        self.table = dict(BUILTINS)
        self.table.update(extra or {})

    def handles(self, name: str, emitter) -> bool:
        return name in self.table

    def emit(self, node, emitter) -> RValue:
        return self.table[node.name.name](emitter, node)
