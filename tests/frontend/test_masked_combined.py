"""frontend/openmp/masked_combined.py: master/masked combinations become their leaf constructs,
one inside the other, each with the clauses OpenMP 5.1 17.2 routes to it."""

from __future__ import annotations

from directive_testing import parse

from omp2gpu.frontend.openmp.masked_combined import is_masked_combination, nest_masked_combination
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct


def nest(text: str):
    """The nested constructs, outermost first, as (kind, {clause name: [item names or None]})."""
    construct = nest_masked_combination(OmpConstruct(parse(text), "BODY", None))
    levels = []
    while isinstance(construct, OmpConstruct):
        clauses = {}
        for clause in construct.directive.clauses:
            items = [item.name for item in getattr(clause, "items", ())] or None
            clauses.setdefault(clause.name, []).append(items)
        levels.append((construct.directive.kind, clauses))
        construct = construct.body
    assert construct == "BODY"
    return levels


def test_parallel_masked_taskloop_simd_routes_each_clause_to_its_leaf():
    levels = nest("omp parallel masked taskloop simd num_threads(4) proc_bind(close) filter(2) grainsize(8) "
                  "safelen(4) collapse(1) firstprivate(x) private(p) shared(s) default(shared)")
    assert [kind for kind, _ in levels] == ["parallel", "masked", "taskloop simd"]
    parallel, masked, inner = (clauses for _, clauses in levels)
    assert set(parallel) == {"num_threads", "proc_bind", "shared", "default"}
    assert parallel["shared"] == [["s"], ["x"]]      # what the taskloop privatises, shared by the team
    assert set(masked) == {"filter"}
    assert set(inner) == {"grainsize", "safelen", "collapse", "firstprivate", "private", "shared", "default"}


def test_if_goes_by_its_modifier_and_without_one_to_every_leaf_taking_it():
    levels = nest("omp parallel master taskloop if(parallel: a) if(taskloop: b)")
    assert "if" in levels[0][1] and "if" in levels[2][1] and len(levels[0][1]["if"]) == 1
    levels = nest("omp parallel master taskloop if(c)")
    assert levels[0][1]["if"] == [None] and levels[2][1]["if"] == [None]


def test_parallel_master_keeps_every_clause_on_the_parallel_region():
    levels = nest("omp parallel master num_threads(2) private(t) firstprivate(f) reduction(+: r) copyin(g)")
    assert [kind for kind, _ in levels] == ["parallel", "master"]
    assert set(levels[0][1]) == {"num_threads", "private", "firstprivate", "reduction", "copyin"}
    assert levels[1][1] == {}


def test_master_taskloop_without_parallel():
    levels = nest("omp masked taskloop filter(0) num_tasks(3) lastprivate(k)")
    assert levels == [("masked", {"filter": [None]}), ("taskloop", {"num_tasks": [None], "lastprivate": [["k"]]})]


def test_other_constructs_are_left_alone():
    for text in ("omp parallel for", "omp taskloop simd", "omp master", "omp masked filter(1)"):
        assert not is_masked_combination(parse(text))
        construct = OmpConstruct(parse(text), "BODY", None)
        assert nest_masked_combination(construct) is construct
