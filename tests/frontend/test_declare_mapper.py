"""frontend/openmp/declare_mapper.py and the OpenMP 5.0 list-item forms beside it: `declare
mapper`'s argument, the `mapper(id)` modifier of map/to/from, strided sections and array
shaping in target update's motion clauses."""

from __future__ import annotations

import pytest
from directive_testing import error, expr_text, parse

from omp2gpu.frontend.openmp.clause_types import FromClause, MapClause, ToClause


def test_a_default_mapper_and_its_map_clauses():
    d = parse("omp declare mapper(struct vec v) map(v, v.data[0:v.len])")
    assert d.kind == "declare mapper"
    assert d.declared_mapper.identifier == "default" and d.declared_mapper.variable == "v"
    assert [item.spelling for item in d.first(MapClause).items] == ["v", "v.data[0:v.len]"]


def test_a_named_mapper():
    d = parse("omp declare mapper(halo: struct grid g) map(to: g.cells[0:g.n])")
    assert d.declared_mapper.identifier == "halo" and d.declared_mapper.variable == "g"
    assert d.first(MapClause).map_type == "to"


@pytest.mark.parametrize("text", ["omp target map(mapper(halo), tofrom: s)",
                                  "omp target map(always, mapper(halo), to: s)", "omp target map(mapper(halo): s)"])
def test_the_mapper_modifier_of_map(text):
    clause = parse(text).first(MapClause)
    assert clause.mapper == "halo" and [i.name for i in clause.items] == ["s"]


def test_the_mapper_modifier_of_to_and_from():
    d = parse("omp target update to(mapper(values): mesh) from(a)")
    assert d.first(ToClause).mapper == "values" and d.first(FromClause).mapper is None


def test_a_strided_section_in_a_motion_clause():
    section = parse("omp target update to(a[0:n:2])").first(ToClause).items[0].sections[0]
    assert expr_text(section.length) == "n" and expr_text(section.stride) == "2"


def test_array_shaping_with_sections():
    item = parse("omp target update from(([n][m])p[1:2][0:m:2])").first(FromClause).items[0]
    assert item.name == "p" and [expr_text(e) for e in item.shape] == ["n", "m"]
    assert len(item.sections) == 2 and expr_text(item.sections[1].stride) == "2"


@pytest.mark.parametrize("text, message", [
    ("omp declare mapper(v) map(v)", "expected a type and a variable name"),
    ("omp declare mapper(struct s v)", "needs at least one 'map' clause"),
    ("omp declare mapper(struct s v) map(release: v)", "map type 'release' is not valid"),
    ("omp target update to(a[0:4:0])", "the stride of an array section must be positive, not 0"),
    ("omp target update to(presnt: a)", "unknown modifier 'presnt' in 'to' clause"),
    ("omp target map(to: a[0:4:2])", "strided sections are allowed only in the 'to' and 'from' clauses"),
    ("omp parallel private(([2][2])p)", "expected a variable name"),
    ("omp target update to(([2][2])s.p)", "applies to a pointer variable, not to a member"),
    ("omp target update to(mapper(): s)", "expected a mapper identifier"),
])
def test_errors(text, message):
    assert message in error(text).message
