"""The data-sharing program generator: deterministic, covering its shapes, keeping its
rules (the module docstring), and shrinking a failing program."""

from __future__ import annotations

from collections import Counter

from .data_sharing_programs import SHAPES, RandomChooser, generate, shrunk
from .data_sharing_render import render

SEEDS = range(400)
PROGRAMS = [generate(RandomChooser(seed)) for seed in SEEDS]
TESTS = [test for program in PROGRAMS for test in program.tests]


def test_the_same_seed_gives_the_same_program():
    assert render(generate(RandomChooser(7))) == render(generate(RandomChooser(7)))
    assert render(generate(RandomChooser(7))) != render(generate(RandomChooser(8)))


def test_every_shape_storage_class_and_role_is_generated():
    shapes = Counter(test.shape.name for test in TESTS)
    assert set(shapes) == {shape.name for shape in SHAPES}
    variables = [v for test in TESTS for v in test.variables]
    assert {v.storage for v in variables} == {"auto", "file_static", "file_extern", "block_static"}
    assert {v.kind for v in variables} == {"array", "scalar", "struct", "vla", "pointer"}
    assert {v.role for v in variables} == {"in", "out", "red", "last", "priv", "fpriv", "scratch"}
    assert {t.data_region for t in TESTS} == {"", "data", "data_update", "enter_exit"}


def test_every_test_writes_an_output_and_prints_only_defined_values():
    for test in TESTS:
        assert test.variables[0].role == "out"
        for v in test.variables:
            if v.role != "in" and v.on_target in ("to", "alloc"):
                assert not v.printed, v        # shared memory keeps the write, a device not
            assert v.on_target != "from" or v.role == "out"


def test_loops_write_scalars_only_through_reduction_or_lastprivate():
    for test in TESTS:
        if test.shape.body == "loop":
            assert all(v.kind != "scalar" for v in test.variables if v.role == "out")
            for v in test.variables:
                if v.role == "red":
                    assert v.clauses == tuple((layer, "reduction") for layer in test.shape.reduction_layers)


def test_tasks_name_the_automatic_scalars_they_write():
    for test in TESTS:
        if test.shape.body == "tasks":
            for v in test.variables:
                if v.role in ("out", "priv", "fpriv") and v.kind == "scalar" and v.storage == "auto":
                    assert v.task_clause


def test_shrinking_keeps_the_failing_test_and_its_failing_variable():
    program = next(p for p in PROGRAMS if len(p.tests) >= 3 and len(p.tests[1].variables) >= 3)
    culprit = program.tests[1].variables[2].name

    def fails(candidate):
        return any(v.name == culprit for test in candidate.tests for v in test.variables)

    smaller = shrunk(program, fails)
    assert [test.number for test in smaller.tests] == [1]
    assert [v.name for v in smaller.tests[0].variables] == [program.tests[1].variables[0].name, culprit]
