"""The clauses of the OpenMP 5.x directives that choose code by context, and of
`declare target` 5.x:

- `declare variant(name) match(selector) [adjust_args(...)] [append_args(...)]` and
  `begin declare variant match(selector)` (5.0, 5.1);
- `metadirective when(selector: directive) ... default(directive)` / `otherwise(...)`
  (5.0, 5.1), a directive variant being any executable directive with its clauses, or
  `nothing`, or empty;
- `dispatch` (5.1): `novariants(expr)`, `nocontext(expr)` (its device, depend, nowait and
  is_device_ptr clauses are the usual ones);
- `declare target` (5.0-5.2): `device_type(host|nohost|any)`, `indirect[(expr)]`, `enter(list)`.

A metadirective's directive variants are parsed by the directive parser itself, which
`read_variant_clause` is handed (directives.py imports this module).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.clause_types import Clause, ListClause
from omp2gpu.frontend.openmp.context_selectors import ContextSelector, parse_context_selector
from omp2gpu.frontend.openmp.pragma_syntax import (
    Group,
    PragmaContext,
    parse_list,
    single_expression,
    single_word,
    split_once,
    split_top,
)


@dataclass(kw_only=True)
class MatchClause(Clause):
    name = "match"
    selector: ContextSelector


@dataclass(kw_only=True)
class AdjustArgsClause(ListClause):
    name = "adjust_args"
    modifier: str                           # need_device_ptr or nothing


@dataclass(kw_only=True)
class AppendArgsClause(Clause):
    """append_args(interop(target[, targetsync]), ...) (5.1): one omp_interop_t argument
    appended per interop(...), initialised with targetsync where it says so."""
    name = "append_args"
    targetsync: tuple[bool, ...]


@dataclass(kw_only=True)
class WhenClause(Clause):
    """when(selector: directive); `directive` None: `nothing` (or no directive)."""
    name = "when"
    selector: ContextSelector
    directive: object


@dataclass(kw_only=True)
class OtherwiseClause(Clause):
    """otherwise(directive) (5.1), or default(directive) (5.0, DefaultVariantClause): used
    when no `when` applies."""
    name = "otherwise"
    directive: object


class DefaultVariantClause(OtherwiseClause):
    name = "default"


@dataclass(kw_only=True)
class NovariantsClause(Clause):
    name = "novariants"
    expr: c_ast.Node


@dataclass(kw_only=True)
class NocontextClause(Clause):
    name = "nocontext"
    expr: c_ast.Node


@dataclass(kw_only=True)
class DeviceTypeClause(Clause):
    name = "device_type"
    kind: str                               # host, nohost or any


@dataclass(kw_only=True)
class IndirectClause(Clause):
    name = "indirect"
    expr: c_ast.Node | None


class EnterClause(ListClause):
    name = "enter"                          # 5.2's spelling of declare target's `to`


# Directive kind -> the clauses read here (and not by clause_parsers.CLAUSES) on it.
VARIANT_CLAUSES: dict[str, frozenset[str]] = {
    "declare variant": frozenset({"match", "adjust_args", "append_args"}),
    "begin declare variant": frozenset({"match"}),
    "metadirective": frozenset({"when", "default", "otherwise"}),
    "dispatch": frozenset({"novariants", "nocontext"}),
    "declare target": frozenset({"device_type", "indirect", "enter"}),
    "begin declare target": frozenset({"device_type", "indirect"}),
}
# The directives a metadirective may not choose (declarative ones, and itself).
def _interop_operation(ctx: PragmaContext, piece: Group) -> bool:
    """interop(target[, targetsync]): whether the appended object is made with targetsync."""
    tokens = piece.tokens
    if len(tokens) < 4 or tokens[0].text != "interop" or not tokens[1].is_punct("(") or not tokens[-1].is_punct(")"):
        raise ctx.error("expected 'interop(target)' or 'interop(targetsync)' in 'append_args' clause",
                        tokens[0].offset if tokens else piece.start)
    kinds = [single_word(ctx, kind, ("target", "targetsync"), "'append_args' clause").text
             for kind in split_top(type(piece).of(tokens[2:-1], tokens[-1].offset), ",")]
    return "targetsync" in kinds


_NOT_A_VARIANT = ("declare", "end", "begin", "metadirective", "threadprivate", "section")


def reads(kind: str, clause: str) -> bool:
    return clause in VARIANT_CLAUSES.get(kind, ())


def read_variant_clause(ctx: PragmaContext, tok, args: Group | None, parse_directive: Callable):
    """One clause of VARIANT_CLAUSES; `parse_directive(text, coord)` reads a directive variant."""
    where = ctx.loc(tok.offset)
    name = tok.text
    if name == "indirect":
        return IndirectClause(coord=where, expr=single_expression(ctx, args, name) if args else None)
    if args is None:
        raise ctx.error(f"expected '(' after '{name}'", tok.end)
    if name == "match":
        return MatchClause(coord=where, selector=parse_context_selector(ctx, args, "'match' clause"))
    if name == "append_args":
        return AppendArgsClause(coord=where, targetsync=tuple(_interop_operation(ctx, piece)
                                                              for piece in split_top(args, ",")))
    if name == "adjust_args":
        head, tail = split_once(ctx, args, ":", "'adjust_args' clause")
        if tail is None:
            raise ctx.error("expected 'need_device_ptr:' or 'nothing:' in 'adjust_args'", args.start)
        modifier = single_word(ctx, head, ("need_device_ptr", "nothing"), "'adjust_args' clause").text
        return AdjustArgsClause(coord=where, modifier=modifier, items=parse_list(ctx, tail, name, plain=True))
    if name in ("novariants", "nocontext"):
        cls = NovariantsClause if name == "novariants" else NocontextClause
        return cls(coord=where, expr=single_expression(ctx, args, name))
    if name == "device_type":
        kind = single_word(ctx, args, ("host", "nohost", "any"), "'device_type' clause").text
        return DeviceTypeClause(coord=where, kind=kind)
    if name == "enter":
        return EnterClause(coord=where, items=parse_list(ctx, args, name, plain=False))
    if name == "when":
        head, tail = _split_selector(ctx, args)
        selector = parse_context_selector(ctx, head, "'when' clause")
        return WhenClause(coord=where, selector=selector,
                          directive=_directive_variant(ctx, tail, parse_directive))
    cls = OtherwiseClause if name == "otherwise" else DefaultVariantClause
    return cls(coord=where, directive=_directive_variant(ctx, args, parse_directive))


def check_variant_clauses(directive) -> None:
    """A metadirective has one default directive, spelled `default` or `otherwise`."""
    defaults = directive.find(OtherwiseClause) if directive.kind == "metadirective" else []
    if len(defaults) > 1:
        raise CompileError(f"'{defaults[1].name}' after '{defaults[0].name}': a metadirective has one "
                           "default directive", defaults[1].coord)


def _split_selector(ctx: PragmaContext, args: Group) -> tuple[Group, Group]:
    """`selector : directive`: the first ':' outside brackets (a directive's clauses may
    hold more)."""
    depth = 0
    for index, tok in enumerate(args.tokens):
        depth += tok.kind == "punct" and tok.text in "({["
        depth -= tok.kind == "punct" and tok.text in ")}]"
        if depth == 0 and tok.is_punct(":"):
            return (Group.of(args.tokens[:index], tok.offset),
                    Group.of(args.tokens[index + 1:], args.limit))
    raise ctx.error("expected ':' after the context selector in 'when' clause", args.end)


def _directive_variant(ctx: PragmaContext, group: Group, parse_directive: Callable):
    """A directive and its clauses, as written after `omp`; None for `nothing` or nothing."""
    if not group.tokens or (len(group.tokens) == 1 and group.tokens[0].text == "nothing"):
        return None
    first = group.tokens[0]
    if first.kind == "id" and first.text in _NOT_A_VARIANT:
        raise ctx.error(f"'{first.text}' cannot be a directive variant of a metadirective", first.offset)
    # Parsed as `omp <text>` placed so that its first word keeps its own column.
    return parse_directive("omp " + ctx.spelling(group), ctx.loc(group.start).shifted(-4))
