"""Pointer arithmetic and comparison (C99 6.5.6, 6.5.8, 6.5.9): offsets scaled by the
pointee's size (a run-time size for a VLA), differences, comparisons.
Mixed into FunctionEmitter through ExpressionEmitter (expressions.py).
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I32, I64
from omp2gpu.codegen.operators import COMPARISON_OPERATORS
from omp2gpu.codegen.values import RValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.operator_locations import operator_coord
from omp2gpu.sema import ctypes as ct


class PointerArithmeticEmitter:
    """Binary operators with a pointer operand, and &pointer[index]."""

    def pointer_binary(self, op, left: RValue, right: RValue, node) -> RValue:
        if op in COMPARISON_OPERATORS:
            if any(not (side.ctype.is_pointer or side.ctype.is_integer) for side in (left, right)):
                raise CompileError(f"invalid operands to binary '{op}' ('{left.ctype}' and "
                                   f"'{right.ctype}')", node.coord)
            a, b = left.value, right.value
            if left.ctype.is_integer:
                a = convert(self.builder, a, left.ctype, right.ctype, node.coord)
            elif right.ctype.is_integer:
                b = convert(self.builder, b, right.ctype, left.ctype, node.coord)
            elif a.type != b.type:
                b = self.builder.bitcast(b, a.type)
            if not isinstance(a.type, ir.PointerType) and not isinstance(b.type, ir.PointerType):
                raise CompileError("invalid pointer comparison", node.coord)
            return RValue(ct.INT, self.builder.zext(self.builder.icmp_unsigned(op, a, b), I32))
        if op == "+":
            pointer, offset = (left, right) if left.ctype.is_pointer else (right, left)
            if offset.ctype.is_integer:
                return RValue(pointer.ctype, self.pointer_offset(pointer, offset, node))
        if op == "-" and left.ctype.is_pointer:
            if right.ctype.is_integer:
                negated = RValue(ct.LONG, self.builder.neg(
                    convert(self.builder, right.value, right.ctype, ct.LONG)))
                return RValue(left.ctype, self.pointer_offset(left, negated, node))
            if right.ctype.is_pointer:
                if not _subtractable(left.ctype.pointee, right.ctype.pointee):     # C11 6.5.6p3
                    raise CompileError(f"invalid operands to binary - (have '{left.ctype}' and "
                                       f"'{right.ctype}')", operator_coord(node))
                size = self._element_size(left.ctype, node)
                a = self.builder.ptrtoint(left.value, I64)
                b = self.builder.ptrtoint(right.value, I64)
                difference = self.builder.sub(a, b)
                return RValue(ct.PTRDIFF_T, self.builder.sdiv(difference, size))
        raise CompileError(f"invalid operands to binary expression ('{left.ctype}' and '{right.ctype}')",
                           node.coord)

    def _element_size(self, pointer_type, node) -> ir.Value:
        """sizeof the pointee (i64): a run-time value for a VLA."""
        pointee = pointer_type.pointee
        if pointee.is_void or pointee.is_function:
            return ir.Constant(I64, 1)      # GNU C arithmetic on void *; gcc accepts it
        if not pointee.is_complete:
            raise CompileError(f"arithmetic on a pointer to an incomplete type '{pointee}'", node.coord)
        return self.runtime_size(pointee)

    def pointer_offset(self, pointer: RValue, index: RValue, node) -> ir.Value:
        """&pointer[index], scaled by the pointee size (C99 6.5.6p8)."""
        offset = convert(self.builder, index.value, index.ctype,
                         ct.LONG if index.ctype.signed else ct.ULONG)
        pointee = pointer.ctype.pointee
        if pointee.is_void or pointee.is_function:
            raw = self.builder.bitcast(pointer.value, ir.IntType(8).as_pointer())
            moved = self.builder.gep(raw, [offset], inbounds=True)
            return self.builder.bitcast(moved, pointer.value.type)
        if pointee.is_variable:          # `p + i` on `double (*p)[m]`: i rows of m doubles
            offset = self.builder.mul(offset, self.fixed_elements(pointee))
        else:
            self._element_size(pointer.ctype, node)
        # inbounds: the result must point into (or just past) the same array (C99 6.5.6p8).
        return self.builder.gep(pointer.value, [offset], inbounds=True)


def _subtractable(a: ct.CType, b: ct.CType) -> bool:
    """Pointers to compatible types (qualifiers aside; an array of unknown size matches
    any length) may be subtracted; `int *` - `unsigned *` may not."""
    a, b = a.unqualified(), b.unqualified()
    if a.is_array and b.is_array:
        sizes_match = a.length is None or b.length is None or a.length == b.length
        return sizes_match and _subtractable(a.element, b.element)
    return a == b
