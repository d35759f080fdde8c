"""OpenMP canonical loop form (OpenMP 4.5 2.6): `for (var = lb; var op ub; incr)`;
OpenMP 5.0 (2.9.1) adds `var != ub` with a unit increment, which counts as `<` (an
increment of 1) or `>` (of -1). Read from the AST alone: the loop constructs'
codegen (codegen/openmp/loops/canonical_loop.py) and the loop transformations
(sema/loop_transformations.py) both read loops through it.
"""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.tree_walks import nodes_of
from omp2gpu.sema.literals import integer_literal


@dataclass
class CanonicalLoop:
    node: c_ast.For
    variable: str
    declared_in_loop: bool       # for (int i = ...)
    lower: c_ast.Node
    upper: c_ast.Node
    relation: str                # "<", "<=", ">", ">=" (`!=` becomes "<" or ">")
    step: c_ast.Node             # the increment, always added (negative for decrements)
    step_negated: bool           # `i -= c` / `i--`: the step expression is subtracted

    @property
    def body(self):
        return self.node.stmt


def _not_canonical(node, what: str):
    return CompileError(f"loop is not in OpenMP canonical form: {what}", node.coord)


def analyze(loop) -> CanonicalLoop:
    if not isinstance(loop, c_ast.For):
        raise CompileError("an OpenMP loop construct must be followed by a for loop",
                           getattr(loop, "coord", None))
    variable, lower, declared = _init(loop)
    relation, upper = _condition(loop, variable)
    step, negated = _increment(loop, variable)
    if relation == "!=":
        relation = _unit_direction(loop, step, negated)
    _no_break_out(loop.stmt)
    return CanonicalLoop(loop, variable, declared, lower, upper, relation, step, negated)


_BREAK_TARGETS = (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Switch)


def _no_break_out(node) -> None:
    """An OpenMP loop's body is a structured block: no `break` leaves it (one inside a
    nested loop or switch binds there)."""
    for inner in nodes_of(node, c_ast.Break, prune=lambda n: isinstance(n, _BREAK_TARGETS)):
        raise CompileError("'break' statement cannot be used in an OpenMP loop", inner.coord)


def _init(loop):
    init = loop.init
    if isinstance(init, c_ast.DeclList) and len(init.decls) == 1 and init.decls[0].init is not None:
        return init.decls[0].name, init.decls[0].init, True
    if isinstance(init, c_ast.Assignment) and init.op == "=" and isinstance(init.lvalue, c_ast.ID):
        return init.lvalue.name, init.rvalue, False
    raise _not_canonical(loop, "expected 'var = lower-bound' as the loop initialisation")


_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "!=": "!="}


def _condition(loop, variable):
    cond = loop.cond
    if isinstance(cond, c_ast.BinaryOp) and cond.op in _FLIPPED:
        if isinstance(cond.left, c_ast.ID) and cond.left.name == variable:
            return cond.op, cond.right
        if isinstance(cond.right, c_ast.ID) and cond.right.name == variable:
            return _FLIPPED[cond.op], cond.left
    raise _not_canonical(cond or loop, f"the condition must compare '{variable}' with a bound "
                                       "('<', '<=', '>', '>=' or '!=')")


def _unit_direction(loop, step, negated: bool) -> str:
    """`var != ub` is canonical only with an increment of 1 or -1 (OpenMP 5.0 2.9.1): the
    loop then runs up to (or down to) ub, as `<` (`>`) would."""
    value = literal_integer(step)
    if value not in (1, -1):
        raise _not_canonical(loop.next or loop, "a loop whose test is '!=' must step by 1 or -1")
    return "<" if (value == 1) != negated else ">"


def _one(loop):
    return c_ast.Constant("int", "1", coord=loop.coord)


def _increment(loop, variable):
    nxt = loop.next
    if isinstance(nxt, c_ast.UnaryOp) and nxt.op in ("++", "p++", "--", "p--") \
            and isinstance(nxt.expr, c_ast.ID) and nxt.expr.name == variable:
        return _one(loop), "-" in nxt.op
    if isinstance(nxt, c_ast.Assignment) and isinstance(nxt.lvalue, c_ast.ID) \
            and nxt.lvalue.name == variable:
        if nxt.op in ("+=", "-="):
            return nxt.rvalue, nxt.op == "-="
        value = nxt.rvalue
        if nxt.op == "=" and isinstance(value, c_ast.BinaryOp) and value.op in ("+", "-"):
            if isinstance(value.left, c_ast.ID) and value.left.name == variable:
                return value.right, value.op == "-"
            if value.op == "+" and isinstance(value.right, c_ast.ID) and value.right.name == variable:
                return value.left, False
    raise _not_canonical(nxt or loop, f"expected '{variable}++', '{variable} += step' or similar "
                                      "as the increment")


def literal_integer(node) -> int | None:
    """The value of an integer constant expression written with literals, `+`, `-` and
    `*` (what a preprocessed `#define` leaves), else None."""
    if isinstance(node, c_ast.Constant) and node.type not in ("char", "string", "float", "double"):
        try:
            return integer_literal(node.value)[0]
        except CompileError:
            return None
    if isinstance(node, c_ast.UnaryOp) and node.op in ("-", "+"):
        value = literal_integer(node.expr)
        return None if value is None else (-value if node.op == "-" else value)
    if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-", "*"):
        left, right = literal_integer(node.left), literal_integer(node.right)
        if left is None or right is None:
            return None
        return {"+": left + right, "-": left - right, "*": left * right}[node.op]
    if isinstance(node, c_ast.Cast):
        return literal_integer(node.expr)
    return None
