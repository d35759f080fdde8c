"""Worksharing and synchronisation on the host's threads, through the GOMP entry
points (gomp.py), as GCC expands them (OpenMP 4.5 2.7, 2.13).

- `for`: the (collapsed) nest is one space of logical iterations [0, n); the runtime
  deals out chunks by the schedule (GOMP_loop_ull_*_start / _next; a static schedule
  without `ordered` each thread computes itself, host_loops.static_chunks), each thread
  runs its chunks as a counted loop, and GOMP_loop_end's barrier closes the construct
  (GOMP_loop_end_nowait with `nowait`; a plain barrier, or none, for a static one).
  `ordered` blocks run in iteration order (GOMP_ordered_start / _end); a doacross
  nest (`ordered(n)`, doacross.py) through GOMP_loop_doacross_*_start and
  GOMP_doacross_post / _wait. Reductions fold
  each thread's partial result into the original atomically; `lastprivate` and
  `linear` are copied out by the thread that ran the last iteration. Where every
  thread reads an original that one thread copies out (linear, firstprivate and
  lastprivate), the threads meet at a barrier between the reads and the loop, as
  gcc's do.
- `sections`: GOMP_sections_start / _next hand each thread a section number.
- `single` (GOMP_single_start; with `copyprivate`, GOMP_single_copy_start / _end),
  `master` (thread 0), `critical` (GOMP_critical_start, or a named lock),
  `barrier`, `ordered`, `flush`, `cancel`, `cancellation point`.
"""

from __future__ import annotations

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I1, I8, I8P, I32, I64
from omp2gpu.codegen.openmp.atomics.combine import atomic_combine
from omp2gpu.codegen.openmp.data.data_sharing import (
    DataEnvironment,
    TeamFold,
    clauses_named,
    combine,
    copy_bytes,
    list_items,
    loop_nest,
)
from omp2gpu.codegen.openmp.data.linear_clause import Linear
from omp2gpu.codegen.openmp.data.named_globals import named_global
from omp2gpu.codegen.openmp.data.user_reductions import UserReduction
from omp2gpu.codegen.openmp.data.user_reductions import combine as combine_user_reduction
from omp2gpu.codegen.openmp.host import doacross, gomp
from omp2gpu.codegen.openmp.host.cancel import barrier, cancellable
from omp2gpu.codegen.openmp.host.league_window import league_window
from omp2gpu.codegen.openmp.host.loops import counted_loop, static_chunks
from omp2gpu.codegen.openmp.loops import canonical_loop
from omp2gpu.codegen.openmp.utility_constructs import runs_masked
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.sema import ctypes as ct

_SCHEDULES = {"static": "static", "dynamic": "dynamic", "guided": "guided", "runtime": "runtime",
              "auto": "static"}


def fold_atomically(cg) -> TeamFold:
    """A DataEnvironment's combine_reduction for a team: each thread's partial result goes
    into the original with one atomic (a locked update for sizes atomics cannot do)."""
    def fold(op, original, private) -> None:
        if isinstance(op, UserReduction):          # the combiner, one thread at a time
            gomp.call(cg, "GOMP_critical_start")
            combine_user_reduction(cg, op, original, private)
            gomp.call(cg, "GOMP_critical_end")
            return
        value = cg.builder.load(private.address)
        if original.ctype.size in (4, 8) and (original.ctype.is_integer or original.ctype.is_floating):
            atomic_combine(cg, op, original.ctype, original.address, value)
            return
        gomp.call(cg, "GOMP_critical_start")
        combined = combine(cg, op, original.ctype, cg.builder.load(original.address), value)
        cg.builder.store(combined, original.address)
        gomp.call(cg, "GOMP_critical_end")
    return TeamFold(fold, barrier=lambda: gomp.call(cg, "GOMP_barrier"))


class Worksharing:
    """The ThreadedHostOpenMP hooks for worksharing and synchronisation constructs."""

    # ----------------------------------------------------------------- loops
    def emit_for(self, cg, construct, nowait: bool | None = None, sharers=None) -> None:
        """`sharers`: static_chunks' (number, count) entry points when others than the
        team's threads share the loop (a league's teams its distribute loop, static)."""
        directive = construct.directive
        directive = doacross.inner_loops_private(directive, construct.body)
        if nowait is None:
            nowait = bool(clauses_named(directive, "nowait"))
        depth = max([c.count for c in clauses_named(directive, "collapse")] or [1])
        loops = [canonical_loop.analyze(node) for node in loop_nest(construct.body, depth)]
        kind, chunk = _schedule(cg, directive)
        ordered = bool(clauses_named(directive, "ordered"))
        prefix = "GOMP_loop_ull_ordered_" if ordered else "GOMP_loop_ull_"
        b = cg.builder
        with cg.block_scope():
            bounds, iv_type, trips, total = canonical_loop.loop_nest_space(cg, loops)
            total = _as_u64(cg, total)
            nest = doacross.nest_counts(cg, directive, construct.body) \
                if doacross.is_doacross(directive, construct.body) else None
            # A league's team shares out only its own part of the space (host_teams.py).
            offset, space = league_window(cg, directive) or (None, total)
            if nest is not None and offset is not None:
                raise CompileError("a doacross loop ('ordered(n)') shared by a league's teams ('distribute "
                                   "parallel for') is not supported", directive.coord)
            start, end = cg.alloca_ir(I64, "chunk.start"), cg.alloca_ir(I64, "chunk.end")
            ran_last = cg.alloca_ir(I1, "ran.last")
            b.store(ir.Constant(I1, 0), ran_last)
            linear = Linear(cg, directive, {loop.variable for loop in loops})
            conditional = _conditional_lastprivates(cg, directive)
            environment = DataEnvironment(cg, linear.other_clauses, combine_reduction=fold_atomically(cg),
                                          lastprivate_condition=lambda: cg.builder.load(ran_last),
                                          conditional_copy=conditional and conditional.copy)
            outer_iteration = cg.openmp_state.running_iteration
            cg.openmp_state.running_iteration = conditional and conditional.running
            with environment:
                if linear.items or _read_then_copied_out(directive):
                    gomp.call(cg, "GOMP_barrier")
                variables = canonical_loop.declare_loop_variables(cg, loops, bounds, environment)
                linear.declare_copies()
                by_thread = kind == "static" and not ordered
                if by_thread:
                    take_next = static_chunks(cg, space, chunk, start, end, sharers)
                    more = take_next()
                elif nest is not None:
                    more, take_next = _doacross_start(cg, nest, kind, chunk, start, end)
                else:
                    chunk_args = () if kind == "runtime" else (chunk,)
                    more = gomp.call(cg, f"{prefix}{kind}_start", 1, ir.Constant(I64, 0), space, 1, *chunk_args,
                                     start, end)

                    def take_next(name=f"{prefix}{kind}_next"):
                        return gomp.call(cg, name, start, end)
                done = cg.new_block("chunks.done")
                outer_nest = cg.openmp_state.doacross_nest
                cg.openmp_state.doacross_nest = nest      # what `ordered depend` in the body refers to
                each_iteration = conditional.counting(linear.set_for) if conditional else linear.set_for
                with cancellable(cg, "for", done):
                    self._chunks(cg, loops[-1].body, (bounds, trips, iv_type, variables), total, ran_last,
                                 (more, take_next), (start, end, done), each_iteration, offset,
                                 vectorize=directive.has("simd"))
                cg.openmp_state.doacross_nest = outer_nest
                linear.copy_out(cg.builder.load(ran_last))
            cg.openmp_state.running_iteration = outer_iteration
            if conditional:     # every thread has compared its copies before the team's cells go
                gomp.call(cg, "GOMP_barrier")
            if by_thread:       # no work share was started: the construct's end is a barrier
                if not nowait:
                    barrier(cg, "GOMP_barrier", "GOMP_barrier_cancel")
            elif nowait:
                gomp.call(cg, "GOMP_loop_end_nowait")
            else:
                barrier(cg, "GOMP_loop_end", "GOMP_loop_end_cancel")

    emit_for_simd = emit_for

    def _chunks(self, cg, body, nest, total, ran_last, taking, chunk, each_iteration=None, offset=None,
                vectorize=False) -> None:
        """while (more) { for (iv = *start; iv < *end; iv++) body; more = take_next(); }
        (taking: `more` for the first chunk, and `take_next()`, which emits the next
        chunk into *start, *end and returns whether there is one; `offset`: where in the
        whole space the chunks' numbers start; `vectorize`: a simd construct's loop)"""
        more, take_next = taking
        iv_type = nest[2]
        start, end, done = chunk
        b = cg.builder
        head, chunk = cg.new_block("chunk.head"), cg.new_block("chunk")
        entry = b.block
        b.branch(head)
        b.position_at_end(head)
        has = b.phi(I8, "more")
        has.add_incoming(more, entry)
        b.cbranch(gomp.true(cg, has), chunk, done)
        b.position_at_end(chunk)
        first, last = b.load(start), b.load(end)
        if offset is not None:
            first, last = b.add(first, offset), b.add(last, offset)
        b.store(b.or_(b.load(ran_last), b.icmp_unsigned("==", last, total)), ran_last)
        counted_loop(cg, body, nest, first, last, iv_type, each_iteration, vectorize)
        again = take_next()
        has.add_incoming(again, b.block)
        b.branch(head)
        b.position_at_end(done)

    def emit_ordered(self, cg, construct) -> None:
        if construct.body is None:          # ordered depend(source | sink: ...)
            doacross.emit_depend(cg, construct, lambda vector: doacross.host_post(cg, vector),
                                 lambda numbers: doacross.host_wait(cg, numbers))
            return
        gomp.call(cg, "GOMP_ordered_start")
        with DataEnvironment(cg, construct.directive):
            cg.stmt(construct.body)
        if not cg.builder.block.is_terminated:      # (a `return` inside is invalid OpenMP)
            gomp.call(cg, "GOMP_ordered_end")

    # ----------------------------------------------------------------- sections
    def emit_sections(self, cg, construct, nowait: bool | None = None) -> None:
        directive = construct.directive
        if nowait is None:
            nowait = bool(clauses_named(directive, "nowait"))
        sections = _section_bodies(construct.body)
        b = cg.builder
        with cg.block_scope():
            ran_last = cg.alloca_ir(I1, "ran.last")
            b.store(ir.Constant(I1, 0), ran_last)
            environment = DataEnvironment(cg, directive, combine_reduction=fold_atomically(cg),
                                          lastprivate_condition=lambda: cg.builder.load(ran_last))
            with environment:
                if _read_then_copied_out(directive):
                    gomp.call(cg, "GOMP_barrier")
                first = gomp.call(cg, "GOMP_sections_start", len(sections))
                entry = b.block
                head, done = cg.new_block("sections.head"), cg.new_block("sections.done")
                b.branch(head)
                b.position_at_end(head)
                number = b.phi(I32, "section")
                number.add_incoming(first, entry)
                switch = b.switch(number, done)
                after = cg.new_block("section.next")
                with cancellable(cg, "sections", done):
                    for index, body in enumerate(sections, 1):
                        block = cg.new_block(f"section.{index}")
                        switch.add_case(ir.Constant(I32, index), block)
                        b.position_at_end(block)
                        if index == len(sections):
                            b.store(ir.Constant(I1, 1), ran_last)
                        cg.stmt(body)
                        cg.branch_if_open(after)
                b.position_at_end(after)
                number.add_incoming(gomp.call(cg, "GOMP_sections_next"), after)
                b.branch(head)
                b.position_at_end(done)
            if nowait:
                gomp.call(cg, "GOMP_sections_end_nowait")
            else:
                barrier(cg, "GOMP_sections_end", "GOMP_sections_end_cancel")

    def emit_section(self, cg, construct) -> None:
        raise CompileError("'#pragma omp section' outside a sections construct", construct.coord)

    # ----------------------------------------------------------------- one thread
    def emit_single(self, cg, construct) -> None:
        directive = construct.directive
        copied = [item for clause in clauses_named(directive, "copyprivate") for item in clause.items]
        if copied:
            self._single_copyprivate(cg, construct, copied)
            return
        b = cg.builder
        with b.if_then(gomp.true(cg, gomp.call(cg, "GOMP_single_start"))):
            with DataEnvironment(cg, directive):
                cg.stmt(construct.body)
        if not clauses_named(directive, "nowait"):
            barrier(cg, "GOMP_barrier", "GOMP_barrier_cancel")

    def _single_copyprivate(self, cg, construct, items) -> None:
        """The thread that runs the block hands the addresses of its copies to the others
        (GOMP_single_copy_end); each of them copies the values into its own."""
        b = cg.builder
        own = [cg.lookup_symbol(item) for item in items]
        received = gomp.call(cg, "GOMP_single_copy_start")
        addresses = b.bitcast(received, I8P.as_pointer())
        runs = b.icmp_unsigned("==", received, ir.Constant(I8P, None))
        with b.if_else(runs) as (then, otherwise):
            with then:
                with DataEnvironment(cg, construct.directive):
                    cg.stmt(construct.body)
                table = cg.alloca_ir(ir.ArrayType(I8P, len(own)), "copyprivate")
                for index, symbol in enumerate(own):
                    slot = b.gep(table, [ir.Constant(I32, 0), ir.Constant(I32, index)])
                    b.store(b.bitcast(symbol.address, I8P), slot)
                gomp.call(cg, "GOMP_single_copy_end", b.bitcast(table, I8P))
            with otherwise:
                for index, symbol in enumerate(own):
                    source = b.load(b.gep(addresses, [ir.Constant(I32, index)]))
                    copy_bytes(cg, symbol.address, source, ir.Constant(I64, symbol.ctype.size))
        gomp.call(cg, "GOMP_barrier")

    def emit_masked(self, cg, construct) -> None:
        """OpenMP 5.1: the thread the filter names (thread 0 without one)."""
        thread = gomp.call(cg, "omp_get_thread_num")
        with cg.builder.if_then(runs_masked(cg, construct.directive, thread)):
            with DataEnvironment(cg, construct.directive):
                cg.stmt(construct.body)

    emit_master = emit_masked                   # master: masked without a filter (thread 0)

    def emit_scope(self, cg, construct) -> None:
        """OpenMP 5.1: every thread runs the block in its own data environment, reductions
        folded into the original; the team meets at a barrier after it unless `nowait`."""
        directive = construct.directive
        with cg.block_scope(), DataEnvironment(cg, directive, combine_reduction=fold_atomically(cg)):
            cg.stmt(construct.body)
        if not clauses_named(directive, "nowait") and not cg.builder.block.is_terminated:
            barrier(cg, "GOMP_barrier", "GOMP_barrier_cancel")

    def emit_critical(self, cg, construct) -> None:
        name = construct.directive.critical_name
        lock = _critical_lock(cg, name) if name else None
        gomp.call(cg, "GOMP_critical_name_start", lock) if lock else gomp.call(cg, "GOMP_critical_start")
        with DataEnvironment(cg, construct.directive):
            cg.stmt(construct.body)
        if not cg.builder.block.is_terminated:
            gomp.call(cg, "GOMP_critical_name_end", lock) if lock else gomp.call(cg, "GOMP_critical_end")

    def emit_barrier(self, cg, construct) -> None:
        barrier(cg, "GOMP_barrier", "GOMP_barrier_cancel")


class _ConditionalLastprivates:
    """lastprivate(conditional:) on a team's loop: a cell a list item, shared by the team
    (one thread's stack, handed to the others by GOMP_single_copy_*), holds the largest
    iteration that assigned the item so far; each thread, in a critical section, copies its
    private copy out if its own last assigning iteration is larger. `running` holds the
    iteration the thread runs (each_iteration stores it; lvalues.store reads it)."""

    def __init__(self, cg, count: int):
        self.cg = cg
        b = cg.builder
        own = cg.alloca_ir(ir.ArrayType(I64, count), "conditional.cells")
        received = gomp.call(cg, "GOMP_single_copy_start")
        shared = cg.alloca_ir(I8P, "conditional.cells.shared")
        b.store(received, shared)
        with b.if_then(b.icmp_unsigned("==", received, ir.Constant(I8P, None))):
            for index in range(count):
                b.store(ir.Constant(I64, -1), b.gep(own, [ir.Constant(I32, 0), ir.Constant(I32, index)]))
            mine = b.bitcast(own, I8P)
            b.store(mine, shared)
            gomp.call(cg, "GOMP_single_copy_end", mine)
        self.cells = b.bitcast(b.load(shared), I64.as_pointer())
        self.running = cg.alloca_ir(I64, "running.iteration")

    def counting(self, each_iteration):
        def start(iteration: ir.Value) -> None:
            b = self.cg.builder
            b.store(b.zext(iteration, I64) if iteration.type.width < 64 else iteration, self.running)
            each_iteration(iteration)
        return start

    def copy(self, cg, index: int, original, private, at) -> None:
        b = cg.builder
        cell = b.gep(self.cells, [ir.Constant(I32, index)])
        gomp.call(cg, "GOMP_critical_start")
        with b.if_then(b.icmp_signed(">", b.load(at), b.load(cell))):
            b.store(b.load(at), cell)
            b.store(b.load(private.address), original.address)
        gomp.call(cg, "GOMP_critical_end")


def _conditional_lastprivates(cg, directive) -> _ConditionalLastprivates | None:
    count = sum(1 for clause, _ in list_items(directive, "lastprivate") if clause.conditional)
    return _ConditionalLastprivates(cg, count) if count else None


def _doacross_start(cg, nest, kind: str, chunk, start, end):
    """GOMP_loop_doacross_<kind>_start: the runtime learns the nest's trip counts and
    deals out the outer loop's logical iterations; (more, take_next) as _chunks wants."""
    chunk_args = () if kind == "runtime" else (chunk,)
    counts = cg.builder.gep(nest.counts, [ir.Constant(I32, 0), ir.Constant(I32, 0)])
    more = gomp.call(cg, f"GOMP_loop_doacross_{kind}_start", nest.depth, counts, *chunk_args, start, end)
    return more, lambda: gomp.call(cg, f"GOMP_loop_{kind}_next", start, end)


def _schedule(cg, directive) -> tuple[str, ir.Value]:
    """The runtime's schedule name and chunk size (0: the schedule's default)."""
    clause = next(iter(clauses_named(directive, "schedule")), None)
    if clause is None:
        return "static", ir.Constant(I64, 0)
    chunk = ir.Constant(I64, 0)
    if clause.chunk is not None:
        value = cg.expr(clause.chunk)
        chunk = convert(cg.builder, value.value, value.ctype, ct.ULONG)
        if clause.kind in ("dynamic", "guided"):      # chunk >= 1; 0 would mean the default
            chunk = cg.builder.select(cg.builder.icmp_unsigned("==", chunk, ir.Constant(I64, 0)),
                                      ir.Constant(I64, 1), chunk)
    elif clause.kind in ("dynamic", "guided"):
        chunk = ir.Constant(I64, 1)
    return _SCHEDULES[clause.kind], chunk


def _read_then_copied_out(directive) -> bool:
    """Whether a variable is both firstprivate and lastprivate: every thread reads the
    original, and the one that ran the last iteration or section writes it."""
    firstprivate = {item.name for _, item in list_items(directive, "firstprivate")}
    return any(item.name in firstprivate for _, item in list_items(directive, "lastprivate"))


def _as_u64(cg, value: ir.Value) -> ir.Value:
    """An iteration count (never negative) as the runtime's unsigned long long."""
    return cg.builder.zext(value, I64) if value.type.width < 64 else value


def _section_bodies(body) -> list:
    """The structured blocks of a sections construct: one per `section` directive; the
    first block needs none (OpenMP 4.5 2.7.2)."""
    items = (body.block_items or []) if isinstance(body, c_ast.Compound) else [body]
    sections, leading = [], []
    for item in items:
        if isinstance(item, OmpConstruct) and item.directive.kind == "section":
            sections.append(item.body)
        elif sections:
            raise CompileError("a sections construct holds only section blocks", getattr(item, "coord", None))
        else:
            leading.append(item)
    if leading:
        sections.insert(0, c_ast.Compound(leading, getattr(leading[0], "coord", None)))
    return sections


def _critical_lock(cg, name: str) -> ir.Value:
    """The runtime's lock for critical sections named `name`: one pointer every file of the
    program shares (common linkage, as GCC names it)."""
    return named_global(cg.module.module, f".gomp_critical_user_{name}", I8P, "common",
                        ir.Constant(I8P, None), align=8)
