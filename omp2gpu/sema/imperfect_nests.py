"""Imperfectly nested collapsed loops (OpenMP 5.0 2.9.2): code between the associated
loops (intervening code) "will be executed at least once per iteration of the loop
enclosing it and at most once per iteration of the innermost associated loop". Right
after the directives are attached, each such nest is made perfect by moving its
intervening code into the innermost loop's body, which then runs it every iteration:

    for (i ...) { pre_i; for (j ...) { body } post_i; }
 -> for (i ...) for (j ...) { pre_i; do { body } while (0); post_i; }

(`do ... while (0)`, only where code follows, so that a `continue` of the body still runs
it.) Each iteration thus has its own copy of what the code declares, which is what lets
the iterations of one row run on different threads. Located errors: intervening code
holding an OpenMP directive or a loop construct's jump out (break, continue, return,
goto), and an inner loop's bound using a name the intervening code declares (its value
is not known before the nest runs).
"""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.directive_free import constructs_in
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.sema.captures import free_identifiers

_LOOP_LEAVES = ("for", "distribute", "simd", "taskloop", "loop")


def make_nests_perfect(ast) -> None:
    """Rewrite (in place) every collapsed loop nest with intervening code."""
    for node in constructs_in(ast):
        if node.body is not None:
            directive = node.directive
            depth = next((c.count for c in directive.clauses if c.name == "collapse"), 1)
            if depth > 1 and any(directive.has(leaf) for leaf in _LOOP_LEAVES):
                _make_perfect(node.body, depth)         # the walk goes on into the rewritten body


def _make_perfect(statement, depth: int) -> None:
    loop = _sole_loop(statement)
    before, after, declared = [], [], set()
    for _ in range(depth - 1):
        if loop is None:
            return                       # not enough loops: loop_nest reports it
        inner = _sole_loop(loop.stmt)
        if inner is None:
            items = loop.stmt.block_items if isinstance(loop.stmt, c_ast.Compound) else None
            loops = [item for item in items or () if isinstance(item, c_ast.For)]
            if len(loops) != 1:
                return
            inner = loops[0]
            position = items.index(inner)
            for code in items[:position] + items[position + 1:]:
                _check_intervening(code)
            before += items[:position]
            after = items[position + 1:] + after
            declared |= {decl.name for item in items[:position] for decl in _declarations(item)}
            loop.stmt = inner
        for bound in (inner.init, inner.cond, inner.next):
            used = next((name for name in free_identifiers(bound) if name in declared), None) \
                if bound is not None else None
            if used is not None:
                raise CompileError(f"the bounds of a collapsed loop may not use '{used}', declared in the "
                                   "code between the collapsed loops", bound.coord or inner.coord)
        loop = inner
    if loop is None or not (before or after):
        return
    body = loop.stmt
    if after:
        body = c_ast.DoWhile(c_ast.Constant("int", "0", body.coord), body, body.coord)
    loop.stmt = c_ast.Compound(before + [body] + after, body.coord)


def _sole_loop(node):
    """The loop a statement is, through braces around it alone; None otherwise."""
    while isinstance(node, c_ast.Compound) and len(node.block_items or ()) == 1:
        node = node.block_items[0]
    return node if isinstance(node, c_ast.For) else None


def _declarations(item) -> list:
    if isinstance(item, c_ast.Decl):
        return [item] if item.name else []
    if isinstance(item, c_ast.DeclList):
        return list(item.decls)
    return []


def _check_intervening(code) -> None:
    """What OpenMP 5.0 forbids in intervening code: OpenMP constructs and jumps out of it."""
    stack = [(code, False)]
    while stack:
        node, in_loop = stack.pop()
        if isinstance(node, (OmpConstruct, c_ast.Pragma)):
            raise CompileError("the code between collapsed loops may not hold an OpenMP directive",
                               node.coord)
        if isinstance(node, (c_ast.Return, c_ast.Goto)) or (isinstance(node, (c_ast.Break, c_ast.Continue))
                                                              and not in_loop):
            raise CompileError("the code between collapsed loops may not jump out of it", node.coord)
        nested = in_loop or isinstance(node, (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Switch))
        stack.extend((child, nested) for _, child in node.children())
