"""codegen/constant_bytes: a union's static value through a narrower member."""

import struct

import pytest
from llvmlite import ir

from omp2gpu.codegen.constant_bytes import (
    constant_bytes,
    constant_from_bytes,
    struct_constant,
    union_constant,
)
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.record_layout import Member
from omp2gpu.sema.struct_types import StructType


def _union(*members):
    union = StructType("u", is_union=True)
    union.complete(list(members), ir.Context())
    return union


def test_bytes_round_trip_through_another_type():
    data = struct.pack("<d", 2.5)
    as_long = constant_from_bytes(data, ct.LLONG)
    assert constant_bytes(as_long, ct.LLONG) == data


def test_a_char_member_pads_the_double_the_union_stores():
    union = _union(("c", ct.CHAR), ("d", ct.DOUBLE))
    value = union_constant(union, ct.CHAR, ir.Constant(ct.CHAR.ir_type(), ord("x")), None)
    assert constant_bytes(value, union) == b"x" + bytes(7)


def test_an_address_through_a_narrower_member_is_refused():
    union = _union(("p", ct.PointerType(ct.INT)), ("pair", ct.ArrayType(ct.LONG, 2)))
    gv = ir.GlobalVariable(ir.Module(), ct.INT.ir_type(), "g")
    with pytest.raises(CompileError, match="union with an address"):
        union_constant(union, ct.PointerType(ct.INT), gv.bitcast(ct.INT.ir_type().as_pointer()), None)


def test_a_long_double_union_through_its_bytes():
    union = _union(("ld", ct.LONG_DOUBLE), ("c", ct.ArrayType(ct.UCHAR, 16)))
    one = bytes([0, 0, 0, 0, 0, 0, 0, 0x80, 0xFF, 0x3F]) + bytes(6)      # 1.0L
    chars = ir.Constant(ct.ArrayType(ct.UCHAR, 16).ir_type(), bytearray(one))
    value = union_constant(union, ct.ArrayType(ct.UCHAR, 16), chars, None)
    assert value.constant[0].constant == 1


def _bit_field_struct():
    record = StructType("h")
    record.complete([Member("version", ct.UINT, 4), Member("ihl", ct.UINT, 4),
                     Member("tos", ct.UCHAR), Member("length", ct.USHORT),
                     Member("delta", ct.INT, 5)], ir.Context())
    return record


def test_a_struct_constant_packs_its_bit_fields_as_gcc():
    record = _bit_field_struct()
    members = {0: ir.Constant(ct.UINT.ir_type(), 4), 1: ir.Constant(ct.UINT.ir_type(), 0x15),
               3: ir.Constant(ct.USHORT.ir_type(), 1500), 4: ir.Constant(ct.INT.ir_type(), -3)}
    value = struct_constant(record, members)
    # ihl keeps the low 4 bits of 0x15; delta (-3 in 5 bits) starts the next int unit's byte 4.
    assert constant_bytes(value, record) == bytes([0x54, 0x00, 0xDC, 0x05, 0x1D, 0, 0, 0])
    assert constant_bytes(constant_from_bytes(constant_bytes(value, record), record), record) \
        == constant_bytes(value, record)
