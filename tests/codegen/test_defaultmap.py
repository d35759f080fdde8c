"""codegen/openmp/data/defaultmap.py: each defaultmap behaviour and category made explicit."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from pycparser import c_parser
from pycparser.c_parser import Coord

from omp2gpu.codegen.openmp.data.defaultmap import category, with_defaultmap
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.directives import parse_directive
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.scopes import Scope, Symbol

_BODY = c_parser.CParser().parse("void f(void) { x = a[0] + p[1] + k; }").ext[0].body


def _cg():
    scope = Scope()
    scope.declare(Symbol("x", ct.INT, "object"))
    scope.declare(Symbol("k", ct.DOUBLE, "object", const=True))
    scope.declare(Symbol("a", ct.ArrayType(ct.INT, 8), "object"))
    scope.declare(Symbol("p", ct.PointerType(ct.INT), "object"))
    return SimpleNamespace(scope=scope)


def _explicit(pragma: str, exempt=frozenset()) -> list[tuple]:
    directive = parse_directive(pragma, Coord("<pragma under test>", 3, 9), frozenset())
    made = with_defaultmap(_cg(), OmpConstruct(directive, _BODY, directive.coord), exempt).directive
    assert not [c for c in made.clauses if c.name == "defaultmap"]
    return [(c.name, getattr(c, "map_type", None), getattr(c, "present", False), sorted(i.name for i in c.items))
            for c in made.clauses]


def test_categories():
    assert [category(t) for t in (ct.INT, ct.DOUBLE, ct.PointerType(ct.INT), ct.ArrayType(ct.INT, 2))] == \
        ["scalar", "scalar", "pointer", "aggregate"]


@pytest.mark.parametrize("behaviour", ["alloc", "to"])
def test_a_map_type_for_every_category(behaviour):
    assert _explicit(f"omp target defaultmap({behaviour})") == [("map", behaviour, False, ["a", "k", "p", "x"])]


@pytest.mark.parametrize("behaviour", ["from", "tofrom"])
def test_a_const_object_is_only_copied_to_the_device(behaviour):
    assert _explicit(f"omp target defaultmap({behaviour})") == [("map", behaviour, False, ["a", "p", "x"]),
                                                                ("map", "to", False, ["k"])]


def test_present_is_present_alloc():
    assert _explicit("omp target defaultmap(present: aggregate)") == [("map", "alloc", True, ["a"])]


def test_firstprivate_adds_the_aggregates_and_pointers_only():
    assert _explicit("omp target defaultmap(firstprivate)") == [("firstprivate", None, False, ["a", "p"])]


def test_default_and_other_categories_change_nothing():
    assert _explicit("omp target defaultmap(default)") == []
    assert _explicit("omp target defaultmap(tofrom: scalar) map(to: x)") == [
        ("map", "to", False, ["x"]), ("map", "to", False, ["k"])]


def test_listed_and_exempt_names_are_left_alone():
    assert _explicit("omp target defaultmap(to) firstprivate(a) is_device_ptr(p)", exempt={"k"}) == [
        ("firstprivate", None, False, ["a"]), ("is_device_ptr", None, False, ["p"]), ("map", "to", False, ["x"])]


def test_none_needs_every_reference_listed():
    assert _explicit("omp target defaultmap(none) map(x, a, p, k)") == [("map", "tofrom", False, ["a", "k", "p", "x"])]
    assert _explicit("omp target parallel defaultmap(none) shared(x, a, p, k)")[0][0] == "shared"
    with pytest.raises(CompileError, match="'p' not specified in enclosing 'target'"):
        _explicit("omp target defaultmap(none: pointer) map(x)")
    with pytest.raises(CompileError, match="'a' not specified"):
        _explicit("omp target defaultmap(none) map(x)")


def test_not_a_target_construct():
    directive = parse_directive("omp target data map(x)", Coord("<pragma under test>", 3, 9), frozenset())
    construct = OmpConstruct(directive, _BODY, directive.coord)
    assert with_defaultmap(_cg(), construct) is construct
