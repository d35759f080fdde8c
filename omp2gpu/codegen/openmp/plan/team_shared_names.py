"""Which variables of a team's sequential code its threads may share, read from the tree
alone (no IR): what the control loop's team_sharing.py gives a home in shared memory or
on the team stack, and what the region facts (region_facts.py) ask of a region before
any scheme is chosen (a team-shared VLA is a refusal)."""

from __future__ import annotations

from typing import NamedTuple

from pycparser import c_ast

from omp2gpu.codegen.openmp.plan.region_shape import nested_constructs
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.tree_walks import nodes_of
from omp2gpu.sema.captures import free_identifiers


def is_parallel(directive) -> bool:
    return directive.has("parallel")


class TeamSharing(NamedTuple):
    declarations: set       # ids of the declarations the team's threads may share
    outer: set              # names from outside `body` that its parallel regions use
    locked: set             # ids of the declarations named in critical constructs
    locked_outer: set       # names from outside `body` named in critical constructs


def shared_in_parallel_regions(body, params=(), critical_callees=frozenset()) -> TeamSharing:
    """Declarations (by node id) that the team's threads may share, and outer names that
    parallel regions in `body` use. Shared: what a parallel region names, and what the
    sequential code lets escape (`&x`, an array decaying to a pointer), since the pointer
    may reach the parallel region; a thread cannot reach another's local memory.
    Locked: what critical constructs name, and what a parallel region passes to a
    function in `critical_callees` (one holding a critical construct)."""
    declarations: set[int] = set()
    outer: set[str] = set()
    locked: set[int] = set()
    locked_outer: set[str] = set()
    scopes: list[dict] = [{param.name: param for param in params if param.name}]

    def resolve(name):
        for scope in reversed(scopes):
            if name in scope:
                return scope[name]
        return None

    def sort_names(construct, found: set, unresolved: set) -> None:
        """The construct's free names: declarations in `body` by id, the others by name."""
        for name in free_identifiers(construct):
            declaration = resolve(name)
            if declaration is not None:
                found.add(id(declaration))
            else:
                unresolved.add(name)

    def escapes(node, parent):
        if isinstance(parent, c_ast.UnaryOp) and parent.op == "&":
            base = node
            while isinstance(base, (c_ast.ArrayRef, c_ast.StructRef)):
                base = base.name
            return base if isinstance(base, c_ast.ID) else None
        if isinstance(node, c_ast.ID) and not (isinstance(parent, c_ast.ArrayRef) and parent.name is node) \
                and not (isinstance(parent, c_ast.UnaryOp) and parent.op == "sizeof"):
            declaration = resolve(node.name)
            if declaration is not None and isinstance(declaration.type, c_ast.ArrayDecl):
                return node
        return None

    def walk(node, parent=None):
        if node is None:
            return
        escaped = escapes(node, parent)
        if escaped is not None and resolve(escaped.name) is not None:
            declarations.add(id(resolve(escaped.name)))
        if isinstance(node, c_ast.Decl) and node.name:
            walk(node.init, node)
            scopes[-1][node.name] = node
            return
        if isinstance(node, OmpConstruct) and is_parallel(node.directive):
            sort_names(node, declarations, outer)
            for critical in (c for c in nested_constructs(node.body) if c.directive.has("critical")):
                sort_names(critical, locked, locked_outer)
            for call in _calls(node, critical_callees):
                for argument in call.args.exprs if call.args else ():
                    sort_names(argument, locked, locked_outer)
            return
        opens_scope = isinstance(node, (c_ast.Compound, c_ast.For))
        if opens_scope:
            scopes.append({})
        for _, child in node.children():
            walk(child, node)
        if opens_scope:
            scopes.pop()

    walk(body)
    return TeamSharing(declarations, outer, locked, locked_outer)


def _calls(node, names):
    """The calls inside node to functions named in `names`, in source order (an
    explicit stack: deep expressions would make a recursive generator quadratic)."""
    return (call for _, child in node.children() for call in nodes_of(child, c_ast.FuncCall)
            if isinstance(call.name, c_ast.ID) and call.name.name in names)
