"""sema/concurrent_regions.py: what a `loop` region or an order(concurrent) region may hold."""

from __future__ import annotations

import pytest

from omp2gpu import driver
from omp2gpu.diagnostics import LoweringError


def _parse(tmp_path, body: str):
    path = tmp_path / "prog.c"
    path.write_text("#include <omp.h>\nint main(void) {\n int a[64], n = 64, s = 0;\n"
                    f"{body}\n return 0;\n}}\n")
    return driver.parse_file(path, driver.CompileOptions())


ACCEPTED = {
    "atomic in loop (5.1)": "#pragma omp parallel loop\nfor (int i = 0; i < n; i++) {\n"
                            "#pragma omp atomic\ns += i;\n}",
    "simd in loop": "#pragma omp parallel loop\nfor (int i = 0; i < 8; i++) {\n#pragma omp simd\n"
                    "for (int j = 0; j < 8; j++) a[j] += i;\n}",
    "parallel for in a thread loop": "#pragma omp parallel\n#pragma omp loop bind(thread)\n"
                                     "for (int i = 0; i < 8; i++) {\n#pragma omp parallel for\n"
                                     "for (int j = 0; j < 8; j++) a[j] = i;\n}",
    # gcc checks close nesting only: a parallel region nested inside is a region of its own
    "critical and a runtime call inside a nested parallel region":
        "#pragma omp parallel\n#pragma omp loop\nfor (int i = 0; i < 8; i++) {\n#pragma omp parallel\n"
        "{\n#pragma omp critical\ns += omp_get_thread_num();\n}\n}",
    "a runtime call before the loop": "#pragma omp parallel\n{\ns = omp_get_thread_num();\n"
                                      "#pragma omp loop\nfor (int i = 0; i < n; i++) a[i] = i;\n}",
    "for without order holds anything": "#pragma omp parallel for\nfor (int i = 0; i < n; i++) {\n"
                                        "#pragma omp critical\ns += omp_get_thread_num();\n}",
}


@pytest.mark.parametrize("body", ACCEPTED.values(), ids=ACCEPTED.keys())
def test_accepted(tmp_path, body):
    _parse(tmp_path, body)


REJECTED = {
    "critical in loop": ("#pragma omp parallel loop\nfor (int i = 0; i < n; i++) {\n"
                         "#pragma omp critical\ns += i;\n}", "may not be nested inside a 'loop' region", 6),
    "single in a teams loop": ("#pragma omp target teams loop\nfor (int i = 0; i < n; i++) {\n"
                               "#pragma omp single\ns += i;\n}", "may not be nested inside a 'loop' region", 6),
    "ordered in for order(concurrent)": (
        "#pragma omp parallel for order(concurrent)\nfor (int i = 0; i < n; i++) {\n"
        "#pragma omp ordered\ns += i;\n}", "inside a region with the 'order(concurrent)' clause", 6),
    "task in simd order(concurrent) inside a nested block": (
        "#pragma omp simd order(reproducible: concurrent)\nfor (int i = 0; i < n; i++) {\nif (i) {\n"
        "#pragma omp task\ns += i;\n}\n}", "inside a region with the 'order(concurrent)' clause", 7),
    "runtime call in loop": ("#pragma omp parallel\n#pragma omp loop\nfor (int i = 0; i < n; i++)\n"
                             "a[i] = omp_get_num_threads();",
                             "OpenMP runtime API call 'omp_get_num_threads' in a 'loop' region", 7),
    "runtime call in a simd inside loop": (
        "#pragma omp parallel loop\nfor (int i = 0; i < 8; i++) {\n#pragma omp simd\n"
        "for (int j = 0; j < 8; j++) a[j] = omp_get_thread_num();\n}",
        "OpenMP runtime API call 'omp_get_thread_num' in a 'loop' region", 7),
    "runtime call in distribute order(concurrent)": (
        "#pragma omp target teams\n#pragma omp distribute order(concurrent)\nfor (int i = 0; i < n; i++)\n"
        "a[i] = omp_get_team_num();", "in a region with the 'order(concurrent)' clause", 7),
}


@pytest.mark.parametrize("body, message, line", REJECTED.values(), ids=REJECTED.keys())
def test_rejected(tmp_path, body, message, line):
    with pytest.raises(LoweringError) as info:
        _parse(tmp_path, body)
    assert message in info.value.message
    assert info.value.location.line == line
