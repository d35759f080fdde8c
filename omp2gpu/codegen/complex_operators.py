"""C's operators on complex operands (C99 6.5.5-6.5.9, Annex G.5) and GNU's
`__real__`, `__imag__` and `~` (the conjugate). Mixed into FunctionEmitter through
ExpressionEmitter (expressions.py).

A real operand stays real where Annex G says the result then differs (G.5.1p2,
G.5.2p2: `x * (u + iv)` is `xu + ixv`, no 0 * inf NaN), as gcc computes it; complex
by complex `*` and `/` call the functions of complex_arithmetic.py, which give
Annex G's infinities where the textbook formulas give NaN.
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen import complex_arithmetic, complex_values
from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I32
from omp2gpu.codegen.values import LValue, RValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct


class ComplexOperatorEmitter:
    """Binary and unary operators where an operand is complex."""

    def complex_binary(self, op: str, left: RValue, right: RValue, node) -> RValue:
        arithmetic = all(operand.ctype.is_complex or operand.ctype.is_arithmetic for operand in (left, right))
        if not arithmetic or op not in ("+", "-", "*", "/", "==", "!="):     # no order, no %, no bits
            raise CompileError(f"invalid operands to binary '{op}' ('{left.ctype}' and "
                               f"'{right.ctype}')", node.coord)
        ctype = ct.usual_arithmetic_conversion(left.ctype, right.ctype)
        a, b = self._complex_operand(left, ctype), self._complex_operand(right, ctype)
        if op in ("==", "!="):
            return RValue(ct.INT, self.builder.zext(self._complex_equality(op, a, b, ctype.real), I32))
        if op == "/" and b[1] is not None and a[1] is None:
            a = (a[0], complex_values.zero_of(ctype.real))       # real / complex: a full division
        if op in ("*", "/") and a[1] is not None and b[1] is not None:
            function = complex_arithmetic.function(self.module.module, op, ctype)
            result = self.builder.call(function, [*a, *b])
            return RValue(ctype, result)
        return RValue(ctype, complex_values.make(self.builder, ctype, *self._mixed(op, a, b, ctype.real)))

    def _complex_operand(self, operand: RValue, ctype: ct.ComplexType) -> tuple:
        """(real, imaginary) converted to `ctype`'s parts; imaginary None for a real operand."""
        if operand.ctype.is_complex:
            value = convert(self.builder, operand.value, operand.ctype, ctype)
            return complex_values.parts(self.builder, value)
        return convert(self.builder, operand.value, operand.ctype, ctype.real), None

    def _mixed(self, op: str, a: tuple, b: tuple, real: ct.CType) -> tuple[ir.Value, ir.Value]:
        """+ and - (either operand may be real), * and / with a real operand (G.5.1, G.5.2)."""
        builder = self.builder
        (x, y), (u, v) = a, b
        if op in ("+", "-"):
            arithmetic = builder.fadd if op == "+" else builder.fsub
            real_part = arithmetic(x, u)
            if y is None:
                return real_part, (v if op == "+" else builder.fneg(v))
            return real_part, (y if v is None else arithmetic(y, v))
        if op == "*":
            if y is None:
                return builder.fmul(x, u), builder.fmul(x, v)
            return builder.fmul(x, u), builder.fmul(y, u)
        return builder.fdiv(x, u), builder.fdiv(y, u)        # complex / real

    def _complex_equality(self, op: str, a: tuple, b: tuple, real: ct.CType) -> ir.Value:
        zero = complex_values.zero_of(real)
        (x, y), (u, v) = a, b
        y, v = (zero if y is None else y), (zero if v is None else v)
        if op == "==":
            return self.builder.and_(self.builder.fcmp_ordered("==", x, u), self.builder.fcmp_ordered("==", y, v))
        return self.builder.or_(self.builder.fcmp_unordered("!=", x, u), self.builder.fcmp_unordered("!=", y, v))

    def complex_unary(self, op: str, operand: RValue, node) -> RValue:
        """Unary + and -, and GNU `~z`, the conjugate."""
        real, imaginary = complex_values.parts(self.builder, operand.value)
        if op == "+":
            return operand
        if op == "-":
            real, imaginary = self.builder.fneg(real), self.builder.fneg(imaginary)
        elif op == "~":
            imaginary = self.builder.fneg(imaginary)
        else:
            raise CompileError(f"invalid argument type '{operand.ctype}' to unary '{op}'", node.coord)
        return RValue(operand.ctype, complex_values.make(self.builder, operand.ctype, real, imaginary))

    # ----------------------------------------------------------------- __real__, __imag__
    def part_operator(self, node) -> RValue:
        """GNU `__real__ e` and `__imag__ e`: a part of a complex value (an lvalue where `e`
        is one); of a real `e`, `e` itself and a zero of its type."""
        operand = self.expr(node.expr)
        ctype = operand.ctype
        if not (ctype.is_complex or ctype.is_arithmetic):
            raise CompileError(f"wrong type argument to {node.op}", node.coord)
        if not ctype.is_complex:
            if node.op == "__real__":
                return operand
            return RValue(ctype, ir.Constant(ctype.ir_type(), 0.0 if ctype.is_floating else 0))
        return RValue(ctype.real, self.builder.extract_value(operand.value, 0 if node.op == "__real__" else 1))

    def part_lvalue(self, node) -> LValue:
        """`__real__ z = 1.0`: the part of the complex object `z` as an object."""
        whole = self.lvalue(node.expr, node)
        if not whole.ctype.is_complex:
            raise CompileError(f"{node.op} of a non-complex object is not assignable here", node.coord)
        index = 0 if node.op == "__real__" else 1
        address = self.builder.gep(whole.address, [ir.Constant(I32, 0), ir.Constant(I32, index)], inbounds=True)
        return LValue(whole.ctype.real, address, whole.const)
