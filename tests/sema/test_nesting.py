"""sema/nesting.py: OpenMP 4.5 closely-nested rules, checked lexically per function."""

from __future__ import annotations

import pytest

from omp2gpu import driver
from omp2gpu.diagnostics import CompileError


def _parse(tmp_path, body: str, before: str = ""):
    path = tmp_path / "prog.c"
    path.write_text(f"{before}\nint main(void) {{\n int a[64], n = 64, s = 0;\n{body}\n return 0;\n}}\n")
    return driver.parse_file(path, driver.CompileOptions())


ACCEPTED = {
    "distribute in teams": "#pragma omp target teams map(tofrom: a)\n{\n#pragma omp distribute\n"
                           "for (int i = 0; i < n; i++) a[i] = i;\n}",
    "parallel in teams, for in parallel": "#pragma omp target teams map(tofrom: a)\n{\n#pragma omp parallel\n"
                                          "{\n#pragma omp for\nfor (int i = 0; i < n; i++) a[i] = i;\n}\n}",
    "atomic in a parallel region of teams": "#pragma omp target teams map(tofrom: s)\n#pragma omp parallel\n"
                                            "{\n#pragma omp atomic\ns += 1;\n}",
    "for in a parallel region inside single": "#pragma omp parallel\n#pragma omp single\n{\n"
                                              "#pragma omp parallel for\nfor (int i = 0; i < n; i++) a[i] = i;\n}",
    "critical of another name": "#pragma omp parallel\n#pragma omp critical (a)\n{\n#pragma omp critical (b)\ns++;\n}",
    "sections with a statement before the first section":
        "#pragma omp parallel sections\n{\ns = 1;\n#pragma omp section\nn = 2;\n}",
    "ordered in a loop with the ordered clause":
        "#pragma omp parallel for ordered\nfor (int i = 0; i < n; i++) {\n#pragma omp ordered\ns += i;\n}",
    "ordered simd in a simd loop":
        "#pragma omp simd\nfor (int i = 0; i < n; i++) {\n#pragma omp ordered simd\ns += i;\n}",
    "runtime calls in a parallel region of teams": "#pragma omp teams num_teams(2)\n#pragma omp parallel\n"
                                                   "s += omp_get_thread_num() + omp_get_team_num();",
    # master/masked may be inside critical and master/masked regions (as gcc takes them)
    "cancel taskgroup in a task in a taskgroup": "#pragma omp parallel\n#pragma omp single\n#pragma omp taskgroup\n"
                                                 "{\n#pragma omp task\n{\n#pragma omp cancel taskgroup\n}\n}",
    "cancel taskgroup in a task in a taskloop": "#pragma omp parallel\n#pragma omp single\n#pragma omp taskloop\n"
                                                "for (int i = 0; i < n; i++) {\n#pragma omp task\n{\n"
                                                "#pragma omp cancel taskgroup\n}\n}",
    "masked in critical": "#pragma omp parallel\n#pragma omp critical\n{\n#pragma omp masked\ns++;\n}",
    "master in masked": "#pragma omp parallel\n#pragma omp masked\n{\n#pragma omp master\ns++;\n}",
    "masked in a parallel region inside a for":
        "#pragma omp parallel for\nfor (int i = 0; i < 8; i++)\n"
        "#pragma omp parallel\n#pragma omp critical\n{\n#pragma omp masked\ns++;\n}",
}


@pytest.mark.parametrize("body", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_allowed_nestings(tmp_path, body):
    _parse(tmp_path, body)


def test_orphaned_constructs_are_not_checked(tmp_path):
    """A function's outermost constructs bind to whatever region calls it."""
    _parse(tmp_path, "f(a);", before="void f(int *a) {\n#pragma omp distribute\n"
                                      "for (int i = 0; i < 4; i++) a[i] = i;\n#pragma omp barrier\n}")
    # an orphaned task's taskgroup may be its caller's
    _parse(tmp_path, "g(a);", before="void g(int *a) {\n#pragma omp task\n{\na[0] = 1;\n"
                                      "#pragma omp cancel taskgroup\n}\n}")


REJECTED = {
    "runtime call in teams": ("#pragma omp teams num_teams(2)\n{\nif (omp_get_team_num() < omp_get_num_teams())\n"
                              "s += omp_get_thread_limit();\n}",
                              "OpenMP runtime API call 'omp_get_thread_limit' strictly nested in a 'teams' region"),
    "scope in taskloop": ("#pragma omp parallel\n#pragma omp single\n#pragma omp taskloop\n"
                          "for (int i = 0; i < n; i++) {\n#pragma omp scope\na[i] = i;\n}",
                          "'scope' region may not be closely nested inside a 'taskloop' region"),
    "barrier in taskloop": ("#pragma omp parallel\n#pragma omp single\n#pragma omp taskloop\n"
                            "for (int i = 0; i < n; i++) {\n#pragma omp barrier\n}",
                            "'barrier' region may not be closely nested inside a 'taskloop' region"),
    "masked in taskloop": ("#pragma omp parallel\n#pragma omp single\n#pragma omp taskloop\n"
                           "for (int i = 0; i < n; i++) {\n#pragma omp masked\ns++;\n}",
                           "'masked' region may not be closely nested inside a 'taskloop' region"),
    "master in critical in for": ("#pragma omp parallel for\nfor (int i = 0; i < 8; i++) {\n"
                                  "#pragma omp critical\n{\n#pragma omp master\ns++;\n}\n}",
                                  "'master' region may not be closely nested inside a 'for' region"),
    "single in teams": ("#pragma omp target teams\n{\n#pragma omp single\ns = 1;\n}",
                        "'single' region may not be closely nested inside a 'teams' region"),
    "distribute in parallel": ("#pragma omp target teams\n#pragma omp parallel\n{\n#pragma omp distribute\n"
                               "for (int i = 0; i < n; i++) a[i] = i;\n}",
                               "'distribute' region must be closely nested inside a 'teams' region"),
    "teams in parallel": ("#pragma omp parallel\n{\n#pragma omp teams\ns = 1;\n}",
                          "'teams' construct must be closely nested inside a 'target' construct"),
    "for in for": ("#pragma omp parallel for\nfor (int i = 0; i < 8; i++) {\n#pragma omp for\n"
                   "for (int j = 0; j < 8; j++) a[j] = j;\n}",
                   "'for' region may not be closely nested inside a 'for' region"),
    "barrier in master": ("#pragma omp parallel\n#pragma omp master\n{\n#pragma omp barrier\n}",
                          "'barrier' region may not be closely nested inside a 'master' region"),
    "same critical": ("#pragma omp parallel\n#pragma omp critical\n{\n#pragma omp parallel\n"
                      "#pragma omp critical\ns++;\n}", "cannot nest 'critical' inside a critical region"),
    "section in parallel": ("#pragma omp parallel\n{\n#pragma omp section\ns = 1;\n}",
                            "'#pragma omp section' may only be used in '#pragma omp sections'"),
    "section nested in a block of sections": (
        "#pragma omp parallel sections\n{\n{\n#pragma omp section\ns = 1;\n}\n}",
        "'#pragma omp section' may only be used in '#pragma omp sections'"),
    "sections without a block": ("#pragma omp parallel sections\ns = 1;",
                                 "expected '{' after '#pragma omp parallel sections'"),
    # gcc reads a sections construct's block before it checks where the construct is
    "sections without a block, nested where they may not be": (
        "#pragma omp parallel for\nfor (int i = 0; i < 8; i++) {\n#pragma omp sections\ns = 1;\n}",
        "expected '{' after '#pragma omp sections'"),
    "ordered in a loop without the clause": (
        "#pragma omp parallel for\nfor (int i = 0; i < n; i++) {\n#pragma omp ordered\ns += i;\n}",
        "'ordered' region must be closely nested inside a loop region with an 'ordered' clause"),
    "cancel taskgroup in a task outside any taskgroup": (
        "#pragma omp parallel\n#pragma omp single\n{\n#pragma omp task\n{\n#pragma omp cancel taskgroup\n}\n}",
        "'cancel taskgroup' construct not closely nested inside of 'taskgroup' region"),
    "ordered in parallel": ("#pragma omp parallel\n{\n#pragma omp ordered\ns++;\n}",
                            "'ordered' region must be closely nested inside a loop region"),
}


@pytest.mark.parametrize("body, message", REJECTED.values(), ids=REJECTED.keys())
def test_forbidden_nestings(tmp_path, body, message):
    with pytest.raises(CompileError, match=message.replace("(", r"\(")):
        _parse(tmp_path, body)


# OpenMP 5.1: scope is a worksharing region that may hold a worksharing loop (as gcc lets
# it); masked restricts what it holds as master does.
ACCEPTED_5X = {
    "for in scope": ("#pragma omp parallel\n#pragma omp scope\n{\n#pragma omp for\n"
                     "for (int i = 0; i < n; i++) a[i] = i;\n}"),
    "taskloop in masked": "#pragma omp parallel masked taskloop\nfor (int i = 0; i < n; i++) a[i] = i;",
}
REJECTED_5X = {
    "scope in for": ("#pragma omp parallel for\nfor (int i = 0; i < n; i++) {\n#pragma omp scope\na[i] = i;\n}",
                     "'scope' region may not be closely nested inside a 'for' region"),
    "for in masked": ("#pragma omp parallel masked\n{\n#pragma omp for\nfor (int i = 0; i < n; i++) a[i] = i;\n}",
                      "'for' region may not be closely nested inside a 'masked' region"),
    "masked in single": ("#pragma omp parallel\n#pragma omp single\n{\n#pragma omp masked\ns = 1;\n}",
                         "'masked' region may not be closely nested inside a 'single' region"),
}


@pytest.mark.parametrize("body", ACCEPTED_5X.values(), ids=ACCEPTED_5X.keys())
def test_allowed_5x_nestings(tmp_path, body):
    _parse(tmp_path, body)


@pytest.mark.parametrize("body, message", REJECTED_5X.values(), ids=REJECTED_5X.keys())
def test_rejected_5x_nestings(tmp_path, body, message):
    with pytest.raises(CompileError) as info:
        _parse(tmp_path, body)
    assert info.value.message == message
