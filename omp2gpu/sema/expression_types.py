"""The C type of an expression without generating code: what `sizeof expr`
needs in constant expressions (array sizes, static initialisers)."""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.literals import arithmetic_literal, string_literal

_COMPARISON_OPS = {"<", ">", "<=", ">=", "==", "!=", "&&", "||"}


def type_of_expression(node, scope, resolver) -> ct.CType:
    """Type before array/function decay (sizeof sees arrays whole)."""
    if isinstance(node, c_ast.ID):
        symbol = scope.lookup(node.name)
        if symbol is None:
            raise CompileError(f"use of undeclared identifier '{node.name}'", node.coord)
        return symbol.ctype
    if isinstance(node, c_ast.Constant):
        if node.type == "string":
            return ct.ArrayType(ct.CHAR, len(string_literal(node.value)) + 1)
        return arithmetic_literal(node)[1]
    if isinstance(node, c_ast.Cast):
        return resolver.resolve(node.to_type, scope)
    if isinstance(node, c_ast.ArrayRef):
        base = ct.decay(type_of_expression(node.name, scope, resolver))
        if not base.is_pointer:
            base = ct.decay(type_of_expression(node.subscript, scope, resolver))
        return _pointee(base, node)
    if isinstance(node, c_ast.StructRef):
        base = type_of_expression(node.name, scope, resolver)
        if node.type == "->":
            base = _pointee(ct.decay(base), node)
        member = base.field(node.field.name) if base.is_struct else None
        if member is None:
            raise CompileError(f"no member named '{node.field.name}'", node.coord)
        if member.name != node.field.name:      # anonymous member holding it
            return member.ctype.field(node.field.name).ctype
        return member.ctype
    if isinstance(node, c_ast.UnaryOp):
        if node.op in ("sizeof", "_Alignof"):
            return ct.SIZE_T
        inner = type_of_expression(node.expr, scope, resolver)
        if node.op == "*":
            return _pointee(ct.decay(inner), node)
        if node.op == "&":
            return ct.PointerType(inner)
        if node.op == "!":
            return ct.INT
        if node.op in ("-", "+", "~"):
            return ct.integer_promotion(inner)
        return inner                     # ++, --
    if isinstance(node, c_ast.BinaryOp):
        if node.op in _COMPARISON_OPS:
            return ct.INT
        left = ct.decay(type_of_expression(node.left, scope, resolver))
        right = ct.decay(type_of_expression(node.right, scope, resolver))
        if left.is_pointer and right.is_pointer:
            return ct.PTRDIFF_T
        if left.is_pointer or right.is_pointer:
            return left if left.is_pointer else right
        if node.op in ("<<", ">>"):
            return ct.integer_promotion(left)
        return ct.usual_arithmetic_conversion(left, right)
    if isinstance(node, c_ast.TernaryOp):
        left = ct.decay(type_of_expression(node.iftrue, scope, resolver))
        right = ct.decay(type_of_expression(node.iffalse, scope, resolver))
        if left.is_arithmetic and right.is_arithmetic:
            return ct.usual_arithmetic_conversion(left, right)
        return left
    if isinstance(node, c_ast.Assignment):
        return type_of_expression(node.lvalue, scope, resolver)
    if isinstance(node, c_ast.ExprList):
        return type_of_expression(node.exprs[-1], scope, resolver)
    if isinstance(node, c_ast.FuncCall):
        callee = ct.decay(type_of_expression(node.name, scope, resolver))
        if callee.is_pointer and callee.pointee.is_function:
            return callee.pointee.result
    raise CompileError("cannot determine the type of this expression", node.coord)


def _pointee(ctype: ct.CType, node) -> ct.CType:
    if not ctype.is_pointer:
        raise CompileError("subscripted value is not an array or pointer", node.coord)
    return ctype.pointee
