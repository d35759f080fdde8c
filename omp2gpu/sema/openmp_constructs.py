"""Every OpenMP construct of a file with the constructs around it in its function, found
by walking statements only: a construct is a statement, so expressions and declarations
(most of a file's nodes, the headers' all) are never visited. The `loop` analyses
(loop_construct.py, concurrent_regions.py, concurrent_races.py) share this walk, which
keeps each of them to a small part of a large file's compile time.
"""

from __future__ import annotations

from collections.abc import Iterator

from pycparser import c_ast

from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct, OmpDeclareTarget, OmpMetadirective


def constructs_in_context(ast, metadirectives: bool = False) -> Iterator[tuple[OmpConstruct, tuple[OmpConstruct, ...]]]:
    """(construct, the constructs enclosing it in its function, outermost first), in
    source order. A construct may be changed (its directive replaced) as it is yielded:
    what it encloses is read after. A metadirective's statement is walked too; with
    `metadirectives`, the metadirective is yielded and encloses its statement's constructs."""
    stack: list = [(ast, ())]
    while stack:
        node, enclosing = stack.pop()
        if isinstance(node, OmpConstruct) or (metadirectives and isinstance(node, OmpMetadirective)):
            yield node, enclosing
            enclosing = enclosing + (node,)
        stack.extend((child, enclosing) for child in reversed(_statements_in(node)))


def file_functions(ast) -> Iterator[c_ast.FuncDef]:
    """The file's function definitions, those inside `begin/end declare target` too."""
    for item in _statements_in(ast):
        if isinstance(item, c_ast.FuncDef):
            yield item
        elif isinstance(item, OmpDeclareTarget):
            yield from _statements_in(item)


def _statements_in(node) -> list:
    """The statements (and functions) directly inside `node`."""
    if isinstance(node, c_ast.FileAST):
        return [item for item in node.ext or () if isinstance(item, (c_ast.FuncDef, OmpConstruct,
                                                                      OmpDeclareTarget))]
    if isinstance(node, OmpDeclareTarget):
        return [item for item in node.decls if isinstance(item, c_ast.FuncDef)]
    if isinstance(node, c_ast.FuncDef):
        return [node.body]
    if isinstance(node, c_ast.Compound):
        return list(node.block_items or ())
    if isinstance(node, c_ast.If):
        return [part for part in (node.iftrue, node.iffalse) if part is not None]
    if isinstance(node, (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Switch, c_ast.Label)):
        return [node.stmt] if node.stmt is not None else []
    if isinstance(node, (c_ast.Case, c_ast.Default)):
        return list(node.stmts or ())
    if isinstance(node, (OmpConstruct, OmpMetadirective)):
        return [node.body] if node.body is not None else []
    return []
