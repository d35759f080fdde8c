"""The OpenMP 5.0 `loop` construct (2.9.5), lowered to the 4.5 construct its binding
region implies, right after the directives are attached: every later stage (host,
CPU device, the GPU's control loop and combined schemes) sees only 4.5 constructs.

    binding   loop                      teams loop / parallel loop
    teams     distribute parallel for   teams distribute parallel for
    parallel  for                       parallel for
    thread    simd

- `bind(teams)`: the teams' threads share the iterations, as Clang and NVIDIA's
  compilers do, so `target teams loop` is the combined SPMD kernel on the GPU.
- `bind(parallel)`: `for` keeps its implicit barrier. `loop` has no `nowait`, and a
  conforming loop region is met by every thread of the team or by none, so the barrier
  only makes a thread wait; it is what makes the next region see this one's writes.
- `bind(thread)`: one thread runs every iteration; `simd` takes the loop's clauses.
- Without `bind`, a combined `teams loop` / `parallel loop` binds to its own teams /
  parallel region, and a `loop` to the construct it is closely nested in when that is
  `teams` or `parallel`; inside any other construct it binds to the thread. An
  orphaned `loop` (no construct around it in its function) must say `bind`, as gcc requires.

The lowered directive keeps the written name (`Directive.lowered_from`, `binding`) for
`--explain`. `order` goes (a `loop` region is order(concurrent) and every lowering
runs its iterations in an order that allows it); `bind` goes.

Checked here, as gcc and Clang check them when they lower OpenMP (LoweringError):
`bind(teams)` only closely nested inside `teams`; a loop binding to a parallel region
not closely nested inside `teams` or a region that forbids worksharing; `lastprivate`
only of the loops' iteration variables. What the region may hold is
concurrent_regions.py's check.
"""

from __future__ import annotations

from dataclasses import replace

from omp2gpu.diagnostics import LoweringError, SourceLocation
from omp2gpu.frontend.openmp.clause_types import BindClause, LastprivateClause, OrderClause
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct, OmpMetadirective
from omp2gpu.sema.default_none import loop_iteration_variables
from omp2gpu.sema.nesting import NO_WORKSHARING_INSIDE
from omp2gpu.sema.openmp_constructs import constructs_in_context

LOWERED_LEAVES = {
    "teams": ("distribute", "parallel", "for"),
    "parallel": ("for",),
    "thread": ("simd",),
}
# Regions in which a loop binding to the parallel region (a worksharing `for`) may not be
# closely nested: OpenMP's worksharing rule, and the loop regions whose iterations one
# thread runs.
_NO_PARALLEL_BINDING_INSIDE = NO_WORKSHARING_INSIDE + ("teams", "simd", "loop", "distribute",
                                                       "taskloop")


def lower_loop_constructs(ast, check: bool = True) -> None:
    """Replace each `loop` directive (in place) by the construct its binding implies;
    with `check`, raise a LoweringError at the first that breaks a rule. A metadirective's
    `loop` variants too (each binding where the metadirective stands)."""
    for construct, enclosing in constructs_in_context(ast, metadirectives=True):
        around = [written_form(outer.directive) for outer in enclosing]
        if isinstance(construct, OmpMetadirective):
            _lower_variants(construct, around, check)
            continue
        written = construct.directive
        if written.constructs[-1] != "loop":
            continue
        if around and around[-1].kind == "metadirective" and len(written.constructs) == 1 \
                and written.first(BindClause) is None:
            raise LoweringError("a 'loop' construct in a metadirective's statement needs a 'bind' clause "
                                "(the region it binds to depends on the directive each device chooses)",
                                construct.coord)
        binding = binding_of(written, around, construct.coord, check)
        if check:
            _check_binding(written, binding, around, construct.coord)
            _check_lastprivate(construct)
        construct.directive = lowered(written, binding)


def _lower_variants(meta, around, check: bool) -> None:
    for clause in meta.directive.clauses:
        variant = getattr(clause, "directive", None)
        if variant is None or variant.constructs[-1] != "loop":
            continue
        binding = binding_of(variant, around, variant.coord, check)
        if check:
            _check_binding(variant, binding, around, variant.coord)
        clause.directive = lowered(variant, binding)


def written_form(directive):
    """The directive as written: a lowered `loop` as its `loop` directive's leaves."""
    if directive.lowered_from is None:
        return directive
    return replace(directive, kind=directive.lowered_from, constructs=tuple(directive.lowered_from.split()))


def binding_of(directive, enclosing, coord=None, check: bool = True) -> str:
    """teams, parallel or thread: the region a `loop` directive binds to."""
    bind = directive.first(BindClause)
    if bind is not None:
        return bind.kind
    if len(directive.constructs) > 1:           # teams loop, target parallel loop, ...
        return directive.constructs[-2]
    if not enclosing:
        if check:
            raise LoweringError("'bind' clause not specified on a 'loop' construct not nested "
                                "inside another OpenMP construct", coord)
        return "thread"
    leaf = enclosing[-1].constructs[-1]
    return leaf if leaf in ("teams", "parallel") else "thread"


def lowered(directive, binding: str):
    """The 4.5 directive a `loop` directive binding to `binding` means."""
    constructs = directive.constructs[:-1] + LOWERED_LEAVES[binding]
    clauses = [c for c in directive.clauses if not isinstance(c, (BindClause, OrderClause))]
    return replace(directive, kind=" ".join(constructs), constructs=constructs, clauses=clauses,
                   lowered_from=directive.kind, binding=binding)


_BOUND_TO = {"teams": "the teams region", "parallel": "the parallel region",
             "thread": "the encountering thread"}


def loop_lowering_remarks(node, outside_target: bool = False) -> list[str]:
    """`--explain`'s line for each `loop` lowered in `node`, in source order; with
    `outside_target`, only those of host code (a target region's are its build's)."""
    remarks = []
    for construct, enclosing in constructs_in_context(node):
        directive = construct.directive
        if directive.lowered_from is None or (outside_target and any(
                c.directive.has("target") for c in (*enclosing, construct))):
            continue
        remarks.append(f"{SourceLocation.of(construct.coord)}: remark: '{directive.lowered_from}' "
                       f"lowered as '{directive.kind}' (the loop binds to {_BOUND_TO[directive.binding]})")
    return remarks


def _check_binding(directive, binding: str, enclosing, coord) -> None:
    if len(directive.constructs) > 1:
        return                                  # binds to its own construct (directive_rules)
    outer = enclosing[-1].constructs[-1] if enclosing else None
    if binding == "teams" and outer != "teams":
        raise LoweringError("'bind(teams)' on a 'loop' region not strictly nested inside of a "
                            "'teams' region", coord)
    if binding == "parallel" and outer in _NO_PARALLEL_BINDING_INSIDE:
        hint = " (use 'bind(teams)')" if outer == "teams" else ""
        raise LoweringError(f"a 'loop' region binding to a parallel region may not be closely "
                            f"nested inside a '{outer}' region{hint}", coord)


def _check_lastprivate(construct: OmpConstruct) -> None:
    variables = loop_iteration_variables(construct)
    for clause in construct.directive.find(LastprivateClause):
        for item in clause.items:
            if item.name not in variables:
                raise LoweringError(f"'lastprivate' clause on a 'loop' construct refers to a "
                                    f"variable '{item.name}' which is not the loop iterator",
                                    item.coord)
