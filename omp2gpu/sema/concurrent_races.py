"""Data races the compiler can see in a loop whose iterations the threads of a team run
concurrently: a `loop` binding to a teams or parallel region, or a `for` / `distribute`
with `order(concurrent)`. A statement of the loop body that every iteration runs (not
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
from omp2gpu.frontend.clause_types import CollapseClause, OrderClause
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
    if directive.first(OrderClause) and any(directive.has(leaf) for leaf in ("for", "distribute")):
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
    for name, node in _unconditional_writes(body):
        if name in own or name in local or name in between:
            continue
        if team is not construct and name in _declared_in(team.body):
            continue
        raise LoweringError(f"data race: every iteration of {what} writes '{name}', which the "
                            "threads share (make it private, lastprivate or a reduction)", node.coord)


def _team(construct, enclosing):
    """The construct that made the team running `construct` (None where that is not
    known here), and the names privatised between the two."""
    if any(construct.directive.has(leaf) for leaf in _TEAM_LEAVES):
        return construct, set()
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


def _declared_in(node) -> set[str]:
    names, stack = set(), [node] if node is not None else []
    while stack:
        current = stack.pop()
        if isinstance(current, c_ast.Decl) and current.name:
            names.add(current.name)
        stack.extend(child for _, child in current.children())
    return names


def _unconditional_writes(body):
    """(variable, its lvalue node) for each statement every iteration runs that assigns a
    whole variable."""
    if body is None:
        return
    statements = (body.block_items or []) if isinstance(body, c_ast.Compound) else [body]
    for statement in statements:
        if isinstance(statement, c_ast.Assignment) and isinstance(statement.lvalue, c_ast.ID):
            yield statement.lvalue.name, statement.lvalue
        elif isinstance(statement, c_ast.UnaryOp) and statement.op in ("++", "--", "p++", "p--") \
                and isinstance(statement.expr, c_ast.ID):
            yield statement.expr.name, statement.expr
