"""The OpenMP 5.x tasking clauses (frontend/openmp/task_clauses.py) and their rules
(frontend/openmp/task_rules.py)."""

import pytest
from directive_testing import error, parse

from omp2gpu.frontend.openmp.clause_types import (
    AffinityClause,
    AtomicClause,
    DependClause,
    DestroyClause,
    DetachClause,
    GrainsizeClause,
    InReductionClause,
    NumTasksClause,
    ReductionClause,
    TaskReductionClause,
    UpdateClause,
)


@pytest.mark.parametrize("dep_type", ["in", "out", "inout", "mutexinoutset", "inoutset", "depobj"])
def test_depend_types(dep_type):
    clause = parse(f"omp task depend({dep_type}: a)").first(DependClause)
    assert clause.dep_type == dep_type and [i.name for i in clause.items] == ["a"] and clause.iterators == []


def test_depend_iterator_modifier():
    clause = parse("omp task depend(iterator(int i = 0:n:2, j = 1:3), in: a[i], b[j])").first(DependClause)
    assert clause.dep_type == "in" and [item.spelling for item in clause.items] == ["a[i]", "b[j]"]
    first, second = clause.iterators
    assert (first.name, second.name) == ("i", "j")
    assert first.type_name is not None and second.type_name is None
    assert first.step is not None and second.step is None


def test_iterator_ranges_need_begin_and_end():
    assert "expected 'begin : end [: step]'" in error("omp task depend(iterator(i = 0), in: a[i])").message


def test_a_constant_zero_iterator_step_is_located_at_the_iterator():
    err = error("omp task depend(iterator(int k = 0:n:2 - 2), in: a[k])")
    assert err.message == "iterator 'k' has zero step"
    assert err.location.column == 9 + len("omp task depend(iterator(int ")


def test_iterator_not_with_depobj():
    assert "'iterator' modifier cannot be used with 'depend(depobj)'" in \
        error("omp task depend(iterator(i = 0:4), depobj: o[i])").message


def test_affinity_with_and_without_iterator():
    plain = parse("omp task affinity(a[0:n])").first(AffinityClause)
    assert plain.iterators == [] and plain.items[0].spelling == "a[0:n]"
    ranged = parse("omp task affinity(iterator(i = 0:n): a[i])").first(AffinityClause)
    assert [it.name for it in ranged.iterators] == ["i"]


def test_task_reduction_clauses():
    directive = parse("omp task in_reduction(+: s) in_reduction(max: m)")
    assert [(c.op, c.items[0].name) for c in directive.find(InReductionClause)] == [("+", "s"), ("max", "m")]
    assert parse("omp taskgroup task_reduction(*: p)").first(TaskReductionClause).op == "*"
    assert parse("omp target in_reduction(+: s)").first(InReductionClause) is not None
    assert parse("omp taskloop in_reduction(+: s) reduction(+: t)").first(ReductionClause).op == "+"


def test_reduction_modifiers():
    assert parse("omp parallel for reduction(task, +: s)").first(ReductionClause).modifier == "task"
    assert parse("omp parallel reduction(default, +: s)").first(ReductionClause).modifier == "default"
    assert parse("omp parallel reduction(+: s)").first(ReductionClause).modifier is None


@pytest.mark.parametrize("text", ["omp taskloop reduction(task, +: s)", "omp parallel for simd reduction(task, +: s)",
                                  "omp simd reduction(task, +: s)", "omp teams reduction(task, +: s)"])
def test_task_modifier_only_on_parallel_and_worksharing(text):
    assert "'task' reduction modifier is not valid" in error(text).message


def test_detach():
    assert parse("omp task detach(event)").first(DetachClause).expr.name == "event"
    assert "'detach' and 'mergeable' cannot both appear" in error("omp task detach(e) mergeable").message
    assert "cannot appear in a 'shared' clause" in error("omp task detach(e) shared(e)").message
    assert "duplicate 'detach'" in error("omp task detach(e) detach(f)").message


def test_depobj_construct():
    directive = parse("omp depobj(o) depend(inout: a)")
    assert directive.depobj.name == "o" and directive.is_standalone
    assert parse("omp depobj(o) update(mutexinoutset)").first(UpdateClause).dep_type == "mutexinoutset"
    assert parse("omp depobj(o) destroy").first(DestroyClause).items == []
    assert parse("omp depobj(o) destroy(o)").first(DestroyClause).items[0].name == "o"


@pytest.mark.parametrize("text,message", [
    ("omp depobj depend(in: a)", "expected '(' after 'depobj'"),
    ("omp depobj(o)", "needs exactly one 'depend', 'update' or 'destroy' clause"),
    ("omp depobj(o) depend(in: a, b)", "takes one item"),
    ("omp depobj(o) update", "expected '(' after 'update'"),
    ("omp depobj(o) update(depobj)", "expected 'in' or 'out'"),
    ("omp depobj(o) destroy(p)", "'destroy' must name the depend object"),
    ("omp depobj(o) depend(in: omp_all_memory)", "may only appear in a 'depend(out: ...)'"),
])
def test_depobj_misuse(text, message):
    assert message in error(text).message


def test_update_keeps_its_atomic_meaning():
    assert parse("omp atomic update").first(AtomicClause).kind == "update"
    assert "only valid on '#pragma omp depobj'" in error("omp atomic update(in)").message


def test_taskwait_depend_and_nowait():
    directive = parse("omp taskwait depend(in: a) nowait")
    assert directive.first(DependClause).dep_type == "in"
    assert "needs a 'depend' clause" in error("omp taskwait nowait").message
    assert "not valid on '#pragma omp taskwait'" in error("omp taskwait depend(mutexinoutset: a)").message


def test_omp_all_memory_only_with_out_or_inout():
    assert parse("omp task depend(out: omp_all_memory)").first(DependClause).items[0].name == "omp_all_memory"
    assert "may only appear in a 'depend(out: ...)'" in error("omp task depend(in: omp_all_memory)").message


def test_grainsize_and_num_tasks_exclude_each_other():
    err = error("omp taskloop grainsize(2) num_tasks(4)")
    assert err.message == "'grainsize' and 'num_tasks' cannot both appear on '#pragma omp taskloop'"
    assert err.location.column == 9 + len("omp taskloop grainsize(2) ")
    assert "cannot both appear" in error("omp masked taskloop simd num_tasks(strict: 2) grainsize(4)").message


def test_taskloop_reduction_not_with_nogroup():
    assert "'reduction' and 'nogroup' cannot both appear" in error("omp taskloop reduction(+: s) nogroup").message


def test_strict_task_counts():
    grainsize = parse("omp taskloop grainsize(strict: 4)").first(GrainsizeClause)
    assert grainsize.strict
    assert not parse("omp taskloop num_tasks(n > 2 ? 4 : 8)").first(NumTasksClause).strict
    assert parse("omp taskloop num_tasks(strict: n)").first(NumTasksClause).strict
    assert "expected 'strict'" in error("omp taskloop grainsize(loose: 4)").message
