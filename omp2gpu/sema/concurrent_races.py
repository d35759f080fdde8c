"""Data races the compiler can see in a loop whose iterations the threads of a team run
concurrently: a `loop` binding to a teams or parallel region, or a `for` / `distribute`
with `order(concurrent)`; likewise the SIMD lanes of a `simd` with `order(concurrent)`,
for an update of a shared variable that reads it (a dependence between iterations).
A statement of the loop body that every iteration runs (not
under an `if`, a nested loop or an `atomic`) and that assigns a variable the team's
threads share -- declared outside the region that made the team and not privatised by
the construct or the constructs between -- is written by several threads at once. gcc
and Clang accept such a loop and leave the result to chance; it is reported here, with
what to do ("make it private, lastprivate or a reduction").

Only what is certain is reported: an orphaned construct (the team's region is in a
caller), a loop binding to the thread, a region inside a task, and a variable declared
anywhere in the team's region are left alone.
"""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import LoweringError
from omp2gpu.frontend.openmp.clause_types import CollapseClause, OrderClause
from omp2gpu.frontend.tree_walks import holds, nodes_of
from omp2gpu.sema.default_none import loop_iteration_variables
from omp2gpu.sema.loop_construct import binding_of, written_form
from omp2gpu.sema.openmp_constructs import constructs_in_context

_PRIVATISING = frozenset({"private", "firstprivate", "lastprivate", "reduction", "linear", "copyin"})
_TEAM_LEAVES = ("parallel", "teams")


def check_concurrent_races(ast) -> None:
    """Raise a LoweringError at the first such write."""
    found = list(constructs_in_context(ast))
    threadprivate = {item.name for construct, _ in found for item in construct.directive.threadprivate_list}
    for construct, enclosing in found:
        if construct.body is not None:
            _check(construct, enclosing, threadprivate)


def _region_name(construct, enclosing) -> str | None:
    """How messages name a construct whose iterations a team's threads run concurrently."""
    directive = construct.directive
    if directive.constructs[-1] == "loop":
        binding = binding_of(directive, [written_form(c.directive) for c in enclosing], check=False)
        return "the 'loop' region" if binding in _TEAM_LEAVES else None
    if directive.first(OrderClause) and any(directive.has(leaf) for leaf in ("for", "distribute", "simd")):
        return "the region with 'order(concurrent)'"
    return None


def _check(construct, enclosing, threadprivate) -> None:
    what = _region_name(construct, enclosing)
    if what is None:
        return
    own = _privatised(construct) | loop_iteration_variables(construct) | threadprivate
    team, between = _team(construct, enclosing)
    if team is None:
        return
    body = _innermost_body(construct)
    local = _declared_in(body)
    threads = _runs_on_threads(construct.directive)
    for name, node in _unconditional_writes(body, carried_only=not threads):
        if name in own or name in local or name in between:
            continue
        if team is not construct and name in _declared_in(team.body):
            continue
        sharers = "threads" if threads else "SIMD lanes"
        raise LoweringError(f"data race: every iteration of {what} writes '{name}', which the "
                            f"{sharers} share (make it private, lastprivate or a reduction)", node.coord)


def _runs_on_threads(directive) -> bool:
    return any(directive.has(leaf) for leaf in ("for", "distribute", "loop") + _TEAM_LEAVES)


def _team(construct, enclosing):
    """The construct that made the team running `construct` (None where that is not
    known here), and the names privatised between the two."""
    if any(construct.directive.has(leaf) for leaf in _TEAM_LEAVES):
        return construct, set()
    if not _runs_on_threads(construct.directive):
        return construct, set()             # simd: its lanes run the iterations at once
    between = set()
    for outer in reversed(enclosing):
        if any(outer.directive.has(leaf) for leaf in _TEAM_LEAVES):
            return outer, between | _privatised(outer)
        if outer.directive.has("task") or outer.directive.has("taskloop") or outer.directive.has("target"):
            return None, between
        between |= _privatised(outer)
    return None, between                      # orphaned: the team is a caller's


def _privatised(construct) -> set[str]:
    return {item.name for clause in construct.directive.clauses if clause.name in _PRIVATISING
            for item in getattr(clause, "items", ())}


def _innermost_body(construct):
    collapse = construct.directive.first(CollapseClause)
    body = construct.body
    for _ in range(collapse.count if collapse else 1):
        while isinstance(body, c_ast.Compound) and len(body.block_items or ()) == 1:
            body = body.block_items[0]
        if not isinstance(body, c_ast.For):
            return None
        body = body.stmt
    return body


def _reads(node, name: str) -> bool:
    return holds(node, lambda current: isinstance(current, c_ast.ID) and current.name == name)


def _declared_in(node) -> set[str]:
    return {declaration.name for declaration in nodes_of(node, c_ast.Decl) if declaration.name}


def _unconditional_writes(body, carried_only: bool = False):
    """(variable, its lvalue node) for each statement every iteration runs that assigns a
    whole variable; with `carried_only`, only updates that read it too (`s += e`, `s++`,
    `s = s * e`: a dependence carried from iteration to iteration, which SIMD lanes break;
    a scalar each iteration sets before reading it is left to the vectoriser)."""
    if body is None:
        return
    statements = (body.block_items or []) if isinstance(body, c_ast.Compound) else [body]
    for statement in statements:
        if isinstance(statement, c_ast.Assignment) and isinstance(statement.lvalue, c_ast.ID):
            name = statement.lvalue.name
            if not carried_only or statement.op != "=" or _reads(statement.rvalue, name):
                yield name, statement.lvalue
        elif isinstance(statement, c_ast.UnaryOp) and statement.op in ("++", "--", "p++", "p--") \
                and isinstance(statement.expr, c_ast.ID):
            yield statement.expr.name, statement.expr
