"""Loop constructs of the control-loop scheme (gpu_control_loop.py): distribute,
worksharing `for` and `simd`, as a mixin of ControlLoopHooks.

distribute: the team master takes its team's chunks; with `parallel for` each
chunk becomes a parallel region whose bounds reach the threads through shared
memory. Worksharing loops: static schedules through __kmpc_for_static_init;
dynamic and guided ones hand out chunks from a team-shared counter (with nowait,
the static chunks, which OpenMP allows: the chunk-to-thread assignment is
unspecified). Outside a team's parallel region the one thread there is runs the
whole loop. Values the code needs across a state transition live in stack slots
(Persisted).
"""

from __future__ import annotations

from contextlib import nullcontext
from types import SimpleNamespace

from llvmlite import ir

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I1, I32
from omp2gpu.codegen.openmp.atomics.compare_and_swap import compare_and_swap_loop
from omp2gpu.codegen.openmp.data.data_sharing import DataEnvironment, clauses_named, loop_nest, thread_private_slot
from omp2gpu.codegen.openmp.data.linear_clause import Linear
from omp2gpu.codegen.openmp.loops import affine_nest, canonical_loop
from omp2gpu.codegen.openmp.plan.spmdization import holds_parallel_region
from omp2gpu.codegen.openmp.plan.team_shared_names import shared_in_parallel_regions
from omp2gpu.codegen.openmp.runtime_entries import DeviceRuntime
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.scopes import Symbol
from omp2gpu.targets import nvptx


# ----------------------------------------------------------------- values across states
class Persisted:
    """Values the team master's code needs on both sides of a state transition live in
    stack slots: an SSA value of one state does not dominate the next (switch) state."""

    def __init__(self, cg, **values):
        object.__setattr__(self, "_cg", cg)
        slots = {}
        for name, value in values.items():
            slot = cg.alloca_ir(value.type, name)
            cg.builder.store(value, slot)
            slots[name] = slot
        object.__setattr__(self, "_slots", slots)

    def __getattr__(self, name):
        return self._cg.builder.load(self._slots[name])

    def store(self, **values) -> None:
        for name, value in values.items():
            self._cg.builder.store(value, self._slots[name])


class PersistedBounds(canonical_loop.LoopBounds):
    """LoopBounds whose lower bound and step are reloaded where they are used."""

    def __init__(self, cg, bounds: canonical_loop.LoopBounds):
        self.loop, self.var_type, self.iv_type = bounds.loop, bounds.var_type, bounds.iv_type
        pointer = {} if bounds.base is None else {"base": bounds.base}     # a pointer variable's
        self._values = Persisted(cg, lower=bounds.lower, step=bounds.step, **pointer)

    @property
    def lower(self):
        return self._values.lower

    @property
    def step(self):
        return self._values.step

    @property
    def base(self):
        return self._values.base if "base" in self._values._slots else None


class PersistedAffineBounds(PersistedBounds, canonical_loop.AffineBounds):
    """The dependent loop of a non-rectangular nest, its bounds' invariant parts reloaded
    where they are used as well."""

    def __init__(self, cg, bounds: canonical_loop.AffineBounds, outer: PersistedBounds):
        super().__init__(cg, bounds)
        self.dependence, self.outer = bounds.dependence, outer
        self._upper = Persisted(cg, upper=bounds.upper)

    @property
    def upper(self):
        return self._upper.upper


def count_type(cg, loops) -> ct.IntType:
    """32-bit iteration counting when every loop variable fits (fewer registers), else 64
    (and for a non-rectangular nest, whose closed forms are quadratic)."""
    types = [canonical_loop.iteration_type(canonical_loop.variable_type(cg, each)) for each in loops]
    if len(loops) > 1 and affine_nest.dependence(loops) is not None:
        return ct.LONG
    return ct.LONG if any(t.bits == 64 for t in types) else ct.INT


def _loop_space(cg, loops, counting: ct.IntType):
    """Bounds of a (collapsed) loop nest, its trip counts and total, all persisted."""
    b = cg.builder
    bounds = canonical_loop.nest_bounds(cg, loops)
    trips = [convert(b, x.trip_count, x.iv_type, counting) for x in bounds]
    total = canonical_loop.nest_total(cg, bounds, trips)
    space = Persisted(cg, total=total, **{f"trip{i}": t for i, t in enumerate(trips)})
    persisted = []
    for x in bounds:
        if isinstance(x, canonical_loop.AffineBounds):
            persisted.append(PersistedAffineBounds(cg, x, persisted[x.dependence.outer]))
        else:
            persisted.append(PersistedBounds(cg, x))
    return persisted, space


class ChunkRange:
    """The team's chunk [lo, hi) of a distribute parallel for: team-shared slots, or
    `read`, the values the team loaded from them at the barrier into the chunk's state."""

    def __init__(self, lo, hi):
        self.lo, self.hi, self.read = lo, hi, None

    def bounds(self, b):
        return self.read or (b.load(self.lo), b.load(self.hi))


# ----------------------------------------------------------------- the loop constructs
class LoopConstructs:
    """ControlLoopHooks' loop constructs. The class they are mixed into provides
    `shared` (TeamSharedStorage), `in_parallel`, `team_parallel`, `at_team_start`,
    `emit_parallel`, `barrier`, `_participants`, `_atomic_fold` and the team-code hooks
    (`team_code_begins`, `team_code_ends`, `team_decision`)."""

    def emit_distribute(self, cg, rest, directive, body) -> None:
        """The team master runs its team's chunks; with `parallel for` each chunk becomes
        a parallel region whose bounds reach the threads through shared memory.
        The chunk plan is recomputed where it is needed rather than kept live across
        the control loop's states: kernel-wide live values cost registers (paper 5.1)."""
        b = cg.builder
        loops = self._loops(directive, body)
        with cg.block_scope():
            self.counting = count_type(cg, loops)
            start = self.shared.slot(cg, self.counting, "dist_start")   # master-only, survives states
            first_chunk, first_length, _ = self._team_chunks(cg, directive, loops)
            b.store(first_chunk, start)
            # With parallel regions inside, the team follows the master's chunk loop.
            team_level = bool(rest and rest[0] == "parallel") or holds_parallel_region(loops[-1].body)
            length = None
            if team_level:      # the chunk length once, not a division in each state that needs it
                length = self.shared.slot(cg, self.counting, "dist_chunk")
                b.store(first_length, length)
            cond, run, done = cg.new_block("dist.cond"), cg.new_block("dist.chunk"), cg.new_block("dist.end")
            self._team_branch(cg, team_level, cond)
            b.position_at_end(cond)
            self._team_code(cg, team_level)
            _, chunk, total = self._team_chunks(cg, directive, loops, length=length)
            more = b.icmp_signed("<", b.load(start), total)
            b.cbranch(self.team_decision(cg, more) if team_level else more, run, done)
            b.position_at_end(run)
            self._team_code(cg, team_level)
            end = b.add(b.load(start), chunk)
            end = b.select(b.icmp_signed("<", end, total), end, total)
            if rest and rest[0] == "parallel":
                hi = self.shared.slot(cg, self.counting, "dist_hi")
                b.store(end, hi)
                if directive is self.final_distribute:
                    self._mark_last_chunk(cg, directive, loops, start, total, length)
                self._distribute_parallel(cg, rest, directive, body, start, hi)
            else:
                bounds, space = _loop_space(cg, loops, self.counting)
                # A distribute's linear names only the loop's variable (sema): lastprivate.
                linear = Linear(cg, directive, {loop.variable for loop in loops})
                with self._data_environment(cg, linear.other_clauses, body) as environment:
                    slots = self._declare_loop_variables(cg, loops, bounds, space, environment)
                    self._iterate(cg, bounds, space, b.load(start), Persisted(cg, hi=end), slots,
                                  loops[-1].body, team_level=team_level)
            if not b.block.is_terminated:
                _, _, stride = self._team_chunks(cg, directive, loops, stride=True, length=length)
                b.store(b.add(b.load(start), stride), start)
                self._team_branch(cg, team_level, cond)
            b.position_at_end(done)
            self._team_code(cg, team_level)

    def _team_branch(self, cg, team_level: bool, target) -> None:
        """The master's code goes to `target`; in a loop the team follows, the team goes."""
        if team_level:
            self.team_code_ends(cg)
        cg.builder.branch(target)

    def _team_code(self, cg, team_level: bool) -> None:
        """The start of a block of the master's code, in a loop the team follows."""
        if team_level:
            self.team_code_begins(cg)

    def _mark_last_chunk(self, cg, directive, loops, start, total, length) -> None:
        """For the parallel region of the region's final distribute: whether this chunk is
        the team's last (ControlLoopHooks.exit_after_parallel)."""
        b = cg.builder
        _, _, stride = self._team_chunks(cg, directive, loops, stride=True, length=length)
        last = b.icmp_signed(">=", b.add(b.load(start), stride), total)
        flag = self.shared.slot(cg, ct.INT, "dist_last")
        b.store(b.zext(last, I32), flag)
        self.exit_after_parallel = flag

    def _team_chunks(self, cg, directive, loops, stride=False, length=None):
        """(this team's first iteration, chunk length, total) — or, with `stride`, the
        distance between this team's chunks as the third value. `length`: a slot holding
        the chunk length already computed."""
        b = cg.builder
        counting = self.counting
        one = ir.Constant(counting.ir_type(), 1)
        with cg.block_scope():
            bounds = canonical_loop.nest_bounds(cg, loops)
            if canonical_loop.dependent_loop(bounds) is None:
                total = one
                for x in bounds:
                    total = b.mul(total, convert(b, x.trip_count, x.iv_type, counting))
            else:
                total = canonical_loop.nest_total(cg, bounds, [convert(b, x.trip_count, x.iv_type, counting)
                                                               for x in bounds])
        teams = convert(b, nvptx.read_sreg(b, "nctaid.x"), ct.UINT, counting)
        team = convert(b, nvptx.read_sreg(b, "ctaid.x"), ct.UINT, counting)
        chunk = b.load(length) if length is not None else self._chunk(cg, directive, "dist_schedule")
        if chunk is None:                      # one contiguous block per team
            chunk = b.sdiv(b.add(total, b.sub(teams, one)), teams)
            chunk = b.select(b.icmp_signed("<", chunk, one), one, chunk)
        return b.mul(team, chunk), chunk, (b.mul(teams, chunk) if stride else total)

    def _distribute_parallel(self, cg, rest, directive, body, lo, hi) -> None:
        """`distribute parallel for`: one parallel region per team chunk [lo, hi). Where it
        is the region's final distribute with one chunk a team (no dist_schedule chunk size:
        _team_chunks' one contiguous block a team), the
        team reads the bounds right after the barrier: the master wrote them before it and
        writes nothing after it (it leaves with the team after the one chunk). With more
        chunks a team the master's next chunk writes them after a barrier, where the
        team's reads would race with it (racecheck)."""
        self.chunk_range = ChunkRange(lo, hi)
        if directive is self.final_distribute and self._chunk_clause(directive, "dist_schedule") is None:
            self.chunk_range.read = tuple(self.machine.after_each_barrier(
                self.counting.ir_type(), lambda slot=slot: cg.builder.load(slot)) for slot in (lo, hi))
        try:
            self.emit_parallel(cg, rest[1:], directive, body)
        finally:
            self.chunk_range = None

    counting = ct.LONG     # the type iterations are counted in, per loop construct (count_type)
    chunk_range = None     # the team's chunk (ChunkRange), inside distribute parallel for
    final_distribute = None     # the directive of a distribute after which the region does nothing
    exit_after_parallel = None  # team-shared flag: this chunk's parallel region is the team's last work
    last_flag = None       # per-thread "ran the loop's last iteration", for lastprivate

    def _data_environment(self, cg, directive, body=None, combine_reduction=None):
        """Privates for the code that runs a construct: reductions fold atomically (or as
        `combine_reduction` does: a team's parallel region's, team_reductions.py); lastprivate
        is copied by the thread (or team master) that ran the last iteration. In the team
        master's sequential code (`body` given), a copy that a parallel region in the body
        names is team-shared: the team's threads cannot read the master's stack."""
        self.last_flag = cg.alloca(ct.BOOL, "ran.last")
        cg.builder.store(ir.Constant(ir.IntType(8), 0), self.last_flag)
        flag = self.last_flag
        return DataEnvironment(cg, SimpleNamespace(clauses=list(directive.clauses)),
                               combine_reduction=combine_reduction or self._atomic_fold(cg),
                               # an array section's elements fold in a loop: each its own atomics
                               combine_section_element=self._atomic_fold(cg),
                               private_slot=self._private_slot(cg, body),
                               lastprivate_condition=lambda: cg.builder.trunc(cg.builder.load(flag), I1))

    def _private_slot(self, cg, body):
        """Where a construct's private copy lives: this thread's stack, or, in the team
        master's sequential code, team-shared storage when a parallel region in `body`
        names it (the team's threads cannot read the master's stack). None: the default."""
        if body is None or self.in_parallel:
            return None
        sharing = shared_in_parallel_regions(body, critical_callees=cg.module.critical_callees)

        def private_slot(name, ctype):
            if name in sharing.outer:
                return self.shared.slot(cg, ctype, name, name in sharing.locked_outer)
            return thread_private_slot(cg, name, ctype)
        return private_slot

    @staticmethod
    def _chunk_clause(directive, clause_name: str):
        """The clause's chunk size expression; None without one (one chunk a thread, or a team)."""
        clause = next(iter(clauses_named(directive, clause_name)), None)
        return None if clause is None else clause.chunk

    def _chunk(self, cg, directive, clause_name: str):
        chunk = self._chunk_clause(directive, clause_name)
        return None if chunk is None else cg.expr_as(chunk, self.counting)

    @staticmethod
    def _loops(directive, body):
        depth = max([c.count for c in clauses_named(directive, "collapse")] or [1])
        return [canonical_loop.analyze(node) for node in loop_nest(body, depth)]

    def emit_loop(self, cg, directive, body, rest=(), worksharing=None, implicit_barrier=True,
                  environment=None) -> None:
        """A loop construct (see _emit_loop). The team's distribute chunk and the counting
        type are this loop's alone: a loop nested in its body (a `simd` in a `distribute
        parallel for`) runs its own whole space and counts in its own type."""
        chunk_range, counting = self.chunk_range, self.counting
        try:
            self._emit_loop(cg, directive, body, rest, worksharing, implicit_barrier, environment)
        finally:
            self.chunk_range, self.counting = chunk_range, counting

    def _emit_loop(self, cg, directive, body, rest=(), worksharing=None, implicit_barrier=True,
                   environment=None) -> None:
        """A loop construct: split among the region's threads in a parallel region, else
        run by the one thread there is. `environment`: the enclosing construct's data
        environment where it already made the clauses' copies (`parallel for`): the loop's
        iteration variables are then its private and lastprivate copies."""
        b = cg.builder
        worksharing = self.team_parallel if worksharing is None else worksharing
        loops = self._loops(directive, body)
        own_environment = environment is None
        with cg.block_scope():
            self.counting = count_type(cg, loops)
            bounds, space = _loop_space(cg, loops, self.counting)
            lo, hi = ir.Constant(self.counting.ir_type(), 0), space.total
            if self.chunk_range is not None:        # this team's chunk of a distribute
                lo, hi = self.chunk_range.bounds(b)
                self.chunk_range = None             # not the chunk of a loop in the body
            linear = Linear(cg, directive, {loop.variable for loop in loops}, persist=True)
            with self._data_environment(cg, linear.other_clauses, body) if own_environment \
                    else nullcontext(environment) as environment:
                ran_last = self.last_flag       # this construct's (or its parallel region's)
                if worksharing and (_firstprivate_and_lastprivate(directive) or linear.items):
                    # Every thread's firstprivate copy is made (every thread reads linear's
                    # original) before the last iteration's thread copies out (OpenMP 4.5
                    # 2.15.3.5): a barrier between them.
                    self.barrier(cg)
                slots = self._declare_loop_variables(cg, loops, bounds, space, environment)
                linear.declare_copies(self._private_slot(cg, body))
                if worksharing:
                    self._worksharing_range(cg, directive, bounds, space, lo, hi, slots, loops[-1].body,
                                            linear.set_for)
                else:
                    self._iterate(cg, bounds, space, lo, Persisted(cg, hi=hi), slots, loops[-1].body,
                                  linear.set_for)
                if not b.block.is_terminated:
                    linear.copy_out(b.trunc(b.load(ran_last), I1))
        if worksharing and implicit_barrier and not clauses_named(directive, "nowait"):
            self.barrier(cg)

    def _declare_loop_variables(self, cg, loops, bounds, space, environment=None):
        """Each thread's own iteration variables; the team master's are team-shared when
        a parallel region in the loop body reads them. One the construct privatises is its
        private copy (team-shared in the same case: _data_environment), which lastprivate
        then copies out one step past the last iteration (as
        canonical_loop.declare_loop_variables does)."""
        b = cg.builder
        slots = []
        read_in_parallel = set() if self.in_parallel else shared_in_parallel_regions(loops[-1].body).outer
        for index, (loop, bound) in enumerate(zip(loops, bounds)):
            private = None if environment is None or loop.declared_in_loop else \
                environment.private_copies.get(loop.variable)
            if private is not None:
                slot = private.address
                environment.final_value(loop.variable, lambda bound=bound, slot=slot, index=index: b.store(
                    self._final_value(cg, bounds, space, index), slot))
            else:
                if loop.variable in read_in_parallel:
                    slot = self.shared.slot(cg, bound.var_type, loop.variable)
                else:
                    slot = cg.alloca(bound.var_type, loop.variable)
                cg.scope.declare(Symbol(loop.variable, bound.var_type, "object", slot))
            slots.append(slot)
        return slots

    def _final_value(self, cg, bounds, space, index):
        """What the sequential nest leaves in loop `index`'s variable."""
        b, bound = cg.builder, bounds[index]
        found = canonical_loop.dependent_loop(bounds)
        if found is not None and index in (found.outer, found.inner):
            pair = bounds[found.inner].final_values_after(cg, bounds[found.outer], getattr(space, f"trip{found.outer}"))
            return pair[0] if index == found.outer else pair[1]
        return bound.value_at(cg, convert(b, getattr(space, f"trip{index}"), self.counting, bound.iv_type))

    def _set_variables(self, cg, bounds, space, iteration, slots) -> None:
        """The loop variables for logical iteration `iteration` of the collapsed nest."""
        b = cg.builder
        if canonical_loop.dependent_loop(bounds) is not None:      # (counting is i64 then)
            trips = [getattr(space, f"trip{index}") for index in range(len(bounds))]
            canonical_loop.set_loop_variables(cg, bounds, trips, self.counting, iteration, slots)
            return
        remaining = iteration
        for index in reversed(range(len(bounds))):
            if index == 0:
                logical = remaining
            else:
                trip = getattr(space, f"trip{index}")
                logical = b.srem(remaining, trip)
                remaining = b.sdiv(remaining, trip)
            local = convert(b, logical, self.counting, bounds[index].iv_type)
            b.store(bounds[index].value_at(cg, local), slots[index])

    def _worksharing_range(self, cg, directive, bounds, space, lo, hi, slots, body, each=None) -> None:
        """schedule(static[, chunk]) over [lo, hi) via __kmpc_for_static_init; dynamic and
        guided through _dispatch_range (with nowait too: static chunks, which OpenMP allows)."""
        b = cg.builder
        chunk = self._chunk(cg, directive, "schedule")
        schedule = next(iter(clauses_named(directive, "schedule")), None)
        counting = self.counting
        if schedule is not None and schedule.kind in ("dynamic", "guided"):
            chunk = chunk if chunk is not None else ir.Constant(counting.ir_type(), 1)
            if not clauses_named(directive, "nowait"):
                self._dispatch_range(cg, schedule.kind, chunk, bounds, space, lo, hi, slots, body, each)
                return
        # No schedule clause: chunks of one iteration dealt round-robin, so neighbouring
        # threads touch neighbouring elements (coalesced), as the paper's static,1.
        chunk = chunk if chunk is not None else ir.Constant(counting.ir_type(), 0 if schedule else 1)
        first, length, stride = (cg.alloca(counting, n) for n in ("ws.first", "ws.length", "ws.stride"))
        plan = Persisted(cg, lo=lo, count=b.sub(hi, lo))
        # libomp's naming: _4 for 32-bit iteration counts, _8 for 64-bit ones
        init = DeviceRuntime.for_static_init_4 if counting.bits == 32 else DeviceRuntime.for_static_init_8
        init.call(b, [
            plan.count, chunk, nvptx.read_sreg(b, "tid.x"), self._participants(cg), first, length, stride])
        cond, run, done = cg.new_block("ws.cond"), cg.new_block("ws.chunk"), cg.new_block("ws.end")
        b.branch(cond)
        b.position_at_end(cond)
        b.cbranch(b.icmp_signed("<", b.load(first), plan.count), run, done)
        b.position_at_end(run)
        end = b.add(b.load(first), b.load(length))
        end = b.select(b.icmp_signed("<", end, plan.count), end, plan.count)
        # first < end <= count: lo + either stays within [lo, hi], so no wrap (nsw lets LLVM
        # see a chunk of one iteration as one, not as a loop)
        self._iterate(cg, bounds, space, b.add(plan.lo, b.load(first), flags=["nsw"]),
                      Persisted(cg, hi=b.add(plan.lo, end, flags=["nsw"])), slots, body, each)
        b.store(b.add(b.load(first), b.load(stride)), first)
        b.branch(cond)
        b.position_at_end(done)

    def _dispatch_range(self, cg, kind, chunk, bounds, space, lo, hi, slots, body, each=None) -> None:
        """schedule(dynamic|guided) over [lo, hi): each thread takes the next chunk from a
        team-shared counter when it is free (guided: the remainder over twice the threads,
        at least the chunk). The last thread to find nothing left resets the counter for
        the loop's next run; the barrier after the loop keeps runs apart."""
        b = cg.builder
        counting = self.counting
        zero, one = ir.Constant(counting.ir_type(), 0), ir.Constant(counting.ir_type(), 1)
        next_chunk = self.shared.slot(cg, counting, "dispatch_next")
        finished = self.shared.slot(cg, ct.INT, "dispatch_finished")
        self.at_team_start(lambda tb: (tb.store(zero, next_chunk), tb.store(ir.Constant(I32, 0), finished)))
        threads = self._participants(cg)
        plan = Persisted(cg, lo=lo, count=b.sub(hi, lo), chunk=b.select(b.icmp_signed("<", chunk, one), one, chunk),
                         spread=b.mul(convert(b, threads, ct.INT, counting), ir.Constant(counting.ir_type(), 2)))
        taken = Persisted(cg, first=zero, size=zero)
        grab, run, out = cg.new_block("dispatch.grab"), cg.new_block("dispatch.run"), cg.new_block("dispatch.out")
        b.branch(grab)
        b.position_at_end(grab)
        count, step = plan.count, plan.chunk
        if kind == "guided":
            spread = plan.spread

            def take(old):
                share = b.sdiv(b.add(b.sub(count, old), b.sub(spread, one)), spread)
                size = b.select(b.icmp_signed("<", share, step), step, share)
                return b.select(b.icmp_signed("<", old, count), b.add(old, size), old)
            first, new = compare_and_swap_loop(cg, next_chunk, counting, take)
            size = b.sub(new, first)
        else:
            first, size = b.atomic_rmw("add", next_chunk, step, "monotonic"), step
        taken.store(first=first, size=size)
        b.cbranch(b.icmp_signed("<", first, count), run, out)
        b.position_at_end(run)
        end = b.add(taken.first, taken.size)
        end = b.select(b.icmp_signed("<", end, plan.count), end, plan.count)
        self._iterate(cg, bounds, space, b.add(plan.lo, taken.first), Persisted(cg, hi=b.add(plan.lo, end)),
                      slots, body, each)
        b.branch(grab)
        b.position_at_end(out)
        arrived = b.atomic_rmw("add", finished, ir.Constant(I32, 1), "monotonic")
        last, done = cg.new_block("dispatch.reset"), cg.new_block("dispatch.end")
        b.cbranch(b.icmp_signed("==", arrived, b.sub(self._participants(cg), ir.Constant(I32, 1))), last, done)
        b.position_at_end(last)                 # atomic too: no plain access races the others' atomics
        b.atomic_rmw("xchg", next_chunk, zero, "monotonic")
        b.atomic_rmw("xchg", finished, ir.Constant(I32, 0), "monotonic")
        b.branch(done)
        b.position_at_end(done)

    def _iterate(self, cg, bounds, space, lo, limit, slots, body, each=None, team_level=False) -> None:
        """for (iv = lo; iv < limit.hi; iv++) { variables = f(iv); each(iv); body; note iv == total - 1 }
        Everything the loop needs after its body is reloaded, since the body may switch state.
        `team_level`: the team master's loop around parallel regions, which the team follows."""
        b = cg.builder
        last_flag = self.last_flag      # this construct's: constructs in the body set their own
        iv = cg.alloca(self.counting, "iv")
        one = ir.Constant(self.counting.ir_type(), 1)
        b.store(lo, iv)
        cond, run, step_block, done = (cg.new_block("loop.cond"), cg.new_block("loop.body"),
                                       cg.new_block("loop.next"), cg.new_block("loop.end"))
        self._team_branch(cg, team_level, cond)
        b.position_at_end(cond)
        self._team_code(cg, team_level)
        more = b.icmp_signed("<", b.load(iv), limit.hi)
        b.cbranch(self.team_decision(cg, more) if team_level else more, run, done)
        b.position_at_end(run)
        self._team_code(cg, team_level)
        self._set_variables(cg, bounds, space, b.load(iv), slots)
        if each is not None:        # what else an iteration starts with (linear's values)
            each(b.load(iv))
        with cg.loop_targets(done, step_block):
            cg.stmt(body)
        cg.branch_if_open(step_block)
        b.position_at_end(step_block)
        current = b.load(iv)
        if last_flag is not None:
            is_last = b.icmp_signed("==", current, b.sub(space.total, one))
            b.store(b.select(is_last, ir.Constant(ir.IntType(8), 1), b.load(last_flag)), last_flag)
        b.store(b.add(current, one, flags=["nsw"]), iv)      # current < limit.hi: no wrap
        self._team_branch(cg, team_level, cond)
        b.position_at_end(done)
        self._team_code(cg, team_level)


def _firstprivate_and_lastprivate(directive) -> bool:
    first = {item.name for clause in clauses_named(directive, "firstprivate") for item in clause.items}
    return any(item.name in first for clause in clauses_named(directive, "lastprivate") for item in clause.items)
