"""`#pragma omp atomic` on a bit-field in device code (gcc accepts it).

A bit-field's bits lie inside one aligned unit of its declared type, so inside
one aligned 4-byte word (8-byte for a long long bit-field): the update is a
compare-and-swap loop on that word that changes only the bit-field's bits; a
concurrent change to any other bit of the word makes the swap fail and retry.
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I64
from omp2gpu.codegen.openmp.atomics import memory_order
from omp2gpu.codegen.openmp.atomics.compare_and_swap import compare_and_swap_loop
from omp2gpu.codegen.values import LValue, RValue
from omp2gpu.sema import ctypes as ct


def _word(cg, target: LValue):
    """(address, word C type, shift): the aligned word holding the bits, and where."""
    b, place = cg.builder, target.bit_field
    word = ct.ULLONG if target.ctype.size == 8 else ct.UINT
    address = b.ptrtoint(place.storage, I64)
    start = b.and_(address, ir.Constant(I64, -word.size))
    shift = b.add(b.mul(b.sub(address, start), ir.Constant(I64, 8)), ir.Constant(I64, place.shift))
    shift = shift if word.bits == 64 else b.trunc(shift, word.ir_type())
    return b.inttoptr(start, word.ir_type().as_pointer()), word, shift


def _extract(cg, place, word: ir.Value, shift: ir.Value) -> RValue:
    b = cg.builder
    bits = b.trunc(b.lshr(word, shift), ir.IntType(place.width))
    target = place.value_type.ir_type()
    if bits.type != target:
        bits = (b.sext if place.signed else b.zext)(bits, target)
    return RValue(place.value_type, bits)


def atomic_bit_field_update(cg, target: LValue, compute, ordering: str = "monotonic") -> tuple[ir.Value, ir.Value]:
    """Atomically x = compute(x) for bit-field `target`: `compute` takes x's value
    (an RValue of its value type) and gives the new one in x's declared type. Returns
    (old, new) in the declared type, `new` as the bit-field keeps it."""
    b, place = cg.builder, target.bit_field
    address, word, shift = _word(cg, target)
    mask = b.shl(ir.Constant(word.ir_type(), (1 << place.width) - 1), shift)
    results = {}

    def new_word(old_word):
        old = _extract(cg, place, old_word, shift)
        new_bits = b.trunc(compute(old), ir.IntType(place.width)) if place.width < target.ctype.bits \
            else compute(old)
        placed = b.shl(b.zext(new_bits, word.ir_type()) if place.width < word.bits else new_bits, shift)
        kept = b.and_(old_word, b.not_(mask))
        new = _extract(cg, place, placed, shift)
        results["old"] = convert(b, old.value, old.ctype, target.ctype)
        results["new"] = convert(b, new.value, new.ctype, target.ctype)
        return b.or_(kept, placed)
    compare_and_swap_loop(cg, address, word, new_word, ordering)
    return results["old"], results["new"]


def atomic_bit_field_read(cg, target: LValue, ordering: str = "monotonic") -> RValue:
    """The bit-field's value, read with one atomic instruction on its word."""
    address, word, shift = _word(cg, target)
    value = memory_order.load(cg, address, ordering, word.size)
    return _extract(cg, target.bit_field, value, shift)
