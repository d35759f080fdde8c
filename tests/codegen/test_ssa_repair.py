"""ssa_repair: values used where they no longer dominate get a slot; the rest stay SSA."""

from __future__ import annotations

import llvmlite.binding as llvm
from llvmlite import ir

from omp2gpu.codegen.ssa_repair import demote_undominated_values, dominators

I32 = ir.IntType(32)


def _dispatcher_function():
    """A control loop: header switches on the state; state 0 computes %left, state 1
    uses it and (through a phi in `tail`) returns it: state 0 does not dominate state 1."""
    module = ir.Module()
    function = ir.Function(module, ir.FunctionType(I32, [I32, I32]), name="f")
    entry, header, s0, s1, tail, done = (function.append_basic_block(n) for n in
                                         ("entry", "header", "s0", "s1", "tail", "done"))
    b = ir.IRBuilder(entry)
    b.branch(header)
    b.position_at_end(header)
    state = b.phi(I32, "state")
    switch = b.switch(state, done)
    switch.add_case(ir.Constant(I32, 0), s0)
    switch.add_case(ir.Constant(I32, 1), s1)
    b.position_at_end(s0)
    left = b.add(function.args[0], ir.Constant(I32, 1), name="left")
    b.branch(header)
    b.position_at_end(s1)
    total = b.add(left, function.args[1], name="total")
    b.branch(tail)
    b.position_at_end(tail)
    result = b.phi(I32, "result")
    result.add_incoming(left, s1)
    b.ret(b.add(result, total))
    state.add_incoming(ir.Constant(I32, 0), entry)
    state.add_incoming(ir.Constant(I32, 1), s0)
    ir.IRBuilder(done).ret(ir.Constant(I32, 0))
    return module, function


def test_dominators_of_a_loop_with_a_switch():
    _, function = _dispatcher_function()
    idom, order = dominators(function)
    names = {block.name: block for block in order}
    assert idom[names["header"]] is names["entry"]
    assert idom[names["s0"]] is names["header"] and idom[names["s1"]] is names["header"]
    assert idom[names["tail"]] is names["s1"]
    assert idom[names["done"]] is names["header"]


def test_undominated_value_is_demoted_and_module_verifies():
    module, function = _dispatcher_function()
    try:
        llvm.parse_assembly(str(module)).verify()
        raise AssertionError("the test function should not verify before the repair")
    except RuntimeError as error:
        assert "dominate" in str(error)
    assert demote_undominated_values(function) == 1          # %left (two uses); %total is fine
    text = str(module)
    assert text.count("alloca") == 1 and text.count("load i32, i32* %\"demoted\"") == 2
    llvm.parse_assembly(text).verify()


def test_nothing_to_do_leaves_the_function_alone():
    module = ir.Module()
    function = ir.Function(module, ir.FunctionType(I32, [I32]), name="g")
    b = ir.IRBuilder(function.append_basic_block("entry"))
    b.ret(b.mul(function.args[0], function.args[0]))
    before = str(module)
    assert demote_undominated_values(function) == 0
    assert str(module) == before
