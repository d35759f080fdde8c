"""host_threads.py: parallel regions on the runtime's threads (num_threads, if, nested
levels), and combined target constructs run on the host with a team inside."""

from __future__ import annotations

import pytest
from host_programs import assert_prints, gcc_output, host_ir, run

TEAMS = """
#include <stdio.h>
#include <omp.h>
int main(void) {
  int sizes[3] = {0}, levels = 0, n = 5;
  #pragma omp parallel num_threads(3)
  #pragma omp master
  sizes[0] = omp_get_num_threads();
  #pragma omp parallel if(n > 10)
  #pragma omp master
  sizes[1] = omp_get_num_threads();
  omp_set_max_active_levels(2);
  #pragma omp parallel num_threads(2) reduction(+: levels)
  {
    #pragma omp parallel num_threads(2) reduction(+: levels)
    levels += omp_get_level() + omp_get_active_level();
  }
  double a[100], s = 0;
  #pragma omp target teams distribute parallel for map(from: a) reduction(+: s) num_threads(2)
  for (int i = 0; i < 100; i++) { a[i] = i; s += i; }
  #pragma omp parallel
  #pragma omp single
  sizes[2] = omp_in_parallel();
  printf("%d %d %d %d %.0f %.0f\\n", sizes[0], sizes[1], sizes[2], levels, s, a[99]);
  return 0;
}
"""


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_team_sizes_levels_and_host_target_regions(tmp_path, threads):
    got = run(tmp_path, TEAMS, threads)
    expected = gcc_output(tmp_path, TEAMS, threads)
    assert got == (expected if expected is not None else got)
    assert got.split()[:2] == ["3", "1"] and got.split()[4:] == ["4950", "99"]


def test_parallel_is_one_gomp_parallel_call_with_its_team_size(tmp_path):
    ir = host_ir(tmp_path, "int main(void) { int x = 0;\n#pragma omp parallel num_threads(3)\nx = 1;\n"
                           "return x; }")
    call = next(line for line in ir.splitlines() if 'call void @"GOMP_parallel"' in line)
    assert "i32 3, i32 0)" in call


def test_a_target_region_inside_a_parallel_region_has_a_ptx_name(tmp_path):
    """Its host function is the outlined `main._omp_fn.N`; PTX names have no dots."""
    from omp2gpu import driver
    path = tmp_path / "prog.c"
    path.write_text("int main(void) { double a[8];\n#pragma omp parallel num_threads(2)\n"
                    "#pragma omp target map(tofrom: a)\na[0] = 1;\nreturn 0; }\n")
    (kernel,) = driver.translate(path, driver.CompileOptions()).device.kernels
    assert kernel.kernel_name.startswith("__omp_offloading_main__omp_fn")
    assert kernel.kernel_name.replace("_", "").isalnum()


THREAD_LIMIT = """
#include <stdio.h>
#include <omp.h>
int main(void) {
  int limit = -1, team = -1;
  printf("%d\\n", omp_get_thread_limit());
  #pragma omp target teams map(tofrom: limit, team) thread_limit(3)
  #pragma omp parallel num_threads(8)
  #pragma omp master
  { team = omp_get_num_threads(); limit = omp_get_thread_limit(); }
  printf("%d %d %d\\n", limit, team, omp_get_thread_limit());
  #pragma omp parallel num_threads(6)
  #pragma omp master
  printf("%d\\n", omp_get_num_threads());
  return 0;
}
"""


@pytest.mark.parametrize("environment,expected", [
    ((), "2147483647\n3 3 2147483647\n6\n"),
    ((("OMP_THREAD_LIMIT", "5"),), "5\n3 3 5\n5\n"),
])
def test_teams_thread_limit_is_the_teams_thread_limit_var(tmp_path, environment, expected):
    """thread_limit on a teams construct run on the host bounds its parallel regions and
    is what omp_get_thread_limit says inside; afterwards the ICV is what it was."""
    assert_prints(tmp_path, THREAD_LIMIT, 4, expected, *environment)
