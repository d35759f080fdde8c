"""The compare-and-swap loop every atomic without a hardware instruction is built on
(atomic updates of other operators, bit-fields, reductions combined per team, the
control loop's dynamic schedule, `atomic compare` of floating-point values).
"""

from __future__ import annotations

from typing import NamedTuple

from llvmlite import ir

from omp2gpu.codegen.openmp import memory_order


class Swap(NamedTuple):
    old: ir.Value           # the value before, in the object's type
    new: ir.Value           # the value after (old where nothing was written)
    written: ir.Value       # i1: whether the loop wrote (always 1 without a condition)


def compare_and_swap_loop(cg, address, ctype, new_value, ordering: str = "monotonic") -> tuple[ir.Value, ir.Value]:
    """Atomically *address = new_value(*address) with cmpxchg on the value's bits, retried
    until no other thread intervened; returns (old, new). 4- and 8-byte objects."""
    swap = conditional_swap_loop(cg, address, ctype, new_value, None, ordering)
    return swap.old, swap.new


def conditional_swap_loop(cg, address, ctype, new_value, condition, ordering: str = "monotonic",
                          failure: str = "monotonic") -> Swap:
    """Atomically: if condition(*address) then *address = new_value(*address). The value
    read first is read with the `failure` ordering (it is the result when the condition
    fails); the cmpxchg that writes has `ordering`. condition None means always."""
    b = cg.builder
    bits = ir.IntType(ctype.size * 8)
    int_address = b.bitcast(address, bits.as_pointer())
    # Read with an atomic instruction too: others change it concurrently, and racecheck
    # counts only atom/red instructions as atomic.
    start = memory_order.rmw(cg, "add", int_address, ir.Constant(bits, 0), failure)
    entry = b.block
    loop, done = cg.new_block("atomic.cas"), cg.new_block("atomic.done")
    b.branch(loop)
    b.position_at_end(loop)
    old_bits = b.phi(bits)
    old_bits.add_incoming(start, entry)
    old = b.bitcast(old_bits, ctype.ir_type()) if ctype.is_floating else old_bits
    if condition is not None:
        attempt = cg.new_block("atomic.attempt")
        unchanged = b.block
        b.cbranch(condition(old), attempt, done)
        b.position_at_end(attempt)
    new = new_value(old)
    new_bits = b.bitcast(new, bits) if ctype.is_floating else new
    pair = memory_order.cmpxchg(cg, int_address, old_bits, new_bits, ordering, failure)
    old_bits.add_incoming(b.extract_value(pair, 0), b.block)
    swapped = b.extract_value(pair, 1)
    tried = b.block
    b.cbranch(swapped, done, loop)
    b.position_at_end(done)
    if condition is None:
        return Swap(old, new, ir.Constant(ir.IntType(1), 1))
    result = b.phi(old.type)
    result.add_incoming(old, unchanged)
    result.add_incoming(new, tried)
    written = b.phi(ir.IntType(1))
    written.add_incoming(ir.Constant(ir.IntType(1), 0), unchanged)
    written.add_incoming(ir.Constant(ir.IntType(1), 1), tried)
    return Swap(old, result, written)
