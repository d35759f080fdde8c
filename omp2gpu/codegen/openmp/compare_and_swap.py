"""The compare-and-swap loop every GPU atomic without a hardware instruction is built on
(atomic updates of other operators, bit-fields, reductions combined per team, the
control loop's dynamic schedule).
"""

from __future__ import annotations

from llvmlite import ir


def compare_and_swap_loop(cg, address, ctype, new_value) -> tuple[ir.Value, ir.Value]:
    """Atomically *address = new_value(*address) with cmpxchg on the value's bits, retried
    until no other thread intervened; returns (old, new). 4- and 8-byte objects."""
    b = cg.builder
    bits = ir.IntType(ctype.size * 8)
    int_address = b.bitcast(address, bits.as_pointer())
    # Read with an atomic instruction too: others change it concurrently, and racecheck
    # counts only atom/red instructions as atomic.
    start = b.atomic_rmw("add", int_address, ir.Constant(bits, 0), "monotonic")
    entry = b.block
    loop, done = cg.new_block("atomic.cas"), cg.new_block("atomic.done")
    b.branch(loop)
    b.position_at_end(loop)
    old_bits = b.phi(bits)
    old_bits.add_incoming(start, entry)
    old = b.bitcast(old_bits, ctype.ir_type()) if ctype.is_floating else old_bits
    new = new_value(old)
    new_bits = b.bitcast(new, bits) if ctype.is_floating else new
    pair = b.cmpxchg(int_address, old_bits, new_bits, "monotonic", "monotonic")
    old_bits.add_incoming(b.extract_value(pair, 0), loop)
    b.cbranch(b.extract_value(pair, 1), done, loop)
    b.position_at_end(done)
    return old, new
