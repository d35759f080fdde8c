"""threadprivate.py: each thread's copy persists between parallel regions, starts from
the variable's initial value, and copyin copies the encountering thread's value."""

from __future__ import annotations

import pytest
from host_programs import assert_prints

SOURCE = """
#include <stdio.h>
#include <omp.h>
int counter = 10;
#pragma omp threadprivate(counter)
static double scale[2] = {1.5, 2.5};
#pragma omp threadprivate(scale)
int main(void) {
  int fresh = 0, kept = 0, copied = 0;
  omp_set_dynamic(0);
  #pragma omp parallel reduction(+: fresh)
  { fresh += counter == 10 && scale[1] == 2.5; counter += omp_get_thread_num(); }
  #pragma omp parallel reduction(+: kept)
  kept += counter == 10 + omp_get_thread_num();
  counter = 99; scale[0] = 7;
  #pragma omp parallel copyin(counter, scale) reduction(+: copied)
  copied += counter == 99 && scale[0] == 7;
  int n = omp_get_max_threads();
  printf("%d %d %d\\n", fresh == n, kept == n, copied == n);
  return 0;
}
"""


@pytest.mark.parametrize("threads", [1, 4])
def test_threadprivate_copies_and_copyin(tmp_path, threads):
    assert_prints(tmp_path, SOURCE, threads, "1 1 1\n")
