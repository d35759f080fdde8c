"""OpenMP 5.1's utility directives (`nothing`, `error`) and assumptions (`assume`,
`assumes`, `begin assumes` ... `end assumes`), settled as the pragmas are attached.

- `nothing` has no effect: it is dropped.
- `error` at(compilation) (the default) is a diagnostic of the compiler: severity(fatal)
  (the default) an error, severity(warning) a warning, with the message, as gcc words it
  ("'pragma omp error' encountered: MSG"). At(execution) it stays a stand-alone
  construct, which each scheme compiles to a run-time message (fatal: the program ends).
- `assume` is its structured block, preceded by `__builtin_assume(e)` (an llvm.assume)
  for each `holds(e)` whose evaluation has no side effect. `assumes` and
  `begin`/`end assumes` (file scope) promise things of the whole file and are dropped.
  What the promises exclude is checked where the block shows it: a construct named by
  `absent`, any construct under `no_openmp`, a parallel/teams/task construct under
  `no_parallelism`, a call of an `omp_` routine under `no_openmp(_routines)`.
"""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError, warn
from omp2gpu.frontend.openmp.clause_types import AbsentClause, AtClause, HoldsClause, MessageClause, SeverityClause
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.tree_walks import nodes

ASSUMES = ("assumes", "begin assumes", "end assumes")
_PARALLELISM = ("parallel", "teams", "task", "taskloop", "target")


def compile_time(directive, coord) -> bool:
    """Settle `nothing`, a compile-time `error` and `assumes`: True when the directive is
    done with (nothing of it is left in the tree)."""
    if directive.kind == "nothing" or directive.kind in ASSUMES:
        return True
    if directive.kind != "error" or runs_at_execution(directive):
        return False
    text = "'pragma omp error' encountered"
    message = directive.first(MessageClause)
    if message is not None:
        text += f": {_literal_text(message.expr)}"
    severity = directive.first(SeverityClause)
    if severity is not None and severity.kind == "warning":
        warn(text, coord)
        return True
    raise CompileError(text, coord)


def runs_at_execution(directive) -> bool:
    at = directive.first(AtClause)
    return directive.kind == "error" and at is not None and at.kind == "execution"


def _literal_text(literal: c_ast.Constant) -> str:
    """A string literal's characters as a diagnostic shows them (its quotes removed, the
    common escapes read)."""
    text = literal.value[1:-1] if literal.value.startswith('"') else literal.value
    for escape, character in (('\\"', '"'), ("\\n", "\n"), ("\\t", "\t"), ("\\\\", "\\")):
        text = text.replace(escape, character)
    return text


# ----------------------------------------------------------------- assume
def assume_block(construct: OmpConstruct) -> c_ast.Node:
    """The statement an `assume` construct stands for, after its promises are checked
    against what the block shows."""
    directive = construct.directive
    _check_promises(directive, construct.body)
    assumptions = [c_ast.FuncCall(c_ast.ID("__builtin_assume", clause.coord),
                                  c_ast.ExprList([clause.expr], clause.coord), clause.coord)
                   for clause in directive.find(HoldsClause) if _free_of_side_effects(clause.expr)]
    if not assumptions:
        return construct.body
    return c_ast.Compound([*assumptions, construct.body], construct.coord)


def _check_promises(directive, body) -> None:
    names = {c.name for c in directive.clauses}
    absent = {name for clause in directive.find(AbsentClause) for name in clause.names}
    for node in nodes(body):
        if isinstance(node, OmpConstruct):
            inner = node.directive
            if "no_openmp" in names:
                raise CompileError(f"'#pragma omp {inner.kind}' inside an 'assume' region with "
                                   "'no_openmp'", node.coord)
            named = next((name for name in absent if name == inner.kind or name in inner.constructs), None)
            if named is not None:
                raise CompileError(f"'#pragma omp {inner.kind}' inside an 'assume' region whose "
                                   f"'absent' clause names '{named}'", node.coord)
            if "no_parallelism" in names and any(inner.has(leaf) for leaf in _PARALLELISM):
                raise CompileError(f"'#pragma omp {inner.kind}' inside an 'assume' region with "
                                   "'no_parallelism'", node.coord)
        elif isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) \
                and node.name.name.startswith("omp_") and names & {"no_openmp", "no_openmp_routines"}:
            which = "no_openmp_routines" if "no_openmp_routines" in names else "no_openmp"
            raise CompileError(f"call of '{node.name.name}' inside an 'assume' region with '{which}'",
                               node.coord)


def _free_of_side_effects(expression) -> bool:
    for node in nodes(expression):
        if isinstance(node, (c_ast.FuncCall, c_ast.Assignment)):
            return False
        if isinstance(node, c_ast.UnaryOp) and node.op in ("++", "--", "p++", "p--"):
            return False
    return True

