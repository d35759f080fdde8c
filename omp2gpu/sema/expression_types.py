"""The C type of an expression without generating code: what `sizeof expr`
needs in constant expressions (array sizes, static initialisers)."""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.gnu_nodes import StatementExpression
from omp2gpu.frontend.operator_locations import operator_coord
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.generic_selection import bit_field_controlling_type, selected_expression
from omp2gpu.sema.literals import arithmetic_literal, string_literal
from omp2gpu.sema.scopes import Symbol

_COMPARISON_OPS = {"<", ">", "<=", ">=", "==", "!=", "&&", "||"}


def type_of_expression(node, scope, resolver) -> ct.CType:
    """Type before array/function decay (sizeof sees arrays whole)."""
    if isinstance(node, c_ast.ID):
        symbol = scope.lookup(node.name)
        if symbol is None:
            raise CompileError(f"use of undeclared identifier '{node.name}'", node.coord)
        if symbol.ctype is None:            # its declaration has no type we could read
            raise CompileError(f"cannot determine the type of '{node.name}'", node.coord)
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
        return subscripted_type(base, node)
    if isinstance(node, c_ast.StructRef):
        base = type_of_expression(node.name, scope, resolver)
        if node.type == "->":
            base = _pointee(ct.decay(base), node)
        member = base.named_field(node.field.name) if base.is_struct else None
        if member is None:
            raise CompileError(f"no member named '{node.field.name}'", node.coord)
        if member.is_bit_field:
            return ct.bit_field_value_type(member.ctype, member.bit_width)
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
        if node.op in ("__real__", "__imag__"):
            return ct.real_type(inner)
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
        left = ct.decay(type_of_expression(node.cond if node.iftrue is None else node.iftrue,
                                           scope, resolver))     # GNU `x ?: y`
        right = ct.decay(type_of_expression(node.iffalse, scope, resolver))
        if all(t.is_arithmetic or t.is_complex for t in (left, right)):
            return ct.usual_arithmetic_conversion(left, right)
        return left
    if isinstance(node, c_ast.Assignment):
        return type_of_expression(node.lvalue, scope, resolver)
    if isinstance(node, c_ast.ExprList):
        return type_of_expression(node.exprs[-1], scope, resolver)
    if isinstance(node, c_ast.GenericSelection):
        member = bit_field_member(node.expr, scope, resolver) \
            if isinstance(node.expr, c_ast.StructRef) else None
        controlling = type_of_expression(node.expr, scope, resolver) if member is None \
            else bit_field_controlling_type(member)
        chosen = selected_expression(node, controlling,
                                     lambda typename: resolver.resolve(typename, scope))
        return type_of_expression(chosen, scope, resolver)
    if isinstance(node, StatementExpression):
        return _statement_expression_type(node, scope, resolver)
    if isinstance(node, c_ast.FuncCall):
        callee = ct.decay(type_of_expression(node.name, scope, resolver))
        if callee.is_pointer and callee.pointee.is_function:
            return callee.pointee.result
    raise CompileError("cannot determine the type of this expression", node.coord)


def bit_field_member(node: c_ast.StructRef, scope, resolver):
    """The bit-field (a ctypes.Field) that member access `node` designates, or None."""
    base = type_of_expression(node.name, scope, resolver)
    if node.type == "->":
        base = ct.decay(base)
        base = base.pointee if base.is_pointer else base
    member = base.named_field(node.field.name) if base.is_struct else None
    return member if member is not None and member.is_bit_field else None


def _statement_expression_type(node: StatementExpression, scope, resolver) -> ct.CType:
    """`typeof(({ int t = a; t * 2; }))`: the last statement's type, with the block's
    own declarations in scope (as in MIN/MAX macros nested in one another)."""
    items = node.block_items or []
    if not items or not isinstance(items[-1], _EXPRESSIONS):      # ends in a statement
        return ct.VOID
    inner = scope.child()
    for item in items[:-1]:
        if isinstance(item, c_ast.Typedef):
            inner.declare(Symbol(item.name, resolver.resolve(item.type, inner), "typedef"))
        elif isinstance(item, c_ast.Decl) and item.name:
            inner.declare(Symbol(item.name, resolver.resolve(item.type, inner), "object"))
    return ct.decay(type_of_expression(items[-1], inner, resolver))


_EXPRESSIONS = (c_ast.ID, c_ast.Constant, c_ast.Cast, c_ast.ArrayRef, c_ast.StructRef,
                c_ast.UnaryOp, c_ast.BinaryOp, c_ast.TernaryOp, c_ast.Assignment,
                c_ast.ExprList, c_ast.FuncCall, c_ast.GenericSelection, c_ast.CompoundLiteral,
                StatementExpression)


def subscripted_type(base: ct.CType, node: c_ast.ArrayRef) -> ct.CType:
    """The element type of `base[i]`, `base` decayed: a pointer to an object type
    (C99 6.5.2.1p1), not a function or a pointer to one."""
    if base.is_pointer and base.pointee.is_function:
        raise CompileError("subscripted value is a pointer to function", operator_coord(node))
    if not base.is_pointer:
        raise CompileError("subscripted value is not an array or pointer", operator_coord(node))
    return base.pointee


def _pointee(ctype: ct.CType, node) -> ct.CType:
    if not ctype.is_pointer:
        raise CompileError("subscripted value is not an array or pointer", node.coord)
    return ctype.pointee
