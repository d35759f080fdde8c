"""The loop a thread runs over its share of a worksharing loop or a taskloop task:
logical iterations [first, last) of a (collapsed) canonical loop nest; and the share
itself for schedule(static), which each thread computes as GCC expands it."""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.openmp import canonical_loop, gomp

I8 = ir.IntType(8)
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


def static_chunks(cg, total: ir.Value, chunk: ir.Value, start: ir.Value, end: ir.Value):
    """schedule(static[, chunk]) over logical iterations [0, total), computed by the thread
    itself from its number, as GCC does (OpenMP 4.5 2.7.1: chunks dealt round-robin in
    thread order; without a chunk, one block per thread). The runtime is not asked:
    libiomp5's GOMP_loop_ull_static_start ignores the chunk. Returns `take()`, which
    emits the thread's next chunk into `start` / `end` and returns an i8, whether there
    is one (the first call gives the first chunk)."""
    b = cg.builder
    thread = b.zext(gomp.call(cg, "omp_get_thread_num"), I64)
    threads = b.zext(gomp.call(cg, "omp_get_num_threads"), I64)
    taken = cg.alloca_ir(I64, "static.taken")      # chunks this thread took so far
    b.store(ir.Constant(I64, 0), taken)
    blocked = isinstance(chunk, ir.Constant) and chunk.constant == 0
    one = ir.Constant(I64, 1)

    def take() -> ir.Value:
        k = b.load(taken)
        b.store(b.add(k, one), taken)
        if blocked:     # q = total / threads, the first total % threads threads one more
            quotient, remainder = b.udiv(total, threads), b.urem(total, threads)
            has_more = b.icmp_unsigned("<", thread, remainder)
            size = b.add(quotient, b.zext(has_more, I64))
            first = b.add(b.mul(thread, quotient), b.select(has_more, thread, remainder))
            last = b.add(first, size)
            more = b.and_(b.icmp_unsigned("==", k, ir.Constant(I64, 0)), b.icmp_unsigned("<", first, last))
        else:
            size = b.select(b.icmp_unsigned("==", chunk, ir.Constant(I64, 0)), one, chunk)
            first = b.mul(b.add(thread, b.mul(k, threads)), size)
            after = b.add(first, size)
            last = b.select(b.icmp_unsigned("<", after, total), after, total)
            more = b.icmp_unsigned("<", first, total)
        b.store(first, start)
        b.store(last, end)
        return b.zext(more, I8)
    return take
