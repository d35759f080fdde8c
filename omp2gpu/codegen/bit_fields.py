"""Reading and writing bit-fields (C99 6.7.2.1).

A bit-field is reached through the bytes that hold its bits, and only those: an
integer of that many bytes (i8 to i64, i24 and the like included) loaded, shifted
and masked. Touching no byte outside the bit-field keeps a neighbouring ordinary
member a memory location of its own (C11 3.14), which another thread may write
meanwhile. The loads and stores carry the alignment the record guarantees there.
"""

from __future__ import annotations

from dataclasses import dataclass

from llvmlite import ir

from omp2gpu.codegen.ir_types import I8P
from omp2gpu.codegen.values import LValue, RValue
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.record_layout import Field


@dataclass(frozen=True)
class BitFieldPlace:
    """Where a bit-field's bits lie: `storage` points at the bytes holding them (an
    integer of those bytes), `shift` bits up from its lowest bit."""
    storage: ir.Value
    shift: int
    width: int
    signed: bool
    align: int
    value_type: ct.IntType      # the type its value has in expressions


def bit_field_lvalue(builder: ir.IRBuilder, owner: LValue, member: Field, const: bool) -> LValue:
    """The lvalue of bit-field `member` of the struct or union `owner` designates."""
    first_byte = member.bit_offset // 8
    shift = member.bit_offset % 8
    length = (shift + member.bit_width + 7) // 8
    raw = builder.bitcast(owner.address, I8P)
    if first_byte:
        raw = builder.gep(raw, [ir.Constant(ir.IntType(64), first_byte)], inbounds=True)
    storage = builder.bitcast(raw, ir.IntType(length * 8).as_pointer())
    declared = member.ctype
    place = BitFieldPlace(storage, shift, member.bit_width,
                          declared.signed and not declared.is_bool and not declared.unsigned_enum,
                          _alignment(owner.ctype.align, first_byte),
                          ct.bit_field_value_type(declared, member.bit_width))
    return LValue(declared, storage, const, bit_field=place)


def _alignment(record_align: int, offset: int) -> int:
    """The alignment known at `offset` bytes into a record aligned so."""
    align = record_align
    while offset % align:
        align //= 2
    return align


def load_bit_field(builder: ir.IRBuilder, lvalue: LValue) -> RValue:
    place = lvalue.bit_field
    bits = builder.load(place.storage, align=place.align)
    return RValue(place.value_type, _extend(builder, _extract(builder, bits, place), place))


def store_bit_field(builder: ir.IRBuilder, lvalue: LValue, value: ir.Value) -> RValue:
    """Store `value` (of the bit-field's declared type) into its bits; gives the value
    the bit-field then holds (what the assignment expression yields)."""
    place = lvalue.bit_field
    storage_type = place.storage.type.pointee
    narrow = ir.IntType(place.width)
    new_bits = value if value.type == narrow else builder.trunc(value, narrow)
    placed = new_bits if storage_type == narrow else builder.zext(new_bits, storage_type)
    if place.shift:
        placed = builder.shl(placed, ir.Constant(storage_type, place.shift))
    mask = ((1 << place.width) - 1) << place.shift
    if mask != (1 << storage_type.width) - 1:
        old = builder.load(place.storage, align=place.align)
        kept = builder.and_(old, ir.Constant(storage_type, ~mask & ((1 << storage_type.width) - 1)))
        placed = builder.or_(kept, placed)
    builder.store(placed, place.storage, align=place.align)
    return RValue(place.value_type, _extend(builder, new_bits, place))


def _extract(builder, bits: ir.Value, place: BitFieldPlace) -> ir.Value:
    if place.shift:
        bits = builder.lshr(bits, ir.Constant(bits.type, place.shift))
    narrow = ir.IntType(place.width)
    return bits if bits.type == narrow else builder.trunc(bits, narrow)


def _extend(builder, narrow: ir.Value, place: BitFieldPlace) -> ir.Value:
    """The bit-field's bits as a value of its value type."""
    target = place.value_type.ir_type()
    if narrow.type == target:
        return narrow
    return (builder.sext if place.signed else builder.zext)(narrow, target)

