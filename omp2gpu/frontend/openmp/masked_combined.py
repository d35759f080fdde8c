"""The OpenMP 5.0/5.1 combinations of `master`/`masked` (`parallel master`, `masked
taskloop simd`, `parallel masked taskloop`, ...) as the constructs they combine, one
inside the other, each with the clauses the spec routes to it (OpenMP 5.1 17.2):

    #pragma omp parallel masked taskloop num_threads(4) filter(1) grainsize(8) firstprivate(x)
 -> #pragma omp parallel num_threads(4) shared(x)
      #pragma omp masked filter(1)
        #pragma omp taskloop grainsize(8) firstprivate(x)

Every scheme then compiles constructs it already knows (a parallel region, a masked
block, a taskloop), and the nesting and data-sharing rules see the same tree a
program spelling the constructs out would give.

Routing, with `inner` the taskloop [simd] leaf when there is one:
- filter: masked; num_threads, proc_bind, copyin: parallel;
- shared, default: parallel and inner (every leaf that permits them);
- private, firstprivate, lastprivate, reduction, in_reduction: inner, else parallel; with
  both, the parallel region shares what the taskloop privatises or reduces;
- if: by its directive-name-modifier; without one, parallel and inner;
- anything else (grainsize, collapse, safelen, ...): inner, else parallel.
"""

from __future__ import annotations

from dataclasses import replace

from omp2gpu.frontend.openmp.clause_types import SharedClause
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct

_MASKED = ("master", "masked")
_PARALLEL_ONLY = frozenset({"num_threads", "proc_bind", "copyin"})
_EVERY_LEAF = frozenset({"shared", "default"})
_PRIVATISING = frozenset({"private", "firstprivate", "lastprivate", "reduction", "in_reduction"})


def is_masked_combination(directive) -> bool:
    """A combined directive with a master or masked leaf."""
    return len(directive.constructs) > 1 and any(leaf in _MASKED for leaf in directive.constructs)


def nest_masked_combination(construct: OmpConstruct) -> OmpConstruct:
    """`construct` as nested leaf constructs, outermost first (unchanged if not a
    master/masked combination)."""
    directive = construct.directive
    if not is_masked_combination(directive):
        return construct
    leaves = directive.constructs
    at = next(i for i, leaf in enumerate(leaves) if leaf in _MASKED)
    parallel = "parallel" in leaves[:at]
    inner = leaves[at + 1:]                   # ("taskloop",) or ("taskloop", "simd") or ()
    routed = {"parallel": [], "masked": [], "inner": []}
    for clause in directive.clauses:
        for part in _route(clause, parallel, bool(inner)):
            routed[part].append(clause)
    if parallel and inner:
        taken = [item for clause in routed["inner"] if clause.name in _PRIVATISING - {"private"}
                 for item in clause.items]
        if taken:
            routed["parallel"].append(SharedClause(coord=directive.coord, items=taken))

    def leaf(kinds: tuple[str, ...], clauses: list):
        return replace(directive, kind=" ".join(kinds), constructs=kinds, clauses=clauses)

    body = construct.body
    if inner:
        body = OmpConstruct(leaf(inner, routed["inner"]), body, construct.coord)
    body = OmpConstruct(leaf((leaves[at],), routed["masked"]), body, construct.coord)
    if parallel:
        body = OmpConstruct(leaf(("parallel",), routed["parallel"]), body, construct.coord)
    return body


def _route(clause, parallel: bool, inner: bool) -> tuple[str, ...]:
    """The leaves (by part name) a clause of the combined directive goes to."""
    name = clause.name
    fallback = "inner" if inner else "parallel"
    if name == "filter":
        return ("masked",)
    if name in _PARALLEL_ONLY:
        return ("parallel",)
    if name in _EVERY_LEAF:
        return tuple(part for part, present in (("parallel", parallel), ("inner", inner)) if present)
    if name == "if":
        modifier = getattr(clause, "modifier", None)
        if modifier == "parallel":
            return ("parallel",)
        if modifier in ("taskloop", "simd"):
            return ("inner",)
        return tuple(part for part, present in (("parallel", parallel), ("inner", inner)) if present)
    return (fallback,)
