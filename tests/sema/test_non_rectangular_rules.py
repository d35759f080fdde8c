"""sema/non_rectangular_rules.py: schedule and ordered on a non-rectangular `for`,
dist_schedule on a non-rectangular `distribute`, are located errors (as gcc's); the
same clauses on rectangular nests, and nests collapsing one loop, are fine."""

from __future__ import annotations

import pytest

from omp2gpu import driver
from omp2gpu.diagnostics import CompileError

TRIANGLE = "for (int i = 0; i < n; i++) for (int j = i; j < n; j++) s += j;"
SQUARE = "for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) s += j;"


def _parse(tmp_path, body: str):
    path = tmp_path / "prog.c"
    path.write_text(f"int main(void) {{\n int n = 8, s = 0;\n{body}\n return s;\n}}\n")
    return driver.parse_file(path, driver.CompileOptions())


@pytest.mark.parametrize(("directive", "message"), [
    ("parallel for collapse(2) schedule(static)", "'schedule' clause may not appear on non-rectangular 'for'"),
    ("for collapse(2) ordered", "'ordered' clause may not appear on non-rectangular 'for'"),
    ("target teams distribute collapse(2) dist_schedule(static, 4) map(tofrom: s)",
     "'dist_schedule' clause may not appear on non-rectangular 'distribute'"),
])
def test_forbidden_on_non_rectangular_nests(tmp_path, directive, message):
    with pytest.raises(CompileError, match=message) as caught:
        _parse(tmp_path, f"#pragma omp {directive}\n{TRIANGLE}")
    assert caught.value.location is not None


@pytest.mark.parametrize("directive", ["parallel for collapse(2) schedule(dynamic, 2)",
                                       "parallel for schedule(static)",
                                       "target teams distribute collapse(2) dist_schedule(static, 4) map(tofrom: s)"])
def test_allowed_on_rectangular_nests(tmp_path, directive):
    _parse(tmp_path, f"#pragma omp {directive}\n{SQUARE}")
    _parse(tmp_path, f"#pragma omp {directive.replace('collapse(2)', '')}\n{TRIANGLE}")
