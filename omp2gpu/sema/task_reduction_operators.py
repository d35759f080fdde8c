"""An `in_reduction` item must be reduced with the operator of the task reduction it
joins (OpenMP 5.0 2.19.5.6: "the reduction-identifier ... must match"): where that
reduction is lexically visible -- a `taskgroup task_reduction`, a `reduction(task, ...)`
or a taskloop's `reduction` around the task in the same function -- a different operator
is a located error, as Clang reports it. A participant whose reduction is set up in a
caller is not checked (its scope is only known at run time)."""

from __future__ import annotations

from omp2gpu.diagnostics import LoweringError
from omp2gpu.frontend.openmp.clause_types import InReductionClause, ReductionClause, TaskReductionClause
from omp2gpu.sema.openmp_constructs import constructs_in_context


def check_task_reduction_operators(ast) -> None:
    for construct, enclosing in constructs_in_context(ast):
        for clause in construct.directive.find(InReductionClause):
            for item in clause.items:
                joined = _reduction_of(item.name, enclosing)
                if joined is not None and joined.op != clause.op:
                    raise LoweringError(
                        f"'in_reduction' of '{item.name}' with '{clause.op}' does not match the "
                        f"'{joined.op}' of the '{joined.name}' clause it participates in "
                        f"(line {joined.coord.line})", clause.coord)


def _reduction_of(name: str, enclosing) -> ReductionClause | TaskReductionClause | InReductionClause | None:
    """The innermost clause around that makes `name` a task reduction's item."""
    for outer in reversed(enclosing):
        directive = outer.directive
        candidates = [*directive.find(TaskReductionClause), *directive.find(InReductionClause),
                      *(c for c in directive.find(ReductionClause)
                        if c.modifier == "task" or directive.has("taskloop"))]
        for clause in candidates:
            if any(item.name == name for item in clause.items):
                return clause
    return None
