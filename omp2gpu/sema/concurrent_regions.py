"""What a `loop` region, or a region with `order(concurrent)`, may hold (OpenMP 5.0
2.9.5 and 2.9.2; 5.1 adds `atomic`): its iterations may run in any order, at once, so
the only constructs closely nested inside are `loop`, `parallel` (and the combined
constructs that begin with it), `simd` and `atomic`, and it may not call the OpenMP
runtime API. Checked lexically, as gcc does: a `parallel` region nested inside is a
region of its own, whose contents these rules do not reach. gcc 12 follows 5.0 and
rejects `atomic` too.
"""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import LoweringError
from omp2gpu.frontend.openmp.clause_types import OrderClause
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.tree_walks import nodes
from omp2gpu.sema.openmp_constructs import constructs_in_context

ALLOWED_INSIDE = ("loop", "parallel", "simd", "atomic")


def check_concurrent_regions(ast) -> None:
    """Raise a LoweringError at the first construct or runtime call such a region holds."""
    for construct, _ in constructs_in_context(ast):
        what = _concurrent(construct.directive) if construct.body is not None else None
        if what is not None:
            _check_region(construct.body, what)


def _concurrent(directive) -> str | None:
    """How messages name the region, where the directive makes one."""
    if directive.constructs[-1] == "loop":
        return "a 'loop' region"
    if directive.first(OrderClause) is not None:
        return "a region with the 'order(concurrent)' clause"
    return None


def _check_region(body, what: str) -> None:
    def own_region(node) -> bool:                # a parallel region inside is a region of its own
        return isinstance(node, OmpConstruct) and node.directive.constructs[0] == "parallel"
    for node in nodes(body, prune=own_region):
        if isinstance(node, OmpConstruct) and node.directive.constructs[0] not in ALLOWED_INSIDE:
            raise LoweringError("OpenMP constructs other than 'parallel', 'loop', 'simd' or "
                                f"'atomic' may not be nested inside {what}", node.coord)
        if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) \
                and node.name.name.startswith("omp_"):
            raise LoweringError(f"OpenMP runtime API call '{node.name.name}' in {what}",
                                node.name.coord)
