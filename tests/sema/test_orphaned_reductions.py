"""sema/orphaned_reductions.py: a worksharing reduction with no parallel region around it
in its function may not name the function's own automatic variables (gcc: "private in
outer context")."""

from __future__ import annotations

import pytest

from omp2gpu import driver
from omp2gpu.diagnostics import LoweringError
from omp2gpu.sema.orphaned_reductions import check_orphaned_reductions


def _check(tmp_path, body: str):
    path = tmp_path / "prog.c"
    path.write_text(f"int g;\nvoid f(int p) {{\n int loc = 0, i;\n static int st;\n{body}\n}}\n")
    check_orphaned_reductions(driver.parse_file(path, driver.CompileOptions()))


ACCEPTED = {
    "a global": "#pragma omp for reduction(+: g)\nfor (i = 0; i < 4; i++) g += i;",
    "a static local": "#pragma omp for reduction(+: st)\nfor (i = 0; i < 4; i++) st += i;",
    "inside a parallel region": "#pragma omp parallel\n#pragma omp for reduction(+: loc)\n"
                                "for (i = 0; i < 4; i++) loc += i;",
    "a combined parallel for": "#pragma omp parallel for reduction(+: loc)\nfor (i = 0; i < 4; i++) loc += i;",
    "a simd loop": "#pragma omp simd reduction(+: loc)\nfor (i = 0; i < 4; i++) loc += i;",
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
    with pytest.raises(LoweringError) as info:
        _check(tmp_path, body)
    assert info.value.message == f"reduction variable '{name}' is private in outer context"
    assert (info.value.location.line, info.value.location.column) == (5, 9)
