"""inlined_callees.py: which functions a control-loop kernel expands in place, and
what the expansion does to scheme choice and the kernel's code."""

from __future__ import annotations

import pytest
from pycparser import c_parser

from omp2gpu import driver
from omp2gpu.codegen.openmp.plan.inlined_callees import (
    calls_any,
    definitions_in,
    functions_holding,
    kernel_constructs_callees,
)
from omp2gpu.frontend.openmp.pragmas import attach_pragmas


def _callees(source: str) -> set[str]:
    ast = attach_pragmas(c_parser.CParser().parse(source))
    definitions = {node.decl.name: node for node in ast.ext if type(node).__name__ == "FuncDef"}
    return set(kernel_constructs_callees(definitions, ast))


LIBRARY = """
void par(double *a, int n) {
  #pragma omp parallel for
  for (int i = 0; i < n; i++) a[i] = i;
}
void via(double *a, int n) { par(a, n); }
void orphan(double *a, int n) {
  #pragma omp for
  for (int i = 0; i < n; i++) a[i] = i;
}
void atomic_only(int *x) {
  #pragma omp atomic
  *x += 1;
}
void plain(int *x) { *x = 1; }
"""


def test_functions_holding_constructs_directly_or_through_callees_qualify():
    assert _callees(LIBRARY) == {"par", "via", "orphan"}


def _definitions(source: str) -> dict:
    ast = attach_pragmas(c_parser.CParser().parse(source))
    return {node.decl.name: node for node in ast.ext if type(node).__name__ == "FuncDef"}


def test_functions_holding_a_kind_reach_every_caller_of_a_long_chain():
    # f0 <- f1 <- ... <- f399: the callers' closure, found in one walk of the call graph
    chain = ["void f0(int *x) {\n#pragma omp critical\n *x += 1; }"]
    chain += [f"void f{k}(int *x) {{ f{k - 1}(x); }}" for k in range(1, 400)]
    chain.append("void other(int *x) { *x = 0; }")
    definitions = _definitions("\n".join(chain))
    assert functions_holding(definitions, "critical") == {f"f{k}" for k in range(400)}
    assert functions_holding(definitions, "barrier") == frozenset()


def test_functions_holding_see_leaf_constructs_of_combined_directives():
    assert functions_holding(_definitions(LIBRARY), "parallel") == {"par", "via"}


@pytest.mark.parametrize("extra, excluded", [
    ("void (*fp)(double *, int) = par;", "par"),                                  # address taken
    ("void rec(int n) {\n#pragma omp barrier\n if (n) rec(n - 1); }", "rec"),      # recursive
    ("void ping(int n);\nvoid pong(int n) { ping(n); }\n"
     "void ping(int n) {\n#pragma omp barrier\n if (n) pong(n - 1); }", "ping"),   # mutually recursive
    ("void st(void) { static int k;\n#pragma omp barrier\n k++; }", "st"),         # static local
    ("void va(int n, ...) {\n#pragma omp barrier\n}", "va"),                       # variadic
    ("void kr() {\n#pragma omp barrier\n}", "kr"),                                 # unprototyped
])
def test_functions_that_cannot_be_expanded_do_not_qualify(extra, excluded):
    source = LIBRARY + extra
    assert excluded not in _callees(source)
    assert {"via", "orphan"} <= _callees(source) or excluded == "par"


def test_calls_any_names_the_first_qualifying_callee():
    ast = attach_pragmas(c_parser.CParser().parse("void f(void) { g(); h(); }"))
    assert calls_any(ast.ext[0].body, {"h", "x"}) == "h"
    assert calls_any(ast.ext[0].body, {"x"}) is None


PROGRAM = """
#pragma omp declare target
void fill(double *a, int n) {
  #pragma omp parallel for
  for (int i = 0; i < n; i++) a[i] = i;
}
#pragma omp end declare target
void run(double *a, int n) {
  #pragma omp target map(from: a[0:n])
  fill(a, n);
}
"""


def test_a_region_calling_a_parallel_function_gets_the_control_loop_and_no_call(tmp_path):
    path = tmp_path / "prog.c"
    path.write_text(PROGRAM)
    translation = driver.translate(path, driver.CompileOptions())
    (region,) = translation.device.kernels
    assert region.scheme.name == "control-loop" and "calls 'fill'" in region.reason
    # Planned before the launch was emitted: the host launches a team, not the serial
    # kernel's one thread (the GPU build used to change the scheme after the launch).
    launch = next(line for line in str(translation.host).splitlines() if " = call i32 @\"__omp2gpu_target\"(" in line)
    assert "i32 1, i32 1," not in launch
    kernel = str(translation.device.module.get_global(region.kernel_name))
    assert '@"fill"' not in kernel and "parallel" in kernel    # expanded: its region is a state


def test_forced_serial_scheme_keeps_the_serialised_call(tmp_path):
    path = tmp_path / "prog.c"
    path.write_text(PROGRAM)
    translation = driver.translate(path, driver.CompileOptions(scheme="serial"))
    (region,) = translation.device.kernels
    assert region.scheme.name == "serial"
    assert '@"fill"' in str(translation.device.module.get_global(region.kernel_name))


def test_definitions_are_known_before_codegen_declare_target_blocks_included():
    ast = attach_pragmas(c_parser.CParser().parse(PROGRAM))
    assert list(definitions_in(ast)) == ["fill", "run"]
