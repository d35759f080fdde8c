"""The operators about types: sizeof and _Alignof (C99 6.5.3.4), casts (6.5.4) and
C11 _Generic (6.5.1.1), with the type of an expression found without keeping its
code.
Mixed into FunctionEmitter through ExpressionEmitter (expressions.py).
"""

from __future__ import annotations

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I64
from omp2gpu.codegen.values import RValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.expression_types import bit_field_member
from omp2gpu.sema.generic_selection import bit_field_controlling_type, selected_expression


class TypeOperatorEmitter:
    """sizeof, _Alignof, casts and _Generic (UnaryOp sends sizeof and _Alignof here)."""

    def size_or_alignment(self, node) -> RValue:
        """`sizeof x`, or C11 `_Alignof x` and GNU `__alignof__ x`; of a type or an
        expression (sizeof a VLA is a run-time value)."""
        if node.op == "sizeof":
            return RValue(ct.SIZE_T, self.runtime_size(self.sizeof_operand(node.expr, node.coord)))
        return RValue(ct.SIZE_T, ir.Constant(I64, self.sizeof_operand(node.expr, node.coord,
                                                                      "__alignof").align))

    def sizeof_operand(self, operand, coord=None, keyword="sizeof") -> ct.CType:
        """The operand's type; `coord` (the `sizeof` keyword) locates errors."""
        if isinstance(operand, c_ast.Typename):
            ctype = self.resolve_type(operand)
        else:
            ctype = self.type_of(operand, keyword)
        if ctype.is_function or not ctype.is_complete:
            raise CompileError(f"invalid application of 'sizeof' to an incomplete type '{ctype}'",
                               coord or operand.coord)
        return ctype

    def type_of(self, node, operator_of_type=None) -> ct.CType:
        """Type of an expression without keeping its code (for sizeof). A bit-field is
        an error when `operator_of_type` ('sizeof', 'typeof', ...) asks for its type."""
        saved_block, saved_scope = self.builder.block, self.scope
        scratch = self.function.append_basic_block("sizeof.scratch")
        self.builder.position_at_end(scratch)
        self.scope = saved_scope.child()     # VLA lengths bound in the scratch code go with it
        try:
            is_object = not isinstance(node, c_ast.ID) or self.lookup_symbol(node).kind == "object"
            if is_object and isinstance(node, (c_ast.ID, c_ast.ArrayRef, c_ast.StructRef,
                                               c_ast.CompoundLiteral)) or (
                    isinstance(node, c_ast.UnaryOp) and node.op == "*") or (
                    isinstance(node, c_ast.Constant) and node.type == "string"):
                target = self.lvalue(node)
                if target.bit_field is not None and operator_of_type is not None:
                    raise CompileError(f"'{operator_of_type}' applied to a bit-field", node.coord)
                ctype = target.ctype if target.bit_field is None else target.bit_field.value_type
            else:
                ctype = self.expr(node).ctype
        finally:
            self.scope = saved_scope
            self.builder.position_at_end(saved_block)
            self.function.blocks.remove(scratch)
        return ctype

    def _expr_Cast(self, node):
        target = self.resolve_type(node.to_type)
        value = self.expr(node.expr)
        if target.is_void:
            return RValue(ct.VOID, None)
        if target.is_complex or value.ctype.is_complex:     # to and from arithmetic types only
            return RValue(target, convert(self.builder, value.value, value.ctype, target, node.coord))
        if not target.is_scalar or not value.ctype.is_scalar:
            raise CompileError(f"cannot cast from '{value.ctype}' to '{target}'", node.coord)
        if target.is_floating and value.ctype.is_pointer or target.is_pointer and value.ctype.is_floating:
            raise CompileError(f"cannot cast from '{value.ctype}' to '{target}'", node.coord)
        return RValue(target, convert(self.builder, value.value, value.ctype, target, node.coord))

    def _expr_GenericSelection(self, node):
        member = bit_field_member(node.expr, self.scope, self.resolver) \
            if isinstance(node.expr, c_ast.StructRef) else None
        controlling = self.type_of(node.expr) if member is None \
            else bit_field_controlling_type(member)
        return self.expr(selected_expression(node, controlling, self.resolve_type))
