"""The operators that branch: && and || (C99 6.5.13-14, short-circuit) and ?:
(6.5.15, and GNU's `x ?: y`), each joining its arms with a phi.
Mixed into FunctionEmitter through ExpressionEmitter (expressions.py).
"""

from __future__ import annotations

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.conversions import convert, is_null_pointer_constant
from omp2gpu.codegen.ir_types import I1, I32
from omp2gpu.codegen.values import RValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct

# Operators a plain value may be made with: none traps or writes (no division).
_PLAIN_OPERATORS = frozenset({"==", "!=", "<", ">", "<=", ">=", "&", "|", "^"})


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
        if node.iftrue is not None and self._plain_value(node.iftrue) and self._plain_value(node.iffalse):
            chosen = self._select(node)
            if chosen is not None:
                return chosen
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

    def _plain_value(self, node) -> bool:
        """A constant or a local scalar's value (or a comparison or choice of them):
        evaluating it has no effect and cannot trap, so `c ? a : b` of two may read both.
        As a select, a value loaded into a local before it stays where it was loaded: a
        branch lets LLVM sink a load used in one arm into it (sema/speculation/
        makes such choices)."""
        if isinstance(node, c_ast.Constant):
            return node.type != "string"
        if isinstance(node, c_ast.TernaryOp):           # a choice among plain values
            return node.iftrue is not None and all(
                self._plain_value(part) for part in (node.cond, node.iftrue, node.iffalse))
        if isinstance(node, c_ast.BinaryOp):
            return node.op in _PLAIN_OPERATORS and self._plain_value(node.left) and self._plain_value(node.right)
        if isinstance(node, c_ast.UnaryOp):
            return node.op in ("-", "+", "!", "~") and self._plain_value(node.expr)
        if isinstance(node, c_ast.Cast):                # to an arithmetic type: no trap
            return (isinstance(node.to_type.type, c_ast.TypeDecl)
                    and isinstance(node.to_type.type.type, c_ast.IdentifierType) and self._plain_value(node.expr))
        if not isinstance(node, c_ast.ID):
            return False
        try:
            symbol = self.lookup_symbol(node)
        except CompileError:
            return False
        if symbol.kind == "enum-constant":
            return True
        return (symbol.kind == "object" and symbol.storage in ("auto", "register") and not symbol.volatile
                and symbol.ctype is not None and symbol.ctype.is_scalar)

    def _select(self, node) -> RValue | None:
        """`c ? a : b` of two plain values as a select; None where the type is not scalar
        (`(void) 0`, a complex constant), before the condition is made: the branching form
        then makes it, once."""
        then_value, else_value = self.expr(node.iftrue), self.expr(node.iffalse)   # no effects
        ctype = self._conditional_type(then_value, else_value, node)
        if not ctype.is_scalar:
            return None
        test = self.condition(node.cond)
        values = [convert(self.builder, value.value, value.ctype, ctype, node.coord)
                  for value in (then_value, else_value)]
        return RValue(ctype, self.builder.select(test, *values))

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
