"""sema/clause_operands.py: clause operands checked with their C types, when code
generation reaches the construct."""

from __future__ import annotations

import pytest

from omp2gpu import driver
from omp2gpu.diagnostics import CompileError


def _compile(tmp_path, pragma: str, statement: str = "{ }"):
    path = tmp_path / "prog.c"
    path.write_text("enum { EIGHT = 8 };\nstruct pair { int x, y; };\n"
                    "int main(void) {\n const int c = 1; int * const cp = 0; const int *pc = 0;\n"
                    " int a[8], *p = a, n = 8, s = 0, i; double d = 0.5; struct pair pr = {0, 0};\n"
                    f"{pragma}\n{statement}\n return s + c + *pc + (cp != 0) + pr.x;\n}}\n")
    return driver.translate(path, driver.CompileOptions())


LOOP = "for (i = 0; i < n; i++) s += i;"

ACCEPTED = {
    "const in firstprivate and shared": ("#pragma omp parallel firstprivate(c) shared(cp)", "s = c;"),
    "pointer to const in private": ("#pragma omp parallel private(pc)", "{ pc = 0; }"),
    "the whole array": ("#pragma omp target map(a[0:EIGHT])", "a[0] = 1;"),
    "a run-time length": ("#pragma omp target map(a[2:n-2])", "a[2] = 1;"),
    "a negative lower bound on a pointer": ("#pragma omp target map(p[-1:2])", "{ }"),
    "a char bound": ("#pragma omp target map(a['\\1':2])", "{ }"),
    "atomic on a pointer's target": ("#pragma omp atomic", "*p += 1;"),
    "linear on an integer and a pointer": ("#pragma omp simd linear(n, p: 2)", LOOP),
}


@pytest.mark.parametrize("pragma, statement", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_accepted(tmp_path, pragma, statement):
    _compile(tmp_path, pragma, statement)


REJECTED = {
    "const in private": ("#pragma omp parallel private(c)", "{ }",
                         "'const' qualified 'c' may appear only in 'shared' or 'firstprivate'"),
    "const pointer in lastprivate": ("#pragma omp parallel for lastprivate(cp)", LOOP,
                                     "'const' qualified 'cp' may appear only"),
    "negative constant length": ("#pragma omp target map(a[0:EIGHT-9])", "{ }",
                                 "negative length in array section in 'map' clause"),
    "negative length on a pointer": ("#pragma omp target update to(p[0:-1])", "",
                                     "negative length in array section in 'to' clause"),
    "negative lower bound on an array": ("#pragma omp target map(a[-1:2])", "{ }",
                                         "negative low bound in array section"),
    "past the end of an array": ("#pragma omp target map(a[4:5])", "{ }",
                                 r"array section \[4:5\] in 'map' clause goes past the end of 'a' \(8"),
    "double lower bound": ("#pragma omp target map(a[d:2])", "{ }",
                           r"low bound of array section does not have integer type \('double'\)"),
    "double length": ("#pragma omp target map(a[0:2.0])", "{ }",
                      "length of array section does not have integer type"),
    "atomic on a struct": ("#pragma omp atomic write", "pr = pr;",
                           "invalid expression type 'struct pair' for '#pragma omp atomic'"),
    "a subscript past the array's rank": ("#pragma omp target map(a[0:2][1])", "{ }",
                                          r"array section or subscript in 'map' clause of a value "
                                          r"that is not an array or pointer \('int'\)"),
    "a section of a scalar": ("#pragma omp target update to(n[0:1])", "",
                              "array section or subscript in 'to' clause of a value"),
    "a function in a data-sharing clause": ("#pragma omp parallel shared(main)", "{ }",
                                            "'main' in a data-sharing clause is not a variable"),
    "linear on an array": ("#pragma omp simd linear(a)", LOOP,
                           "linear variable 'a' must have integer or pointer type \\(it is 'int\\[8\\]'\\)"),
    "linear on a double": ("#pragma omp simd linear(d)", LOOP,
                           "linear variable 'd' must have integer or pointer type"),
}


@pytest.mark.parametrize("pragma, statement, message", REJECTED.values(), ids=REJECTED.keys())
def test_rejected(tmp_path, pragma, statement, message):
    with pytest.raises(CompileError, match=message) as error:
        _compile(tmp_path, pragma, statement)
    assert error.value.location.line == (7 if "atomic" in pragma else 6)   # atomic: at x
