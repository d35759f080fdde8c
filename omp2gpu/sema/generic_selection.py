"""C11 `_Generic` (6.5.1.1): which association's expression a selection stands for.

The controlling expression is not evaluated; its type after lvalue conversion
(arrays and functions decay, as gcc does) picks the association whose type is
compatible with it, or `default`. Shared by codegen (the value) and
sema/expression_types (its type in constant expressions)."""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.record_layout import Field


def selected_expression(selection: c_ast.GenericSelection, controlling: ct.CType, resolve):
    """The expression of the association `controlling` selects; `resolve(typename)`
    gives an association's C type."""
    controlling = ct.decay(controlling)
    default = None
    for association in selection.associations:
        if association.type is None:
            if default is not None:
                raise CompileError("duplicate default generic association", association.coord)
            default = association.expr
            continue
        if _same_type(resolve(association.type), controlling):
            return association.expr
    if default is None:
        raise CompileError(f"controlling expression type '{controlling}' not compatible with "
                           "any generic association type", selection.coord)
    return default


def bit_field_controlling_type(member: Field) -> ct.CType:
    """A bit-field's type as gcc's _Generic sees it: its declared type when it is as
    wide as that type (`unsigned b:32`, `_Bool d:1`), else a type of its own that
    only `default` matches (`unsigned a:3` is 'unsigned int:3')."""
    declared = member.ctype
    if declared.is_bool or member.bit_width == declared.bits:
        return declared
    return ct.IntType(f"{declared}:{member.bit_width}", member.bit_width, declared.signed,
                      declared.rank)


def _same_type(a: ct.CType, b: ct.CType) -> bool:
    """Compatible types in the sense _Generic needs (char, signed char and unsigned
    char differ; int and long differ; structs by identity)."""
    if a.is_struct or b.is_struct:
        return a is b
    return a == b
