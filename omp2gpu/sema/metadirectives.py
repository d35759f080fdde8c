"""Which directive a metadirective is, on a given device (OpenMP 5.0 2.3.4, 5.1 2.3.4),
and which function a call to a function with variants calls (5.1 2.3.5).

A metadirective resolves, for one device, to a chain of alternatives: the compatible
`when` clauses best first (openmp_context.ranked), each with the checks left to run time
(a user condition, a target device's kind), up to the first with none, else the
`default`/`otherwise` directive. One alternative is the usual case: the metadirective is
that directive (or its statement alone, for `nothing`). Code compiled for a device
(`specialized`, what a target region's plan is made from) must resolve statically; host
code may branch at run time (codegen/openmp/metadirective_code.py).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError, SourceLocation
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct, OmpMetadirective
from omp2gpu.frontend.openmp.variant_clauses import OtherwiseClause, WhenClause
from omp2gpu.frontend.openmp.variant_sites import CallSite, context_leaves
from omp2gpu.frontend.tree_walks import holds, nodes_of
from omp2gpu.sema.openmp_context import Check, Device, context_for, ranked


@dataclass(frozen=True)
class Alternative:
    checks: tuple[Check, ...]           # all true at run time: this directive applies
    directive: object                   # a Directive, or None for `nothing`


def resolution(meta: OmpMetadirective, device: Device, chosen_now=None) -> tuple[Alternative, ...]:
    """The metadirective's alternatives on `device`. `chosen_now(meta)`: what an enclosing
    metadirective being emitted at run time chose in this alternative, else None."""
    context = context_for(device, context_leaves(meta.context, lambda outer: chosen(outer, device, chosen_now)))
    whens = [(clause.selector, clause) for clause in meta.directive.find(WhenClause)]
    chain = []
    for clause, found in ranked(whens, context):
        chain.append(Alternative(found.dynamic, clause.directive))
        if not found.dynamic:
            return tuple(chain)
    otherwise = meta.directive.first(OtherwiseClause)
    chain.append(Alternative((), otherwise.directive if otherwise is not None else None))
    return tuple(chain)


def chosen(meta: OmpMetadirective, device: Device, chosen_now=None):
    """The directive a metadirective is on `device` when it needs no run-time check (the
    last alternative otherwise: what remains when every check fails)."""
    override = chosen_now(meta) if chosen_now is not None else None
    if override is not None:
        return override[0]
    return resolution(meta, device, chosen_now)[-1].directive if _dynamic(meta, device, chosen_now) \
        else resolution(meta, device, chosen_now)[0].directive


def _dynamic(meta, device, chosen_now) -> bool:
    return len(resolution(meta, device, chosen_now)) > 1


def statement(meta: OmpMetadirective, directive):
    """What the metadirective is when `directive` applies: the construct, or for `nothing`
    its statement (None when it has none)."""
    if directive is None:
        return meta.body
    return OmpConstruct(directive, meta.body, directive.coord)


def specialized(node, device: Device):
    """`node` as `device` compiles it: every metadirective in it replaced by its statement
    (the nodes on the way copied; `node` itself is unchanged). A metadirective that only
    the run time can decide is an error here."""
    if not _holds_metadirective(node):
        return node
    if isinstance(node, OmpMetadirective):
        chain = resolution(node, device)
        if len(chain) > 1:
            raise CompileError(f"a metadirective decided when the program runs is not supported in "
                               f"code compiled for {device.name}", node.coord)
        replaced = statement(node, chain[0].directive)
        return specialized(replaced, device) if replaced is not None else c_ast.EmptyStatement(node.coord)
    twin = copy.copy(node)
    for name in getattr(node, "__slots__", ()):
        value = getattr(node, name, None)
        if isinstance(value, c_ast.Node):
            setattr(twin, name, specialized(value, device))
        elif isinstance(value, list):
            setattr(twin, name, [specialized(item, device) if isinstance(item, c_ast.Node) else item
                                 for item in value])
    return twin


def _holds_metadirective(node) -> bool:
    return holds(node, OmpMetadirective)


def variant_callee(site: CallSite, device: Device, chosen_now=None, nocontext: bool = False):
    """The DeclaredVariant a call of `site.base` calls on `device`, or None for the base
    function (no variant compatible). `nocontext`: a dispatch's `nocontext` is true, so
    `dispatch` is not in the construct set. A variant's user condition must be known
    when compiling."""
    leaves = context_leaves(site.context, lambda meta: chosen(meta, device, chosen_now))
    if nocontext:
        leaves = tuple(leaf for leaf in leaves if leaf != "dispatch")
    best = ranked([(variant.selector, variant) for variant in site.variants], context_for(device, leaves))
    if not best:
        return None
    variant, found = best[0]
    if found.dynamic:
        raise CompileError(f"'declare variant' of '{site.base}': a selector decided when the program runs "
                           "is not supported", variant.coord)
    return variant


def metadirective_remarks(node, device: Device) -> list[str]:
    """`--explain`'s line for each metadirective in `node` (a target region): the directive
    `device` compiles it as."""
    remarks = []
    for meta in sorted(_metadirectives_in(node), key=lambda m: (m.coord.line, m.coord.column)):
        chain = resolution(meta, device)
        chosen = " else ".join(f"'{a.directive.kind}'" if a.directive else "nothing" for a in chain)
        remarks.append(f"{SourceLocation.of(meta.coord)}: remark: metadirective on {device.name}: {chosen}")
    return remarks


def _metadirectives_in(node) -> list:
    return list(nodes_of(node, OmpMetadirective))
