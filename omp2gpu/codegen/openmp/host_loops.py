"""The loop a thread runs over its share of a worksharing loop or a taskloop task:
logical iterations [first, last) of a (collapsed) canonical loop nest."""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.openmp import canonical_loop

I64 = ir.IntType(64)


def counted_loop(cg, body, nest, first, last, iv_type, each_iteration=None) -> None:
    """for (iv = first; iv < last; iv++) { the nest's variables for iv; body } (iv: u64);
    `each_iteration(iv)` emits what else an iteration starts with (linear variables)."""
    bounds, trips, _, variables = nest
    b = cg.builder
    ir_iv = iv_type.ir_type()
    entry = b.block
    test, run, step, out = (cg.new_block(n) for n in ("iter.test", "iter.body", "iter.next", "iter.done"))
    b.branch(test)
    b.position_at_end(test)
    iv = b.phi(I64, "iv")
    iv.add_incoming(first, entry)
    b.cbranch(b.icmp_unsigned("<", iv, last), run, out)
    b.position_at_end(run)
    iteration = b.trunc(iv, ir_iv) if ir_iv.width < 64 else iv
    canonical_loop.set_loop_variables(cg, bounds, trips, iv_type, iteration, variables)
    if each_iteration is not None:
        each_iteration(iv)
    with cg.loop_targets(out, step):
        cg.stmt(body)
    cg.branch_if_open(step)
    b.position_at_end(step)
    iv.add_incoming(b.add(iv, ir.Constant(I64, 1), flags=["nuw"]), b.block)
    b.branch(test)
    b.position_at_end(out)
