"""Where code is chosen by context: the `declare variant` table of a translation unit,
and, for each call to a function that has variants and each metadirective, the
constructs around it (OpenMP 5.1 2.3.1's construct trait set, the lexical part).

The pragma pass (pragmas.py) collects the declared variants and then calls
`record_sites` once over the file. The construct context of a site is a tuple of the
constructs around it, outermost first, from the innermost enclosing `target` construct on
(the spec's "up to a target construct"): OmpConstructs (their leaves read when the site is
resolved, after `loop` is lowered), construct names (a variant's own construct selectors),
and OmpMetadirectives, whose chosen directive's constructs take their place once resolved
for a device (sema/metadirectives.py). The device part (the `target` a device routine adds) is added
when a device resolves the site (sema/openmp_context.py).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

from pycparser import c_ast

from omp2gpu.diagnostics import SourceLocation
from omp2gpu.frontend.openmp.context_selectors import ContextSelector
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct, OmpDeclareTarget, OmpMetadirective


@dataclass(frozen=True)
class DeclaredVariant:
    base: str                           # the function whose calls may be replaced
    variant: str                        # the function that replaces them
    selector: ContextSelector
    coord: SourceLocation
    adjust_args: tuple = ()             # variant_clauses.AdjustArgsClause
    parameters: tuple[str, ...] = ()    # the base function's parameter names (adjust_args names them)
    appended: tuple[bool, ...] = ()     # append_args: an omp_interop_t argument each (targetsync?)


@dataclass(frozen=True)
class CallSite:
    base: str
    variants: tuple[DeclaredVariant, ...]
    context: tuple                      # OmpConstructs, construct names, OmpMetadirectives


_CALL_SITES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def call_site(call: c_ast.FuncCall) -> CallSite | None:
    """The call's variants and context, if the function it calls has declared variants."""
    return _CALL_SITES.get(call)


def variant_names(call: c_ast.FuncCall) -> tuple[str, ...]:
    """The functions a call may turn into (for call graphs: each is a possible callee)."""
    site = _CALL_SITES.get(call)
    return tuple(v.variant for v in site.variants) if site is not None else ()


def record_sites(ast: c_ast.FileAST, variants: list[DeclaredVariant]) -> None:
    """Record every call site of a function with variants, and every metadirective's
    construct context, in the file's function bodies."""
    table: dict[str, tuple[DeclaredVariant, ...]] = {}
    for declared in variants:
        table[declared.base] = table.get(declared.base, ()) + (declared,)
    # OpenMP 5.1 2.3.1 rule 2: a variant's own construct selectors begin its context.
    prefixes = {declared.variant: declared.selector.constructs for declared in variants}
    stack = list(ast.ext or ())
    while stack:
        node = stack.pop()
        if isinstance(node, OmpDeclareTarget):
            stack.extend(node.decls)
        elif isinstance(node, c_ast.FuncDef):
            record_in(node.body, prefixes.get(node.decl.name, ()), table)


def record_in(root, context: tuple, table: dict[str, tuple[DeclaredVariant, ...]]) -> None:
    """Record the sites in `root` (a statement), `context` being the constructs around it."""
    stack = [(root, tuple(context))]
    while stack:
        node, around = stack.pop()
        if node is None:
            continue
        if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID) and node.name.name in table:
            _CALL_SITES[node] = CallSite(node.name.name, table[node.name.name], around)
        inner = around
        if isinstance(node, OmpConstruct):         # its leaves read later: `loop` is lowered after
            inner = (node,) if node.directive.has("target") else around + (node,)
        elif isinstance(node, OmpMetadirective):
            node.context = around
            inner = around + (node,)
        stack.extend((child, inner) for _, child in node.children())


def context_leaves(context: tuple, chosen) -> tuple[str, ...]:
    """The construct names of `context`: each construct's leaves, each metadirective
    replaced by those of the directive `chosen(metadirective)` picks (None: nothing)."""
    leaves: list[str] = []
    for item in context:
        directive = chosen(item) if isinstance(item, OmpMetadirective) else \
            item.directive if isinstance(item, OmpConstruct) else None
        if directive is not None:
            leaves = list(directive.constructs) if directive.has("target") else leaves + list(directive.constructs)
        elif isinstance(item, str):
            leaves.append(item)
    return tuple(leaves)
