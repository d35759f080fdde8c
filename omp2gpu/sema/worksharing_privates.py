"""A worksharing construct's reduction, firstprivate or lastprivate item must be shared
in the region the construct binds to (OpenMP 4.5 2.15.3.4-2.15.3.6): not private there.
gcc reports "reduction variable 'x' is private in outer context" ("firstprivate variable",
"lastprivate variable"), Clang that it "must be shared"; so does this check, lexically
as gcc does, in two cases:

- orphaned: no parallel, teams, target or task region around the construct in its
  function; the region it binds to is a caller's (or the initial thread's), where the
  function's own automatic variables and parameters are private to each thread;
- nested: the innermost such region around it is in the function; an item is private
  there when it is an automatic variable declared inside that region (in a block on the
  way to the construct), or named in the region's private, firstprivate or reduction
  clause. A static local is shared (OpenMP 4.5 2.15.1.1; gcc 12 refuses it there, which
  is not followed). A combined `parallel for` binds to its own parallel region, so it is
  not checked; a `loop` bound to a parallel or teams region is checked as a `for` (gcc).
"""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import LoweringError
from omp2gpu.frontend.openmp.clause_types import (
    BindClause,
    FirstprivateClause,
    LastprivateClause,
    PrivateClause,
    ReductionClause,
)
from omp2gpu.frontend.openmp.directive_free import holds_directives
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.tree_walks import nodes_of
from omp2gpu.sema.openmp_constructs import constructs_in_context, file_functions

_WORKSHARING = ("for", "sections", "scope", "single")
_CLAUSES = ((ReductionClause, "reduction"), (FirstprivateClause, "firstprivate"),
            (LastprivateClause, "lastprivate"))
_DATA_ENVIRONMENTS = ("parallel", "teams", "target", "task", "taskloop")
# the clauses of a region that make its own copies of an outer variable
_PRIVATISING = (PrivateClause, FirstprivateClause, ReductionClause)


def check_worksharing_privates(ast) -> None:
    for function in file_functions(ast):
        if holds_directives(function):
            _check_orphaned(function)
            _walk_nested(function.body, None)


def _check_orphaned(function: c_ast.FuncDef) -> None:
    private, private_arrays = _automatic_names(function)
    for construct, enclosing in constructs_in_context(function):
        if construct.directive.constructs[0] not in _WORKSHARING:
            continue
        if any(leaf in _DATA_ENVIRONMENTS for outer in enclosing for leaf in outer.directive.constructs):
            continue
        _check_items(construct, private, private_arrays)


def _check_items(construct: OmpConstruct, private, private_arrays) -> None:
    for kind, spelling in _CLAUSES:
        for clause in construct.directive.find(kind):
            for item in clause.items:
                # a section of a local array is the array's (of a pointer: the storage
                # it points to, which may be shared)
                if item.name in (private if item.is_variable else private_arrays):
                    raise LoweringError(f"{spelling} variable '{item.name}' is private in outer context",
                                        construct.coord)


def _walk_nested(node, region, closest: str | None = None) -> None:
    """The nested case's walk. `region`: None outside any data-environment region, else
    (the names private in the innermost one, those of them that are arrays), sets copied
    at each block, so that a declaration is seen only below it; `closest`: the innermost
    leaf of the construct around `node`."""
    if isinstance(node, OmpConstruct):
        region = _construct_entered(node, region, closest)
        closest = node.directive.constructs[-1]
    elif region is not None and isinstance(node, (c_ast.Compound, c_ast.For)):
        region = (set(region[0]), set(region[1]))
    elif region is not None and isinstance(node, c_ast.Decl) and node.name \
            and not isinstance(node.type, c_ast.FuncDecl):
        if {"static", "extern"} & set(node.storage):
            region[0].discard(node.name)          # shared: hides an outer private one
            region[1].discard(node.name)
        else:
            region[0].add(node.name)
            if isinstance(node.type, c_ast.ArrayDecl):
                region[1].add(node.name)
    if isinstance(node, c_ast.Decl):      # not into its type: a struct's members are Decls too
        if node.init is not None:
            _walk_nested(node.init, region, closest)
        return
    for child in node:
        _walk_nested(child, region, closest)


def _construct_entered(construct: OmpConstruct, region, closest: str | None):
    """Check a worksharing construct inside a region; the region inside `construct`."""
    leaves = construct.directive.constructs
    if region is not None and (leaves[0] in _WORKSHARING or _binds_to_a_team(construct, closest)):
        _check_items(construct, *region)
    if not any(leaf in _DATA_ENVIRONMENTS for leaf in leaves):
        return region
    names = {item.name for kind in _PRIVATISING for clause in construct.directive.find(kind)
             for item in clause.items if item.is_variable}
    return names, set()


def _binds_to_a_team(construct: OmpConstruct, closest: str | None) -> bool:
    """A `loop` bound to the parallel or teams region closely around it (OpenMP 5.0 2.9.5),
    not to the thread (`bind(thread)`, or nested in another loop region)."""
    if construct.directive.constructs[0] != "loop":
        return False
    bind = construct.directive.first(BindClause)
    return bind.kind != "thread" if bind is not None else closest in ("parallel", "teams")


def _automatic_names(function: c_ast.FuncDef) -> tuple[set[str], set[str]]:
    """The parameters and the local variables without static or extern storage; and
    those of them that are arrays (not parameters, which are pointers)."""
    names, arrays = set(), set()
    params = function.decl.type.args.params if isinstance(function.decl.type, c_ast.FuncDecl) \
        and function.decl.type.args is not None else ()
    names |= {p.name for p in params if isinstance(p, c_ast.Decl) and p.name}
    for node in nodes_of(function.body, c_ast.Decl):
        if node.name and not ({"static", "extern"} & set(node.storage)) and not isinstance(node.type, c_ast.FuncDecl):
            names.add(node.name)
            if isinstance(node.type, c_ast.ArrayDecl):
                arrays.add(node.name)
    return names, arrays
