"""Clauses OpenMP forbids on a loop construct whose collapsed loops are non-rectangular
(an inner loop's bounds use an outer associated loop's variable): `schedule` and
`ordered` on a worksharing loop, `dist_schedule` on distribute (OpenMP 5.0 2.9.2,
2.9.4.1; gcc rejects them too, with these words). Checked right after the directives
are attached; codegen/openmp/loops/affine_nest.py reads the forms of the bounds."""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.directive_free import constructs_in
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.sema.canonical_form import analyze
from omp2gpu.sema.captures import free_identifiers

_FORBIDDEN = {"schedule": "for", "ordered": "for", "dist_schedule": "distribute"}


def check_non_rectangular_clauses(ast) -> None:
    for node in constructs_in(ast):
        if node.body is not None:
            _check(node)


def _check(construct: OmpConstruct) -> None:
    directive = construct.directive
    forbidden = [c for c in directive.clauses if c.name in _FORBIDDEN and directive.has(_FORBIDDEN[c.name])]
    depth = next((c.count for c in directive.clauses if c.name == "collapse"), 1)
    if not forbidden or depth < 2 or not _non_rectangular(construct.body, depth):
        return
    clause = forbidden[0]
    raise CompileError(f"'{clause.name}' clause may not appear on non-rectangular '{_FORBIDDEN[clause.name]}'",
                       clause.coord)


def _non_rectangular(statement, depth: int) -> bool:
    outer, node = [], statement
    for _ in range(depth):
        while isinstance(node, c_ast.Compound) and len(node.block_items or ()) == 1:
            node = node.block_items[0]
        if not isinstance(node, c_ast.For):
            return False                 # loop_nest reports what is missing
        loop = analyze(node)
        if any(name in outer for bound in (loop.lower, loop.upper) for name in free_identifiers(bound)):
            return True
        outer.append(loop.variable)
        node = node.stmt
    return False
