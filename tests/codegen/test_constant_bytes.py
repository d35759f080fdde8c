"""codegen/constant_bytes: a union's static value through a narrower member."""

import struct

import pytest
from llvmlite import ir

from omp2gpu.codegen.constant_bytes import constant_bytes, constant_from_bytes, union_constant
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct


def _union(*members):
    union = ct.StructType("u", is_union=True)
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
