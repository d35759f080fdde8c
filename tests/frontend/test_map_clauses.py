"""frontend/openmp/map_clauses.py: map modifiers in any order (commas optional), iterators, the
motion clauses' `present`, use_device_addr and has_device_addr."""

from __future__ import annotations

import pytest
from directive_testing import assert_error, parse

from omp2gpu.frontend.openmp.clause_types import (
    FromClause,
    HasDeviceAddrClause,
    MapClause,
    ToClause,
    UseDeviceAddrClause,
)


@pytest.mark.parametrize("prefix", ["present, always, close, tofrom", "close always present tofrom",
                                    "always,close present, tofrom", "present,close,always,tofrom"])
def test_modifiers_in_any_order(prefix):
    clause = parse(f"omp target map({prefix}: a)").first(MapClause)
    assert (clause.present, clause.always, clause.close, clause.map_type) == (True, True, True, "tofrom")


def test_modifiers_with_the_mapper_modifier():
    clause = parse("omp target map(present, mapper(m) to: a)").first(MapClause)
    assert (clause.present, clause.mapper, clause.map_type) == (True, "m", "to")


def test_iterator_modifier():
    clause = parse("omp target map(iterator(int i = 0:n:2, j = 0:4), present, to: a[i][j])").first(MapClause)
    assert [(it.name, it.step is not None) for it in clause.iterators] == [("i", True), ("j", False)]
    assert clause.present and clause.map_type == "to" and clause.items[0].spelling == "a[i][j]"


@pytest.mark.parametrize("text, message, at", [
    ("omp target map(present: a)", "expected a map type before ':' in 'map' clause", ":"),
    ("omp target map(close, close, to: a)", "the 'close' modifier is given twice", "close", ),
    ("omp target map(present,, to: a)", "unexpected ',' in 'map' clause", ", to"),
    ("omp target map(to, present: a)", "unexpected ',' in 'map' clause", ","),
    ("omp target map(present, to,: a)", "unexpected ',' in 'map' clause", ",:"),
    ("omp target map(iterator(i = 0:n), iterator(j = 0:n), to: a[i])",
     "the 'iterator' modifier is given twice", "iterator(j"),
    ("omp target update to(always: a)", "unknown modifier 'always' in 'to' clause", "always"),
])
def test_modifier_errors(text, message, at):
    assert_error(text, message, at, 2 if at == "close" else 1)


@pytest.mark.parametrize("text, cls", [("omp target update to(present: a, b[0:4])", ToClause),
                                       ("omp target update from(present, iterator(i = 0:4): b[i])", FromClause)])
def test_motion_modifiers(text, cls):
    clause = parse(text).first(cls)
    assert clause.present and len(clause.items) == (1 if clause.iterators else 2)


def test_device_address_clauses():
    assert parse("omp target data use_device_addr(a, b)").first(UseDeviceAddrClause).items[1].name == "b"
    assert parse("omp target teams has_device_addr(a)").first(HasDeviceAddrClause).items[0].name == "a"
    assert_error("omp target data use_device_addr(a) map(to: b) has_device_addr(a)",
                 "clause 'has_device_addr' is not valid on '#pragma omp target data'", "has_device_addr")
