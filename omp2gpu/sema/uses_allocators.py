"""OpenMP 5.0 `uses_allocators(a(traits))` on a target construct (2.15.6): the traits
arrays' constant initializers are checked where the arrays are written
(sema/trait_values.py), before any code. The allocators themselves are made where the host
meets the construct, for every form and combined construct
(codegen/openmp/data/region_allocators.py)."""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.frontend.openmp.allocate_clauses import UsesAllocatorsClause
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.tree_walks import nodes
from omp2gpu.sema.trait_values import check_traits_initializer


def check_allocator_traits(ast) -> None:
    """The traits array of every `uses_allocators(a(traits))` item: its declaration's
    constant initializer (trait_values.py)."""
    for unit in ast.ext or ():
        declarations: dict[str, list] = {}          # name -> its declarations, in source order
        for node in nodes(unit):
            if isinstance(node, c_ast.Decl) and node.name:
                declarations.setdefault(node.name, []).append(node)
            if isinstance(node, OmpConstruct):
                for clause in node.directive.find(UsesAllocatorsClause):
                    for used in clause.allocators:
                        if used.traits is not None:
                            check_traits_initializer(_declaration_before(declarations, _file_scope(ast), used))


def _file_scope(ast) -> dict:
    return {item.name: [item] for item in ast.ext or () if isinstance(item, c_ast.Decl) and item.name}


def _declaration_before(declarations: dict, globals_: dict, used):
    """The traits array's declaration: the last one of its name in the function before the
    clause (a region follows the arrays it names), else the file's."""
    line = used.traits_coord.line if used.traits_coord is not None else 0
    earlier = [decl for decl in declarations.get(used.traits, ())
               if decl.coord is not None and decl.coord.line <= line]
    found = earlier or globals_.get(used.traits, [])
    return found[-1] if found else None
