"""The loop a thread runs over its share of a worksharing loop or a taskloop task:
logical iterations [first, last) of a (collapsed) canonical loop nest; and the share
itself for schedule(static), which each thread computes as GCC expands it."""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen import loop_metadata
from omp2gpu.codegen.ir_types import I8, I64
from omp2gpu.codegen.openmp.host import gomp
from omp2gpu.codegen.openmp.loops import canonical_loop


def counted_loop(cg, body, nest, first, last, iv_type, each_iteration=None, vectorize: bool = False) -> None:
    """for (iv = first; iv < last; iv++) { the nest's variables for iv; body } (iv: u64);
    `each_iteration(iv)` emits what else an iteration starts with (linear variables);
    `vectorize`: the loop of iterations is one to vectorise (a simd construct's).
    A collapsed nest runs row by row (_rows, _dependent_rows) where its rows are the
    innermost loop's; another non-rectangular one decodes each iteration."""
    bounds, trips, _, variables = nest
    if len(bounds) > 1 and canonical_loop.dependent_loop(bounds) is None:
        _rows(cg, body, nest, first, last, iv_type, each_iteration, vectorize)
        return
    if canonical_loop.dependent_innermost(bounds):
        _dependent_rows(cg, body, nest, first, last, each_iteration, vectorize)
        return

    def set_variables(iv):
        iteration = _narrow(cg, iv, iv_type)
        canonical_loop.set_loop_variables(cg, bounds, trips, iv_type, iteration, variables)
    _iterations(cg, body, first, last, set_variables, each_iteration, vectorize)


def _rows(cg, body, nest, first, last, iv_type, each_iteration, vectorize) -> None:
    """A collapsed nest's iterations [first, last) as rows of its innermost loop: the
    outer variables are set once a row (one division), the innermost in a counted loop
    of its own that LLVM can vectorise, rather than a division and a remainder per
    iteration. A row starts at `first` (maybe mid-row) and ends at its row's end or `last`."""
    bounds, trips, _, variables = nest
    b = cg.builder
    row_length = _widen(cg, trips[-1])

    def start_row(start):
        row, column = b.udiv(start, row_length), b.urem(start, row_length)
        canonical_loop.set_loop_variables(cg, bounds[:-1], trips[:-1], iv_type, _narrow(cg, row, iv_type),
                                          variables[:-1])

        def place(position):
            canonical_loop.set_loop_variables(cg, bounds[-1:], trips[-1:], iv_type, _narrow(cg, position, iv_type),
                                              variables[-1:])
        return column, row_length, place
    _row_loop(cg, body, first, last, start_row, each_iteration, vectorize)


def _dependent_rows(cg, body, nest, first, last, each_iteration, vectorize) -> None:
    """_rows for a non-rectangular nest whose innermost loop is the dependent one: each row
    has its own length, found with its variables once a row (iteration type i64)."""
    bounds, trips, _, variables = nest
    _row_loop(cg, body, first, last,
              lambda start: canonical_loop.start_dependent_row(cg, bounds, trips, start, variables), each_iteration,
              vectorize)


def _row_loop(cg, body, first, last, start_row, each_iteration, vectorize) -> None:
    """The iterations [first, last) row by row: start_row(start) sets the outer variables of
    the row holding `start` and returns (start's column, the row's length, place), place(k)
    setting the innermost variable to the row's k-th value; a row ends at its end or `last`."""
    b = cg.builder
    entry = b.block
    test, run, out = (cg.new_block(n) for n in ("row.test", "row.body", "row.done"))
    b.branch(test)
    b.position_at_end(test)
    start = b.phi(I64, "row.start")
    start.add_incoming(first, entry)
    b.cbranch(b.icmp_unsigned("<", start, last), run, out)     # start < last: the row is not empty
    b.position_at_end(run)
    column, length, place = start_row(start)
    row_end = b.add(start, b.sub(length, column))
    end = b.select(b.icmp_unsigned("<", row_end, last), row_end, last)
    _iterations(cg, body, start, end, lambda iv: place(b.add(column, b.sub(iv, start))), each_iteration, vectorize)
    start.add_incoming(end, b.block)
    b.branch(test)
    b.position_at_end(out)


def _iterations(cg, body, first, last, set_variables, each_iteration, vectorize) -> None:
    """for (iv = first; iv < last; iv++) { set_variables(iv); each_iteration(iv); body }"""
    b = cg.builder
    entry = b.block
    test, run, step, out = (cg.new_block(n) for n in ("iter.test", "iter.body", "iter.next", "iter.done"))
    b.branch(test)
    b.position_at_end(test)
    iv = b.phi(I64, "iv")
    iv.add_incoming(first, entry)
    b.cbranch(b.icmp_unsigned("<", iv, last), run, out)
    b.position_at_end(run)
    set_variables(iv)
    if each_iteration is not None:
        each_iteration(iv)
    with cg.loop_targets(out, step):
        cg.stmt(body)
    cg.branch_if_open(step)
    b.position_at_end(step)
    iv.add_incoming(b.add(iv, ir.Constant(I64, 1), flags=["nuw"]), b.block)
    back_edge = b.branch(test)
    if vectorize:
        loop_metadata.vectorize(back_edge)
    b.position_at_end(out)


def _narrow(cg, value: ir.Value, iv_type) -> ir.Value:
    """A u64 logical iteration number as the nest's iteration type."""
    ir_iv = iv_type.ir_type()
    return cg.builder.trunc(value, ir_iv) if ir_iv.width < 64 else value


def _widen(cg, value: ir.Value) -> ir.Value:
    """A trip count (never negative) of the nest's iteration type as a u64."""
    return cg.builder.zext(value, I64) if value.type.width < 64 else value


def static_chunks(cg, total: ir.Value, chunk: ir.Value, start: ir.Value, end: ir.Value, sharers=None):
    """schedule(static[, chunk]) over logical iterations [0, total), computed by the thread
    itself from its number, as GCC does (OpenMP 4.5 2.7.1: chunks dealt round-robin in
    thread order; without a chunk, one block per thread). The runtime is not asked:
    libiomp5's GOMP_loop_ull_static_start ignores the chunk. Returns `take()`, which
    emits the thread's next chunk into `start` / `end` and returns an i8, whether there
    is one (the first call gives the first chunk). `sharers`: the runtime's (number, count)
    entry points of who shares the loop, the team's threads unless a league's teams share a
    distribute loop (host_teams.py)."""
    b = cg.builder
    who, count = sharers or ("omp_get_thread_num", "omp_get_num_threads")
    thread = b.zext(gomp.call(cg, who), I64)
    threads = b.zext(gomp.call(cg, count), I64)
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
