"""Struct and union types (sema/struct_types.py): completion, identity, IR names and
bodies, member lookup through anonymous members. Where members lie is
test_record_layout.py's subject."""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.struct_types import StructType


def _completed(tag, members, union=False, context=None) -> StructType:
    record = StructType(tag, is_union=union)
    record.complete(members, context or ir.Context())
    return record


def test_a_struct_is_incomplete_until_its_definition_completes_it():
    record = StructType("s")
    assert not record.is_complete and record.size == 0
    record.complete([("a", ct.CHAR), ("d", ct.DOUBLE)], ir.Context())
    assert record.is_complete and (record.size, record.align) == (16, 8)


def test_structs_are_equal_only_to_themselves():
    first = _completed("s", [("a", ct.INT)])
    twin = _completed("s", [("a", ct.INT)])
    assert first == first and first != twin
    assert len({first, twin}) == 2


def test_ir_names_count_per_context_in_declaration_order():
    """The same program gives the same IR whatever this process compiled before."""
    earlier = ir.Context()
    _completed("a", [("x", ct.INT)], context=earlier)
    context = ir.Context()
    first = _completed("a", [("x", ct.INT)], context=context)
    second = _completed(None, [("y", ct.INT)], union=True, context=context)
    assert first.ir_type().name == "struct.a.0"
    assert second.ir_type().name == "union.anon.1"


def test_a_union_body_is_its_most_aligned_member_and_padding():
    union = _completed("u", [("c", ct.ArrayType(ct.CHAR, 5)), ("x", ct.INT)], union=True)
    assert union.stored_member == ct.INT and union.size == 8
    assert union.ir_type().elements == (ir.IntType(32), ir.ArrayType(ir.IntType(8), 4))


def test_members_of_anonymous_members_are_found_through_them():
    context = ir.Context()
    inner = _completed(None, [("x", ct.INT), ("y", ct.INT)], context=context)
    outer = _completed("o", [("a", ct.CHAR), (None, inner)], context=context)
    holder = outer.field("y")
    assert holder.name is None and holder.ctype is inner       # the anonymous member
    assert outer.named_field("y").name == "y" and outer.named_field("y").ctype == ct.INT
    assert outer.field("z") is None and outer.named_field("z") is None
