"""Teams with parallel regions on the CPU device: the PoCL transformation, done on
OpenMP's structured regions (shared/design/cpu-workgroup.md).

One work-group function runs one team. Its team-master code runs once; a
`parallel` region becomes loops over the team's work-items, one loop per
*phase*: a barrier -- explicit, or implied at the end of a worksharing
construct -- ends one phase and starts the next. Values private to a work-item
that live across a phase boundary (the parallel region's private, firstprivate
and reduction copies, and variables declared at a level that barriers split)
are kept in per-work-item arrays, PoCL's context arrays, indexed by the
work-item; each phase declares them afresh at its work-item's element.

    #pragma omp parallel               for (wi = 0; wi < n; wi++) { ctx_x[wi] = f(wi); }
    {                                  for (iv = 0; iv < trip; iv++) a[iv] = ...;   // the for
        int x = f(omp_get_thread_num());
        #pragma omp for                for (wi = 0; wi < n; wi++) { g(ctx_x[wi]); }
        for (i = ...) a[i] = ...;
        g(x);
    }

- A worksharing `for` is one phase that runs all of the team's iterations in
  order (every schedule gives the same results run in one thread): a plain
  counted loop, the vectoriser's. `single` and `sections` run once, as work-item
  0; `master` is work-item 0's; `critical` and `atomic` synchronise the teams,
  which run at once on different workers.
- A loop or `if` whose body holds a barrier runs at team level, its control
  evaluated as work-item 0 sees it (OpenMP requires every thread of a team to
  meet the same barriers), its body split into phases in turn.
- `distribute` gives the team its block of the iteration space (or its
  dist_schedule chunks, round-robin); `distribute parallel for` a parallel
  region running a `for` phase over each of its chunks.
- A parallel region nested inside a work-item is inactive (one thread), as in
  the host scheme.
What the scheme does not take (tasks, copyprivate, copyin, linear, a barrier in
other statements, worksharing in called functions) raises CompileError, and the
region runs as one work-item instead (cpu_workgroup.CpuSequential).

The scheme is three modules, this one on top:
- cpu_teams.py           the region and its constructs: the clauses of a
                         combined directive by leaf, the team's size, parallel
                         regions (num_threads, if, their private copies and
                         reductions), what the scheme refuses;
- cpu_barrier_phases.py  a parallel region's phases, split at its barriers, and
                         the work-items' context arrays and view of them;
- cpu_team_loops.py      worksharing `for` and `distribute`: iteration spaces,
                         schedules, chunks.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from llvmlite import ir

from omp2gpu.codegen.ir_types import I32
from omp2gpu.codegen.openmp.atomics.combine import atomic_combine
from omp2gpu.codegen.openmp.cpu.barrier_phases import (
    CPU_MAX_TEAM,
    LEVEL,
    NUM_THREADS,
    THREAD_NUM,
    BarrierPhases,
    ContextVar,
    Level,
    free_context_array,
    state_word,
    team_state,
)
from omp2gpu.codegen.openmp.cpu.team_loops import TeamLoops, atomic_fold
from omp2gpu.codegen.openmp.cpu.teams_rules import SUPPORTED_KINDS, clauses_of, cpu_teams_refusal, route
from omp2gpu.codegen.openmp.data.data_sharing import (
    DataEnvironment,
    clauses_named,
    combine,
    reduction_identity,
)
from omp2gpu.codegen.openmp.gpu.device_module import calls_openmp_api
from omp2gpu.codegen.openmp.integer_clauses import integer_operand
from omp2gpu.codegen.openmp.plan.device_refusals import cpu_device_refusal
from omp2gpu.codegen.openmp.plan.region_shape import nested_constructs
from omp2gpu.codegen.openmp.plan.scheme_interface import WorkGroupScheme
from omp2gpu.codegen.openmp.utility_constructs import runs_masked
from omp2gpu.diagnostics import CompileError
from omp2gpu.offload.abi import CONTROL_LOOP_BLOCK_SIZE, CPU_TEAMS


@dataclass
class Team:
    group: ir.Value
    num_groups: ir.Value
    threads: ir.Value                # i32: the team's size (the launch's block)
    api: bool                        # keep the omp_* team state up to date
    state: ir.Value | None = None    # int * (pool.c) when api
    nthreads: ir.Value | None = None  # i32: work-items of the running parallel region
    wi: ir.Value | None = None       # i32: the work-item being emitted; None at team level
    levels: list = field(default_factory=list)     # Level objects, outermost first
    views: set = field(default_factory=set)        # ids of the scopes view() made
    by_declaration: dict = field(default_factory=dict)   # id(Decl) -> ContextVar
    inactive: int = 0                # > 0 inside a parallel region nested in a work-item
    heap: list = field(default_factory=list)       # heap context arrays to free at region end


class CpuTeams(BarrierPhases, TeamLoops, WorkGroupScheme):
    """The scheme object for one region (cpu_workgroup.py's emit_workgroup calls it);
    constructs inside reach it through CpuOpenMP while it is cg.openmp_state.cpu_team."""

    name = CPU_TEAMS
    block_size = CONTROL_LOOP_BLOCK_SIZE

    @staticmethod
    def ineligibility(construct, facts=None) -> str | None:
        # a teams construct nested in `target` (the split spelling) forks a league too
        forks = any(construct.directive.has(leaf) for leaf in ("teams", "parallel")) or any(
            c.directive.has(leaf) for c in nested_constructs(construct.body)
            for leaf in ("teams", "parallel", "distribute"))
        return None if forks else "no teams or parallel construct: one work-item runs it"

    @staticmethod
    def device_refusal(facts) -> str | None:
        return cpu_teams_refusal(facts) or cpu_device_refusal(facts)

    def emit_workgroup_body(self, cg, region, group, num_groups, threads) -> None:
        directive = region.directive
        if directive.kind not in SUPPORTED_KINDS:         # cpu_teams_refusal(facts) refused it
            raise CompileError(f"'{directive.kind}' is not run as CPU teams")
        threads = _clamp(cg, threads)
        team = Team(group, num_groups, threads,
                    calls_openmp_api(region.construct, cg.module.host.function_definitions))
        if team.api:
            team.state = team_state(cg)
        cg.openmp_state.cpu_team = self
        self.team = team
        routed = route(directive)
        leaves = directive.kind.split()
        with cg.block_scope(), DataEnvironment(cg, clauses_of(routed["target"])):
            if "teams" in leaves:
                self._teams(cg, region.construct.body, leaves, routed)
            else:
                self._below_teams(cg, region.construct.body, leaves, routed)
        for pointer in team.heap:
            free_context_array(cg, pointer)
        cg.openmp_state.cpu_team = None

    def _teams(self, cg, body, leaves, routed) -> None:
        """The work-group is one team: its private copies, and its reductions folded
        into the original with one atomic (other teams run at once)."""
        with DataEnvironment(cg, clauses_of(routed["teams"]),
                             combine_reduction=lambda op, o, p: atomic_fold(cg, op, o, p)):
            self._below_teams(cg, body, leaves, routed)

    def _below_teams(self, cg, body, leaves, routed) -> None:
        if "distribute" in leaves:
            inner = "parallel" in leaves
            self.distribute(cg, clauses_of(routed["distribute"]), body,
                            (clauses_of(routed["parallel"]), clauses_of(routed["for"])) if inner else None)
        elif "parallel" in leaves:
            self.parallel(cg, clauses_of(routed["parallel"]), body,
                          clauses_of(routed["for"]) if "for" in leaves else None)
        else:
            cg.stmt(body)

    # ----------------------------------------------------------------- constructs (CpuOpenMP calls)
    def construct(self, cg, construct) -> bool:
        """Emit a construct met inside the region; False: the host scheme's way does."""
        team = self.team
        kind = construct.directive.kind
        if team.inactive:
            if construct.directive.has("parallel"):
                return self._inactive_parallel(cg, construct)
            return False
        if construct.directive.has("teams"):     # `target` holding the teams construct (2.10)
            if team.wi is not None or team.nthreads is not None or team.levels:
                raise CompileError("'teams' must be closely nested in 'target'")
            self._teams(cg, construct.body, kind.split(), route(construct.directive))
            return True
        if kind in ("parallel", "parallel for", "parallel for simd", "parallel sections"):
            if team.wi is not None:          # a parallel region inside a work-item: inactive
                return self._inactive_parallel(cg, construct)
            if kind == "parallel sections":
                raise CompileError("'parallel sections' in a CPU teams region")
            routed = route(construct.directive)
            self.parallel(cg, clauses_of(routed["parallel"]), construct.body,
                          clauses_of(routed["for"]) if "for" in kind else None)
            return True
        if kind in ("distribute", "distribute simd", "distribute parallel for",
                    "distribute parallel for simd"):
            if team.wi is not None or team.nthreads is not None:
                raise CompileError("'distribute' must be closely nested in 'teams'")
            routed = route(construct.directive)
            inner = "parallel" in kind
            self.distribute(cg, clauses_of(routed["distribute"]), construct.body,
                            (clauses_of(routed["parallel"]), clauses_of(routed["for"])) if inner else None)
            return True
        if kind in ("master", "masked"):
            if team.wi is None:
                return False
            go, done = cg.new_block("master"), cg.new_block("master.done")
            cg.builder.cbranch(runs_masked(cg, construct.directive, team.wi), go, done)
            cg.builder.position_at_end(go)
            with DataEnvironment(cg, construct.directive):
                cg.stmt(construct.body)
            cg.branch_if_open(done)
            cg.builder.position_at_end(done)
            return True
        if kind in ("for", "for simd", "single", "sections", "barrier", "scope"):
            if team.nthreads is None:        # at team level outside parallel: one thread
                return False
            raise CompileError(f"'{kind}' where its parallel region cannot split")
        if kind in ("task", "taskgroup", "taskwait", "taskyield"):
            raise CompileError(f"'{kind}' in a CPU teams region")
        return False

    def _inactive_parallel(self, cg, construct) -> bool:
        """An inactive nested parallel region: one thread, as the host scheme runs it."""
        team = self.team
        team.inactive += 1
        try:
            cg.openmp.host_compute_construct(cg, construct)
        finally:
            team.inactive -= 1
        return True

    def local_address(self, cg, declaration, ctype):
        """Where a declaration a barrier splits from its uses lives: its context array."""
        team = self.team
        var = team.by_declaration.get(id(declaration))
        if var is None or team.wi is None:
            return None
        var.declared = True
        return cg.builder.gep(var.array, [team.wi])

    # ----------------------------------------------------------------- parallel regions
    def parallel(self, cg, clauses, body, for_clauses=None, chunk=()) -> None:
        """A parallel region of the team: its work-items' data, then its phases (`parallel
        for`: one for phase, over `chunk` = (first, end) of a distribute chunk if given)."""
        team = self.team
        b = cg.builder
        n = team.threads
        for clause in clauses_named(clauses, "num_threads"):
            requested = integer_operand(cg, clause)
            positive = b.icmp_signed(">", requested, ir.Constant(I32, 0))
            smaller = b.icmp_signed("<", requested, n)
            n = b.select(b.and_(positive, smaller), requested, n)
        for clause in clauses_named(clauses, "if"):
            n = b.select(cg.condition(clause.expr), n, ir.Constant(I32, 1))
        outer_n = team.nthreads
        team.nthreads = n
        if team.api:
            level = b.load(state_word(cg, team, LEVEL))
            b.store(b.add(level, ir.Constant(I32, 1)), state_word(cg, team, LEVEL))
            b.store(n, state_word(cg, team, NUM_THREADS))
        team.levels.append(Level(cg.scope))
        reductions = self._parallel_data(cg, clauses)
        if for_clauses is not None:          # `parallel for`: the region is one for phase
            self.for_phase(cg, for_clauses, body, *chunk)
        else:
            self.statement(cg, body)
        self._fold_parallel_reductions(cg, reductions)
        team.levels.pop()
        team.nthreads = outer_n
        if team.api:
            b.store(level, state_word(cg, team, LEVEL))
            b.store(team.threads, state_word(cg, team, NUM_THREADS))
            b.store(ir.Constant(I32, 0), state_word(cg, team, THREAD_NUM))

    def _parallel_data(self, cg, clauses) -> list:
        """private, firstprivate, reduction of a parallel region: per-work-item copies."""
        team = self.team
        reductions = []
        for name in ("private", "firstprivate", "reduction"):
            for clause in clauses_named(clauses, name):
                for item in clause.items:
                    if item.sections:
                        raise CompileError("an array-section reduction on a CPU teams parallel region")
                    symbol = cg.scope.lookup(item.name)
                    if symbol is None or symbol.kind != "object":
                        raise CompileError(f"'{item.name}' in a data-sharing clause is not a variable",
                                           item.coord)
                    var = ContextVar(item.name, symbol.ctype, self._context_array(cg, symbol.ctype), True)
                    team.levels[-1].vars.append(var)
                    if name == "firstprivate":
                        self._each_work_item(cg, lambda wi, var=var, symbol=symbol: cg.builder.store(
                            cg.builder.load(symbol.address), cg.builder.gep(var.array, [wi])))
                    elif name == "reduction":
                        if not symbol.ctype.is_arithmetic:
                            raise CompileError(f"reduction variable '{item.name}' must be arithmetic",
                                               item.coord)
                        identity = reduction_identity(clause.op, symbol.ctype)
                        self._each_work_item(cg, lambda wi, var=var, identity=identity: cg.builder.store(
                            identity, cg.builder.gep(var.array, [wi])))
                        reductions.append((clause.op, symbol, var))
        return reductions

    def _fold_parallel_reductions(self, cg, reductions) -> None:
        b = cg.builder
        for op, symbol, var in reductions:
            total = cg.alloca(symbol.ctype, f"{var.name}.team")
            b.store(reduction_identity(op, symbol.ctype), total)
            self._each_work_item(cg, lambda wi, var=var, total=total, op=op, ctype=symbol.ctype: b.store(
                combine(cg, op, ctype, b.load(total), b.load(b.gep(var.array, [wi]))), total))
            atomic_combine(cg, op, symbol.ctype, symbol.address, b.load(total))


# ----------------------------------------------------------------- helpers
def _clamp(cg, threads) -> ir.Value:
    b = cg.builder
    limit = ir.Constant(I32, CPU_MAX_TEAM)
    threads = b.select(b.icmp_signed("<", threads, limit), threads, limit)
    return b.select(b.icmp_signed(">", threads, ir.Constant(I32, 0)), threads, ir.Constant(I32, 1))
