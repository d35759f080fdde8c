"""A `teams` construct on the host, outside any target region (OpenMP 5.0 2.7): a league
of teams through the runtime's GOMP_teams_reg, as GCC compiles it. The body is outlined
(outline.py) and the runtime runs it once per team (libgomp runs the teams one after
another in the encountering thread, each its team number), with `num_teams` (0: the
runtime's nteams-var, OMP_NUM_TEAMS) and `thread_limit` (each team's thread-limit-var).
omp_get_team_num and omp_get_num_teams are the runtime's.

The league's teams share a `distribute [simd]` loop as a static worksharing loop whose
sharers are the teams (host_worksharing.emit_for with static_chunks over the team
numbers; dist_schedule is its schedule). A league holding `distribute parallel for`
stays one team, as a teams region inside a target region run on the host does
(host.py: the host's loop constructs give a team every iteration); one team is what
OpenMP 5.0 allows num_teams to give.
"""

from __future__ import annotations

from dataclasses import replace

from llvmlite import ir

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.openmp import gomp
from omp2gpu.codegen.openmp.data_sharing import clauses_named
from omp2gpu.codegen.openmp.outline import outline, read_only_scalars
from omp2gpu.codegen.openmp.region_shape import nested_constructs
from omp2gpu.frontend.clause_types import ScheduleClause
from omp2gpu.sema import ctypes as ct

I32 = ir.IntType(32)
IN_TARGET = "host.in_target"        # key in cg.openmp_state: how many target constructs enclose the code
IN_LEAGUE = "host.in_league"        # key in cg.openmp_state: the code is a host league's team's
TEAM_SHARERS = ("omp_get_team_num", "omp_get_num_teams")    # who shares a league's distribute loop
# Clauses of `teams distribute [simd]` the teams leaf takes; the others are the loop's.
_TEAMS_CLAUSES = frozenset({"num_teams", "thread_limit", "default", "shared", "reduction"})


def is_host_league(cg, construct) -> bool:
    """A teams construct the host runs as a league of its own: not inside a target region,
    no `distribute parallel for` (whose teams would each need their share of the loop in
    a parallel region)."""
    if cg.openmp_state.get(IN_TARGET):
        return False
    constructs = [construct, *nested_constructs(construct.body)]
    return not any(c.directive.has("distribute") and c.directive.has("parallel") for c in constructs)


def split_teams(directive):
    """`teams [distribute [simd]]` -> (the teams leaf, the loop leaves or None), each with
    its clauses (OpenMP 5.1 17.2: reduction to teams, the data-sharing of the loop's
    variables to the loop)."""
    rest = directive.constructs[1:]
    if not rest:
        return directive, None
    teams = [c for c in directive.clauses if c.name in _TEAMS_CLAUSES]
    loop = [c for c in directive.clauses if c.name not in _TEAMS_CLAUSES]
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
    counts = []
    for name in ("num_teams", "thread_limit"):
        clause = next(iter(clauses_named(directive, name)), None)
        value = ir.Constant(I32, 0)
        if clause is not None:
            evaluated = cg.expr(clause.expr)
            value = convert(cg.builder, evaluated.value, evaluated.ctype, ct.UINT)
        counts.append(value)
    outlined = outline(cg, f"{cg.function.name}._omp_fn", lambda inner: emit_team(inner, construct),
                       copied=read_only_scalars(cg, construct))
    gomp.call(cg, "GOMP_teams_reg", outlined.function, outlined.fill(cg), *counts, 0)
