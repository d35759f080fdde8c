"""sema/loop_construct.py: each `loop` lowered to the 4.5 construct its binding implies,
and the rules of where a `loop` may bind."""

from __future__ import annotations

import pytest

from omp2gpu import driver
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct


def _constructs(tmp_path, body: str, before: str = "") -> list:
    path = tmp_path / "prog.c"
    path.write_text(f"{before}\nint main(void) {{\n int a[64], n = 64, s = 0, i;\n{body}\n return 0;\n}}\n")
    ast = driver.parse_file(path, driver.CompileOptions())
    found = []

    def walk(node):
        if isinstance(node, OmpConstruct):
            found.append(node.directive)
        for _, child in node.children():
            walk(child)
    walk(ast)
    return found


LOOP = "for (int k = 0; k < n; k++) a[k] = k;"
LOWERED = {
    "target teams loop": ("#pragma omp target teams loop map(tofrom: a)\n" + LOOP,
                          ["target teams distribute parallel for"], "teams"),
    "teams loop": ("#pragma omp target\n#pragma omp teams loop\n" + LOOP,
                   ["target", "teams distribute parallel for"], "teams"),
    "parallel loop": ("#pragma omp parallel loop\n" + LOOP, ["parallel for"], "parallel"),
    "target parallel loop": ("#pragma omp target parallel loop map(tofrom: a)\n" + LOOP,
                             ["target parallel for"], "parallel"),
    "loop in teams": ("#pragma omp target teams\n#pragma omp loop\n" + LOOP,
                      ["target teams", "distribute parallel for"], "teams"),
    "loop bind(teams) in teams": ("#pragma omp target teams\n#pragma omp loop bind(teams)\n" + LOOP,
                                  ["target teams", "distribute parallel for"], "teams"),
    "loop in parallel": ("#pragma omp parallel\n#pragma omp loop\n" + LOOP, ["parallel", "for"], "parallel"),
    "loop bind(thread) in parallel": ("#pragma omp parallel\n#pragma omp loop bind(thread)\n" + LOOP,
                                      ["parallel", "simd"], "thread"),
    "loop bind(thread) in teams": ("#pragma omp target teams\n#pragma omp loop bind(thread)\n" + LOOP,
                                   ["target teams", "simd"], "thread"),
    "loop in target": ("#pragma omp target\n#pragma omp loop\n" + LOOP, ["target", "simd"], "thread"),
    "loop in single": ("#pragma omp parallel\n#pragma omp single\n#pragma omp loop\n" + LOOP,
                       ["parallel", "single", "simd"], "thread"),
    "orphaned loop bind(parallel)": ("#pragma omp loop bind(parallel)\n" + LOOP, ["for"], "parallel"),
}


@pytest.mark.parametrize("body, kinds, binding", LOWERED.values(), ids=LOWERED.keys())
def test_lowering(tmp_path, body, kinds, binding):
    directives = _constructs(tmp_path, body)
    assert [d.kind for d in directives] == kinds
    loop = directives[-1]
    assert loop.binding == binding
    assert loop.lowered_from.endswith("loop")
    assert loop.text.startswith("omp") and "loop" in loop.text     # the pragma as written


def test_clauses_carried_over(tmp_path):
    """bind and order go; the loop's data-sharing and collapse clauses stay; the combined
    construct's own clauses stay."""
    body = ("#pragma omp target teams loop bind(teams) order(concurrent) collapse(2) num_teams(4) "
            "map(tofrom: a, s) private(n) reduction(+: s) lastprivate(i)\n"
            "for (i = 0; i < 8; i++) for (int j = 0; j < 8; j++) s += i * j;")
    (directive,) = _constructs(tmp_path, body)
    assert [c.name for c in directive.clauses] == ["collapse", "num_teams", "map", "private",
                                                   "reduction", "lastprivate"]


def test_nested_loops_bind_to_the_thread(tmp_path):
    body = ("#pragma omp target teams loop map(tofrom: a)\nfor (int x = 0; x < 8; x++) {\n"
            "#pragma omp loop\nfor (int y = 0; y < 8; y++) a[x * 8 + y] = y;\n}")
    outer, inner = _constructs(tmp_path, body)
    assert (outer.kind, inner.kind, inner.binding) == ("target teams distribute parallel for", "simd",
                                                       "thread")


def test_parallel_inside_a_thread_loop(tmp_path):
    body = ("#pragma omp parallel\n#pragma omp loop bind(thread)\nfor (int x = 0; x < 8; x++) {\n"
            "#pragma omp parallel for\nfor (int y = 0; y < 8; y++) a[y] = x;\n}")
    assert [d.kind for d in _constructs(tmp_path, body)] == ["parallel", "simd", "parallel for"]


REJECTED = {
    "orphaned without bind": ("#pragma omp loop\n" + LOOP, "'bind' clause not specified on a 'loop' construct"),
    "bind(teams) in parallel": ("#pragma omp parallel\n#pragma omp loop bind(teams)\n" + LOOP,
                                "'bind(teams)' on a 'loop' region not strictly nested inside of a 'teams'"),
    "bind(teams) in a parallel region of teams": (
        "#pragma omp target teams\n#pragma omp parallel\n#pragma omp loop bind(teams)\n" + LOOP,
        "'bind(teams)' on a 'loop' region not strictly nested"),
    "bind(parallel) in teams": ("#pragma omp target teams\n#pragma omp loop bind(parallel)\n" + LOOP,
                                "binding to a parallel region may not be closely nested inside a 'teams'"),
    "bind(parallel) in critical": ("#pragma omp parallel\n#pragma omp critical\n"
                                   "#pragma omp loop bind(parallel)\n" + LOOP,
                                   "binding to a parallel region may not be closely nested inside a 'critical'"),
    "bind(parallel) in a parallel loop": (
        "#pragma omp parallel loop\nfor (int x = 0; x < 8; x++) {\n#pragma omp loop bind(parallel)\n"
        "for (int y = 0; y < 8; y++) a[y] = x;\n}",
        "binding to a parallel region may not be closely nested inside a 'loop'"),
    "lastprivate of another variable": ("#pragma omp parallel loop lastprivate(s)\n"
                                        "for (i = 0; i < n; i++) s = i;",
                                        "refers to a variable 's' which is not the loop iterator"),
    "lastprivate of a loop not collapsed": (
        "int j;\n#pragma omp parallel loop lastprivate(j)\nfor (i = 0; i < 8; i++) for (j = 0; j < 8; j++) s++;",
        "refers to a variable 'j' which is not the loop iterator"),
}


@pytest.mark.parametrize("body, message", REJECTED.values(), ids=REJECTED.keys())
def test_rejected(tmp_path, body, message):
    with pytest.raises(CompileError, match=message.replace("(", r"\(").replace(")", r"\)")):
        _constructs(tmp_path, body)


def test_lastprivate_of_collapsed_iterators(tmp_path):
    body = ("int j;\n#pragma omp parallel loop collapse(2) lastprivate(i, j)\n"
            "for (i = 0; i < 8; i++) for (j = 0; j < 8; j++) a[i * 8 + j] = 0;")
    assert _constructs(tmp_path, body)[0].kind == "parallel for"
