"""`linear` on a construct with a distribute leaf (`distribute simd`, `distribute
parallel for simd`, and these combined with teams and target) may name only the loop's
iteration variable (OpenMP 5.0 2.9.4.2, 2.9.4.4), as GCC checks: the teams would each
read the original while the one that ran the last iteration copies its value out, and a
device starts its teams in no order."""

from __future__ import annotations

from omp2gpu.diagnostics import CompileError
from omp2gpu.sema.default_none import loop_iteration_variables
from omp2gpu.sema.openmp_constructs import constructs_in_context


def check_linear_on_distribute(ast) -> None:
    for construct, _ in constructs_in_context(ast):
        directive = construct.directive
        if not directive.has("distribute"):
            continue
        clauses = [c for c in directive.clauses if c.name == "linear"]
        if not clauses:
            continue
        variables = loop_iteration_variables(construct)
        for clause in clauses:
            for item in clause.items:
                if item.name not in variables:
                    raise CompileError(f"'linear' clause for '{item.name}', which is not the loop's iteration "
                                       f"variable, on '#pragma omp {directive.kind}' (a construct combined with "
                                       "'distribute')", item.coord)

