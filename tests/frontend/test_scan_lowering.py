"""frontend/scan_lowering.py: loops with inscan reductions become constructs every
scheme compiles; what each form becomes, and the located errors."""

from __future__ import annotations

import pytest

from omp2gpu import driver
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct

HEAD = "int a[100], b[100];\nint main(void) {\n  int x = 0, y = 0, i;\n"


def _main_body(tmp_path, code: str):
    path = tmp_path / "prog.c"
    path.write_text(HEAD + code + "  return x;\n}\n")
    ast = driver.parse_file(path, driver.CompileOptions())
    return ast.ext[-1].body.block_items


def _constructs(node) -> list:
    found, stack = [], [node]
    while stack:
        current = stack.pop()
        if isinstance(current, OmpConstruct):
            found.append(current.directive)
        stack.extend(child for _, child in current.children())
    return found


def test_simd_runs_in_order_without_the_scan(tmp_path):
    items = _main_body(tmp_path, "#pragma omp simd reduction(inscan, +: x)\n"
                                 "for (i = 0; i < 100; i++) { x += a[i];\n#pragma omp scan inclusive(x)\n"
                                 "b[i] = x; }\n")
    simd = items[-2]
    assert simd.directive.kind == "simd" and not simd.directive.clauses
    assert [d.kind for d in _constructs(simd)] == ["simd"]


def test_parallel_for_becomes_a_team_of_three_loops(tmp_path):
    items = _main_body(tmp_path, "#pragma omp parallel for reduction(inscan, +: x) num_threads(3)\n"
                                 "for (i = 0; i < 100; i++) { x += a[i];\n#pragma omp scan exclusive(x)\n"
                                 "b[i] = x; }\n")
    parallel = items[-2]
    assert parallel.directive.kind == "parallel"
    assert sorted(c.name for c in parallel.directive.clauses) == ["num_threads", "shared"]
    kinds = sorted(d.kind for d in _constructs(parallel))
    assert kinds == ["barrier", "barrier", "for", "for", "for", "parallel"]
    loops = [d for d in _constructs(parallel) if d.kind == "for"]
    assert all({c.name for c in loop.clauses} == {"schedule", "nowait"} for loop in loops)


def test_target_parallel_for_maps_the_reduction_item(tmp_path):
    items = _main_body(tmp_path, "#pragma omp target parallel for reduction(inscan, +: x) map(to: a)\n"
                                 "for (i = 0; i < 100; i++) { x += a[i];\n#pragma omp scan inclusive(x)\n"
                                 "b[i] = x; }\n")
    target = items[-2].directive
    assert target.kind == "target parallel"
    maps = [(c.map_type, [item.name for item in c.items]) for c in target.clauses if c.name == "map"]
    assert ("tofrom", ["x"]) in maps


@pytest.mark.parametrize("code, message, line", [
    ("#pragma omp scan inclusive(x)\n", "'#pragma omp scan' must be directly in the body of a loop", 4),
    ("#pragma omp parallel\n#pragma omp for reduction(inscan, +: x)\n"
     "for (i = 0; i < 100; i++) { x += a[i]; b[i] = x; }\n",
     "needs one '#pragma omp scan' directly in its body", 6),
    ("#pragma omp parallel\n#pragma omp for reduction(inscan, +: x)\nfor (i = 0; i < 100; i++) { x += a[i];\n"
     "#pragma omp scan inclusive(x)\nb[i] = x;\n#pragma omp scan inclusive(x)\nb[i] += x; }\n",
     "only one '#pragma omp scan' may be in the body", 9),
    ("#pragma omp parallel\n#pragma omp for reduction(inscan, +: x, y)\nfor (i = 0; i < 100; i++) { x += a[i];\n"
     "#pragma omp scan inclusive(x)\nb[i] = x; }\n", "must name the loop's inscan reduction items", 7),
    ("#pragma omp parallel\n#pragma omp for reduction(inscan, +: x) lastprivate(y)\n"
     "for (i = 0; i < 100; i++) { x += a[i];\n"
     "#pragma omp scan inclusive(x)\nb[i] = y = x; }\n", "'lastprivate' with an 'inscan' reduction", 5),
    ("#pragma omp parallel\n#pragma omp for reduction(inscan, +: x) schedule(dynamic)\n"
     "for (i = 0; i < 100; i++) { x += a[i];\n"
     "#pragma omp scan inclusive(x)\nb[i] = x; }\n", "supports only 'schedule(static)'", 5),
    ("#pragma omp parallel for reduction(inscan, +: a[0:2])\nfor (i = 0; i < 100; i++) { a[0] += i;\n"
     "#pragma omp scan inclusive(a)\nb[i] = a[0]; }\n", "only variables", 4),
])
def test_errors(tmp_path, code, message, line):
    with pytest.raises(CompileError, match=message.replace("(", r"\(").replace(")", r"\)")) as error:
        _main_body(tmp_path, code)
    assert error.value.location.line == line
