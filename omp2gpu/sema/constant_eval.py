"""Integer and floating constant expressions (C99 6.6), evaluated at compile time:
array sizes, enumerators, case labels, static initialisers."""

from __future__ import annotations

import math

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import complex_constants
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.expression_types import bit_field_member, type_of_expression
from omp2gpu.sema.literals import arithmetic_literal, string_literal
from omp2gpu.sema.member_offsets import member_offset
from omp2gpu.sema.x86_fp80 import round_to_fp80


class InvalidExpression(CompileError):
    """An expression that is wrong wherever it stands, not merely not constant: callers
    that fall back when an expression is not constant let it through."""


def wrap(value: int, ctype: ct.CType) -> int:
    """Reduce an integer to the range of its type (two's complement)."""
    if not ctype.is_integer:
        return value
    if ctype.is_bool:
        return int(bool(value))
    value &= (1 << ctype.bits) - 1
    if ctype.signed and value >> (ctype.bits - 1):
        value -= 1 << ctype.bits
    return value


def evaluate_integer(node, scope, resolver) -> int:
    value, ctype = evaluate(node, scope, resolver)
    if not ctype.is_integer:
        raise CompileError("expression is not an integer constant expression", node.coord)
    return value


def _binary_int(op, a, b, ctype, coord):
    if op in ("/", "%") and b == 0:
        raise CompileError("division by zero in constant expression", coord)
    if op == "/":
        q = abs(a) // abs(b)
        return q if (a >= 0) == (b >= 0) else -q     # C truncates towards zero
    if op == "%":
        q = abs(a) // abs(b)
        q = q if (a >= 0) == (b >= 0) else -q
        return a - b * q
    if op == "<<":
        return a << b
    if op == ">>":
        return a >> b
    return {"+": a + b, "-": a - b, "*": a * b, "&": a & b, "|": a | b, "^": a ^ b}[op]


# Builtins the bundled headers use in constant expressions (HUGE_VAL, INFINITY, NAN).
# GCC folds both queries to constants: objects of these sizes are always lock-free on
# x86-64 and NVPTX (codegen/atomic_builtins.py works on them), larger ones not.
ATOMIC_LOCK_FREE_SIZES = (1, 2, 4, 8)
_LOCK_FREE_QUERIES = ("__atomic_always_lock_free", "__atomic_is_lock_free")
_FLOAT_BUILTINS = {"__builtin_huge_val": (math.inf, ct.DOUBLE), "__builtin_inf": (math.inf, ct.DOUBLE),
                   "__builtin_inff": (math.inf, ct.FLOAT), "__builtin_huge_valf": (math.inf, ct.FLOAT),
                   "__builtin_nan": (math.nan, ct.DOUBLE), "__builtin_nanf": (math.nan, ct.FLOAT)}

_COMPARISONS = {"<": lambda a, b: a < b, ">": lambda a, b: a > b, "<=": lambda a, b: a <= b,
                ">=": lambda a, b: a >= b, "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


def evaluate(node, scope, resolver) -> tuple[int | float, ct.CType]:
    """Value and type of a constant expression, or CompileError if it is not one."""
    if isinstance(node, c_ast.Constant):
        value, ctype = arithmetic_literal(node)
        if ctype.is_complex:
            return complex_constants.as_complex(complex(0.0, float(value)), ctype, ctype, node.coord), ctype
        return value, ctype
    if isinstance(node, c_ast.ID):
        symbol = scope.lookup(node.name)
        if symbol is not None and symbol.kind == "enum-constant":
            return symbol.value, symbol.ctype
        raise CompileError(f"'{node.name}' is not a constant", node.coord)
    if isinstance(node, c_ast.UnaryOp):
        if node.op == "sizeof":
            operand_type = _type_of_sizeof_operand(node.expr, scope, resolver)
            if operand_type.is_function or not operand_type.is_complete:
                raise InvalidExpression("invalid application of 'sizeof' to an incomplete type "
                                   f"'{operand_type}'", node.coord)
            return operand_type.size, ct.SIZE_T
        if node.op == "_Alignof":
            return _type_of_sizeof_operand(node.expr, scope, resolver, "__alignof").align, ct.SIZE_T
        if node.op in ("__real__", "__imag__"):
            value, ctype = evaluate(node.expr, scope, resolver)
            part = complex(value).real if node.op == "__real__" else complex(value).imag
            return part, ct.real_type(ctype)
        value, ctype = evaluate(node.expr, scope, resolver)
        if node.op == "!":
            return int(not value), ct.INT
        ctype = ct.integer_promotion(ctype)
        if node.op == "-":
            return wrap(-value, ctype), ctype
        if node.op == "+":
            return value, ctype
        if node.op == "~" and ctype.is_integer:
            return wrap(~value, ctype), ctype
        raise CompileError(f"operator '{node.op}' in constant expression", node.coord)
    if isinstance(node, c_ast.Cast):
        target = resolver.resolve(node.to_type, scope)
        value, ctype = evaluate(node.expr, scope, resolver)
        if target.is_complex:
            return complex_constants.as_complex(value, ctype, target, node.coord), target
        if isinstance(value, complex):          # complex to real: its real part (C99 6.3.1.7)
            value = value != 0 if target.is_integer and target.is_bool else value.real
        if target.is_integer:
            return wrap(int(value), target), target
        if target.is_floating:
            return (round_to_fp80(value) if target == ct.LONG_DOUBLE else float(value)), target
        raise CompileError("cast to a non-arithmetic type in constant expression", node.coord)
    if isinstance(node, c_ast.TernaryOp):
        cond, cond_type = evaluate(node.cond, scope, resolver)
        if node.iftrue is None:                 # GNU `x ?: y`: x's value when it is true
            other, other_type = evaluate(node.iffalse, scope, resolver)
            ctype = ct.usual_arithmetic_conversion(cond_type, other_type)
            if ctype.is_complex:
                raise CompileError("a complex `?:` in a constant expression is not supported", node.coord)
            value = cond if cond else other
            return (wrap(int(value), ctype) if ctype.is_integer else float(value)), ctype
        return evaluate(node.iftrue if cond else node.iffalse, scope, resolver)
    if isinstance(node, c_ast.BinaryOp):
        return _binary(node, scope, resolver)
    if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) \
            and node.name.name == "offsetof" and node.args and len(node.args.exprs) == 2 \
            and isinstance(node.args.exprs[0], c_ast.Typename):
        type_node, designator = node.args.exprs
        return member_offset(resolver.resolve(type_node, scope), designator,
                             lambda index: evaluate_integer(index, scope, resolver)), ct.SIZE_T
    if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) \
            and node.name.name in _FLOAT_BUILTINS:
        return _FLOAT_BUILTINS[node.name.name]
    if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) \
            and node.name.name in _LOCK_FREE_QUERIES and node.args and len(node.args.exprs) == 2:
        size, _ = evaluate(node.args.exprs[0], scope, resolver)
        return int(size in ATOMIC_LOCK_FREE_SIZES), ct.BOOL
    raise CompileError("expression is not a constant expression", node.coord)


def _binary(node, scope, resolver):
    op = node.op
    a, atype = evaluate(node.left, scope, resolver)
    if op in ("&&", "||"):
        if (op == "&&" and not a) or (op == "||" and a):
            return int(op == "||"), ct.INT
        b, _ = evaluate(node.right, scope, resolver)
        return int(bool(b)), ct.INT
    b, btype = evaluate(node.right, scope, resolver)
    if op in ("<<", ">>"):
        ctype = ct.integer_promotion(atype)
        return wrap(_binary_int(op, a, b, ctype, node.coord), ctype), ctype
    ctype = ct.usual_arithmetic_conversion(atype, btype)
    if ctype.is_complex:
        return complex_constants.fold(op, a, atype, b, btype, ctype, node.coord)
    if ctype.is_integer:
        a, b = wrap(int(a), ctype), wrap(int(b), ctype)
    elif ctype == ct.LONG_DOUBLE:            # exact, then rounded as the 80-bit operation is
        a, b = round_to_fp80(a), round_to_fp80(b)
    else:
        a, b = float(a), float(b)
    if op in _COMPARISONS:
        return int(_COMPARISONS[op](a, b)), ct.INT
    if ctype.is_floating:
        if op == "/" and b == 0.0:
            raise CompileError("division by zero in constant expression", node.coord)
        result = {"+": a + b, "-": a - b, "*": a * b, "/": a / b if b else 0.0}.get(op)
        if result is None:
            raise CompileError(f"invalid operands to '{op}'", node.coord)
        return (round_to_fp80(result) if ctype == ct.LONG_DOUBLE else result), ctype
    return wrap(_binary_int(op, a, b, ctype, node.coord), ctype), ctype


def refuse_bit_field(node, operator: str, scope, resolver) -> None:
    """gcc's error for sizeof, typeof and _Alignof of a bit-field (C99 6.5.3.4p1)."""
    if isinstance(node, c_ast.StructRef) and bit_field_member(node, scope, resolver) is not None:
        raise InvalidExpression(f"'{operator}' applied to a bit-field", node.coord)


def _type_of_sizeof_operand(operand, scope, resolver, operator="sizeof") -> ct.CType:
    if isinstance(operand, c_ast.Typename):
        return resolver.resolve(operand, scope)
    if isinstance(operand, c_ast.ID):
        symbol = scope.lookup(operand.name)
        if symbol is not None and symbol.kind == "object":
            return symbol.ctype
    if isinstance(operand, c_ast.Constant) and operand.type == "string":
        return ct.ArrayType(ct.CHAR, len(string_literal(operand.value)) + 1)
    refuse_bit_field(operand, operator, scope, resolver)
    return type_of_expression(operand, scope, resolver)
