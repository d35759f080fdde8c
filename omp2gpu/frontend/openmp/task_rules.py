"""The OpenMP 5.x tasking rules that involve a directive or several of its clauses
(directive_rules.RULES runs them as the directive is parsed): the `task` reduction
modifier's constructs, `detach` with `mergeable`, the depobj construct's clauses,
`taskwait` with `nowait`, `omp_all_memory`'s dependence types, `reduction` with
`nogroup` on taskloop, `grainsize` with `num_tasks`."""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.clause_types import (
    AtomicClause,
    DependClause,
    DestroyClause,
    DetachClause,
    GrainsizeClause,
    MergeableClause,
    NogroupClause,
    NowaitClause,
    NumTasksClause,
    ReductionClause,
    UpdateClause,
)

ALL_MEMORY = "omp_all_memory"
# The constructs a `reduction(task, ...)` may be on (OpenMP 5.0 2.19.5.4): a parallel or
# worksharing one, or a combination of them without simd, loop or taskloop.
_TASK_MODIFIER_LEAVES = frozenset({"parallel", "for", "sections", "scope"})
_TASK_MODIFIER_EXCLUDED = frozenset({"simd", "loop", "taskloop"})


def _on(directive) -> str:
    return f"'#pragma omp {directive.kind}'"


def check_task_modifier(directive) -> None:
    for clause in directive.find(ReductionClause):
        if clause.modifier != "task":
            continue
        leaves = set(directive.constructs)
        if not leaves & _TASK_MODIFIER_LEAVES or leaves & _TASK_MODIFIER_EXCLUDED:
            raise CompileError(f"'task' reduction modifier is not valid on {_on(directive)}", clause.coord)


def check_detach(directive) -> None:
    detach = directive.first(DetachClause)
    if detach is None:
        return
    if directive.first(MergeableClause):
        raise CompileError(f"'detach' and 'mergeable' cannot both appear on {_on(directive)}", detach.coord)
    if not isinstance(detach.expr, c_ast.ID):
        raise CompileError("the argument of 'detach' must be a variable of type 'omp_event_handle_t'",
                           detach.coord)
    for clause in directive.clauses:
        for item in getattr(clause, "items", ()):
            if item.name == detach.expr.name and clause.name != "depend":
                raise CompileError(f"event handle '{item.name}' of 'detach' cannot appear in a "
                                   f"'{clause.name}' clause", item.coord)


def check_nogroup_reduction(directive) -> None:
    nogroup = directive.first(NogroupClause)
    if nogroup is not None and directive.has("taskloop") and directive.first(ReductionClause):
        raise CompileError(f"'reduction' and 'nogroup' cannot both appear on {_on(directive)}", nogroup.coord)


def check_task_count(directive) -> None:
    """grainsize and num_tasks are exclusive (OpenMP 4.5 2.9.2; Clang says so, gcc 12 takes both)."""
    counts = [c for c in directive.clauses if isinstance(c, (GrainsizeClause, NumTasksClause))]
    if len(counts) > 1 and counts[0].name != counts[1].name:
        raise CompileError(f"'grainsize' and 'num_tasks' cannot both appear on {_on(directive)}",
                           counts[1].coord)


def check_depend_5x(directive) -> None:
    for clause in directive.find(DependClause):
        for item in clause.items:
            if item.name == ALL_MEMORY and (clause.dep_type not in ("out", "inout") or item.sections):
                raise CompileError(f"'{ALL_MEMORY}' may only appear in a 'depend(out: ...)' or "
                                   "'depend(inout: ...)' clause", item.coord)
        if directive.kind == "taskwait" and clause.dep_type == "mutexinoutset":
            raise CompileError("'depend(mutexinoutset)' is not valid on '#pragma omp taskwait'", clause.coord)
    nowait = directive.first(NowaitClause)
    if directive.kind == "taskwait" and nowait is not None and not directive.find(DependClause):
        raise CompileError("'nowait' on '#pragma omp taskwait' needs a 'depend' clause", nowait.coord)


def check_depobj(directive) -> None:
    """`depobj(o)` takes exactly one of depend (one item, not depobj), update or destroy;
    `update(type)` belongs to it alone, as `update` alone belongs to atomic."""
    if directive.kind != "depobj":
        for clause in directive.find(UpdateClause):
            raise CompileError(f"'update({clause.dep_type})' is only valid on '#pragma omp depobj'",
                               clause.coord)
        return
    for clause in directive.find(AtomicClause):
        raise CompileError("expected '(' after 'update'", clause.coord)
    clauses = directive.clauses
    if len(clauses) != 1:
        where = clauses[1].coord if clauses else directive.coord
        raise CompileError("'#pragma omp depobj' needs exactly one 'depend', 'update' or 'destroy' clause",
                           where)
    clause = clauses[0]
    if isinstance(clause, DependClause):
        if clause.dep_type in ("depobj", "source", "sink") or clause.iterators or len(clause.items) != 1:
            raise CompileError("the 'depend' clause of '#pragma omp depobj' takes one item of type 'in', 'out', "
                               "'inout', 'mutexinoutset' or 'inoutset', without an iterator", clause.coord)
        if clause.items[0].name == ALL_MEMORY:
            raise CompileError(f"'{ALL_MEMORY}' in '#pragma omp depobj' is not supported", clause.items[0].coord)
    if isinstance(clause, DestroyClause) and clause.items:
        named = clause.items[0]
        if len(clause.items) != 1 or named.spelling != directive.depobj.spelling:
            raise CompileError("'destroy' must name the depend object of '#pragma omp depobj'", named.coord)


RULES = (check_task_modifier, check_detach, check_nogroup_reduction, check_task_count, check_depend_5x,
         check_depobj)
