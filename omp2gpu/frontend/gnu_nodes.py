"""AST nodes for GNU C constructs pycparser parses into its own nodes."""

from __future__ import annotations

from pycparser import c_ast


class StatementExpression(c_ast.Compound):
    """`({ int t = f(x); t * t; })`: pycparser parses it as a Compound in expression
    position; this subclass tells it apart from a block statement (its last item,
    `({...});`, may itself be a statement expression whose value is wanted)."""

    __slots__ = ()


class ConditionalWithOmittedOperand(c_ast.TernaryOp):
    """GNU `x ?: y`: `x ? x : y` with x evaluated once. Its `iftrue` is None (pycparser's
    walkers skip None children); the value when x is true is x itself."""

    __slots__ = ()

    def __init__(self, cond, iffalse, coord=None):
        super().__init__(cond, None, iffalse, coord)
