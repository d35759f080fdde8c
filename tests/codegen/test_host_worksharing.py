"""host_worksharing.py: every schedule hands out each iteration once; ordered, sections,
single with copyprivate and named critical sections, on several threads (gcc's output
where gcc is present)."""

from __future__ import annotations

import pytest
from host_programs import gcc_output, host_ir, run

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
  for (i = 0; i < 1000; i++) bad += seen[i] != (i % 2 ? 4 : 5);
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
    got = run(tmp_path, LOOPS, threads, ("OMP_SCHEDULE", "guided,4"))
    assert got == "0 249500 123 0 1\n"
    expected = gcc_output(tmp_path, LOOPS, threads)
    assert expected is None or got == expected


def test_named_critical_sections_share_gccs_lock(tmp_path):
    ir = host_ir(tmp_path, "int x;\nvoid f(void) {\n#pragma omp critical(update)\nx++;\n}")
    assert '@".gomp_critical_user_update" = common global i8* null' in ir
