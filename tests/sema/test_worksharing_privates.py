"""sema/worksharing_privates.py: a worksharing construct's reduction, firstprivate or
lastprivate item must be shared where the construct binds (gcc: "private in outer
context"): orphaned, not the function's own automatic variables; inside a region, not
the region's own locals or the items of its privatising clauses."""

from __future__ import annotations

import pytest

from omp2gpu import driver
from omp2gpu.diagnostics import LoweringError
from omp2gpu.sema.worksharing_privates import check_worksharing_privates


def _check(tmp_path, body: str):
    path = tmp_path / "prog.c"
    path.write_text(f"int g;\nvoid f(int p) {{\n int loc = 0, i;\n static int st;\n{body}\n}}\n")
    check_worksharing_privates(driver.parse_file(path, driver.CompileOptions()))


ACCEPTED = {
    "a global": "#pragma omp for reduction(+: g)\nfor (i = 0; i < 4; i++) g += i;",
    "a static local": "#pragma omp for reduction(+: st)\nfor (i = 0; i < 4; i++) st += i;",
    "inside a parallel region": "#pragma omp parallel\n#pragma omp for reduction(+: loc)\n"
                                "for (i = 0; i < 4; i++) loc += i;",
    "a combined parallel for": "#pragma omp parallel for reduction(+: loc)\nfor (i = 0; i < 4; i++) loc += i;",
    "a simd loop": "#pragma omp simd reduction(+: loc)\nfor (i = 0; i < 4; i++) loc += i;",
    "a region's static local": "#pragma omp parallel\n{ static int x;\n#pragma omp for reduction(+: x)\n"
                               "for (i = 0; i < 4; i++) x += i; }",
    "a local of another block": "#pragma omp parallel\n{ { int loc = 1; (void)loc; }\n"
                                "#pragma omp for reduction(+: loc)\nfor (i = 0; i < 4; i++) loc += i; }",
    "a local shared by a nested parallel": "#pragma omp parallel\n{ int x = 0;\n#pragma omp parallel\n"
                                           "{\n#pragma omp for reduction(+: x)\nfor (i = 0; i < 4; i++) x += i; } }",
    "a struct member's name": "#pragma omp parallel\n{ struct { int loc; } s = {0}; (void)s;\n"
                              "#pragma omp for reduction(+: loc)\nfor (i = 0; i < 4; i++) loc += i; }",
    "a loop bound to the thread": "#pragma omp parallel\n{ int x = 0;\n#pragma omp loop bind(thread) "
                                  "reduction(+: x)\nfor (i = 0; i < 4; i++) x += i; }",
    "a loop in a loop": "#pragma omp teams loop\nfor (int r = 0; r < 4; r++) { int x = 0;\n"
                        "#pragma omp loop reduction(+: x)\nfor (i = 0; i < 4; i++) x += i; }",
    "a distribute parallel for in teams": "#pragma omp target teams\n{ int x = 0;\n"
                                          "#pragma omp distribute parallel for reduction(+: x)\n"
                                          "for (i = 0; i < 4; i++) x += i; }",
}


@pytest.mark.parametrize("body", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_shared_or_enclosed_items_pass(tmp_path, body):
    _check(tmp_path, body)


REJECTED = {
    "a local": ("#pragma omp for reduction(+: loc)\nfor (i = 0; i < 4; i++) loc += i;", "loc"),
    "a parameter": ("#pragma omp for reduction(max: p)\nfor (i = 0; i < 4; i++) p = i;", "p"),
    "sections": ("#pragma omp sections reduction(+: loc)\n{\nloc++;\n}", "loc"),
    "scope": ("#pragma omp scope reduction(+: loc)\nloc++;", "loc"),
}


@pytest.mark.parametrize("body, name", REJECTED.values(), ids=REJECTED.keys())
def test_the_functions_own_variables_are_private_there(tmp_path, body, name):
    _assert_refused(tmp_path, body, f"reduction variable '{name}'", line=5)


def _assert_refused(tmp_path, body: str, what: str, line: int) -> None:
    with pytest.raises(LoweringError) as info:
        _check(tmp_path, body)
    assert info.value.message == f"{what} is private in outer context"
    assert (info.value.location.line, info.value.location.column) == (line, 9)


NESTED = {
    "a region's local": ("#pragma omp parallel\n{ int x = 0;\n#pragma omp for reduction(+: x)\n"
                         "for (i = 0; i < 4; i++) x += i; }", "reduction", "x", 7),
    "a private item": ("#pragma omp parallel private(loc)\n{\n#pragma omp for reduction(+: loc)\n"
                       "for (i = 0; i < 4; i++) loc += i; }", "reduction", "loc", 7),
    "a firstprivate item, on sections": ("#pragma omp parallel firstprivate(loc)\n{\n"
                                         "#pragma omp sections reduction(+: loc)\n{ loc++; } }", "reduction", "loc", 7),
    "a single's firstprivate": ("#pragma omp parallel\n{ int x = 0;\n#pragma omp single firstprivate(x)\n"
                                "x++; }", "firstprivate", "x", 7),
    "a for's lastprivate": ("#pragma omp parallel\n{ int x = 0;\n#pragma omp for lastprivate(x)\n"
                            "for (i = 0; i < 4; i++) x = i; }", "lastprivate", "x", 7),
    "a loop bound to parallel": ("#pragma omp parallel\n{ int x = 0;\n#pragma omp loop reduction(+: x)\n"
                                 "for (i = 0; i < 4; i++) x += i; }", "reduction", "x", 7),
    "a loop in teams": ("#pragma omp teams\n{ int x = 0;\n#pragma omp loop reduction(+: x)\n"
                        "for (i = 0; i < 4; i++) x += i; }", "reduction", "x", 7),
    "a for in a distribute's body": ("#pragma omp target teams\n{\n#pragma omp distribute\n"
                                     "for (int b = 0; b < 4; b++) { long part = 0;\n"
                                     "#pragma omp for reduction(+: part)\nfor (i = 0; i < 4; i++) part += i; } }",
                                     "reduction", "part", 9),
    "a section of a region's array": ("#pragma omp parallel\n{ int a[2] = {0};\n"
                                      "#pragma omp for reduction(+: a[0:2])\nfor (i = 0; i < 4; i++) a[0] += i; }",
                                      "reduction", "a", 7),
}


@pytest.mark.parametrize("body, clause, name, line", NESTED.values(), ids=NESTED.keys())
def test_what_is_private_in_the_region_around(tmp_path, body, clause, name, line):
    _assert_refused(tmp_path, body, f"{clause} variable '{name}'", line)


def test_an_orphaned_lastprivate_of_a_local(tmp_path):
    _assert_refused(tmp_path, "#pragma omp for lastprivate(loc)\nfor (i = 0; i < 4; i++) loc = i;",
                    "lastprivate variable 'loc'", line=5)
