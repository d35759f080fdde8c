"""A `teams` construct on the host, outside any target region (OpenMP 5.0 2.7): a league
of teams through the runtime's GOMP_teams_reg, as GCC compiles it. The body is outlined
(outline.py) and the runtime runs it once per team (libgomp runs the teams one after
another in the encountering thread, each its team number), with `num_teams` (0: the
runtime's nteams-var, OMP_NUM_TEAMS) and `thread_limit` (each team's thread-limit-var).
omp_get_team_num and omp_get_num_teams are the runtime's.

The league's teams share a `distribute [simd]` loop as a static worksharing loop whose
sharers are the teams (host_worksharing.emit_for with static_chunks over the team
numbers; dist_schedule is its schedule). For `distribute parallel for` each team takes
its chunks of the loop nest's logical iterations the same way and runs each as a
parallel region whose worksharing loop shares out only that chunk (league_window.py).
A target region run on the host (its host fallback) runs its teams construct the same
way when the construct has a `num_teams` clause: a league of the clause's lower bound
(`num_teams(n)`: n), the fewest OpenMP 5.1 allows, as gcc's host fallback runs them
(split_target splits a combined `target teams ...` for it). Without the clause it stays
one team, as in gcc's fallback (host.py: the host's loop constructs give a team every
iteration).
"""

from __future__ import annotations

from dataclasses import replace

from llvmlite import ir

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I64
from omp2gpu.codegen.openmp.data.data_sharing import clauses_named, loop_nest
from omp2gpu.codegen.openmp.data.target_regions import evaluate_clause
from omp2gpu.codegen.openmp.host import gomp
from omp2gpu.codegen.openmp.host.league_window import window_variables
from omp2gpu.codegen.openmp.host.loops import static_chunks
from omp2gpu.codegen.openmp.loops import canonical_loop
from omp2gpu.codegen.openmp.outline import outline, read_only_scalars
from omp2gpu.codegen.openmp.plan import launch_shape
from omp2gpu.codegen.openmp.plan.leaf_clauses import split_at_parallel
from omp2gpu.frontend.openmp.clause_types import ScheduleClause
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.sema import ctypes as ct

TEAM_SHARERS = ("omp_get_team_num", "omp_get_num_teams")    # who shares a league's distribute loop
# Clauses of `teams distribute [simd]` the teams leaf takes; the others are the loop's.
_TEAMS_CLAUSES = frozenset({"num_teams", "thread_limit", "default", "shared", "reduction"})


# The clauses of a combined `target teams ...` that only its target leaf takes on the host.
_TARGET_CLAUSES = frozenset({"map", "device", "depend", "nowait", "is_device_ptr", "has_device_addr",
                             "defaultmap", "uses_allocators", "in_reduction"})


def is_host_league(cg, construct) -> bool:
    """A teams construct the host runs as a league of its own: one not inside a target
    region, or a target region's with a num_teams clause."""
    return not cg.openmp_state.targets_entered or bool(clauses_named(construct.directive, "num_teams"))


def split_target(directive):
    """`target teams ...` -> (the target leaf, `teams ...`), each with its clauses. An `if`
    without a modifier is the target's, and a parallel or simd leaf's too."""
    rest = directive.constructs[1:]

    def targets(clause) -> bool:
        return clause.name in _TARGET_CLAUSES or (clause.name == "if" and clause.modifier in (None, "target"))

    def rest_takes(clause) -> bool:
        if clause.name == "if":
            return clause.modifier not in (None, "target") or "parallel" in rest or "simd" in rest
        return clause.name not in _TARGET_CLAUSES

    return (replace(directive, kind="target", constructs=("target",),
                    clauses=[c for c in directive.clauses if targets(c)]),
            replace(directive, kind=" ".join(rest), constructs=rest,
                    clauses=[c for c in directive.clauses if rest_takes(c)]))


def split_teams(directive):
    """`teams [distribute [simd]]` -> (the teams leaf, the loop leaves or None), each with
    its clauses (OpenMP 5.1 17.2: reduction to teams, the data-sharing of the loop's
    variables to the loop)."""
    rest = directive.constructs[1:]
    if not rest:
        return directive, None
    teams = [c for c in directive.clauses if c.name in _TEAMS_CLAUSES]
    # a reduction also to the loop's for or simd: the team's threads fold into the team's copy
    loop = [c for c in directive.clauses if c.name not in _TEAMS_CLAUSES
            or (c.name == "reduction" and ("for" in rest or "simd" in rest))]
    return (replace(directive, kind="teams", constructs=("teams",), clauses=teams),
            replace(directive, kind=" ".join(rest), constructs=rest, clauses=loop))


def league_loop(directive):
    """A distribute [simd] directive as the static worksharing loop the league's teams
    share: dist_schedule(static[, chunk]) its schedule."""
    clauses = [ScheduleClause(coord=c.coord, kind="static", chunk=c.chunk) if c.name == "dist_schedule" else c
               for c in directive.clauses]
    return replace(directive, clauses=clauses)


def emit_host_teams(cg, construct, emit_team) -> None:
    """GOMP_teams_reg(fn, data, num_teams, thread_limit, 0); `emit_team(inner, construct)`
    emits one team's code into the outlined function."""
    directive = construct.directive
    upper, fewest = launch_shape.team_bounds(cg, directive)
    if cg.openmp_state.targets_entered and fewest is not None:     # a host fallback's league: the fewest
        upper = fewest
    counts = [upper, evaluate_clause(cg, directive, "thread_limit")]
    if clauses_named(directive, "num_teams"):     # no more teams than the shared loop has iterations
        counts[0] = launch_shape.capped_by_trip_count(cg, counts[0], launch_shape.trip_count(cg, construct),
                                                      construct, fewest)
    outlined = outline(cg, f"{cg.function.name}._omp_fn", lambda inner: emit_team(inner, construct),
                       copied=read_only_scalars(cg, construct))
    gomp.call(cg, "GOMP_teams_reg", outlined.function, outlined.fill(cg), *counts, 0)


def emit_league_distribute_parallel_for(cg, construct, emit_parallel_region) -> None:
    """`distribute parallel for [simd]` in a league's team: the team's chunks of the
    nest's logical iterations (dist_schedule, else one block), each run by a parallel
    region (`emit_parallel_region(cg, region)`) whose worksharing loop shares out only it."""
    directive = construct.directive
    split = split_at_parallel(directive)
    depth = max([c.count for c in clauses_named(directive, "collapse")] or [1])
    loops = [canonical_loop.analyze(node) for node in loop_nest(construct.body, depth)]
    b = cg.builder
    with cg.block_scope():
        total = canonical_loop.loop_nest_space(cg, loops)[3]
        total = b.zext(total, I64) if total.type.width < 64 else total
        chunk = ir.Constant(I64, 0)
        for clause in clauses_named(directive, "dist_schedule"):
            if clause.chunk is not None:
                value = cg.expr(clause.chunk)
                chunk = convert(b, value.value, value.ctype, ct.ULONG)
        start, end = cg.alloca_ir(I64, "team.start"), cg.alloca_ir(I64, "team.end")
        take = static_chunks(cg, total, chunk, start, end, TEAM_SHARERS)
        (first, last), worksharing = window_variables(cg, split.worksharing)
        region = OmpConstruct(split.parallel, OmpConstruct(worksharing, construct.body, construct.coord),
                              construct.coord)
        head, run, done = cg.new_block("team.chunk"), cg.new_block("team.run"), cg.new_block("team.done")
        b.branch(head)
        b.position_at_end(head)
        b.cbranch(gomp.true(cg, take()), run, done)
        b.position_at_end(run)
        b.store(b.load(start), first)
        b.store(b.load(end), last)
        emit_parallel_region(cg, region)
        cg.branch_if_open(head)
        b.position_at_end(done)
