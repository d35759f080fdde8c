"""frontend/openmp/list_item_rules.py: a list item named twice on one directive."""

from __future__ import annotations

import pytest

from omp2gpu import driver
from omp2gpu.diagnostics import CompileError


def _parse(tmp_path, pragma: str, statement: str = "s += a[0];"):
    path = tmp_path / "prog.c"
    path.write_text("struct pair { int x, y; } p;\nint g[8];\n"
                    f"int main(void) {{\n int a[64], n = 64, s = 0, i, *q = 0;\n{pragma}\n{statement}\n"
                    " return 0;\n}\n")
    return driver.parse_file(path, driver.CompileOptions())


LOOP = "for (i = 0; i < n; i++) s += a[i];"

ACCEPTED = {
    "firstprivate and lastprivate": ("#pragma omp parallel for firstprivate(s) lastprivate(s)", LOOP),
    "map and reduction on a combined target": (
        "#pragma omp target teams distribute parallel for map(tofrom: s) reduction(+: s)", LOOP),
    "two members of one struct": ("#pragma omp target map(p.x) map(p.y)", "p.x = p.y;"),
    "one member mapped twice, as gcc accepts": ("#pragma omp target map(p.x) map(p.x)", "p.x = 1;"),
    "to and from of different variables": ("#pragma omp target update to(a) from(g)", ""),
    "two sections of one array moved, as gcc accepts (halo planes)": (
        "#pragma omp target update from(a[0:4], a[60:4]) to(g[0:2]) to(g[4:2])", ""),
    "a section and the whole array moved, as gcc accepts": ("#pragma omp target update to(a[0:2]) to(a)", ""),
    "a pointer and a section of it, as gcc accepts": ("#pragma omp target map(q, q[0:4])", "q[0] = 1;"),
    "a pointer and its section in two clauses": (
        "#pragma omp target data map(to: q) map(from: q[0:n])", "{ }"),
    "one item in several map clauses (OpenMP 5.0: the map types combine)": (
        "#pragma omp target map(alloc: s, a) map(to: s, a) map(from: a)", "s = a[0];"),
    "one section in two map clauses": ("#pragma omp target map(present, to: a[0:4]) map(from: a[0 : 4])",
                                       "a[0] = 1;"),
    "the same variable twice on target enter data": ("#pragma omp target enter data map(to: g) map(to: g)", ""),
}


@pytest.mark.parametrize("pragma, statement", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_accepted(tmp_path, pragma, statement):
    _parse(tmp_path, pragma, statement)


REJECTED = {
    "private twice": ("#pragma omp parallel private(s) private(s)", "s = 1;",
                      "'s' appears more than once in data clauses", 41),
    "twice in one list": ("#pragma omp parallel private(n, s, n)", "s = 1;",
                          "'n' appears more than once in data clauses", 36),
    "private and firstprivate": ("#pragma omp parallel private(s) firstprivate(s)", "s = 1;",
                                 "'s' appears more than once in data clauses", 46),
    "reduction and shared": ("#pragma omp parallel for reduction(+: s) shared(s)", LOOP,
                             "'s' appears more than once in data clauses", 49),
    "copyin twice": ("#pragma omp parallel copyin(g) copyin(g)", "s = g[0];",
                     "'g' appears more than once in data clauses", 39),
    "two sections of one array": ("#pragma omp target map(to: a[0:2]) map(from: a[2:2])", "a[0] = 1;",
                                  "'a' appears more than once in map clauses", 46),
    "two sections of one array on target enter data": (
        "#pragma omp target enter data map(to: g[0:1]) map(to: g[1:1])", "",
        "'g' appears more than once in map clauses", 55),
    "to and from of one variable": ("#pragma omp target update to(g) from(g)", "",
                                    "'g' appears more than once in motion clauses", 38),
    "map and private on target": ("#pragma omp target map(s) private(s)", "s = 1;",
                                  "'s' appears both in data and map clauses", 24),
    "is_device_ptr and firstprivate": ("#pragma omp target is_device_ptr(q) firstprivate(q)", "{ }",
                                       "'q' appears more than once in data clauses", 50),
}


@pytest.mark.parametrize("pragma, statement, message, column", REJECTED.values(), ids=REJECTED.keys())
def test_rejected_at_the_second_item(tmp_path, pragma, statement, message, column):
    with pytest.raises(CompileError, match=message) as error:
        _parse(tmp_path, pragma, statement)
    assert error.value.location.column == column


@pytest.mark.parametrize("pragma, message", [
    ("#pragma omp declare simd uniform(a) uniform(a)", "'a' appears more than once in data clauses"),
    ("#pragma omp declare simd linear(i) linear(i:2)", "'i' appears more than once in data clauses"),
    ("#pragma omp declare simd aligned(x) aligned(x)", "'x' appears more than once in 'aligned' clauses"),
])
def test_declare_simd_names_a_parameter_once(tmp_path, pragma, message):
    path = tmp_path / "prog.c"
    path.write_text(f"{pragma}\nstatic double f(double a, double *x, int i) {{ return a * x[i]; }}\n"
                    "int main(void) { double v = 1; return (int)f(1, &v, 0); }\n")
    with pytest.raises(CompileError, match=message):
        driver.parse_file(path, driver.CompileOptions())
