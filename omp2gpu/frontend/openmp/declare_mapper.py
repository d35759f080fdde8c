"""`#pragma omp declare mapper([identifier :] type var) map(...)...` (OpenMP 5.0 2.19.7.3)
and the `mapper(identifier)` modifier of map, to and from clauses.

The directive's argument is read into a `DeclaredMapper`; its map clauses stay the
directive's clauses (read by the ordinary map parser, in terms of `var`). Codegen
(codegen/openmp/data/mappers.py) registers the mapper in the scope where the directive
appears and expands every map list item of a struct type that has one.
"""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from omp2gpu.diagnostics import SourceLocation
from omp2gpu.frontend.openmp.pragma_syntax import Group, PragmaContext, parse_type_name, split_once, take_parenthesized

DEFAULT_MAPPER = "default"
_WHAT = "'#pragma omp declare mapper'"


@dataclass
class DeclaredMapper:
    identifier: str                     # "default" when the directive names none
    type_name: c_ast.Typename
    variable: str                       # the name the map clauses use for the mapped object
    coord: SourceLocation
    type_coord: SourceLocation | None = None


def read_mapper_declaration(ctx: PragmaContext, args: Group) -> DeclaredMapper:
    """The parenthesised argument `[identifier :] type var`."""
    head, tail = split_once(ctx, args, ":", _WHAT)
    identifier = DEFAULT_MAPPER
    if tail is not None:
        if len(head.tokens) != 1 or head.tokens[0].kind != "id":
            raise ctx.error(f"expected a mapper identifier before ':' in {_WHAT}",
                            head.tokens[0].offset if head.tokens else head.start)
        identifier, declaration = head.tokens[0].text, tail
    else:
        declaration = head
    tokens = declaration.tokens
    if len(tokens) < 2 or tokens[-1].kind != "id":
        raise ctx.error(f"expected a type and a variable name in {_WHAT}",
                        tokens[-1].offset if tokens else declaration.start)
    variable = tokens[-1]
    type_group = Group.of(tokens[:-1], variable.offset)
    return DeclaredMapper(identifier, parse_type_name(ctx, type_group, f"the type of {_WHAT}"),
                          variable.text, ctx.loc(variable.offset), ctx.loc(type_group.start))


def take_mapper_modifier(ctx: PragmaContext, head: Group, clause: str) -> tuple[Group, str | None]:
    """`mapper(identifier)` among a clause's modifiers (before its ':'): the modifiers
    without it, and the identifier (None: not written)."""
    tokens = head.tokens
    for i, tok in enumerate(tokens):
        if tok.kind == "id" and tok.text == "mapper" and i + 1 < len(tokens) and tokens[i + 1].is_punct("("):
            inner, after = take_parenthesized(ctx, tokens, i + 1, f"the 'mapper' modifier of '{clause}' clause")
            if len(inner.tokens) != 1 or inner.tokens[0].kind != "id":
                raise ctx.error(f"expected a mapper identifier in 'mapper(...)' of '{clause}' clause",
                                inner.tokens[0].offset if inner.tokens else inner.start)
            rest = tokens[:i] + tokens[after:]
            if i > 0 and tokens[i - 1].is_punct(","):           # `always, mapper(id), to`
                rest = tokens[:i - 1] + tokens[after:]
            elif after < len(tokens) and tokens[after].is_punct(","):
                rest = tokens[:i] + tokens[after + 1:]
            return Group.of(rest, head.limit or head.end), inner.tokens[0].text
    return head, None

