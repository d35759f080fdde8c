"""The IR builder of a function's code: llvmlite's, with the casts that need no
instruction folded as they are built.

C's conversions make many casts whose result is known here: an integer constant widened
(`(long)i * 838` converts 838), a bitcast to the very type a value has. Built as
instructions, each is Python work, IR text and LLVM's parsing and clean-up; with the
branches that test a comparison's i1 (conversions.truth_value), they were 13,000 of the
340,000 instructions of bench/startup's 50,000-line file. The folding gives the same
program: LLVM folds these first thing. (A bitcast between two pointer types of other
pointees stays: llvmlite's typed pointers check a store's pointee.)
"""

from __future__ import annotations

from llvmlite import ir


def _integer_constant(value: ir.Value) -> int | None:
    """The integer of a plain integer constant (not a constant expression), else None."""
    if type(value) is ir.Constant and isinstance(value.type, ir.IntType) and type(value.constant) is int:
        return value.constant
    return None


def _as_width(number: int, bits: int, signed: bool) -> int:
    """`number`'s low `bits` bits, read as signed or unsigned."""
    number &= (1 << bits) - 1
    return number - (1 << bits) if signed and number >> (bits - 1) else number


def _constant(typ: ir.IntType, number: int) -> ir.Constant:
    """An integer constant spelled as LLVM prints it: signed, i1 as 0 or 1."""
    return ir.Constant(typ, _as_width(number, typ.width, signed=typ.width > 1))


class FoldingBuilder(ir.IRBuilder):
    def bitcast(self, value, typ, name=""):
        if value.type == typ:
            return value
        return super().bitcast(value, typ, name)

    def sext(self, value, typ, name=""):
        number = _integer_constant(value)
        if number is None:
            return super().sext(value, typ, name)
        return _constant(typ, _as_width(number, value.type.width, signed=True))

    def zext(self, value, typ, name=""):
        number = _integer_constant(value)
        if number is None:
            return super().zext(value, typ, name)
        return _constant(typ, _as_width(number, value.type.width, signed=False))

    def trunc(self, value, typ, name=""):
        number = _integer_constant(value)
        if number is None:
            return super().trunc(value, typ, name)
        return _constant(typ, number)
