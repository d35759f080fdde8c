"""sema/atomic_compare_forms.py: the statements `#pragma omp atomic compare [capture]`
accepts (OpenMP 5.1 2.19.7) and what each computes."""

from __future__ import annotations

import pytest

from omp2gpu import driver
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.sema.atomic_compare_forms import compare_form


def _construct(tmp_path, clauses: str, statement: str) -> OmpConstruct:
    path = tmp_path / "prog.c"
    path.write_text("int main(void) {\n int x = 0, v = 0, r = 0, e = 1, d = 2;\n"
                    f"#pragma omp atomic {clauses}\n{statement}\n return v + r;\n}}\n")
    ast = driver.parse_file(path, driver.CompileOptions())
    body = ast.ext[0].body.block_items
    return next(item for item in body if isinstance(item, OmpConstruct))


@pytest.mark.parametrize("statement, compare, extremum", [
    ("x = x < e ? e : x;", "<", "max"), ("x = x > e ? e : x;", ">", "min"),
    ("x = e < x ? e : x;", "<", "min"), ("x = e > x ? e : x;", ">", "max"),
    ("if (x < e) { x = e; }", "<", "max"), ("if (e < x) { x = e; }", "<", "min"),
    ("if (x > e + 1) { x = e + 1; }", ">", "min"),
    ("x = x == e ? d : x;", "==", None), ("if (x == e) { x = d; }", "==", None),
])
def test_conditional_forms(tmp_path, statement, compare, extremum):
    form = compare_form(_construct(tmp_path, "compare", statement))
    assert form.compare == compare and form.extremum == extremum
    assert form.x.name == "x" and form.v is None and form.r is None


@pytest.mark.parametrize("statement, v_gets, has_r", [
    ("{ v = x; if (x == e) { x = d; } }", "old", False),
    ("{ if (x < e) { x = e; } v = x; }", "new", False),
    ("{ v = x; x = x > e ? e : x; }", "old", False),
    ("if (x == e) { x = d; } else { v = x; }", "old-on-failure", False),
    ("{ r = x == e; if (r) { x = d; } }", None, True),
    ("{ r = x == e; if (r) { x = d; } else { v = x; } }", "old-on-failure", True),
])
def test_capture_forms(tmp_path, statement, v_gets, has_r):
    form = compare_form(_construct(tmp_path, "compare capture", statement))
    assert form.v_gets == v_gets and (form.r is not None) is has_r


INVALID = "invalid form of '#pragma omp atomic compare'"
INVALID_CAPTURE = "invalid form of '#pragma omp atomic compare capture'"
REJECTED = [
    ("compare", "x = x < e ? d : x;", INVALID),
    ("compare", "x = x + 1;", INVALID),
    ("compare", "if (x == e) x = d;", INVALID),
    ("compare", "if (x <= e) { x = e; }", INVALID),
    ("compare", "if (x == e) { x = d; } else { v = x; }", INVALID),
    ("compare capture", "{ v = e; if (x == e) { x = d; } }", INVALID_CAPTURE),
    ("compare capture", "if (x < e) { x = e; } else { v = x; }", INVALID_CAPTURE),
    ("compare capture", "{ r = x < e; if (r) { x = e; } }", INVALID_CAPTURE),
    ("compare weak", "if (x < e) { x = e; }", "the 'weak' clause requires an equality comparison"),
]


@pytest.mark.parametrize("clauses, statement, message", REJECTED)
def test_rejected(tmp_path, clauses, statement, message):
    with pytest.raises(CompileError, match=message.replace("(", r"\(")):
        _construct(tmp_path, clauses, statement)
