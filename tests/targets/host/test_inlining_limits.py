"""GCC's large-function caps as noinline marks."""

from __future__ import annotations

import llvmlite.ir as ir
from host_ir_modules import I32, caller, straight_line

from omp2gpu.targets.host.inlining_limits import (
    LARGE_FUNCTION_INSTRUCTIONS,
    SMALL_FUNCTION_INSTRUCTIONS,
    limit_inlining_growth,
)
from omp2gpu.targets.host.optimisation import optimise


def test_limit_inlining_growth_caps_a_caller_like_gcc():
    m = ir.Module("growth")
    big = [straight_line(m, f"big{k}", 1000) for k in range(5)]
    small = straight_line(m, "small", SMALL_FUNCTION_INSTRUCTIONS)
    twice = straight_line(m, "twice", 1000)
    public = straight_line(m, "public", 1000, linkage="")
    caller(m, "main", [*big, small, twice, twice, public])
    # Called once each: the first two fit under LARGE_FUNCTION_INSTRUCTIONS (3000) with
    # main's own instructions; the rest would take main past it. Small functions, those
    # called twice and external ones are left to LLVM (no single-call bonus for them).
    assert limit_inlining_growth(m) == ["big2", "big3", "big4"]
    assert "noinline" in big[4].attributes and "noinline" not in big[0].attributes
    assert "noinline" not in small.attributes and "noinline" not in twice.attributes
    optimise(m, 2).verify()      # still valid IR


def test_limit_inlining_growth_counts_what_is_inlined_into_a_callee():
    m = ir.Module("nested")
    leaves = [straight_line(m, f"leaf{k}", 700) for k in range(3)]
    middle = caller(m, "middle", leaves)
    middle.linkage = "internal"
    other = straight_line(m, "other", 1000)
    caller(m, "main", [middle, other])
    # middle absorbs its three leaves; main, with middle's 2,100 instructions, has no
    # room left for other's 1,000.
    assert limit_inlining_growth(m) == ["other"]


def test_limit_inlining_growth_ignores_address_taken_functions():
    m = ir.Module("taken")
    big = [straight_line(m, f"big{k}", 1500) for k in range(3)]
    table = ir.GlobalVariable(m, ir.ArrayType(big[2].type, 1), "table")
    table.initializer = ir.Constant(table.value_type, [big[2]])
    caller(m, "main", big)
    assert limit_inlining_growth(m) == ["big1"]


def test_limit_inlining_growth_reads_exact_names_in_initializers():
    # a table of big10 does not take big1's address (a prefix of its name)
    m = ir.Module("prefix")
    big = [straight_line(m, f"big{k}", 1500) for k in range(3)]
    tail = straight_line(m, "big10", 10)
    table = ir.GlobalVariable(m, ir.ArrayType(tail.type, 1), "table")
    table.initializer = ir.Constant(table.value_type, [tail])
    caller(m, "main", big)
    assert limit_inlining_growth(m) == ["big1", "big2"]


def test_limit_inlining_growth_treats_a_whole_program_as_static():
    m = ir.Module("whole")
    big = [straight_line(m, f"big{k}", 1500, linkage="") for k in range(3)]
    caller(m, "main", big)
    assert limit_inlining_growth(m) == []
    assert limit_inlining_growth(m, whole_program=True) == ["big1", "big2"]


def _small_loop(m: ir.Module, name: str) -> ir.Function:
    """int name(int n): a counting loop, a few instructions."""
    function = ir.Function(m, ir.FunctionType(I32, [I32]), name)
    function.linkage = "internal"
    entry, loop, done = (function.append_basic_block(n) for n in ("entry", "loop", "done"))
    b = ir.IRBuilder(entry)
    b.branch(loop)
    b.position_at_end(loop)
    i = b.phi(I32)
    i.add_incoming(I32(0), entry)
    following = b.add(i, I32(1))
    i.add_incoming(following, loop)
    b.cbranch(b.icmp_signed("<", following, function.args[0]), loop, done)
    b.position_at_end(done)
    b.ret(following)
    return function


def test_limit_inlining_growth_keeps_loops_out_of_a_largecaller():
    # loops inlined into a huge main made -O2 quadratic; into a small caller they still go
    m = ir.Module("loops")
    loops = [_small_loop(m, f"loop{k}") for k in range(3)]
    flat = straight_line(m, "flat", 50)
    caller(m, "small", [loops[0]])
    main = ir.Function(m, ir.FunctionType(I32, []), "main")
    b = ir.IRBuilder(main.append_basic_block())
    value = I32(0)
    for k in range(LARGE_FUNCTION_INSTRUCTIONS):
        value = b.add(value, I32(k))
    for callee in (loops[1], flat, loops[2]):
        value = b.add(value, b.call(callee, [value]))
    b.ret(value)
    assert limit_inlining_growth(m) == ["loop1", "loop2"]


def test_limit_inlining_growth_never_marks_a_call_in_a_loop():
    m = ir.Module("loop")
    big = [straight_line(m, f"big{k}", 1500) for k in range(3)]
    main = ir.Function(m, ir.FunctionType(I32, []), "main")
    entry, loop, done = (main.append_basic_block(n) for n in ("entry", "loop", "done"))
    b = ir.IRBuilder(entry)
    b.call(big[0], [I32(1)])
    b.branch(loop)
    b.position_at_end(loop)
    i = b.phi(I32)
    i.add_incoming(I32(0), entry)
    b.call(big[1], [i])                       # called once, but on every iteration
    following = b.add(i, I32(1))
    i.add_incoming(following, loop)
    b.cbranch(b.icmp_signed("<", following, I32(10)), loop, done)
    b.position_at_end(done)
    b.ret(b.call(big[2], [I32(2)]))
    assert limit_inlining_growth(m) == ["big2"]
