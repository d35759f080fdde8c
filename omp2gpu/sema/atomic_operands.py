"""The operands of an atomic construct's statement: lvalues, `v = x` reads, and
whether two expressions spell the same object (atomic_forms, atomic_compare_forms)."""

from __future__ import annotations

from pycparser import c_ast


def same_location(a, b) -> bool:
    """Two lvalue expressions that spell the same object (x, a[i], s.f, *p)."""
    return type(a) is type(b) and (
        (isinstance(a, c_ast.ID) and a.name == b.name)
        or (isinstance(a, c_ast.ArrayRef) and same_location(a.name, b.name)
            and same_expression(a.subscript, b.subscript))
        or (isinstance(a, c_ast.StructRef) and a.type == b.type and a.field.name == b.field.name
            and same_location(a.name, b.name))
        or (isinstance(a, c_ast.Constant) and a.value == b.value)
        or (isinstance(a, c_ast.UnaryOp) and a.op == b.op and same_location(a.expr, b.expr)))



def is_lvalue(node) -> bool:
    return isinstance(node, (c_ast.ID, c_ast.ArrayRef, c_ast.StructRef)) or (
        isinstance(node, c_ast.UnaryOp) and node.op == "*")


def is_read(node) -> bool:
    """`v = x` with both lvalues."""
    return isinstance(node, c_ast.Assignment) and node.op == "=" and is_lvalue(node.lvalue) \
        and is_lvalue(node.rvalue)


def same_expression(a, b) -> bool:
    """Two expressions spelled alike (node kinds, names, operators and constants), as
    the two `expr` of `x = expr < x ? expr : x` must be."""
    if type(a) is not type(b):
        return False
    if a is None:
        return True
    if any(getattr(a, name) != getattr(b, name) for name in a.attr_names):
        return False
    left, right = a.children(), b.children()
    return len(left) == len(right) and all(
        name_a == name_b and same_expression(child_a, child_b)
        for (name_a, child_a), (name_b, child_b) in zip(left, right))
