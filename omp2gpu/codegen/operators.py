"""C's unary operators (C99 6.5.3: & * + - ~ !, ++ and --) and its binary operators on
arithmetic operands (6.5.5-6.5.12). sizeof and _Alignof go to type_operators.py, pointer
operands to pointer_arithmetic.py, && and || to branching_operators.py.
Mixed into FunctionEmitter through ExpressionEmitter (expressions.py).
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.conversions import convert, truth_value
from omp2gpu.codegen.ir_types import I32, I64
from omp2gpu.codegen.values import RValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.operator_locations import operator_coord
from omp2gpu.sema import ctypes as ct

COMPARISON_OPERATORS = {"<", ">", "<=", ">=", "==", "!="}


def _no_signed_wrap(rules, ctype: ct.CType) -> tuple[str, ...]:
    """("nsw",) for a signed integer type of int's rank or more: its overflow is undefined
    (C99 6.5p5), as Clang marks it, so loop induction variables widen instead of
    sign-extending each use; none under -fwrapv (code_rules.py). Not for char and short:
    `c++` computes in int and converts back, which wraps (implementation-defined) rather
    than overflows."""
    return rules.signed_flags() if ctype.is_integer and ctype.signed and not ctype.is_bool \
        and ctype.bits >= 32 else ()


class OperatorEmitter:
    """Unary operators, ++/--, and the binary operators but && and ||."""

    # ----------------------------------------------------------------- unary
    def _expr_UnaryOp(self, node):
        op = node.op
        if op in ("sizeof", "_Alignof"):
            return self.size_or_alignment(node)
        if op == "&":
            target = self.lvalue(node.expr, node)
            if target.bit_field is not None:
                raise CompileError(f"cannot take address of bit-field '{node.expr.field.name}'",
                                   node.coord)
            return RValue(ct.PointerType(target.ctype), target.address)
        if op == "*":
            return self.load(self.lvalue(node))
        if op in ("++", "--", "p++", "p--"):
            return self._increment(node)
        if op in ("__real__", "__imag__"):
            return self.part_operator(node)
        operand = self.expr(node.expr)
        if op == "!":
            if not (operand.ctype.is_scalar or operand.ctype.is_complex):
                raise CompileError("invalid argument type to unary '!'", node.coord)
            test = truth_value(self.builder, operand.value, operand.ctype)
            return RValue(ct.INT, self.builder.zext(self.builder.not_(test), I32))
        if operand.ctype.is_complex:
            return self.complex_unary(op, operand, node)
        if not operand.ctype.is_arithmetic or (op == "~" and not operand.ctype.is_integer):
            raise CompileError(f"invalid argument type '{operand.ctype}' to unary '{op}'", node.coord)
        ctype = ct.integer_promotion(operand.ctype)
        value = convert(self.builder, operand.value, operand.ctype, ctype)
        if op == "+":
            return RValue(ctype, value)
        if op == "-":
            if ctype.is_floating:
                return RValue(ctype, self.builder.fneg(value))
            return RValue(ctype, self.builder.sub(ir.Constant(value.type, 0), value,
                                                  flags=_no_signed_wrap(self.module.code_rules, ctype)))
        return RValue(ctype, self.builder.not_(value))       # ~

    def _increment(self, node):
        target = self.modifiable_lvalue(node.expr, node)
        old = self.load(target)
        if old.ctype.is_complex:
            one = RValue(ct.INT, ir.Constant(I32, 1))
            new = self.complex_binary("+" if "+" in node.op else "-", old, one, node)
            self.store(target, new.value)
            return old if node.op.startswith("p") else new
        if not old.ctype.is_scalar:
            raise CompileError("cannot increment value of this type", operator_coord(node))
        step = 1 if "+" in node.op else -1
        if old.ctype.is_pointer:
            new = self.pointer_offset(old, RValue(ct.LONG, ir.Constant(I64, step)), node)
        elif old.ctype.is_floating:
            new = self.builder.fadd(old.value, ir.Constant(old.value.type, float(step)))
        elif old.ctype.is_bool:
            new = ir.Constant(old.value.type, 1) if step > 0 else self.builder.xor(
                old.value, ir.Constant(old.value.type, 1))
        else:
            new = self.builder.add(old.value, ir.Constant(old.value.type, step),
                                   flags=_no_signed_wrap(self.module.code_rules, old.ctype))
        if target.bit_field is not None:       # computed in its value type, stored in its bits
            stored = self.store(target, convert(self.builder, new, old.ctype, target.ctype))
            return old if node.op.startswith("p") else stored
        self.store(target, new)
        return old if node.op.startswith("p") else RValue(old.ctype, new)

    # ----------------------------------------------------------------- binary
    def _expr_BinaryOp(self, node):
        op = node.op
        if op in ("&&", "||"):
            return self.short_circuit(node)
        left, right = self.expr(node.left), self.expr(node.right)
        return self.binary(op, left, right, node)

    def binary(self, op: str, left: RValue, right: RValue, node) -> RValue:
        if left.ctype.is_pointer or right.ctype.is_pointer:
            return self.pointer_binary(op, left, right, node)
        if left.ctype.is_complex or right.ctype.is_complex:
            return self.complex_binary(op, left, right, node)
        if not left.ctype.is_arithmetic or not right.ctype.is_arithmetic:
            raise CompileError(f"invalid operands to binary expression ('{left.ctype}' and "
                               f"'{right.ctype}')", node.coord)
        if op in ("<<", ">>"):
            if not (left.ctype.is_integer and right.ctype.is_integer):
                raise CompileError("invalid operands to shift", node.coord)
            ctype = ct.integer_promotion(left.ctype)
            a = convert(self.builder, left.value, left.ctype, ctype)
            b = convert(self.builder, right.value, right.ctype, ct.integer_promotion(right.ctype))
            b = self._resize(b, a.type, right.ctype)
            if op == "<<":
                return RValue(ctype, self.builder.shl(a, b))
            shift = self.builder.ashr if ctype.signed else self.builder.lshr
            return RValue(ctype, shift(a, b))
        ctype = ct.usual_arithmetic_conversion(left.ctype, right.ctype)
        a = convert(self.builder, left.value, left.ctype, ctype)
        b = convert(self.builder, right.value, right.ctype, ctype)
        if op in COMPARISON_OPERATORS:
            if ctype.is_floating:
                # != is true for NaN operands, the others false (IEEE).
                compare = self.builder.fcmp_unordered if op == "!=" else self.builder.fcmp_ordered
                test = compare(op, a, b)
            elif ctype.signed:
                test = self.builder.icmp_signed(op, a, b)
            else:
                test = self.builder.icmp_unsigned(op, a, b)
            return RValue(ct.INT, self.builder.zext(test, I32))
        if op in ("%", "&", "|", "^") and not ctype.is_integer:
            raise CompileError(f"invalid operands to binary '{op}' ('{left.ctype}' and '{right.ctype}')",
                               node.coord)
        return RValue(ctype, self.arithmetic(op, a, b, ctype, _no_signed_wrap(self.module.code_rules, ctype)))

    def arithmetic(self, op: str, a: ir.Value, b: ir.Value, ctype: ct.CType,
                   flags: tuple[str, ...] = ()) -> ir.Value:
        """`a op b` in `ctype`; `flags` ("nsw") go on + - *; -ffast-math's on floating point."""
        b_ = self.builder
        if ctype.is_floating:
            return {"+": b_.fadd, "-": b_.fsub, "*": b_.fmul, "/": b_.fdiv}[op](
                a, b, flags=self.module.code_rules.float_flags())
        if op == "/":
            return (b_.sdiv if ctype.signed else b_.udiv)(a, b)
        if op == "%":
            return (b_.srem if ctype.signed else b_.urem)(a, b)
        if op in ("+", "-", "*"):
            return {"+": b_.add, "-": b_.sub, "*": b_.mul}[op](a, b, flags=flags)
        return {"&": b_.and_, "|": b_.or_, "^": b_.xor}[op](a, b)

    def _resize(self, value, ir_type, ctype):
        if value.type.width > ir_type.width:
            return self.builder.trunc(value, ir_type)
        if value.type.width < ir_type.width:
            return self.builder.zext(value, ir_type)
        return value
