"""offsetof(type, member-designator) (C11 7.19p3): the byte offset of a designated member,
an integer constant expression (so _Static_assert, array sizes and enumerators may use
it) and the value the code generator emits. pycparser parses it as a call,
FuncCall(ID('offsetof'), [Typename, designator]), the designator as the member access
expression `a.b[2].c` it looks like."""

from __future__ import annotations

from collections.abc import Callable

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct


def designator_steps(node) -> list:
    """`a.b[2].c` -> ["a", "b", <2>, "c"]."""
    if isinstance(node, c_ast.ID):
        return [node.name]
    if isinstance(node, c_ast.StructRef):
        return designator_steps(node.name) + [node.field.name]
    if isinstance(node, c_ast.ArrayRef):
        return designator_steps(node.name) + [node.subscript]
    raise CompileError("invalid member designator in offsetof", node.coord)


def _member(ctype: ct.CType, name: str, coord):
    member = ctype.field(name) if ctype.is_struct else None
    if member is None:
        raise CompileError(f"no member named '{name}' in '{ctype}'", coord)
    if member.is_bit_field:
        raise CompileError(f"attempt to take address of bit-field structure member '{name}'", coord)
    return member


def member_offset(ctype: ct.CType, designator, index_value: Callable[[object], int]) -> int:
    """The offset of `designator` in `ctype`; `index_value` evaluates a subscript."""
    offset = 0
    for step in designator_steps(designator):
        if isinstance(step, str):
            member = _member(ctype, step, designator.coord)
            offset += member.offset
            ctype = member.ctype
            if member.name != step:                # inside an anonymous member
                inner = _member(ctype, step, designator.coord)
                offset, ctype = offset + inner.offset, inner.ctype
        else:
            if not ctype.is_array:
                raise CompileError("subscript of a non-array member in offsetof", designator.coord)
            ctype = ctype.element
            offset += index_value(step) * ctype.size
    return offset
