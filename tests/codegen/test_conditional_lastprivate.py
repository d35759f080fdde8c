"""lastprivate(conditional:) on the host's threads (host/worksharing.py, data_sharing.py,
lvalues.store): the value of the sequentially last iteration that assigned the item by
name, whatever thread ran it; an item no iteration assigns keeps its value; an inner
declaration of the same name, or a store through a pointer, is no assignment of it."""

from __future__ import annotations

import pytest
from host_programs import host_ir, run_like_gcc

SEARCHES = r"""
#include <stdio.h>
int main(void) {
  int a[200], x = -1, y = -5, shadowed = -3, via_pointer = -4, n = 0;
  char tag = 'a';
  for (int i = 0; i < 200; i++) a[i] = (i * 71) % 199;
  #pragma omp parallel for lastprivate(conditional: x, tag) schedule(dynamic, 3)
  for (int i = 0; i < 200; i++) {
    if (a[i] % 10 == 4) { x = a[i]; x++; }
    if (a[i] % 25 == 0) tag = (char)('a' + a[i] % 26);
  }
  #pragma omp parallel for lastprivate(conditional: y, shadowed, via_pointer) schedule(static, 1)
  for (int i = 0; i < 200; i++) {
    { int shadowed = i; (void)shadowed; }
    int *p = &via_pointer;
    if (i > 1000) y = i;
    (void)p;
  }
  #pragma omp parallel
  {
    #pragma omp for lastprivate(conditional: n) nowait schedule(guided)
    for (int i = 199; i >= 0; i--)
      if (a[i] < 20) n = i;
    #pragma omp barrier
  }
  printf("%d %c %d %d %d %d\n", x, tag, y, shadowed, via_pointer, n);
  return 0;
}
"""


@pytest.mark.parametrize("threads", [1, 3, 4])
def test_the_sequentially_last_assignment_wins_whatever_thread_ran_it(tmp_path, threads):
    assert run_like_gcc(tmp_path, SEARCHES, threads) == "115 a -5 -3 -4 0\n"


def test_a_team_shares_one_cell_per_item_and_compares_in_a_critical_section(tmp_path):
    source = SEARCHES.replace("int main", "int unused_main") + "int main(void) { return 0; }\n"
    ir = host_ir(tmp_path, source)
    assert "GOMP_single_copy_start" in ir and "GOMP_critical_start" in ir
    plain = host_ir(tmp_path, SEARCHES.replace("conditional: ", ""))
    assert "GOMP_critical_start" not in plain


LATE_THREADS = r"""
#include <stdio.h>
int main(void) {
  int last = -1;
  #pragma omp parallel for lastprivate(conditional: last) schedule(static, 1)
  for (int i = 0; i < 200; i++) {
    if (i >= 190 && i < 199)                 /* the threads not holding i = 199 finish last */
      for (volatile long spin = 0; spin < 3000000; spin++) { }
    if (i % 7 == 3) last = i;
  }
  printf("%d\n", last);
  return 0;
}
"""


@pytest.mark.parametrize("threads", [3, 4])
def test_the_last_assignment_wins_when_its_thread_finishes_first(tmp_path, threads):
    """Not the last thread to copy out: the one whose assigning iteration is the largest."""
    assert run_like_gcc(tmp_path, LATE_THREADS, threads) == "199\n"
