"""A reduction or firstprivate clause on a worksharing construct (for, sections, scope;
single for firstprivate) with no parallel, teams, target or task region around it in its
function: the region it binds to is a caller's (or the initial thread's), where the
function's own automatic variables and parameters are private to each thread -- OpenMP
requires a worksharing reduction's item, and a worksharing firstprivate's, to be shared
there (4.5 2.15.3.4, 2.15.3.6). gcc reports "reduction variable 'x' is private in outer
context" ("firstprivate variable ..."), Clang that it "must be shared"; so does this check,
lexically as gcc does."""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import LoweringError
from omp2gpu.frontend.openmp.clause_types import FirstprivateClause, ReductionClause
from omp2gpu.frontend.tree_walks import nodes_of
from omp2gpu.sema.openmp_constructs import constructs_in_context, file_functions

_WORKSHARING = ("for", "sections", "scope", "single")
_CLAUSES = ((ReductionClause, "reduction"), (FirstprivateClause, "firstprivate"))
_DATA_ENVIRONMENTS = ("parallel", "teams", "target", "task", "taskloop")


def check_orphaned_reductions(ast) -> None:
    for function in file_functions(ast):
        private, private_arrays = _automatic_names(function)
        for construct, enclosing in constructs_in_context(function):
            directive = construct.directive
            if directive.constructs[0] not in _WORKSHARING:
                continue
            if any(leaf in _DATA_ENVIRONMENTS for outer in enclosing for leaf in outer.directive.constructs):
                continue
            for kind, spelling in _CLAUSES:
                for clause in directive.find(kind):
                    for item in clause.items:
                        # a section of a local array is the array's (of a pointer: the
                        # storage it points to, which may be shared)
                        if item.name in (private if item.is_variable else private_arrays):
                            raise LoweringError(f"{spelling} variable '{item.name}' is private in outer context",
                                                construct.coord)


def _automatic_names(function: c_ast.FuncDef) -> tuple[set[str], set[str]]:
    """The parameters and the local variables without static or extern storage; and
    those of them that are arrays (not parameters, which are pointers)."""
    names, arrays = set(), set()
    params = function.decl.type.args.params if isinstance(function.decl.type, c_ast.FuncDecl) \
        and function.decl.type.args is not None else ()
    names |= {p.name for p in params if isinstance(p, c_ast.Decl) and p.name}
    for node in nodes_of(function.body, c_ast.Decl):
        if node.name and not ({"static", "extern"} & set(node.storage)) and not isinstance(node.type, c_ast.FuncDecl):
            names.add(node.name)
            if isinstance(node.type, c_ast.ArrayDecl):
                arrays.add(node.name)
    return names, arrays
