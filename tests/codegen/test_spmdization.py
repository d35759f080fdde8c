"""plan/spmdization.py: which regions the control loop would take run SPMDized, why not the
rest, and which statements of the team master's code the whole team takes; and what the
SPMDized kernel (gpu/control_loop/guarded.py) is made of."""

from __future__ import annotations

import pytest
from pycparser import c_ast
from target_constructs import target_construct

from omp2gpu import driver
from omp2gpu.codegen.openmp.plan.spmdization import spmdization_obstacle, team_statements

TEAMS = "#pragma omp target teams"
PARALLEL_FOR = "#pragma omp parallel for\nfor (int i = 0; i < n; i++) a[i] += s;\n"


def _region(pragmas: str, body: str):
    return target_construct(pragmas, body)


@pytest.mark.parametrize("pragmas, body", [
    # serial code before, between and after parallel regions
    (TEAMS, "{\nint k = omp_get_team_num();\na[k] = 1;\n" + PARALLEL_FOR + "a[0] += 1;\n" + PARALLEL_FOR + "}"),
    # the target's own parallel region, with worksharing and barriers inside
    ("#pragma omp target parallel", "{\na[0] = 1;\n#pragma omp barrier\n#pragma omp for\n"
     "for (int i = 0; i < n; i++) a[i] += s;\n}"),
    # split spelling: target, then teams holding the code
    ("#pragma omp target", "#pragma omp teams\n{\na[0] = 2;\n" + PARALLEL_FOR + "}"),
    # loops and ifs of the master's code around parallel regions
    (TEAMS, "{\nfor (int t = 0; t < 4; t++) {\n" + PARALLEL_FOR + "}\n}"),
    (TEAMS, "{\ndouble r = 1;\nwhile (r > 0.5) {\n" + PARALLEL_FOR + "r /= 2;\n}\n}"),
    (TEAMS, "{\nint k = 0;\ndo {\n" + PARALLEL_FOR + "} while (++k < 3);\n}"),
    (TEAMS, "{\nif (n > 4) {\n" + PARALLEL_FOR + "} else a[0] = 0;\n}"),
    # a break in a loop of the master's code that holds no parallel region
    (TEAMS, "{\nfor (int j = 0; j < n; j++) if (a[j] < 0) break;\n" + PARALLEL_FOR + "}"),
    # distribute loops around parallel regions: chunks and iterations the team follows
    ("#pragma omp target teams distribute", "for (int j = 0; j < n; j++) {\na[j] = 0;\n" + PARALLEL_FOR + "}"),
    (TEAMS, "{\na[0] = 1;\n#pragma omp distribute parallel for\nfor (int i = 0; i < n; i++) a[i] += s;\n}"),
])
def test_team_code_around_parallel_regions_is_spmdized(pragmas, body):
    assert spmdization_obstacle(_region(pragmas, body)) is None


@pytest.mark.parametrize("body, reason", [
    ("{\nfor (int t = 0; t < 4; t++) {\n" + PARALLEL_FOR + "if (a[0] > 1) break;\n}\n}", "'break' at"),
    ("{\nfor (int t = 0; t < 4; t++) {\nif (t == 2) continue;\n" + PARALLEL_FOR + "}\n}", "'continue' at"),
    ("{\nswitch (n) {\ncase 1:\n" + PARALLEL_FOR + "}\n}", "is inside switch"),
    ("{\nagain:\n" + PARALLEL_FOR + "if (a[0] < 0) goto again;\n}", "is inside label"),
    ("{\n#pragma omp metadirective when(user={condition(n > 4)}: parallel for) default(for)\n"
     "for (int i = 0; i < n; i++) a[i] += s;\n}", "metadirective"),
])
def test_what_the_team_cannot_follow_keeps_the_control_loop(body, reason):
    obstacle = spmdization_obstacle(_region(TEAMS, body))
    assert obstacle is not None and reason in obstacle


def test_team_statements_are_the_loops_and_ifs_around_parallel_regions():
    region = _region(TEAMS, "{\nfor (int j = 0; j < n; j++) a[j] = 0;\nfor (int t = 0; t < 3; t++) {\n"
                            "if (t > 0) {\n" + PARALLEL_FOR + "}\nif (t > 1) a[0] = t;\n}\n}")
    items = region.body.block_items
    outer = items[1]
    inner_if, plain_if = outer.stmt.block_items
    assert team_statements(region.body) == {id(outer), id(inner_if)}
    assert isinstance(plain_if, c_ast.If) and id(items[0]) not in team_statements(region.body)


SOURCE = """
#include <omp.h>
void f(int n, double *a) {
  #pragma omp target teams num_teams(2) map(tofrom: a[0:n])
  {
    int steps = n / 4;
    for (int t = 0; t < steps; t++) {
      #pragma omp parallel for NUM_THREADS
      for (int i = 0; i < n; i++) a[i] += t;
    }
  }
}
"""


@pytest.mark.parametrize("num_threads, waits", [("", False), ("num_threads(40)", True)])
def test_the_spmdized_kernel_has_no_state_machine(tmp_path, num_threads, waits):
    """Guards and barriers instead of the control loop's switch; the master's decisions in
    two shared slots; the region-end slots only where some threads may sit a region out."""
    path = tmp_path / "prog.c"
    path.write_text(SOURCE.replace("NUM_THREADS", num_threads))
    translation = driver.translate(path, driver.CompileOptions())
    (kernel,) = translation.device.kernels
    assert kernel.scheme.name == "spmdized" and "SPMDized" in kernel.reason
    names = {g.name for g in translation.device.module.global_values}
    assert not any(name.endswith("_control_state") for name in names)
    assert f"{kernel.kernel_name}_decisions" in names
    assert (f"{kernel.kernel_name}_region_ends" in names) == waits
    forced = driver.translate(path, driver.CompileOptions(scheme="control-loop"))
    assert [k.scheme.name for k in forced.device.kernels] == ["control-loop"]
