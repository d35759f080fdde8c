"""codegen/folding_builder.py and the branch on a comparison's i1: the casts C's conversions
make of constants are constants, a bitcast to a value's own type is the value, and an `if`
on a comparison tests the comparison, with no widened int left behind (the unoptimised IR)."""

from __future__ import annotations

import re

from host_programs import host_ir
from llvmlite import ir

from omp2gpu.codegen.folding_builder import FoldingBuilder

PROGRAM = """
long scaled(int i) { return (long)i * 838 + (unsigned char)300 + (signed char)200; }
int less(int a, int b) { if (a < b) return 1; while (a != b && a > 0) a--; return a; }
int main(void) { return (int)scaled(less(1, 2)); }
"""


def _function(text: str, name: str) -> str:
    return re.search(rf"define [^@]*@\"?{name}\"?\(.*?\n}}", text, re.S).group(0)


def test_constants_converted_by_c_are_constants(tmp_path):
    scaled = _function(host_ir(tmp_path, PROGRAM), "scaled")
    assert not re.search(r"= (sext|zext|trunc) i\d+ -?\d+ to", scaled), scaled
    assert re.search(r"mul nsw i64 %\S+, 838", scaled), scaled
    assert re.search(r"add nsw i64 %\S+, 44\n", scaled), scaled          # (unsigned char)300
    assert re.search(r"add nsw i64 %\S+, -56\n", scaled), scaled          # (signed char)200


def test_a_branch_tests_the_comparison_itself(tmp_path):
    less = _function(host_ir(tmp_path, PROGRAM), "less")
    assert not re.search(r"zext i1", less), less
    assert re.search(r"icmp slt i32 .*\n\s+br i1", less), less


def test_casts_of_constants_and_to_the_same_type():
    module = ir.Module()
    block = ir.Function(module, ir.FunctionType(ir.VoidType(), []), "f").append_basic_block()
    builder = FoldingBuilder(block)
    i8, i32, i64 = ir.IntType(8), ir.IntType(32), ir.IntType(64)
    assert builder.sext(ir.Constant(i8, 200), i32).constant == -56
    assert builder.zext(ir.Constant(i8, -1), i64).constant == 255
    assert builder.trunc(ir.Constant(i64, 2**40 + 300), i8).constant == 44
    assert builder.zext(ir.Constant(ir.IntType(1), 1), i32).constant == 1
    assert builder.trunc(ir.Constant(i32, 3), ir.IntType(1)).constant == 1
    pointer = ir.Argument(block.function, i32.as_pointer())
    assert builder.bitcast(pointer, i32.as_pointer()) is pointer
    assert block.instructions == []
    assert builder.bitcast(pointer, i8.as_pointer()).opname == "bitcast"   # another pointee: an instruction
