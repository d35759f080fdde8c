"""sema/speculation/: which statements of a target region run all their arms, and
what they become. The programs' outputs against gcc are the corpus's
(tests/programs/boundary_switch_gather.c: sentinel indices that fault unclamped)."""

from __future__ import annotations

import pytest
from pycparser import c_ast, c_generator

from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.pipeline import CompileOptions, parse_file
from omp2gpu.sema.speculation import speculate_mapped_loads
from omp2gpu.sema.speculation.tree import SPECULATING
from omp2gpu.tools.cli_flags import code_rules


def _speculated(tmp_path, body: str, clauses: str = "map(to: a[0:n], k[0:n], m[0:n]) map(from: out[0:n])",
                declarations: str = "", gpu: bool = True):
    """The region `body` (the loop's) rewritten: (the lines rewritten, the region's C text
    as the GPU build compiles it, or with `gpu` false the host and the CPU device)."""
    source = tmp_path / "region.c"
    source.write_text(f"""
double g;
int f(int);
void region(int n, const int *k, const int *m, const double *a, double *out) {{
    int i; {declarations}
    #pragma omp target teams distribute parallel for {clauses}
    for (i = 0; i < n; i++) {{
        {body}
    }}
}}
""")
    ast = parse_file(str(source), CompileOptions())
    lines = [coord.line for coord in speculate_mapped_loads(ast)]
    construct = next(node for node in _walk(ast) if isinstance(node, OmpConstruct))
    return lines, _Generator(gpu).visit(construct.body)


class _Generator(c_generator.CGenerator):
    """The region's C as one build compiles it: each `if (__omp2gpu_speculating())` is
    its GPU form (`gpu`) or its written one (codegen/statements.py emits only that)."""

    def __init__(self, gpu: bool):
        super().__init__()
        self.gpu = gpu

    def visit_OmpConstruct(self, node):
        return self._generate_stmt(node.body)

    def visit_If(self, node):
        if isinstance(node.cond, c_ast.FuncCall) and node.cond.name.name == SPECULATING:
            return self._generate_stmt(node.iftrue if self.gpu else node.iffalse)
        return super().visit_If(node)


def _walk(node):
    yield node
    for _, child in node.children():
        yield from _walk(child)


SWITCH = """
        const int mask = m[i];
        double x = 0.0;
        switch (mask & 3) {
        case 0: case 3: x = a[k[i]]; break;
        case 1: x = a[i]; break;
        default: x = -1.0;
        }
        out[i] = x;"""


def test_switch_arms_run_into_copies_and_a_select_picks(tmp_path):
    lines, text = _speculated(tmp_path, SWITCH)
    assert lines == [11]
    assert "switch" not in text
    # every load made first, as a constant; m[i] showed i in range for every array
    # mapped [0:n]; k[i]'s value is clamped into a's section
    constants = text.split("{", 2)[1]                      # the loop body up to the rewrite
    assert "= k[i];" in constants and "= a[i];" in constants and "= m[i];" in constants
    assert "= a[(((unsigned long long) __omp2gpu_spec_load" in constants
    assert text.index("= a[(((unsigned long long)") < text.index("const int mask")
    assert ("x = ((__omp2gpu_spec1_chosen == ((int) 0)) | (__omp2gpu_spec1_chosen == ((int) 3))) ? "
            "(__omp2gpu_spec1_0_x) : ((__omp2gpu_spec1_chosen == ((int) 1)) ? (__omp2gpu_spec1_1_x) : "
            "(__omp2gpu_spec1_2_x));") in text


def test_with_nothing_before_to_show_a_section_is_not_empty_the_statement_is_guarded(tmp_path):
    lines, text = _speculated(tmp_path, SWITCH.replace("const int mask = m[i];", "const int mask = i;"))
    assert lines == [11]
    guarded, original = text.split("else", 1)
    assert "if (n > 0)" in guarded and "switch" not in guarded
    assert "switch (mask & 3)" in original                      # as written, for an empty section
    assert "a[(((unsigned long long) i) < ((unsigned long long) n)) ? (i) : (0)]" in guarded
    assert "_load" not in text                                  # a guarded statement's loads stay in it


def test_an_index_used_before_is_neither_clamped_nor_guarded(tmp_path):
    lines, text = _speculated(tmp_path, """
        const int e = k[i];
        const int mask = m[e];
        double x;
        if (mask & 1) x = a[e]; else x = a[k[e]] * 2.0;
        out[e] = x;""")
    assert lines == [12]
    assert "if (n > 0)" not in text
    assert "= a[e];" in text and "= k[e];" in text
    assert "= a[(((unsigned long long) __omp2gpu_spec_load" in text   # the neighbour's index is clamped


def test_loads_stay_below_a_store_a_call_or_a_jump(tmp_path):
    for stop in ("out[e] = 1.0;", "f(e);", "if (e < 0) continue;"):
        lines, text = _speculated(tmp_path, f"""
            const int e = k[i];
            {stop}
            double x = 0;
            if (m[e] & 1) x = a[k[e]];
            out[e] = x;""")
        assert len(lines) == 1, stop
        assert text.index(stop.split("(")[0].split("[")[0]) < text.index("= a[("), stop
        # out[e] = ... shows e in range: k[e] is not clamped then
        assert ("= k[e];" in text) == (stop == "out[e] = 1.0;"), stop


@pytest.mark.parametrize("body, why", [
    ("double x = 0; if (m[i]) x = a[f(i)]; out[i] = x;", "a call"),
    ("double x = 0; if (m[i]) { x = a[i]; out[i] = x; } out[i] += x;", "a store"),
    ("if (m[i]) g = a[i];", "an outer variable assigned"),
    ("double x = 0; if (m[i]) x = a[k[i] / m[i]]; out[i] = x;", "an integer division"),
    ("double x = 0; if (m[i]) x = a[i]++; out[i] = x;", "an increment"),
    ("double x = 0; if (m[i]) x = 1.0; out[i] = x;", "no load to speculate"),
    ("double x = 0; switch (m[i]) { case 0: x = a[i]; case 1: x += 1.0; break; } out[i] = x;",
     "an arm falling into the next"),
    ("double x = 0; if (m[i]) for (int j = 0; j < 2; j++) x += a[j]; out[i] = x;", "a loop in an arm"),
    ("double x = 0; if (m[i]) { double x = a[i]; out[i] = x; } out[i] = x;", "a store in the arm"),
])
def test_arms_that_may_not_run_untaken_keep_their_branch(tmp_path, body, why):
    lines, text = _speculated(tmp_path, body)
    assert lines == [], why


@pytest.mark.parametrize("clauses, declarations, body", [
    ("map(to: a[0:n], m[0:n]) map(from: out[0:n]) private(n)", "", ""),
    ("map(to: a, m[0:n]) map(from: out[0:n])", "", ""),                 # a not a section
    ("map(to: a[0:n], m[0:n]) map(from: out[0:n]) default(none) shared(a, m, out, n)", "", ""),
    ("map(to: a[0:n], m[0:n]) map(from: out[0:n])", "", "n = 3;"),      # the length written
    ("map(to: a[0:n], m[0:n]) map(from: out[0:n])", "", "a = out;"),    # the pointer written
])
def test_sections_whose_bounds_may_differ_in_the_region_are_not_used(tmp_path, clauses, declarations, body):
    lines, _ = _speculated(tmp_path, f"double x = 0; {body} if (m[i]) x = a[i + 1]; out[i] = x;",
                           clauses, declarations)
    assert lines == []


def test_the_flag_and_the_optimisation_level_choose_it():
    assert code_rules([], 2).speculate_loads and code_rules([], 1).speculate_loads
    assert not code_rules([], 0).speculate_loads
    assert not code_rules(["no-speculate-mapped-loads"], 3).speculate_loads
    assert code_rules(["no-speculate-mapped-loads", "speculate-mapped-loads"], 2).speculate_loads


def test_a_copy_keeps_the_declared_type(tmp_path):
    lines, text = _speculated(tmp_path, """
        const double *p = 0;
        float y = 1.0f;
        if (m[i] > 2) { p = a; y = (float) a[i]; }
        out[i] = p ? y : 0.0;""")
    assert lines == [11]
    assert "const double *__omp2gpu_spec1_0_p = p;" in text
    assert "float __omp2gpu_spec1_0_y = y;" in text
    assert "y = (__omp2gpu_spec1_chosen) ? (__omp2gpu_spec1_0_y) : (y);" in text     # no else: as it was


def test_an_index_a_loop_changes_is_clamped_again_after_it(tmp_path):
    lines, text = _speculated(tmp_path, """
        int j = i;
        double x = a[j], y = 0.0;
        for (j = 0; j < 3; j++) x += 1.0;
        if (m[i] & 1) y = a[j];
        out[i] = x + y;""")
    assert len(lines) == 1
    assert "a[(((unsigned long long) j) < ((unsigned long long) n)) ? (j) : (0)]" in text


def test_a_load_after_a_store_is_made_again(tmp_path):
    lines, text = _speculated(tmp_path, """
        double x = a[i], y = 0.0;
        out[i] = 1.0;
        if (m[i] & 1) y = a[i];
        out[i] += x + y;""")
    assert len(lines) == 1
    assert text.count("= a[i];") == 2                  # out may be a: read a[i] again after the store
    assert text.index("out[i] = 1.0;") < text.rindex("= a[i];")


@pytest.mark.parametrize("body", [
    "double y = 0; if (m[i]) y = a[k[i] * 2];",                      # a signed product as an index
    "double y = 0; if (m[i]) { int j = k[i] + 1; y = a[j]; }",       # through a name
    "double y = 0; if (m[i]) { int j = k[i] << 2; if (j > 0) y = a[i]; }",   # as a branch
    "double y = 0; if (m[i]) y = a[(int) a[i]];",                     # a double made an index
])
def test_what_may_be_poison_in_an_arm_not_taken_reaches_no_index_or_branch(tmp_path, body):
    """LLVM makes a signed overflow, a shift too far or a double out of int's range poison:
    harmless in a copy the select drops, undefined as an address or a branch."""
    _, text = _speculated(tmp_path, body + " out[i] = y;")
    assert "if (m[i])" in text                   # the statement keeps its branch (an inner one may not)


def test_unsigned_index_arithmetic_and_fast_math_values_are_speculated(tmp_path):
    lines, _ = _speculated(tmp_path, "double y = 0; if (m[i]) y = a[(unsigned) k[i] + 1u] * 2.0; out[i] = y;")
    assert len(lines) == 1


def test_sizeof_shows_no_index_in_range(tmp_path):
    lines, text = _speculated(tmp_path, """
        const int e = k[i];
        const int size = sizeof(a[k[e]]);
        double y = 0;
        if (m[i] & 1) y = a[k[e]];
        out[i] = y + size;""")
    assert len(lines) == 1 and "a[(((unsigned long long) __omp2gpu_spec_load" in text


def test_the_host_and_the_cpu_device_compile_the_statement_as_written(tmp_path):
    """Their branch predictors favour the written form: LULESH's monotonic Q on the CPU
    device took 1,230 us a sweep speculated against 960 as written (session 29)."""
    _, text = _speculated(tmp_path, SWITCH, gpu=False)
    assert "switch (mask & 3)" in text and "__omp2gpu_spec1" not in text
    # the constants made first for the speculated form alone are dead here (LLVM drops them)


def test_a_pointer_a_data_construct_maps_otherwise_is_not_speculated_through(tmp_path):
    """`target data map(a[0:2*n])` around a region that maps `a[0:n]`: the region may read
    a[n..2n) (undefined by OpenMP, done by programs); a clamped index would read a[0]."""
    source = tmp_path / "data.c"
    source.write_text("""
void region(int n, const int *k, const int *m, const double *a, double *out) {
    int i;
    #pragma omp target data map(to: a[0:2*n])
    {
        #pragma omp target teams distribute parallel for map(to: a[0:n], k[0:n], m[0:n]) map(from: out[0:n])
        for (i = 0; i < n; i++) {
            double y = 0.0;
            if (m[i] & 1) y = a[k[i]];
            out[i] = y;
        }
    }
}
""")
    assert speculate_mapped_loads(parse_file(str(source), CompileOptions())) == []
    source.write_text(source.read_text().replace("a[0:2*n]", "a[0:n]"))
    assert len(speculate_mapped_loads(parse_file(str(source), CompileOptions()))) == 1
