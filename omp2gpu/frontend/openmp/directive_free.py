"""The functions of a file that hold no OpenMP directive, as attach_pragmas found them.

The checks that walk a file for its constructs and the jumps around them (sema's
nesting, worksharing privates, collapsed nests, non-rectangular clauses) skip the bodies
of these functions: most of a large program's code (two thirds of bench/startup's
50,000-line file). Nothing later puts a directive into a function that had none, and a
function not marked (one made later, a copy) is walked as before.
"""

from __future__ import annotations

import weakref

from pycparser import c_ast

from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.tree_walks import nodes_of

_DIRECTIVE_FREE: weakref.WeakSet = weakref.WeakSet()


def mark_directive_free(function: c_ast.FuncDef) -> None:
    _DIRECTIVE_FREE.add(function)


def holds_directives(function: c_ast.FuncDef) -> bool:
    """False only for a function attach_pragmas found no omp pragma in."""
    return function not in _DIRECTIVE_FREE


def directive_free(node) -> bool:
    """Whether `node` is a function without directives (a tree_walks prune)."""
    return type(node) is c_ast.FuncDef and not holds_directives(node)


def constructs_in(root, kind=OmpConstruct):
    """The nodes of `kind` at or below `root` in source order (tree_walks.nodes_of), the
    bodies of functions without directives unvisited."""
    return nodes_of(root, kind, prune=directive_free)
