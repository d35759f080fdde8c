"""host_worksharing.py: every schedule hands out each iteration once; ordered, sections,
single with copyprivate and named critical sections, on several threads (gcc's output
where gcc is present). Linear variables hold start + iteration * step in every
iteration, whatever thread runs it, and the last iteration's value is copied out; the
threads meet at a barrier after reading originals one of them copies out (linear,
firstprivate + lastprivate)."""

from __future__ import annotations

import re

import pytest
from host_programs import assert_prints, host_ir, run

from omp2gpu import driver
from omp2gpu.diagnostics import CompileError

LOOPS = """
#include <stdio.h>
#include <omp.h>
int main(void) {
  int seen[1000] = {0}, order[64], next = 0, i;
  long total = 0;
  #pragma omp parallel
  {
    #pragma omp for schedule(static)
    for (i = 0; i < 1000; i++) seen[i]++;
    #pragma omp for schedule(static, 7) nowait
    for (i = 0; i < 1000; i++) seen[i]++;
    /* nowait is race-free only before a loop of the same static schedule: each
       iteration then has the same thread in both (OpenMP 4.5, 2.7.1) */
    #pragma omp for schedule(static, 7)
    for (i = 0; i < 1000; i++) seen[i]++;
    #pragma omp for schedule(dynamic)
    for (i = 999; i >= 0; i--) seen[i]++;
    #pragma omp for schedule(guided, 5) reduction(+: total)
    for (i = 0; i < 1000; i += 2) { seen[i]++; total += i; }
    #pragma omp for schedule(runtime) collapse(2)
    for (int a = 0; a < 10; a++) for (int b = 0; b < 100; b++) seen[a * 100 + b]++;
    #pragma omp for ordered schedule(dynamic, 3)
    for (i = 0; i < 64; i++) {
      #pragma omp ordered
      order[next++] = i;
    }
  }
  int bad = 0;
  for (i = 0; i < 1000; i++) bad += seen[i] != (i % 2 ? 5 : 6);
  for (i = 0; i < 64; i++) bad += order[i] != i;
  int s[3] = {0}, value = 0, wrong = 0, named = 0;
  #pragma omp parallel firstprivate(value) reduction(+: wrong)
  {
    #pragma omp sections
    {
      s[0] = 1;
      #pragma omp section
      s[1] = 2;
      #pragma omp section
      s[2] = 3;
    }
    #pragma omp single copyprivate(value)
    value = 17;
    wrong += value != 17;
    #pragma omp critical(counter)
    named++;
  }
  printf("%d %ld %d%d%d %d %d\\n", bad, total, s[0], s[1], s[2], wrong, named == omp_get_max_threads());
  return 0;
}
"""


@pytest.mark.parametrize("threads", [1, 3])
def test_schedules_ordered_sections_single_critical(tmp_path, threads):
    assert_prints(tmp_path, LOOPS, threads, "0 249500 123 0 1\n", ("OMP_SCHEDULE", "guided,4"))


STATIC_OWNERS = """
#include <stdio.h>
#include <omp.h>
int main(void) {
  int chunked[24], blocked[25];
  #pragma omp parallel num_threads(3)
  {
    #pragma omp for schedule(static, 2)
    for (int i = 0; i < 24; i++) chunked[i] = omp_get_thread_num();
    #pragma omp for schedule(static) nowait
    for (int i = 0; i < 25; i++) blocked[i] = omp_get_thread_num();
  }
  for (int i = 0; i < 24; i++) printf("%d", chunked[i]);
  printf(" ");
  for (int i = 0; i < 25; i++) printf("%d", blocked[i]);
  printf("\\n");
  return 0;
}
"""


@pytest.mark.parametrize("runtime", ["gomp", "iomp5"])
def test_static_schedules_deal_chunks_by_thread_number_on_every_runtime(tmp_path, runtime):
    """Round-robin chunks in thread order, or one block per thread (the first ones one
    longer), as the specification says and gcc's code computes (libiomp5's
    GOMP_loop_ull_static_start would ignore the chunk)."""
    got = run(tmp_path, STATIC_OWNERS, 2, ("OMP2GPU_OPENMP_RUNTIME", runtime))
    assert got == "001122001122001122001122 0000000001111111122222222\n"


def test_static_loops_ask_the_runtime_for_no_chunks(tmp_path):
    ir = host_ir(tmp_path, STATIC_OWNERS)
    assert "GOMP_loop_ull_static_start" not in ir and "GOMP_loop_end" not in ir
    assert '@"omp_get_num_threads"' in ir


def test_named_critical_sections_share_gccs_lock(tmp_path):
    ir = host_ir(tmp_path, "int x;\nvoid f(void) {\n#pragma omp critical(update)\nx++;\n}")
    assert '@".gomp_critical_user_update" = common global i8* null' in ir


LINEAR = """
#include <stdio.h>
int main(void) {
  int k = 10, wrong = 0, data[64];
  int *p = data + 8;
  long j = -5;
  #pragma omp parallel reduction(+: wrong)
  {
    #pragma omp for linear(k: 2) schedule(static, 3)
    for (int i = 0; i < 20; i++) { wrong += k != 10 + 2 * i; k += 2; }
    #pragma omp for linear(p) linear(j: -3) schedule(dynamic, 4)
    for (int i = 0; i < 50; i++) { wrong += p != data + 8 + i || j != -5 - 3 * i; *p = i; p++; j -= 3; }
  }
  printf("%d %d %ld %ld %d\\n", wrong, k, (long)(p - data), j, data[57]);
  return 0;
}
"""


@pytest.mark.parametrize("threads", [1, 3])
def test_linear_values_in_every_iteration_and_after_the_loop(tmp_path, threads):
    assert_prints(tmp_path, LINEAR, threads, "0 50 58 -155 49\n")


def test_linear_iteration_variable_is_set_by_the_loop_and_copied_out(tmp_path):
    source = """
#include <stdio.h>
int main(void) {
  int i, a[40] = {0}, right = 0;
  #pragma omp parallel
  {
    #pragma omp for simd linear(i)
    for (i = 0; i < 37; i += 3) a[i] = i + 1;
  }
  for (int k = 0; k < 37; k++) right += a[k] == (k % 3 ? 0 : k + 1);
  printf("%d %d\\n", i, right);
  return 0;
}
"""
    assert run(tmp_path, source, 3) == "39 37\n"


def _barriers_before_loop_start(ir: str) -> int:
    start = ir.index("GOMP_loop_ull_dynamic_start", ir.index("define i32 @\"main\""))
    return len(re.findall(r'call void @"GOMP_barrier"\(\)', ir[:start]))


@pytest.mark.parametrize("clauses, barriers", [("linear(k)", 1), ("firstprivate(k) lastprivate(k)", 1),
                                                ("lastprivate(k)", 0), ("firstprivate(k)", 0)])
def test_threads_meet_after_reading_originals_one_of_them_copies_out(tmp_path, clauses, barriers):
    # k at file scope: an orphaned worksharing construct's firstprivate must not name a local
    # (sema/worksharing_privates.py, as gcc)
    source = ("int k = 0;\nint main(void) {\n  int a[8];\n#pragma omp for schedule(dynamic) " + clauses +
              "\n  for (int i = 0; i < 8; i++) { a[i] = k; k++; }\n  return k + a[0];\n}\n")
    assert _barriers_before_loop_start(host_ir(tmp_path, source)) == barriers


def test_linear_needs_an_integer_or_pointer_variable(tmp_path):
    path = tmp_path / "prog.c"
    path.write_text("int main(void) {\n  double x = 0;\n#pragma omp for linear(x)\n"
                    "  for (int i = 0; i < 8; i++) x += 1;\n  return 0;\n}\n")
    with pytest.raises(CompileError, match="linear variable 'x' must have integer or pointer type"):
        driver.emit_ir(path, driver.CompileOptions())
