"""The statement forms of `#pragma omp atomic compare` (OpenMP 5.1 2.19.7), recognised
once for the checks here and for the code generators (codegen/openmp/atomic_compare):

    cond-expr-stmt     x = expr ordop x ? expr : x;     x = x ordop expr ? expr : x;
                       x = x == e ? d : x;
    cond-update-stmt   if (expr ordop x) { x = expr; }  if (x ordop expr) { x = expr; }
                       if (x == e) { x = d; }
with `compare capture` also
    { v = x; cond-stmt }   { cond-stmt v = x; }   if (x == e) { x = d; } else { v = x; }
    { r = x == e; if (r) { x = d; } }   { r = x == e; if (r) { x = d; } else { v = x; } }

ordop is < or >, and both exprs are the same expression: `x = e < x ? e : x` keeps the
smaller (a minimum), `x = x < e ? e : x` the larger (a maximum). The braces of an `if`
branch are required, as in the spec and gcc.
"""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.clause_types import WeakClause
from omp2gpu.sema.atomic_operands import is_lvalue, is_read, same_expression, same_location

# (comparison, x on its left) -> what `x = cond ? e : x` computes.
_ORDERED = {("<", True): "max", (">", True): "min", ("<", False): "min", (">", False): "max"}


@dataclass(frozen=True)
class CompareForm:
    x: c_ast.Node
    compare: str                # "==", "<" or ">": the comparison as written
    x_on_left: bool             # `x < e` rather than `e < x`
    e: c_ast.Node               # the value compared with x
    d: c_ast.Node               # the value stored when the comparison holds (e for < and >)
    v: c_ast.Node | None = None         # the capture's v
    v_gets: str | None = None           # "old" (x before), "new" (x after), "old-on-failure"
    r: c_ast.Node | None = None         # `r = x == e`: the comparison's result

    @property
    def extremum(self) -> str | None:
        """"min" or "max" for an ordered comparison, None for ==."""
        return None if self.compare == "==" else _ORDERED[self.compare, self.x_on_left]


def compare_form(construct) -> CompareForm:
    """The form of an `atomic compare [capture]` construct; a CompileError if it has none."""
    capture = construct.directive.atomic_kind == "capture"
    body = construct.body
    form = (_capture_form(body) if capture else _conditional(body)) or _invalid(body, capture)
    weak = construct.directive.first(WeakClause)
    if weak is not None and form.compare != "==":
        raise CompileError("the 'weak' clause requires an equality comparison ('x == e')",
                           weak.coord)
    return form


def _invalid(body, capture: bool):
    what = "compare capture" if capture else "compare"
    raise CompileError(f"invalid form of '#pragma omp atomic {what}': expected "
                       "'x = x == e ? d : x;', 'x = e < x ? e : x;', 'if (x == e) { x = d; }' "
                       "or 'if (e < x) { x = e; }'" + (", with 'v = x;' before or after"
                                                        if capture else ""),
                       body.coord)


def _conditional(node) -> CompareForm | None:
    """A cond-expr-stmt or cond-update-stmt without else."""
    if isinstance(node, c_ast.Compound) and len(node.block_items or ()) == 1:
        node = node.block_items[0]
    if isinstance(node, c_ast.Assignment) and node.op == "=" \
            and isinstance(node.rvalue, c_ast.TernaryOp) \
            and same_location(node.rvalue.iffalse, node.lvalue):
        return _comparison(node.rvalue.cond, node.lvalue, node.rvalue.iftrue)
    if isinstance(node, c_ast.If) and node.iffalse is None:
        store = _single(node.iftrue)
        if isinstance(store, c_ast.Assignment) and store.op == "=":
            form = _comparison(node.cond, store.lvalue, store.rvalue)
            # x as the condition spells it: where the statement first names it.
            return form and _replace(form, x=node.cond.left if form.x_on_left else node.cond.right)
    return None


def _comparison(cond, x, stored) -> CompareForm | None:
    """`x == e` storing d, or `x ordop e` / `e ordop x` storing e itself."""
    if not (isinstance(cond, c_ast.BinaryOp) and cond.op in ("==", "<", ">")) or not is_lvalue(x):
        return None
    if same_location(cond.left, x):
        e, on_left = cond.right, True
    elif same_location(cond.right, x) and cond.op != "==":
        e, on_left = cond.left, False
    else:
        return None
    if cond.op != "==" and not same_expression(stored, e):
        return None
    return CompareForm(x=x, compare=cond.op, x_on_left=on_left, e=e, d=stored)


def _capture_form(node) -> CompareForm | None:
    if isinstance(node, c_ast.If):                  # if (x == e) { x = d; } else { v = x; }
        return _with_failure_read(node)
    items = node.block_items or [] if isinstance(node, c_ast.Compound) else []
    if len(items) != 2:
        return None
    first, second = items
    if is_read(first) and (form := _conditional(second)) and same_location(first.rvalue, form.x):
        return _replace(form, v=first.lvalue, v_gets="old")
    if is_read(second) and (form := _conditional(first)) and same_location(second.rvalue, form.x):
        return _replace(form, v=second.lvalue, v_gets="new")
    return _result_form(first, second)


def _with_failure_read(node: c_ast.If) -> CompareForm | None:
    read = _single(node.iffalse)
    form = _conditional(c_ast.If(node.cond, node.iftrue, None, node.coord))
    if form is None or form.compare != "==" or not is_read(read) \
            or not same_location(read.rvalue, form.x):
        return None
    return _replace(form, v=read.lvalue, v_gets="old-on-failure")


def _result_form(first, second) -> CompareForm | None:
    """{ r = x == e; if (r) { x = d; } [else { v = x; }] }"""
    if not (isinstance(first, c_ast.Assignment) and first.op == "=" and is_lvalue(first.lvalue)
            and isinstance(second, c_ast.If) and same_location(second.cond, first.lvalue)):
        return None
    store = _single(second.iftrue)
    if not (isinstance(store, c_ast.Assignment) and store.op == "="):
        return None
    form = _comparison(first.rvalue, store.lvalue, store.rvalue)
    if form is None or form.compare != "==":
        return None
    form = _replace(form, r=first.lvalue)
    if second.iffalse is None:
        return form
    read = _single(second.iffalse)
    if not is_read(read) or not same_location(read.rvalue, form.x):
        return None
    return _replace(form, v=read.lvalue, v_gets="old-on-failure")


def _single(node):
    """The one statement of a braced branch (the braces are required, as gcc does)."""
    if isinstance(node, c_ast.Compound) and len(node.block_items or ()) == 1:
        return node.block_items[0]
    return None


def _replace(form: CompareForm, **changes) -> CompareForm:
    return CompareForm(**{**form.__dict__, **changes})
