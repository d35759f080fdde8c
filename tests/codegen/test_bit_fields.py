"""codegen/bit_fields: a bit-field is read and written through its own bytes only,
with the alignment its record guarantees, sign-extended by its declared type."""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.bit_fields import bit_field_lvalue, load_bit_field, store_bit_field
from omp2gpu.codegen.values import LValue
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.record_layout import Member
from omp2gpu.sema.struct_types import StructType


def _record(*members) -> StructType:
    record = StructType("r")
    record.complete([Member(*m) for m in members], ir.Context())
    return record


def _builder(record):
    module = ir.Module()
    function = ir.Function(module, ir.FunctionType(ir.VoidType(), [record.ir_type().as_pointer()]), "f")
    builder = ir.IRBuilder(function.append_basic_block())
    return builder, LValue(record, function.args[0])


def _place(record, name):
    builder, owner = _builder(record)
    member = record.field(name)
    return builder, bit_field_lvalue(builder, owner, member, const=False)


def test_a_bit_field_between_chars_is_one_byte_wide():
    record = _record(("a", ct.CHAR), ("x", ct.UINT, 4), ("b", ct.CHAR))
    builder, target = _place(record, "x")
    store_bit_field(builder, target, ir.Constant(ct.UINT.ir_type(), 9))
    text = str(builder.function)
    assert "load i8" in text and "store i8" in text and "i32*" not in text.split("{", 1)[1]


def test_bits_across_bytes_use_those_bytes_and_their_alignment():
    record = _record(("a", ct.CHAR), ("x", ct.UINT, 20))     # bits 8..27: bytes 1..3
    place = _place(record, "x")[1].bit_field
    assert place.storage.type.pointee == ir.IntType(24)
    assert (place.shift, place.align) == (0, 1)
    aligned = _place(_record(("w", ct.ULLONG, 40)), "w")[1].bit_field
    assert aligned.storage.type.pointee == ir.IntType(40) and aligned.align == 8


def test_signed_bit_fields_sign_extend_and_unsigned_ones_promote_to_int():
    record = _record(("s", ct.INT, 3), ("u", ct.UINT, 3), ("e", ct.UNSIGNED_ENUM, 2))
    for name, extension in (("s", "sext"), ("u", "zext"), ("e", "zext")):
        builder, target = _place(record, name)
        value = load_bit_field(builder, target)
        assert value.ctype == ct.INT
        assert extension in str(builder.function)


def test_the_assigned_value_is_the_one_the_bits_keep():
    builder, target = _place(_record(("s", ct.INT, 3)), "s")
    result = store_bit_field(builder, target, ir.Constant(ct.INT.ir_type(), 5))
    assert "sext i3" in str(builder.function) and result.ctype == ct.INT


def test_value_types_follow_gcc():
    assert ct.bit_field_value_type(ct.UINT, 3) == ct.INT
    assert ct.bit_field_value_type(ct.UINT, 32) == ct.UINT
    assert ct.bit_field_value_type(ct.ULLONG, 32) == ct.UINT
    assert ct.bit_field_value_type(ct.LLONG, 64) == ct.LLONG
    assert ct.bit_field_value_type(ct.BOOL, 1) == ct.BOOL
    wide = ct.bit_field_value_type(ct.ULLONG, 40)
    assert (wide.bits, wide.signed, wide.size) == (40, False, 8)
    # 40-bit + unsigned int stays 40-bit; + long is long; + unsigned long long is that.
    assert ct.usual_arithmetic_conversion(wide, ct.UINT) == wide
    assert ct.usual_arithmetic_conversion(wide, ct.LONG) == ct.LONG
    assert ct.usual_arithmetic_conversion(wide, ct.ULLONG) == ct.ULLONG
    assert ct.usual_arithmetic_conversion(wide, ct.bit_field_value_type(ct.LLONG, 50)).bits == 50
