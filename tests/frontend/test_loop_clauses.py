"""The OpenMP 5.0 `loop` directives and the `bind` and `order` clauses as the front end
reads them (directive_table.py, clause_parsers.py, directive_rules.py); their lowering
is tests/sema/test_loop_construct.py's."""

import pytest
from directive_testing import assert_error, parse

from omp2gpu.frontend.openmp.clause_types import BindClause, OrderClause


@pytest.mark.parametrize("kind, constructs", [
    ("loop", ("loop",)),
    ("teams loop", ("teams", "loop")),
    ("target teams loop", ("target", "teams", "loop")),
    ("parallel loop", ("parallel", "loop")),
    ("target parallel loop", ("target", "parallel", "loop")),
])
def test_loop_directives(kind, constructs):
    directive = parse(f"omp {kind} collapse(2) private(x) lastprivate(i) reduction(+: s)")
    assert (directive.kind, directive.constructs) == (kind, constructs)
    assert [c.name for c in directive.clauses] == ["collapse", "private", "lastprivate", "reduction"]


@pytest.mark.parametrize("binding", ["teams", "parallel", "thread"])
def test_bind(binding):
    assert parse(f"omp loop bind({binding})").first(BindClause).kind == binding


@pytest.mark.parametrize("text, modifier", [
    ("omp loop order(concurrent)", None),
    ("omp for order(reproducible: concurrent)", "reproducible"),
    ("omp simd order(unconstrained:concurrent)", "unconstrained"),
    ("omp parallel for simd order(concurrent)", None),
    ("omp distribute order(concurrent)", None),
    ("omp target teams distribute parallel for order(concurrent)", None),
    ("omp taskloop simd order(reproducible:concurrent)", "reproducible"),
])
def test_order(text, modifier):
    clause = parse(text).first(OrderClause)
    assert (clause.kind, clause.modifier) == ("concurrent", modifier)


@pytest.mark.parametrize("text, message, at", [
    ("omp loop bind(team)", "expected 'teams' or 'parallel' or 'thread' in 'bind' clause", "team"),
    ("omp loop bind(thread) bind(thread)", "duplicate 'bind' clause on '#pragma omp loop'", "bind", ),
    ("omp for order(serial)", "expected 'concurrent' in 'order' clause", "serial"),
    ("omp for order(monotonic: concurrent)",
     "expected 'reproducible' or 'unconstrained' in 'order' modifier", "monotonic"),
    ("omp for order(concurrent) order(concurrent)", "duplicate 'order' clause on '#pragma omp for'",
     "order(concurrent)"),
    ("omp for order(concurrent) ordered", "'order' clause must not be used together with 'ordered'",
     "order"),
    ("omp loop nowait", "clause 'nowait' is not valid on '#pragma omp loop'", "nowait"),
    ("omp loop schedule(static)", "clause 'schedule' is not valid on '#pragma omp loop'", "schedule"),
    ("omp loop firstprivate(x)", "clause 'firstprivate' is not valid on '#pragma omp loop'",
     "firstprivate"),
    ("omp taskloop order(concurrent)", "clause 'order' is not valid on '#pragma omp taskloop'", "order"),
    ("omp parallel order(concurrent)", "clause 'order' is not valid on '#pragma omp parallel'", "order"),
    ("omp parallel bind(parallel)", "clause 'bind' is not valid on '#pragma omp parallel'", "bind"),
    ("omp target loop", "invalid combination 'target loop'", "loop"),
    ("omp teams loop bind(parallel)",
     "'bind(parallel)' on '#pragma omp teams loop': the loop of a combined 'teams loop' binds to "
     "that teams region (bind(teams))", "bind"),
    ("omp target parallel loop bind(thread)",
     "'bind(thread)' on '#pragma omp target parallel loop': the loop of a combined 'parallel loop' "
     "binds to that parallel region (bind(parallel))", "bind"),
])
def test_errors(text, message, at):
    occurrence = 2 if text.count(at) > 1 and "duplicate" in message else 1
    assert_error(text, message, at, occurrence)


@pytest.mark.parametrize("text", ["omp teams loop bind(teams)", "omp parallel loop bind(parallel)",
                                  "omp target teams loop nowait map(to: a) num_teams(4)",
                                  "omp target parallel loop num_threads(8) if(target: 1)"])
def test_combined_clauses(text):
    parse(text)
