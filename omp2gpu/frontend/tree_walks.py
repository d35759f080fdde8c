"""Walks over the syntax tree (pycparser nodes and frontend/omp_nodes' OpenMP nodes): the
one place for "every node below", "every node of a kind", "does it hold one".

Each walk keeps a stack of its own, not Python's (a 10,000-term sum or a deep nest would
pass the recursion limit, and a recursive generator costs O(depth) per node), and visits
in source order, so a check that raises at the first bad node names the first in the file.
A node's children are read after the node is visited: a caller may rewrite a node and the
walk goes on into what it holds now.

Walks that carry state down the tree (the enclosing loops, constructs or scopes) are
written where they are used; these are the related ones to know of:
- sema/captures.py `free_identifiers`: the variables code uses, in C's scoping;
- codegen/openmp/plan/inlined_callees.py: the facts of a function's body, cached;
- sema/nesting.py: the enclosing constructs of each construct.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from pycparser import c_ast


def nodes(root: c_ast.Node | None, prune: Callable[[c_ast.Node], bool] | None = None) -> Iterator[c_ast.Node]:
    """`root` and every node below it, parents before their children, in source order.
    `prune(node)` true: the walk does not go below `node` (it still yields `node`)."""
    stack = [root] if root is not None else []
    pop, extend = stack.pop, stack.extend
    while stack:
        node = pop()
        yield node
        if prune is None or not prune(node):
            # a node's iteration yields the children that children() names, in its order,
            # without building the (name, child) pairs: the walk's main cost on a big file
            below = list(node)
            below.reverse()
            extend(below)


def nodes_of(root: c_ast.Node | None, kind, prune: Callable[[c_ast.Node], bool] | None = None) -> Iterator:
    """The nodes of `kind` (a class or a tuple of them) at or below `root`, in source order."""
    return (node for node in nodes(root, prune) if isinstance(node, kind))


def holds(root: c_ast.Node | None, test, prune: Callable[[c_ast.Node], bool] | None = None) -> bool:
    """Whether a node at or below `root` is of kind `test` (a class or a tuple of them), or
    passes `test` (a function of a node)."""
    if isinstance(test, type) or isinstance(test, tuple):
        return any(True for _ in nodes_of(root, test, prune))
    return any(test(node) for node in nodes(root, prune))


def names_used(root: c_ast.Node | None) -> set[str]:
    """Every identifier (c_ast.ID) at or below `root`, with no regard to scopes (for
    those: sema/captures.py's free_identifiers)."""
    return {node.name for node in nodes_of(root, c_ast.ID)}


def called_names(root: c_ast.Node | None) -> list[str]:
    """The functions called by name at or below `root`, in source order, with repeats."""
    return [node.name.name for node in nodes_of(root, c_ast.FuncCall) if isinstance(node.name, c_ast.ID)]
