"""sema/default_clause.py: default(firstprivate) and default(private) (OpenMP 5.0/5.1) list
what the construct references implicitly; file-scope variables must be listed, as gcc
requires."""

from __future__ import annotations

import pytest

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.openmp.pragmas import attach_pragmas
from omp2gpu.frontend.parse import parse
from omp2gpu.sema.default_clause import check_default_clause

PRELUDE = "int g; int f(int);\nint main(void) {\n  int s = 0, a[4] = {0}, i, x; static int st;\n"


def construct_of(pragma: str, body: str) -> OmpConstruct:
    ast = attach_pragmas(parse(f"{PRELUDE}#pragma omp {pragma}\n{body}\nreturn 0;\n}}\n", "t.c"),
                         check_default_clause)
    return next(item for item in ast.ext[-1].body.block_items if isinstance(item, OmpConstruct))


def listed(construct, name: str) -> list[str]:
    return [item.name for clause in construct.directive.clauses if clause.name == name for item in clause.items]


def test_default_firstprivate_lists_the_references_with_implicit_sharing():
    construct = construct_of("parallel default(firstprivate) shared(s)",
                             "{ int k = f(x) + a[1] + st; s += k + sizeof(i); }")
    assert sorted(listed(construct, "firstprivate")) == ["a", "st", "x"]
    assert listed(construct, "shared") == ["s"]
    assert [c.kind for c in construct.directive.clauses if c.name == "default"] == ["shared"]


def test_default_private_leaves_out_loop_variables_and_nested_copies():
    construct = construct_of("parallel for default(private) shared(a)",
                             "for (i = 0; i < 4; i++) { x = i;\n#pragma omp atomic\ns += x; }")
    assert sorted(listed(construct, "private")) == ["s", "x"]


def test_task_default_firstprivate_sees_a_nested_construct_s_clauses():
    construct = construct_of("task default(firstprivate)", "{\n#pragma omp target map(tofrom: s)\ns = x;\n}")
    assert sorted(listed(construct, "firstprivate")) == ["s", "x"]


@pytest.mark.parametrize("pragma, leaf", [("parallel default(firstprivate)", "parallel"),
                                          ("task default(private)", "task"),
                                          ("target teams default(firstprivate)", "teams")])
def test_file_scope_variables_must_be_listed(pragma, leaf):
    with pytest.raises(CompileError) as info:
        construct_of(pragma, "{ g = s; }")
    assert info.value.message == f"'g' not specified in enclosing '{leaf}'"


def test_default_none_is_still_checked():
    with pytest.raises(CompileError) as info:
        construct_of("parallel default(none)", "{ s = 1; }")
    assert info.value.message == "'s' not specified in enclosing 'parallel'"
