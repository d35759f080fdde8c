"""OpenMP 4.5 region nesting (Section 2.17), checked lexically in each function.

What may be closely nested inside what: inside `teams` only `distribute` and
`parallel`; `distribute` inside `teams`; `teams` inside `target`; no worksharing
construct, `master` or `barrier` inside a worksharing, `critical`, `ordered`,
`master` or `task` region; no `critical` inside one of the same name. gcc and
clang reject these programs too. A construct with no enclosing construct in its
function is orphaned: the region it binds to is only known at run time, so it is
not checked.
"""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.omp_nodes import OmpConstruct

WORKSHARING = ("for", "sections", "single")
NO_WORKSHARING_INSIDE = WORKSHARING + ("critical", "ordered", "master", "task")


def check_nesting(ast) -> None:
    """Raise a CompileError at the first construct nested where OpenMP forbids it."""
    _walk(ast, [])


def _walk(node, enclosing: list) -> None:
    if isinstance(node, c_ast.FuncDef):
        enclosing = []                      # a new function: its constructs may be orphaned
    if isinstance(node, OmpConstruct):
        _check(node, enclosing)
        enclosing = enclosing + [node.directive]
    for _, child in node.children():
        _walk(child, enclosing)


def _check(construct: OmpConstruct, enclosing: list) -> None:
    if not enclosing:
        return
    directive, outer = construct.directive, enclosing[-1]
    first, outer_leaf = directive.constructs[0], outer.constructs[-1]
    where = construct.coord
    if outer_leaf == "teams" and first not in ("distribute", "parallel"):
        raise CompileError(f"'{directive.kind}' region may not be closely nested inside a 'teams' "
                           "region (only 'distribute' and 'parallel' may)", where)
    if first == "distribute" and outer_leaf != "teams":
        raise CompileError(f"'distribute' region must be closely nested inside a 'teams' region, "
                           f"not '{outer.kind}'", where)
    if first == "teams" and outer_leaf != "target":
        raise CompileError(f"'teams' construct must be closely nested inside a 'target' construct, "
                           f"not '{outer.kind}'", where)
    if first in WORKSHARING + ("master", "barrier") and outer_leaf in NO_WORKSHARING_INSIDE:
        raise CompileError(f"'{first}' region may not be closely nested inside a '{outer_leaf}' region", where)
    if first == "critical":
        for around in enclosing:
            if around.constructs[-1] == "critical" and around.critical_name == directive.critical_name:
                name = f" '{directive.critical_name}'" if directive.critical_name else ""
                raise CompileError(f"cannot nest 'critical{name}' inside a critical region of the "
                                   "same name (it would deadlock)", where)
