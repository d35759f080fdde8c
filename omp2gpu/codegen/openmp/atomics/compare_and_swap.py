"""The compare-and-swap loop every atomic without a hardware instruction is built on
(atomic updates of other operators, bit-fields, reductions combined per team, the
control loop's dynamic schedule, `atomic compare` of floating-point values).

cmpxchg works on the object's bits as an integer of its size. `long double` (x86_fp80,
10 value bytes in a 16-byte object) swaps all 16 bytes as an i128 (cmpxchg16b, as the
host CPU has it), keeping the 6 padding bytes as they were read: gcc's libgomp takes a
global lock instead (GOMP_atomic_start), which the CPU device's workers could not share.
"""

from __future__ import annotations

from typing import NamedTuple

from llvmlite import ir

from omp2gpu.codegen.openmp.atomics import memory_order
from omp2gpu.sema.x86_fp80 import X86FP80Type
from omp2gpu.targets import nvptx


class Swap(NamedTuple):
    old: ir.Value           # the value before, in the object's type
    new: ir.Value           # the value after (old where nothing was written)
    written: ir.Value       # i1: whether the loop wrote (always 1 without a condition)


def compare_and_swap_loop(cg, address, ctype, new_value, ordering: str = "monotonic",
                          skip_unchanged: bool = False) -> tuple[ir.Value, ir.Value]:
    """Atomically *address = new_value(*address) with cmpxchg on the value's bits, retried
    until no other thread intervened; returns (old, new). 4-, 8- and 16-byte objects.
    `skip_unchanged`: where the new bits are the old ones, nothing is written (the read is
    the update's place in the object's order: only for relaxed updates, the reductions')."""
    swap = conditional_swap_loop(cg, address, ctype, new_value, None, ordering, skip_unchanged=skip_unchanged)
    return swap.old, swap.new


def conditional_swap_loop(cg, address, ctype, new_value, condition, ordering: str = "monotonic",
                          failure: str = "monotonic", skip_unchanged: bool = False) -> Swap:
    """Atomically: if condition(*address) then *address = new_value(*address). The value
    read first is read with the `failure` ordering (it is the result when the condition
    fails); the cmpxchg that writes has `ordering`. condition None means always.
    `skip_unchanged` (without a condition): compare_and_swap_loop's."""
    assert not (skip_unchanged and condition is not None), "a skipped swap is not a failed condition"
    b = cg.builder
    bits = ir.IntType(ctype.size * 8)
    as_value, as_bits = bit_pattern(b, ctype)
    int_address = b.bitcast(address, bits.as_pointer())
    start = _first_read(cg, int_address, bits, failure)
    entry = b.block
    loop, done = cg.new_block("atomic.cas"), cg.new_block("atomic.done")
    b.branch(loop)
    b.position_at_end(loop)
    old_bits = b.phi(bits)
    old_bits.add_incoming(start, entry)
    old = as_value(old_bits)
    if condition is not None:
        attempt = cg.new_block("atomic.attempt")
        unchanged = b.block
        b.cbranch(condition(old), attempt, done)
        b.position_at_end(attempt)
    new = new_value(old)
    new_bits = as_bits(new, old_bits)
    if skip_unchanged:
        swap = cg.new_block("atomic.swap")
        b.cbranch(b.icmp_unsigned("!=", new_bits, old_bits), swap, done)
        b.position_at_end(swap)
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


def _first_read(cg, address, bits, ordering: str) -> ir.Value:
    """The value the loop first tries to replace, read atomically: others change it
    concurrently. racecheck counts only atom/red instructions as atomic, and it checks
    shared memory only: on the GPU an object there is read by an atomic add of 0, any
    other by an atomic load (ld.relaxed), which does not contend with the writers' swaps
    (bitfields_atomic_in_target: 1,000 threads updating one struct, 1.14x Clang's time with
    the add everywhere; Clang starts from a load)."""
    b = cg.builder
    if cg.openmp.atomic_syncscope != "device":
        return memory_order.rmw(cg, "add", address, ir.Constant(bits, 0), ordering)
    shared, other, read = cg.new_block("atomic.first.shared"), cg.new_block("atomic.first"), cg.new_block(
        "atomic.read")
    b.cbranch(nvptx.is_shared(b, address), shared, other)
    b.position_at_end(shared)
    in_shared = memory_order.rmw(cg, "add", address, ir.Constant(bits, 0), ordering)
    b.branch(read)
    b.position_at_end(other)
    loaded = memory_order.load(cg, address, ordering, bits.width // 8)
    b.branch(read)
    b.position_at_end(read)
    value = b.phi(bits)
    value.add_incoming(in_shared, shared)
    value.add_incoming(loaded, other)
    return value


def bit_pattern(b, ctype):
    """(as_value(bits), as_bits(value, old_bits)): between an object's value and the integer
    of its size that cmpxchg compares; old_bits supplies what is not the value (padding)."""
    bits = ir.IntType(ctype.size * 8)
    value_type = ctype.ir_type()
    if not ctype.is_floating:
        return (lambda word: word), (lambda value, old: value)
    value_bits = ir.IntType(80 if isinstance(value_type, X86FP80Type) else bits.width)
    if value_bits.width == bits.width:
        return (lambda word: b.bitcast(word, value_type)), (lambda value, old: b.bitcast(value, bits))
    padding = ir.Constant(bits, ((1 << bits.width) - 1) ^ ((1 << value_bits.width) - 1))

    def as_value(word):
        return b.bitcast(b.trunc(word, value_bits), value_type)

    def as_bits(value, old):
        return b.or_(b.and_(old, padding), b.zext(b.bitcast(value, value_bits), bits))
    return as_value, as_bits
