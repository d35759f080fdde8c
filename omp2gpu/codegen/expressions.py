"""C expressions -> IR (C99 6.5). Mixed into FunctionEmitter.

`expr(node)` gives an RValue after lvalue conversion and array/function decay;
`lvalue(node)` gives the object an expression designates. This module keeps the
entry points, the leaves, assignment and the comma; one mixin per concern does the
rest: lvalues.py (objects, members, subscripts), operators.py, pointer_arithmetic.py,
branching_operators.py (&&, ||, ?:), calls.py, type_operators.py (sizeof, casts, _Generic).
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.branching_operators import BranchingOperatorEmitter
from omp2gpu.codegen.calls import CallEmitter
from omp2gpu.codegen.complex_operators import ComplexOperatorEmitter
from omp2gpu.codegen.conversions import convert, truth_value
from omp2gpu.codegen.ir_types import I32
from omp2gpu.codegen.lvalues import LValueEmitter, no_long_double_here
from omp2gpu.codegen.operators import OperatorEmitter
from omp2gpu.codegen.pointer_arithmetic import PointerArithmeticEmitter
from omp2gpu.codegen.type_operators import TypeOperatorEmitter
from omp2gpu.codegen.values import RValue
from omp2gpu.diagnostics import CompileError, SourceLocation
from omp2gpu.frontend.operator_locations import operator_coord
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.constant_eval import evaluate
from omp2gpu.sema.literals import char_literal, float_literal, imaginary_literal, integer_literal, is_imaginary


class ExpressionEmitter(LValueEmitter, OperatorEmitter, PointerArithmeticEmitter,
                        BranchingOperatorEmitter, CallEmitter, TypeOperatorEmitter,
                        ComplexOperatorEmitter):
    """Expression half of FunctionEmitter (see function.py for the state it uses)."""

    # ----------------------------------------------------------------- entry points
    def expr(self, node) -> RValue:
        method = getattr(self, "_expr_" + type(node).__name__, None)
        if method is None:
            raise CompileError(f"unsupported expression ({type(node).__name__})", node.coord)
        try:
            value = method(node)
        except CompileError as error:
            if error.location is None:          # raised where no node was at hand
                error.location = SourceLocation.of(node.coord)
            raise
        if not self.module.has_x86_fp80 and ct.real_type(value.ctype) == ct.LONG_DOUBLE:
            raise no_long_double_here(node)
        return value

    def expr_as(self, node, ctype: ct.CType) -> ir.Value:
        """Evaluate and convert, as for assignment to an object of `ctype`."""
        value = self.expr(node)
        self._check_assignable(ctype, value, node)
        return convert(self.builder, value.value, value.ctype, ctype, node.coord)

    def condition(self, node) -> ir.Value:
        value = self.expr(node)
        test = self.truth(value, node)
        widened = value.value
        if isinstance(widened, ir.CastInstr) and test is widened.operands[0] \
                and self.builder.block.instructions[-1:] == [widened]:
            # a comparison's int (its i1 widened) that truth_value saw through: no one
            # else has it, so it is not left behind for LLVM to delete
            self.builder.block.instructions.pop()
        return test

    def truth(self, value: RValue, node) -> ir.Value:
        if not (value.ctype.is_scalar or value.ctype.is_complex):
            raise CompileError(f"used type '{value.ctype}' where a scalar is required", node.coord)
        return truth_value(self.builder, value.value, value.ctype)

    # ----------------------------------------------------------------- leaves
    def _expr_Constant(self, node):
        if node.type == "string":
            return self.load(self.lvalue(node))
        if node.type == "char":
            return RValue(ct.INT, ir.Constant(I32, char_literal(node.value, node.coord)))
        if is_imaginary(node.value):
            return self._imaginary_constant(node)
        if node.type in ("float", "double", "long double"):
            value, ctype = float_literal(node.value, node.coord)
            return RValue(ctype, ir.Constant(ctype.ir_type(), value))
        value, ctype = integer_literal(node.value, node.coord)
        return RValue(ctype, ir.Constant(ctype.ir_type(), value))

    def _imaginary_constant(self, node):
        """`2.5i` (GNU C): the complex value 0 + 2.5i of its real type."""
        imaginary, ctype = imaginary_literal(node.value, node.coord)
        real = ctype.real.ir_type()
        return RValue(ctype, ir.Constant(ctype.ir_type(), [ir.Constant(real, 0.0),
                                                           ir.Constant(real, imaginary)]))

    def _expr_ID(self, node):
        symbol = self.lookup_symbol(node)
        if symbol.kind == "enum-constant":       # an int, or a wider enumeration's type
            return RValue(symbol.ctype, ir.Constant(symbol.ctype.ir_type(), symbol.value))
        if symbol.kind == "typedef":
            raise CompileError(f"unexpected type name '{node.name}': expected expression", node.coord)
        return self.load(self.lvalue(node))

    def _expr_StatementExpression(self, node):
        """A GNU statement expression `({ int t = f(x); t * t; })`: the block runs in
        its own scope; its value is that of its last statement when that is an
        expression statement, else it has type void."""
        items = node.block_items or []
        with self.block_scope():
            for item in items[:-1]:
                self.stmt(item)
            last = items[-1] if items else None
            if last is None or hasattr(self, "_stmt_" + type(last).__name__):   # not an expression
                self.stmt(last)
                return RValue(ct.VOID, None)
            self.ensure_open_block()
            return self.expr(last)

    def _expr_ExprList(self, node):
        result = RValue(ct.VOID, None)
        for item in node.exprs:
            result = self.expr(item)
        return result

    # ----------------------------------------------------------------- assignment
    def _expr_Assignment(self, node):
        target = self.modifiable_lvalue(node.lvalue, node)
        if target.ctype.is_array or target.ctype.is_function:
            raise CompileError("array type is not assignable", operator_coord(node))
        if node.op == "=":
            value = self.expr_as(node.rvalue, target.ctype)
        else:
            # The right operand first, then the stored value, as Clang does: the old
            # value is not kept live across the right operand's loads.
            op = node.op[:-1]
            right = self.expr(node.rvalue)
            current = self.load(target)
            result = self.binary(op, current, right, node)
            value = convert(self.builder, result.value, result.ctype, target.ctype, node.coord)
        return self.store(target, value)

    def _check_assignable(self, target: ct.CType, value: RValue, node) -> None:
        source = value.ctype
        if target.is_struct or source.is_struct:
            if target is not source:
                raise CompileError(f"assigning to '{target}' from incompatible type '{source}'", node.coord)
            return
        if target.is_pointer and source.is_floating or target.is_floating and source.is_pointer:
            raise CompileError(f"assigning to '{target}' from incompatible type '{source}'", node.coord)
        if source.is_void and not target.is_void:
            raise CompileError("void value not ignored as it ought to be", node.coord)

    # ----------------------------------------------------------------- constants
    def constant_value(self, node):
        """Compile-time value of an integer constant expression (case labels)."""
        return evaluate(node, self.scope, self.resolver)
