"""The loops of a CPU teams region (cpu_teams.py's scheme): worksharing `for` and
`distribute`.

Decides which iterations a team runs and which work-item owns each: a
worksharing loop is one phase running all of the team's iterations in order
(every schedule gives the same results run in one thread), each iteration seen
as the work-item its schedule gives it to; `distribute` gives each team its
block, or its dist_schedule chunks round-robin, and `distribute parallel for` a
parallel region over each chunk. Kept apart from cpu_barrier_phases.py because
the iteration-space arithmetic (collapse, chunks, which team holds the last
iteration) is its own concern, the same for both loops.
"""

from __future__ import annotations

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I32
from omp2gpu.codegen.openmp.atomics.combine import atomic_combine
from omp2gpu.codegen.openmp.cpu.barrier_phases import (
    THREAD_NUM,
    counted_loop,
    state_word,
    stepped_loop,
)
from omp2gpu.codegen.openmp.data.data_sharing import (
    DataEnvironment,
    clauses_named,
    loop_nest,
)
from omp2gpu.codegen.openmp.host import doacross
from omp2gpu.codegen.openmp.loops import canonical_loop
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.captures import free_identifiers


class TeamLoops:
    """CpuTeams' worksharing and distribute loops (a mixin): self.team is the region's
    Team; view, as_work_item come from cpu_barrier_phases.BarrierPhases, parallel from
    cpu_teams.CpuTeams."""

    # ----------------------------------------------------------------- worksharing loops
    def for_phase(self, cg, directive, loop, first=None, end=None) -> None:
        """All the team's iterations of a worksharing loop, in order, in one plain loop
        ([first, end) of the logical iteration space when a distribute chunk is given)."""
        team = self.team
        if first is not None and doacross.is_doacross(directive, loop):
            # each team would keep only its own chunk's dependences
            raise CompileError("a doacross loop ('ordered(n)') shared by teams ('distribute parallel for') "
                               "is not supported on the CPU device", directive.coord)
        directive = doacross.inner_loops_private(directive, _unwrap(loop))
        depth = max([c.count for c in clauses_named(directive, "collapse")] or [1])
        loops = [canonical_loop.analyze(node) for node in loop_nest(_unwrap(loop), depth)]
        context_names = {var.name for level in team.levels for var in level.vars}
        body = loops[-1].body
        needs_owner = team.api or bool(context_names & set(free_identifiers(body)))
        b = cg.builder
        with self.as_work_item(cg, ir.Constant(I32, 0)), cg.block_scope():
            bounds, iv_type, trips, total = canonical_loop.loop_nest_space(cg, loops)
            ir_iv = iv_type.ir_type()
            chunked = end is not None
            first = ir.Constant(ir_iv, 0) if first is None else convert(b, first, ct.LONG, iv_type)
            end = total if end is None else convert(b, end, ct.LONG, iv_type)
            holds_last = b.icmp_unsigned("==", end, total) if chunked else None
            with DataEnvironment(cg, directive, loop_variables=[],
                                 combine_reduction=lambda op, o, p: atomic_fold(cg, op, o, p),
                                 lastprivate_condition=(lambda: holds_last) if chunked else None) as environment:
                variables = canonical_loop.declare_loop_variables(cg, loops, bounds, environment)
                n = convert(b, team.nthreads, ct.INT, iv_type)
                owner_of = _schedule_owner(cg, directive, iv_type, n, first, end) if needs_owner else None

                def iteration(iv):
                    canonical_loop.set_loop_variables(cg, bounds, trips, iv_type, iv, variables)
                    if needs_owner:             # the work-item the schedule gives iv to
                        owner = convert(b, owner_of(iv), iv_type, ct.INT)
                        if team.api:
                            b.store(owner, state_word(cg, team, THREAD_NUM))
                        with self.view(cg, owner):
                            cg.stmt(body)
                    else:
                        cg.stmt(body)
                counted_loop(cg, ir_iv, first, end, iteration)

    # ----------------------------------------------------------------- distribute
    def distribute(self, cg, clauses, loop, parallel_for=None) -> None:
        """The team's share of a distribute loop: its block, or its dist_schedule chunks."""
        team = self.team
        b = cg.builder
        depth = max([c.count for c in clauses_named(clauses, "collapse")] or [1])
        loops = [canonical_loop.analyze(node) for node in loop_nest(_unwrap(loop), depth)]
        chunk_clause = next(iter(clauses_named(clauses, "dist_schedule")), None)
        with cg.block_scope():
            bounds, iv_type, trips, total = canonical_loop.loop_nest_space(cg, loops)
            ir_iv = iv_type.ir_type()
            g = convert(b, b.trunc(team.group, I32), ct.INT, iv_type)
            groups = convert(b, b.trunc(team.num_groups, I32), ct.INT, iv_type)
            one = ir.Constant(ir_iv, 1)
            if chunk_clause is not None and chunk_clause.chunk is not None:
                chunk = cg.expr_as(chunk_clause.chunk, iv_type)
                chunk = b.select(b.icmp_signed(">", chunk, ir.Constant(ir_iv, 0)), chunk, one)
                start, stride = b.mul(g, chunk), b.mul(groups, chunk)
                last_owner = b.urem(b.udiv(b.sub(total, one), chunk), groups)
                holds_last = b.and_(b.icmp_unsigned("==", last_owner, g),
                                    b.icmp_unsigned(">", total, ir.Constant(ir_iv, 0)))
            else:
                share, rest = b.udiv(total, groups), b.urem(total, groups)
                start = b.add(b.mul(g, share), b.select(b.icmp_unsigned("<", g, rest), g, rest))
                chunk = b.add(share, b.zext(b.icmp_unsigned("<", g, rest), ir_iv))
                stride = total                                  # one chunk: the block
                holds_last = b.and_(b.icmp_unsigned("==", b.add(start, chunk), total),
                                    b.icmp_unsigned(">", chunk, ir.Constant(ir_iv, 0)))
            with DataEnvironment(cg, clauses, loop_variables=[], lastprivate_condition=lambda: holds_last) \
                    as environment:
                variables = canonical_loop.declare_loop_variables(cg, loops, bounds, environment)

                def each_chunk(chunk_start):
                    chunk_end = b.add(chunk_start, chunk)
                    chunk_end = b.select(b.icmp_unsigned("<", chunk_end, total), chunk_end, total)
                    if parallel_for is None:
                        counted_loop(cg, ir_iv, chunk_start, chunk_end, lambda iv: (
                            canonical_loop.set_loop_variables(cg, bounds, trips, iv_type, iv, variables),
                            cg.stmt(loops[-1].body)))
                    else:
                        parallel_clauses, for_clauses = parallel_for
                        self.parallel(cg, parallel_clauses, loop, for_clauses,
                                      (convert(b, chunk_start, iv_type, ct.LONG),
                                       convert(b, chunk_end, iv_type, ct.LONG)))
                stepped_loop(cg, ir_iv, start, total, stride, each_chunk)


# ----------------------------------------------------------------- helpers
def _unwrap(node):
    while isinstance(node, c_ast.Compound) and len(node.block_items or ()) == 1:
        node = node.block_items[0]
    return node


def _schedule_owner(cg, directive, iv_type, n, first, end):
    """iv -> the work-item the loop's schedule gives logical iteration iv of [first, end)
    to: chunk c to work-item c % n for static with a chunk and for dynamic (a dynamic
    schedule may deal its chunks so; each chunk stays on one work-item), else one
    contiguous block per work-item, in work-item order."""
    b = cg.builder
    ir_iv = iv_type.ir_type()
    schedule = next(iter(clauses_named(directive, "schedule")), None)
    chunk = None
    if schedule is not None and schedule.kind in ("static", "dynamic"):
        if schedule.chunk is not None:
            chunk = cg.expr_as(schedule.chunk, iv_type)
            chunk = b.select(b.icmp_signed(">", chunk, ir.Constant(ir_iv, 0)), chunk, ir.Constant(ir_iv, 1))
        elif schedule.kind == "dynamic":
            chunk = ir.Constant(ir_iv, 1)
    count = b.sub(end, first)
    if chunk is not None:
        return lambda iv: b.urem(b.udiv(b.sub(iv, first), chunk), n)
    return lambda iv: b.udiv(b.mul(b.sub(iv, first), n), count)


def atomic_fold(cg, op, original, private) -> None:
    atomic_combine(cg, op, original.ctype, original.address, cg.builder.load(private.address))


