"""A `teams` construct on the host, outside any target region (OpenMP 5.0 2.7): a league
of teams through the runtime's GOMP_teams_reg, as GCC compiles it. The body is outlined
(outline.py) and the runtime runs it once per team (libgomp runs the teams one after
another in the encountering thread, each its team number), with `num_teams` (0: the
runtime's nteams-var, OMP_NUM_TEAMS) and `thread_limit` (each team's thread-limit-var).
omp_get_team_num and omp_get_num_teams are the runtime's.

A league whose teams would share a `distribute` loop stays one team, as a teams region
inside a target region run on the host does (host.py): the host's loop constructs give
a team every iteration. One team is what OpenMP 5.0 allows num_teams to give.
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.openmp import gomp
from omp2gpu.codegen.openmp.data_sharing import clauses_named
from omp2gpu.codegen.openmp.outline import outline, read_only_scalars
from omp2gpu.codegen.openmp.region_shape import nested_constructs
from omp2gpu.sema import ctypes as ct

I32 = ir.IntType(32)
IN_TARGET = "host.in_target"        # key in cg.openmp_state: how many target constructs enclose the code


def is_host_league(cg, construct) -> bool:
    """A teams construct the host runs as a league of its own: not inside a target region,
    no distribute for its teams to share."""
    if cg.openmp_state.get(IN_TARGET) or construct.directive.has("distribute"):
        return False
    return not any(inner.directive.has("distribute") for inner in nested_constructs(construct.body))


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
