"""The statement forms `#pragma omp atomic` accepts (OpenMP 4.5 2.13.6; the 5.1
`compare` forms are atomic_compare_forms'), recognised
once for the checks here and for the code generators (gpu_atomics):

    read     v = x;
    write    x = expr;
    update   x++; x--; ++x; --x; x binop= expr; x = x binop expr; x = expr binop x;
    capture  v = x++; v = x--; v = ++x; v = --x; v = x binop= expr;
             { v = x; x binop= expr; }  { x binop= expr; v = x; }  { v = x; x = expr; }
             (and the other update forms in the blocks)

binop is one of + * - / & ^ | << >>. Anything else -- a block where an expression
statement must be, a loop, a declaration, another directive, `x = y + 1` under
`update`, `x += 1` under `read` -- is rejected, as gcc rejects it.
"""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.tree_walks import nodes_of
from omp2gpu.sema.atomic_compare_forms import compare_form
from omp2gpu.sema.atomic_operands import is_lvalue, is_read, same_location

BINOPS = frozenset({"+", "*", "-", "/", "&", "^", "|", "<<", ">>"})
_INCREMENTS = frozenset({"++", "--", "p++", "p--"})


def update_parts(node):
    """(x, op, expr, reversed, result_is_new) of an update expression, or None."""
    if isinstance(node, c_ast.UnaryOp) and node.op in _INCREMENTS:
        one = c_ast.Constant("int", "1", coord=node.coord)
        return node.expr, node.op[-1], one, False, not node.op.startswith("p")
    if isinstance(node, c_ast.Assignment) and node.op != "=":
        return node.lvalue, node.op[:-1], node.rvalue, False, True
    if isinstance(node, c_ast.Assignment) and isinstance(node.rvalue, c_ast.BinaryOp):
        binary = node.rvalue
        if binary.op in BINOPS and same_location(binary.left, node.lvalue):
            return node.lvalue, binary.op, binary.right, False, True
        if binary.op in BINOPS and same_location(binary.right, node.lvalue):
            return node.lvalue, binary.op, binary.left, True, True
    return None


def check_atomic_forms(ast) -> None:
    """Raise a CompileError at the first `#pragma omp atomic` whose statement has no
    atomic form."""
    for node in nodes_of(ast, OmpConstruct):
        if node.directive.kind == "atomic":
            check_atomic(node)


def check_atomic(construct: OmpConstruct) -> None:
    kind = construct.directive.atomic_kind
    body = construct.body
    if construct.directive.atomic_compare:
        compare_form(construct)
        return
    if kind == "capture" and isinstance(body, c_ast.Compound):
        _capture_block(body)
        return
    _expression_statement(body, construct)
    if kind == "read":
        _assignment(body, "read", "'v = x'")
    elif kind == "write":
        _assignment(body, "write", "'x = expr'")
    elif kind == "update":
        _update(body)
    else:
        _capture(body)


def _expression_statement(body, construct) -> None:
    if isinstance(body, (c_ast.Compound, c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.If,
                         c_ast.Switch, c_ast.Return, c_ast.Label, c_ast.Goto, c_ast.Break,
                         c_ast.Continue, c_ast.Case, c_ast.Default, c_ast.EmptyStatement,
                         c_ast.Decl, c_ast.DeclList, OmpConstruct)):
        kind = construct.directive.atomic_kind
        raise CompileError(f"'#pragma omp atomic{'' if kind == 'update' else ' ' + kind}' must be "
                           "followed by an expression statement", body.coord or construct.coord)


def _assignment(node, kind: str, form: str) -> None:
    if not (isinstance(node, c_ast.Assignment) and node.op == "=" and is_lvalue(node.lvalue)
            and (kind != "read" or is_lvalue(node.rvalue))):
        raise CompileError(f"invalid form of '#pragma omp atomic {kind}': expected {form}",
                           node.coord)


def _update(node) -> None:
    parts = update_parts(node)
    if parts is None or parts[1] not in BINOPS or not is_lvalue(parts[0]):
        raise CompileError("invalid form of '#pragma omp atomic': expected 'x++', 'x binop= expr' "
                           "or 'x = x binop expr'", node.coord)


def _capture(node) -> None:
    if not (isinstance(node, c_ast.Assignment) and node.op == "=" and is_lvalue(node.lvalue)
            and isinstance(node.rvalue, (c_ast.UnaryOp, c_ast.Assignment))
            and update_parts(node.rvalue) is not None):
        raise CompileError("invalid form of '#pragma omp atomic capture': expected 'v = x++' or "
                           "'v = x binop= expr'", node.coord)
    _update(node.rvalue)


def _is_write(node) -> bool:
    """`x = expr`: any expression, a constant too (the capture block's swap form)."""
    return isinstance(node, c_ast.Assignment) and node.op == "=" and is_lvalue(node.lvalue)


def _capture_block(block: c_ast.Compound) -> None:
    """{v = x; update}, {update; v = x} or {v = x; x = expr}: both name the same x."""
    items = block.block_items or []
    if len(items) != 2 or not all(isinstance(item, (c_ast.Assignment, c_ast.UnaryOp)) for item in items):
        raise CompileError("invalid form of '#pragma omp atomic capture': expected a block of two "
                           "statements, '{ v = x; x binop= expr; }' or '{ x binop= expr; v = x; }'",
                           block.coord)
    first, second = items
    if is_read(first) and (update_parts(second) is not None or _is_write(second)):
        x, update = first.rvalue, second               # {v = x; update} or {v = x; x = expr}
        written = update_parts(update)[0] if update_parts(update) else update.lvalue
    elif update_parts(first) is not None and is_read(second):
        x, update, written = second.rvalue, first, update_parts(first)[0]
    else:
        raise CompileError("invalid form of '#pragma omp atomic capture': expected "
                           "'{ v = x; x binop= expr; }' or '{ x binop= expr; v = x; }'", first.coord)
    if update_parts(update) is not None:
        _update(update)
    if not same_location(x, written):
        raise CompileError("'#pragma omp atomic capture' uses two different expressions for "
                           "memory", update.coord)


def atomic_location(construct: OmpConstruct):
    """The expression x an atomic construct reads or updates, once its form is
    known to be valid (the first statement's x for a capture block)."""
    kind, body = construct.directive.atomic_kind, construct.body
    if construct.directive.atomic_compare:
        return compare_form(construct).x
    if kind == "capture" and isinstance(body, c_ast.Compound):
        first = body.block_items[0]
        return first.rvalue if is_read(first) else update_parts(first)[0]
    if kind == "read":
        return body.rvalue
    if kind == "write":
        return body.lvalue
    return update_parts(body.rvalue if kind == "capture" else body)[0]
