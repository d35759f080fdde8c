"""The operators that branch: && and || (C99 6.5.13-14, short-circuit) and ?:
(6.5.15, and GNU's `x ?: y`), each joining its arms with a phi.
Mixed into FunctionEmitter through ExpressionEmitter (expressions.py).
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.conversions import convert, is_null_pointer_constant
from omp2gpu.codegen.ir_types import I1, I32
from omp2gpu.codegen.values import RValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct


class BranchingOperatorEmitter:
    """&&, || and ?: (BinaryOp sends && and || here)."""

    def short_circuit(self, node) -> RValue:
        """&& and || with short-circuit evaluation and an i1 phi."""
        is_and = node.op == "&&"
        left = self.condition(node.left)
        left_block = self.builder.block
        right_block = self.new_block("logic.rhs")
        end_block = self.new_block("logic.end")
        if is_and:
            self.builder.cbranch(left, right_block, end_block)
        else:
            self.builder.cbranch(left, end_block, right_block)
        self.builder.position_at_end(right_block)
        right = self.condition(node.right)
        right_end = self.builder.block
        self.builder.branch(end_block)
        self.builder.position_at_end(end_block)
        phi = self.builder.phi(I1)
        phi.add_incoming(ir.Constant(I1, 0 if is_and else 1), left_block)
        phi.add_incoming(right, right_end)
        return RValue(ct.INT, self.builder.zext(phi, I32))

    def _expr_TernaryOp(self, node):
        # GNU `x ?: y` (gnu_nodes.ConditionalWithOmittedOperand): x, evaluated once, is
        # also the value when it is true.
        first = self.expr(node.cond) if node.iftrue is None else None
        test = self.condition(node.cond) if first is None else self.truth(first, node.cond)
        then_block, else_block = self.new_block("cond.true"), self.new_block("cond.false")
        end_block = self.new_block("cond.end")
        self.builder.cbranch(test, then_block, else_block)
        self.builder.position_at_end(then_block)
        then_value = self.expr(node.iftrue) if first is None else first
        then_end = self.builder.block
        self.builder.position_at_end(else_block)
        else_value = self.expr(node.iffalse)
        else_end = self.builder.block
        ctype = self._conditional_type(then_value, else_value, node)
        for value, block in ((then_value, then_end), (else_value, else_end)):
            self.builder.position_at_end(block)
            converted = None if ctype.is_void else convert(
                self.builder, value.value, value.ctype, ctype, node.coord)
            self.builder.branch(end_block)
            if block is then_end:
                then_converted, then_end = converted, self.builder.block
            else:
                else_converted, else_end = converted, self.builder.block
        self.builder.position_at_end(end_block)
        if ctype.is_void:
            return RValue(ct.VOID, None)
        phi = self.builder.phi(ctype.ir_type())
        phi.add_incoming(then_converted, then_end)
        phi.add_incoming(else_converted, else_end)
        return RValue(ctype, phi)

    _expr_ConditionalWithOmittedOperand = _expr_TernaryOp

    def _conditional_type(self, a: RValue, b: RValue, node) -> ct.CType:
        if all(v.ctype.is_arithmetic or v.ctype.is_complex for v in (a, b)):
            return ct.usual_arithmetic_conversion(a.ctype, b.ctype)
        if a.ctype.is_void or b.ctype.is_void:
            return ct.VOID
        if a.ctype.is_pointer and (b.ctype.is_pointer or is_null_pointer_constant(b.value, b.ctype)):
            if b.ctype.is_pointer and a.ctype.pointee.is_void:
                return b.ctype if not b.ctype.pointee.is_void else a.ctype
            return a.ctype
        if b.ctype.is_pointer and is_null_pointer_constant(a.value, a.ctype):
            return b.ctype
        if a.ctype.is_struct and a.ctype is b.ctype:
            return a.ctype
        raise CompileError(f"incompatible operand types ('{a.ctype}' and '{b.ctype}')", node.coord)
