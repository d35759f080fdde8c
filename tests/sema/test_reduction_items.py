"""sema/reduction_items.py: a whole array as a reduction list item is the section of its
full length."""

from __future__ import annotations

from pycparser.c_parser import Coord

from omp2gpu.frontend.openmp.directives import parse_directive
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.reduction_items import arrays_as_sections, is_whole_array_section
from omp2gpu.sema.scopes import Scope, Symbol


def _scope():
    scope = Scope()
    scope.declare(Symbol("hist", ct.ArrayType(ct.INT, 8), "object"))
    scope.declare(Symbol("grid", ct.ArrayType(ct.ArrayType(ct.DOUBLE, 3), 2), "object"))
    scope.declare(Symbol("sum", ct.INT, "object"))
    scope.declare(Symbol("p", ct.PointerType(ct.INT), "object"))
    return scope


def _sections(pragma: str) -> dict:
    directive = parse_directive(pragma, Coord("<pragma under test>", 3, 9), frozenset())
    arrays_as_sections(_scope(), directive)
    return {item.name: item.sections for clause in directive.clauses for item in clause.items}


def test_arrays_get_the_section_of_their_full_length():
    sections = _sections("omp parallel for reduction(+: hist, sum) reduction(max: grid)")
    assert is_whole_array_section(sections["hist"]) and is_whole_array_section(sections["grid"])
    assert sections["sum"] == []


def test_written_sections_pointers_and_other_clauses_are_left_alone():
    sections = _sections("omp parallel for reduction(+: hist[2:3], p) private(grid)")
    assert not is_whole_array_section(sections["hist"]) and len(sections["hist"]) == 1
    assert sections["p"] == [] and sections["grid"] == []
