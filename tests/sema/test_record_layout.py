"""sema/record_layout: struct and union layout with bit-fields, as gcc on x86-64.

Three checks: the layout rules on small records; that LLVM's layout of the IR body
(host and NVPTX data layouts) is the C layout, offsets, size and alignment, so
records nest and form arrays identically on both sides; and a program of many
records (data/bit_field_layouts.c) whose sizes, alignments, offsets and
initialised bytes must be gcc's byte for byte."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import llvmlite.binding as llvm
import pytest
from llvmlite import ir

from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.record_layout import Member
from omp2gpu.sema.struct_types import StructType
from omp2gpu.targets import host
from omp2gpu.targets.nvptx.machine import data_layout

DATA = Path(__file__).resolve().parent / "data"
REPO_ROOT = DATA.parents[2]


def _record(*members, union=False, context=None) -> StructType:
    record = StructType("r", is_union=union)
    record.complete([Member(*m) for m in members], context or ir.Context())
    return record


def _offsets(record) -> dict:
    return {f.name: (f.bit_offset if f.is_bit_field else f.offset * 8) for f in record.fields}


def test_bit_fields_share_a_unit_until_one_would_cross_it():
    record = _record(("a", ct.CHAR), ("b", ct.INT, 4), ("c", ct.INT, 30), ("d", ct.CHAR))
    # b fits in the int unit at 0 after a; c would cross bit 32, so starts the next unit.
    assert _offsets(record) == {"a": 0, "b": 8, "c": 32, "d": 64}
    assert (record.size, record.align) == (12, 4)


def test_a_zero_width_bit_field_pads_without_aligning_the_record():
    record = _record(("a", ct.CHAR), (None, ct.INT, 0), ("b", ct.CHAR))
    assert _offsets(record) == {"a": 0, "b": 32}
    assert (record.size, record.align) == (5, 1)
    trailing = _record(("a", ct.CHAR), (None, ct.INT, 0))
    assert (trailing.size, trailing.align) == (4, 1)


def test_unnamed_bit_fields_are_no_members_and_do_not_align():
    record = _record((None, ct.INT, 5), ("c", ct.CHAR))
    assert [f.name for f in record.fields] == ["c"]
    assert (record.size, record.align, record.fields[0].offset) == (2, 1, 1)


def test_a_named_bit_field_gives_its_declared_alignment():
    record = _record(("flag", ct.UINT, 1))
    assert (record.size, record.align) == (4, 4)
    shorts = _record(("a", ct.CHAR), ("b", ct.SHORT, 9), ("c", ct.CHAR))
    assert _offsets(shorts) == {"a": 0, "b": 16, "c": 32}
    assert (shorts.size, shorts.align) == (6, 2)


def test_wide_long_long_bit_fields():
    record = _record(("a", ct.CHAR), ("x", ct.LLONG, 40), ("b", ct.CHAR), ("y", ct.ULLONG, 60))
    assert _offsets(record) == {"a": 0, "x": 8, "b": 48, "y": 64}
    assert (record.size, record.align) == (16, 8)


def test_unions_with_bit_fields():
    named = _record(("bits", ct.UINT, 12), ("c", ct.CHAR), union=True)
    assert (named.size, named.align) == (4, 4)
    unnamed = _record(("c", ct.CHAR), (None, ct.INT, 5), union=True)
    assert (unnamed.size, unnamed.align) == (1, 1)
    wide = _record(("c", ct.ArrayType(ct.CHAR, 5)), ("x", ct.INT, 3), union=True)
    assert (wide.size, wide.align) == (8, 4)


def test_records_without_bit_fields_keep_one_ir_element_per_member():
    record = _record(("a", ct.CHAR), ("d", ct.DOUBLE))
    assert record.storage == record.fields
    assert [f.index for f in record.fields] == [0, 1]


# ----------------------------------------------------------------- LLVM's view of the IR body
_RECORDS = [
    [("a", ct.CHAR), ("b", ct.INT, 4), ("c", ct.INT, 30), ("d", ct.CHAR)],
    [("a", ct.CHAR), (None, ct.INT, 0), ("b", ct.CHAR)],
    [("a", ct.CHAR), (None, ct.LLONG, 0), ("b", ct.CHAR)],
    [("a", ct.CHAR), (None, ct.INT, 0)],
    [("flag", ct.UINT, 1)],
    [("x", ct.ULLONG, 3), ("y", ct.ULLONG, 40), ("z", ct.LLONG, 33), ("w", ct.UINT, 32),
     ("c", ct.CHAR, 3), ("b", ct.BOOL, 1), ("s", ct.USHORT, 9)],
    [("name", ct.ArrayType(ct.CHAR, 3)), ("flag", ct.UINT, 1), ("d", ct.DOUBLE)],
    [("p", ct.PointerType(ct.INT)), ("n", ct.UINT, 12), ("m", ct.UINT, 20), ("k", ct.UINT, 1)],
    [("a", ct.CHAR), ("s", ct.SHORT, 3), ("i", ct.INT), ("ll", ct.LLONG, 7), ("c", ct.CHAR)],
]


def _data_layouts():
    return {"host": str(host.target_machine().target_data), "nvptx": data_layout()}


@pytest.mark.parametrize("target", ["host", "nvptx"])
@pytest.mark.parametrize("members", _RECORDS, ids=range(len(_RECORDS)))
def test_llvm_lays_the_ir_body_out_as_c(target, members):
    context = ir.Context()
    record = _record(*members, context=context)
    outer = _record(("c", ct.CHAR), ("r", record), ("t", ct.CHAR), context=context)
    module = ir.Module(context=context)
    module.data_layout = _data_layouts()[target]
    for name, ctype in (("record", record), ("outer", outer), ("pair", ct.ArrayType(record, 2))):
        ir.GlobalVariable(module, ctype.ir_type(), name).initializer = ir.Constant(ctype.ir_type(), None)
    parsed = llvm.parse_assembly(str(module))
    data = llvm.create_target_data(module.data_layout)
    body = parsed.get_global_variable("record").global_value_type
    assert data.get_abi_size(body) == record.size
    assert data.get_abi_alignment(body) == record.align
    for field in record.fields:
        if not field.is_bit_field:
            assert data.get_element_offset(body, field.index) == field.offset, field.name
    nested = parsed.get_global_variable("outer").global_value_type
    assert data.get_element_offset(nested, outer.fields[1].index) == outer.fields[1].offset
    assert data.get_abi_size(parsed.get_global_variable("pair").global_value_type) == 2 * record.size


# ----------------------------------------------------------------- against gcc
@pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc")
def test_sizes_offsets_and_initialised_bytes_are_gccs(tmp_path):
    source = DATA / "bit_field_layouts.c"
    binary = tmp_path / "layouts"
    subprocess.run(["gcc", "-std=c99", "-O1", "-w", str(source), "-o", str(binary)], check=True)
    expected = subprocess.run([str(binary)], capture_output=True, text=True, check=True).stdout
    ours = subprocess.run([sys.executable, "-m", "omp2gpu", "run", str(source)], capture_output=True,
                          text=True, cwd=REPO_ROOT, timeout=300)
    assert ours.returncode == 0, ours.stderr
    assert ours.stdout == expected
