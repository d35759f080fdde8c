"""sema/map_items.py: `map(p, p[:n])`, a pointer and a section of it on one construct."""

from __future__ import annotations

import pytest
from pycparser.c_parser import Coord

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.directives import parse_directive
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.map_items import pointer_and_section_maps
from omp2gpu.sema.scopes import Scope, Symbol


def _directive(pragma: str):
    scope = Scope()
    scope.declare(Symbol("p", ct.PointerType(ct.INT), "object"))
    scope.declare(Symbol("a", ct.ArrayType(ct.INT, 8), "object"))
    directive = parse_directive(pragma, Coord("<pragma under test>", 3, 9), frozenset())
    pointer_and_section_maps(scope, directive)
    return directive


def _mapped(directive) -> list[str]:
    return [item.spelling or item.name for clause in directive.clauses for item in clause.items]


@pytest.mark.parametrize("pragma", ["omp target map(p, p[:8])", "omp target map(p[0:8], p)",
                                    "omp target data map(to: p) map(from: p[0:8])"])
def test_the_pointer_item_is_dropped_beside_its_section(pragma):
    directive = _directive(pragma)
    items = [item for clause in directive.clauses for item in clause.items]
    assert len(items) == 1 and items[0].name == "p" and items[0].sections


def test_other_maps_are_kept():
    assert len(_mapped(_directive("omp target map(p) map(a[0:2])"))) == 2


def test_an_array_and_a_section_of_it_stay_an_error():
    with pytest.raises(CompileError, match="'a' appears more than once in map clauses") as error:
        _directive("omp target map(a, a[0:2])")
    assert error.value.location.column == 27     # the section, after the array
