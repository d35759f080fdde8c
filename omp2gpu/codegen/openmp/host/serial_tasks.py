"""Explicit tasks in a team of one thread (OpenMP 4.5 2.9.1, 2.15.1.1).

The encountering thread executes every task at once, as an undeferred task
(what `if(false)` asks for, and what a one-thread team may always do): the
task's code runs where the construct is, and completes before the code after
it. So `taskwait`, `taskyield` and `taskgroup` have nothing to wait for, and
`final`, `untied`, `mergeable`, `priority` and `depend` change nothing; the
`if`, `final` and `priority` expressions are still evaluated once, when the
task is encountered.

What remains is the task's data environment:
- `private` and `firstprivate` items get copies (`firstprivate` initialised
  from the original), `shared` items are the originals;
- variables declared inside the task are its own;
- a variable with static storage (file scope, static or extern block scope,
  threadprivate: one thread's copy is the original) is shared;
- any other variable the task references is shared when, in the enclosing
  context, it is shared by all implicit tasks of the current team: it is
  visible where the innermost enclosing `parallel` or `teams` region (of
  this function) begins and no construct in between privatised it (the
  region's default is shared, and privatising a variable hides it behind a
  copy in a new scope); a combined `target parallel`/`target teams` shares
  the target's firstprivate copies. Otherwise it is private to the
  encountering implicit or explicit task (declared inside that region or
  privatised there, or a local of a function with no such region around the
  task -- an orphaned task, one in the sequential part, or one in a target
  region outside any parallel or teams region, mapped variables included),
  and the task gets it firstprivate. GCC decides the same way;
- `default(shared)` makes every such variable shared; `default(none)`
  requires each automatic variable to be listed (static-storage variables
  are accepted unlisted: this pass cannot tell the threadprivate ones, which
  need no listing, from the others).
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.openmp.data.data_sharing import (
    DataEnvironment,
    clauses_named,
    list_items,
)
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.task_rules import ALL_MEMORY
from omp2gpu.sema.captures import free_identifiers

# Leaf constructs whose implicit tasks make a team (of one thread, here): what they
# do not privatise, the team shares.
TEAM_LEAVES = ("parallel", "teams")
STATIC_STORAGE = ("static", "extern", "global", "threadprivate")


@dataclass(frozen=True)
class TeamRegion:
    scope: object                       # the scope where the construct begins
    target_copies: frozenset[str]       # `target parallel`/`target teams`: the target's
                                        # firstprivate copies, which the team shares


@contextmanager
def team_region(cg, directive, target_firstprivate=()):
    """Around a construct emitted in place, before its data environment is entered: if
    it begins a team's region, record the scope where it begins."""
    if not any(directive.has(leaf) for leaf in TEAM_LEAVES):
        yield
        return
    stack = cg.openmp_state.team_regions
    stack.append(TeamRegion(cg.scope, frozenset(target_firstprivate)))
    try:
        yield
    finally:
        stack.pop()


def emit_task(cg, construct, private_slot=None) -> None:
    """The task, run where it is met, in its data environment (`private_slot`: where its
    copies live, DataEnvironment's; default a stack slot of the running thread)."""
    directive = construct.directive
    refuse_task_reductions(construct)
    _evaluate_clauses(cg, directive)
    with DataEnvironment(cg, directive, implicit_firstprivate(cg, construct), private_slot=private_slot):
        cg.stmt(construct.body)


def refuse_task_reductions(construct) -> None:
    """A task that joins a task reduction (`in_reduction`, a taskloop's `reduction`) or
    completes on an event (`detach`) needs the host's tasks: on a device the region is
    refused, and the device build runs it on the host."""
    directive = construct.directive
    for name in ("in_reduction", "detach"):
        if clauses_named(directive, name):
            raise CompileError(f"'{name}' on '#pragma omp {directive.kind}' is not supported on the device",
                               construct.coord)
    if directive.has("taskloop") and clauses_named(directive, "reduction"):
        raise CompileError(f"'reduction' on '#pragma omp {directive.kind}' is not supported on the device",
                           construct.coord)


def implicit_firstprivate(cg, construct) -> list[str]:
    """The variables the task references without a data-sharing clause that are
    firstprivate in it (see the module docstring)."""
    directive = construct.directive
    listed = {item.name for clause_name in ("private", "firstprivate", "lastprivate", "shared")
              for _, item in list_items(directive, clause_name)}
    default = next((clause.kind for clause in clauses_named(directive, "default")), None)
    stack = cg.openmp_state.team_regions
    team = stack[-1] if stack else None
    names = []
    for name in free_identifiers(construct.body):
        symbol = cg.scope.lookup(name)
        if name in listed or symbol is None or symbol.kind != "object" or has_static_storage(symbol):
            continue
        if default == "none":
            raise CompileError(f"'{name}' must be listed in a data-sharing clause of "
                               "'#pragma omp task' (it has 'default(none)')",
                               first_use(construct.body, name) or directive.coord)
        if default == "shared" or (team is not None and shared_by(team, cg.scope, name)):
            continue
        names.append(name)
    return names


def has_static_storage(symbol) -> bool:
    """A global, a static, or in a target region the mapped device copy of one."""
    return isinstance(symbol.address, ir.GlobalVariable) or symbol.storage in STATIC_STORAGE


def shared_by(team: TeamRegion, scope, name: str) -> bool:
    declared = _declaring_scope(scope, name)
    return _encloses(declared, team.scope) or (declared.parent is team.scope
                                                and name in team.target_copies)


def _declaring_scope(scope, name: str):
    """The scope of `scope`'s chain that declares `name` (the outermost, for names a
    special scope finds elsewhere)."""
    while scope.parent is not None and name not in scope.names:
        scope = scope.parent
    return scope


def _encloses(outer, scope) -> bool:
    """`outer` is `scope` or one of its ancestors."""
    while scope is not None:
        if scope is outer:
            return True
        scope = scope.parent
    return False


def first_use(node, name: str):
    if isinstance(node, c_ast.ID) and node.name == name:
        return node.coord
    if isinstance(node, c_ast.StructRef):           # the member name is no variable
        return first_use(node.name, name)
    for _, child in node.children():
        found = first_use(child, name)
        if found is not None:
            return found
    return None


def _evaluate_clauses(cg, directive) -> None:
    """The task's clause expressions, evaluated once as the task is encountered; the
    values do not matter to an undeferred task."""
    for clause_name in ("if", "final"):
        for clause in clauses_named(directive, clause_name):
            cg.condition(clause.expr)
    for clause in clauses_named(directive, "priority"):
        check_priority(clause, cg.expr(clause.expr))
    check_clause_items(cg, directive)


def check_priority(clause, value) -> None:
    if not value.ctype.is_integer:
        raise CompileError("'priority' needs an integer expression", clause.coord)


def check_clause_items(cg, directive) -> None:
    """Every shared, firstprivate and depend item of a task names a variable (or, in a
    depend clause, is OpenMP 5.1's omp_all_memory)."""
    for clause_name, what in (("shared", "a data-sharing"), ("firstprivate", "a data-sharing"),
                              ("depend", "a 'depend'")):
        for _, item in list_items(directive, clause_name):
            symbol = cg.scope.lookup(item.name)
            if symbol is None and clause_name == "depend" and item.name == ALL_MEMORY:
                continue
            if symbol is None or symbol.kind != "object":
                raise CompileError(f"'{item.name}' in {what} clause is not a variable",
                                   item.coord)
