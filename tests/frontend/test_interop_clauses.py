"""frontend/openmp/interop_clauses.py: the OpenMP 5.1 interop construct's init and use clauses
(destroy is the depobj construct's clause with its list)."""

from __future__ import annotations

import pytest

from omp2gpu.frontend.openmp.clause_types import DestroyClause
from omp2gpu.frontend.openmp.interop_clauses import InitClause, UseClause
from tests.frontend.directive_testing import column_of, error, parse


def test_init_with_types_and_a_preference():
    d = parse('omp interop init(prefer_type("cuda", omp_ifr_hip), target, targetsync: obj) device(1) nowait')
    init = d.first(InitClause)
    assert init.types == ("target", "targetsync") and init.targetsync
    assert init.preferences == ['"cuda"', "omp_ifr_hip"] and [i.name for i in init.items] == ["obj"]


def test_use_and_destroy_name_their_objects():
    d = parse("omp interop use(a) destroy(b) depend(inout: x)")
    assert [i.name for i in d.first(UseClause).items] == ["a"]
    assert [i.name for i in d.first(DestroyClause).items] == ["b"]
    assert not parse("omp interop init(target: o)").first(InitClause).targetsync


@pytest.mark.parametrize("text, message, at", [
    ("omp interop init(obj)", "expected ':' and an interop object", ")"),
    ("omp interop init(targetsync, targetsync: obj)", "interop type 'targetsync' given twice", "targetsync: obj"),
    ("omp interop init(sync: obj)", "expected 'target' or 'targetsync'", "sync"),
    ("omp interop init(targetsync: a[0:2])", "expected a variable name", "["),
    ("omp interop", "needs at least one 'init' or 'use' or 'destroy' clause", "interop"),
    ("omp interop use(a) map(to: b)", "'map'", "map"),
])
def test_errors(text, message, at):
    found = error(text)
    assert message in found.message and found.location.column == column_of(text, at), found
