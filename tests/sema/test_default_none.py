"""sema/default_none.py: default(none) as gcc enforces it."""

from __future__ import annotations

import pytest

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.pragmas import attach_pragmas
from omp2gpu.frontend.parse import parse
from omp2gpu.sema.default_none import check_default_none

PRELUDE = ("int g; static int sg; const int cg = 3; int tp;\n#pragma omp threadprivate(tp)\n"
           "int f(int);\nenum { E1 = 1 };\nint main(void) {\n"
           "  int s = 0, a[4] = {0}, i, x; const int c = 2;\n")


def _check(pragma: str, body: str):
    attach_pragmas(parse(f"{PRELUDE}#pragma omp {pragma}\n{body}\nreturn 0;\n}}\n", "t.c"), check_default_none)


ACCEPTED = {
    "sizeof, calls, enumerators, threadprivate": ("parallel default(none)",
                                                  "{ int k = sizeof(s) + f(E1) + tp; (void)k; }"),
    "the loop's iteration variable": ("parallel for default(none) shared(a)",
                                      "for (i = 0; i < 4; i++) a[i] = i;"),
    "a nested loop's iteration variable, a nested private": (
        "parallel default(none) shared(a)",
        "{\n#pragma omp for\nfor (i = 0; i < 4; i++) a[i] = i;\n"
        "#pragma omp single private(x)\n{ x = 1; a[0] = x; }\n}"),
    "collapsed loops": ("parallel for default(none) shared(a) collapse(2)",
                        "for (i = 0; i < 2; i++) for (x = 0; x < 2; x++) a[i] = x;"),
    "listed on a combined target construct": (
        "target teams distribute parallel for default(none) shared(a) firstprivate(s)",
        "for (i = 0; i < 4; i++) a[i] = s;"),
    "default(shared)": ("parallel default(shared)", "{ s = 1; }"),
}


@pytest.mark.parametrize("pragma, body", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_accepted(pragma, body):
    _check(pragma, body)


REJECTED = {
    "a local": ("parallel default(none)", "{ s = 1; }", "'s' not specified in enclosing 'parallel'"),
    "a const local": ("parallel default(none)", "{ int k = c; (void)k; }", "'c' not specified"),
    "a const global": ("parallel default(none)", "{ int k = cg; (void)k; }", "'cg' not specified"),
    "a static global": ("parallel default(none)", "{ sg = 1; }", "'sg' not specified"),
    "teams": ("teams default(none)", "{ g = 1; }", "'g' not specified in enclosing 'teams'"),
    "task": ("task default(none)", "{ s++; }", "'s' not specified in enclosing 'task'"),
    "a nested firstprivate": ("parallel default(none)", "{\n#pragma omp task firstprivate(x)\n{ }\n}",
                              "'x' not specified in enclosing 'parallel'"),
    "combined target": ("target teams distribute parallel for default(none) shared(a)",
                        "for (i = 0; i < 4; i++) a[i] = s;", "'s' not specified in enclosing 'parallel'"),
    # the map clause is the target leaf's; default(none) is the parallel's (gcc, Clang)
    "mapped only, on a combined target construct": (
        "target teams distribute parallel for default(none) map(tofrom: a)",
        "for (i = 0; i < 4; i++) a[i] = i;", "'a' not specified in enclosing 'parallel'"),
}


@pytest.mark.parametrize("pragma, body, message", REJECTED.values(), ids=REJECTED.keys())
def test_rejected_at_the_use(pragma, body, message):
    with pytest.raises(CompileError, match=message) as error:
        _check(pragma, body)
    assert error.value.location.line >= 8
