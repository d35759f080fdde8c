"""`#pragma omp declare reduction(identifier : type-list : combiner) [initializer(...)]`
(OpenMP 4.5 2.16): the directive's argument, read into a `DeclaredReduction`.

The combiner is a C expression in `omp_out` and `omp_in`; the initializer either
`omp_priv = expression` or a call (`init(&omp_priv, omp_orig)`), in `omp_priv` and
`omp_orig`. Codegen registers the declaration in the scope where the directive
appears, one entry per type of the list, and a `reduction(identifier: x)` clause
finds it by identifier and x's type.
"""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from omp2gpu.frontend.openmp.pragma_syntax import Group, PragmaContext, parse_expression, parse_type_name, split_top

# Operators a declaration may give a meaning for other types (OpenMP 4.5 2.16);
# `max` and `min` are identifiers in C.
_OPERATORS = ("+", "*", "-", "&", "|", "^", "&&", "||")
_WHAT = "'#pragma omp declare reduction'"


@dataclass
class DeclaredReduction:
    identifier: str                     # an identifier or one of _OPERATORS
    types: list[c_ast.Typename]         # the type list, one declaration each
    combiner: c_ast.Node                # an expression in omp_out and omp_in
    initializer: c_ast.Node | None = None   # `omp_priv = e` or a call; None: zero-initialised


def read_declaration(ctx: PragmaContext, args: Group) -> DeclaredReduction:
    """The parenthesised argument `identifier : type-list : combiner`."""
    pieces = split_top(args, ":")
    if len(pieces) < 3:
        raise ctx.error(f"expected ':' in {_WHAT}", pieces[-1].limit)
    if len(pieces) > 3:
        raise ctx.error(f"unexpected ':' in {_WHAT}", pieces[3].sep.offset)
    head, types, combiner = pieces
    name = "".join(t.text for t in head.tokens)
    if len(head.tokens) != 1 or (head.tokens[0].kind != "id" and name not in _OPERATORS):
        where = head.tokens[0].offset if head.tokens else head.start
        raise ctx.error(f"expected a reduction identifier or operator in {_WHAT}", where)
    type_names = [parse_type_name(ctx, piece, f"the type list of {_WHAT}")
                  for piece in split_top(types, ",")]
    expression = parse_expression(ctx, combiner, f"the combiner of {_WHAT}")
    return DeclaredReduction(name, type_names, expression)


def check_initializer(ctx: PragmaContext, expression: c_ast.Node, offset: int) -> c_ast.Node:
    """`initializer(omp_priv = e)` or `initializer(f(...))`: nothing else is allowed."""
    if isinstance(expression, c_ast.Assignment) and expression.op == "=" \
            and isinstance(expression.lvalue, c_ast.ID) and expression.lvalue.name == "omp_priv":
        return expression
    if isinstance(expression, c_ast.FuncCall):
        return expression
    raise ctx.error("expected 'omp_priv = expression' or a function call in 'initializer' clause", offset)

