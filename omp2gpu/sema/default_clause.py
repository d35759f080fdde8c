"""The `default` clause: `none` checked (default_none.py); OpenMP 5.0/5.1's
`firstprivate` and `private` (2.21.4.1) made explicit, when the directive tree is built.

Under default(firstprivate) or default(private), every variable the construct references
whose data-sharing is implicitly determined gets that attribute: the construct is
given a firstprivate or private clause listing them (and its default becomes shared,
which now covers nothing), so every scheme compiles clauses it already knows. What is
referenced is what default(none) would ask to list. A file-scope variable must be listed
explicitly instead, as gcc requires ("'g' not specified in enclosing 'parallel'"); a
static variable of a block is privatised like an automatic one.
"""

from __future__ import annotations

from dataclasses import replace

from pycparser import c_ast

from omp2gpu.diagnostics import LoweringError
from omp2gpu.frontend.openmp.clause_types import DefaultClause, FirstprivateClause, ListItem, PrivateClause
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.sema.default_none import (
    _DEFAULT_LEAVES,
    _References,
    check_default_none,
    listed_names,
    loop_iteration_variables,
)

_PRIVATISED = frozenset({"auto", "local static"})
_FILE_SCOPE = frozenset({"static", "extern"})
_CLAUSE_FOR = {"firstprivate": FirstprivateClause, "private": PrivateClause}


def check_default_clause(construct: OmpConstruct, kind_of) -> None:
    """default(none): every reference listed; default(firstprivate|private): the implicit
    ones listed in a clause of that kind (the directive is changed in place)."""
    check_default_none(construct, kind_of)
    directive = construct.directive
    default = directive.first(DefaultClause)
    if default is None or default.kind not in _CLAUSE_FOR:
        return
    walker = _References()
    walker.scopes[-1].update(listed_names(directive) | loop_iteration_variables(construct))
    walker.walk(construct.body)
    items = []
    for name, node in walker.first_use.items():
        kind = kind_of(name)
        if kind in _FILE_SCOPE:
            leaf = next((leaf for leaf in _DEFAULT_LEAVES if directive.has(leaf)), "parallel")
            raise LoweringError(f"'{name}' not specified in enclosing '{leaf}'", node.coord)
        if kind in _PRIVATISED:
            items.append(ListItem(name, c_ast.ID(name, node.coord), [], node.coord, name))
    clauses = [replace(c, kind="shared") if c is default else c for c in directive.clauses]
    if items:
        clauses.append(_CLAUSE_FOR[default.kind](coord=default.coord, items=items))
    directive.clauses = clauses
