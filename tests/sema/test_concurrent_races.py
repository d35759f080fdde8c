"""sema/concurrent_races.py: the data races a compiler can see in loops whose iterations a
team's threads run concurrently (`loop` binding to teams or parallel, `order(concurrent)`), and updates carried between
the SIMD lanes of a `simd order(concurrent)`."""

from __future__ import annotations

import pytest

from omp2gpu import driver
from omp2gpu.diagnostics import LoweringError


def _parse(tmp_path, body: str, before: str = ""):
    path = tmp_path / "prog.c"
    path.write_text(f"{before}\nint main(void) {{\n int a[64], n = 64, s = 0, t = 0, i;\n{body}\n return 0;\n}}\n")
    return driver.parse_file(path, driver.CompileOptions())


ACCEPTED = {
    "a reduction": "#pragma omp parallel loop reduction(+: s)\nfor (i = 0; i < n; i++) s += a[i];",
    "private": "#pragma omp parallel loop private(t)\nfor (i = 0; i < n; i++) { t = a[i]; a[i] = t * 2; }",
    "lastprivate of the iterator": "#pragma omp parallel loop lastprivate(i)\nfor (i = 0; i < n; i++) a[i] = i;",
    "declared in the body": "#pragma omp parallel loop\nfor (i = 0; i < n; i++) { int u = a[i]; u++; a[i] = u; }",
    "written under a condition": "#pragma omp parallel loop\nfor (i = 0; i < n; i++) if (i == 3) s = a[i];",
    "written in an atomic": "#pragma omp parallel loop\nfor (i = 0; i < n; i++) {\n#pragma omp atomic write\ns = i;\n}",
    "declared in the parallel region": "#pragma omp parallel\n{\nint mine = 0;\n#pragma omp loop\n"
                                       "for (i = 0; i < n; i++) { mine = a[i]; a[i] = mine + 1; }\n}",
    "private to the parallel region": "#pragma omp parallel private(t)\n#pragma omp loop\n"
                                      "for (i = 0; i < n; i++) { t = a[i]; a[i] = t; }",
    "a loop bound to the thread": "#pragma omp parallel private(t)\n#pragma omp loop bind(thread)\n"
                                  "for (i = 0; i < n; i++) { t = a[i]; a[i] = t; }",
    "for without order": "#pragma omp parallel for\nfor (i = 0; i < n; i++) s = a[i];",
    "simd order(concurrent): one thread": "#pragma omp simd order(concurrent)\n"
                                          "for (i = 0; i < n; i++) { t = a[i]; a[i] = t; }",
    "an array element": "#pragma omp parallel loop\nfor (i = 0; i < n; i++) a[0] = i;",
    "simd order(concurrent): a reduction": "#pragma omp simd order(concurrent) reduction(+: s)\n"
                                           "for (i = 0; i < n; i++) s += a[i];",
}


@pytest.mark.parametrize("body", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_accepted(tmp_path, body):
    _parse(tmp_path, body)


def test_orphaned_loops_are_left_alone(tmp_path):
    _parse(tmp_path, "f(a);", before="int g;\nvoid f(int *a) {\n#pragma omp loop bind(parallel)\n"
                                      "for (int i = 0; i < 8; i++) g = a[i];\n}")


REJECTED = {
    "compound assignment in a parallel loop": (
        "#pragma omp parallel loop\nfor (i = 0; i < n; i++) s += a[i];", "'loop' region writes 's'", 5, 25),
    "a scalar of the target region": (
        "#pragma omp target teams loop map(tofrom: a)\nfor (int k = 0; k < n; k++) { t = a[k]; a[k] = t; }",
        "'loop' region writes 't'", 5, 31),
    "an increment in a loop in parallel": (
        "#pragma omp parallel\n#pragma omp loop\nfor (i = 0; i < n; i++) s++;", "'loop' region writes 's'", 6, 25),
    "a for with order(concurrent)": (
        "#pragma omp parallel for order(concurrent)\nfor (i = 0; i < n; i++) t = a[i] + 1;",
        "the region with 'order(concurrent)' writes 't'", 5, 25),
    "a collapsed nest": (
        "#pragma omp parallel loop collapse(2)\nfor (i = 0; i < 8; i++)\nfor (int j = 0; j < 8; j++) t = j;",
        "'loop' region writes 't'", 6, 29),
    "an update carried between simd lanes": (
        "#pragma omp simd order(concurrent)\nfor (i = 0; i < n; i++) s = s * 3 + a[i];",
        "the region with 'order(concurrent)' writes 's', which the SIMD lanes share", 5, 25),
    "an increment in a simd loop of a parallel region": (
        "#pragma omp parallel\n{\nint c = 0;\n#pragma omp simd order(concurrent)\nfor (i = 0; i < n; i++) c++;\n"
        "a[0] = c;\n}", "writes 'c', which the SIMD lanes share", 8, 25),
}


@pytest.mark.parametrize("body, message, line, column", REJECTED.values(), ids=REJECTED.keys())
def test_rejected(tmp_path, body, message, line, column):
    with pytest.raises(LoweringError) as info:
        _parse(tmp_path, body)
    assert message in info.value.message
    assert "make it private, lastprivate or a reduction" in info.value.message
    assert (info.value.location.line, info.value.location.column) == (line, column)
