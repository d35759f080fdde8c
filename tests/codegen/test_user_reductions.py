"""user_reductions.py: `declare reduction` scoping (an inner declaration hides an outer
one for its type only), the zero default initializer, omp_orig read by every thread
before any folds into it, and a user-defined reduction on a task-free `for` inside a
parallel region -- each against gcc at 1 and 4 threads."""

from __future__ import annotations

import pytest
from host_programs import assert_prints

SCOPES = """
#include <stdio.h>
typedef struct { long n; double s; } acc_t;
#pragma omp declare reduction(acc : acc_t : omp_out.n += omp_in.n, omp_out.s += omp_in.s)
#pragma omp declare reduction(acc : int : omp_out += 2 * omp_in) initializer(omp_priv = 0)
int main(void) {
  acc_t a = {100, 0.5};
  int twice = 0, inner = 0;
  #pragma omp parallel for reduction(acc : a, twice)
  for (int i = 0; i < 1000; i++) { a.n += 1; a.s += i * 0.25; twice += 1; }
  {
    /* hides the file's 'acc' for int, keeps it for acc_t */
    #pragma omp declare reduction(acc : int : omp_out += omp_in) initializer(omp_priv = omp_orig - omp_orig)
    acc_t b = {0, 0.0};
    #pragma omp parallel for reduction(acc : b, inner)
    for (int i = 0; i < 300; i++) { b.n += i; inner += 1; }
    printf("%ld %.1f\\n", b.n, b.s);
  }
  /* omp_orig: every private copy starts from the original's value before the loop */
  int seeded = 7;
  #pragma omp declare reduction(keep_max : int : omp_out = omp_in > omp_out ? omp_in : omp_out) \\
      initializer(omp_priv = omp_orig)
  #pragma omp parallel
  {
    #pragma omp for reduction(keep_max : seeded)
    for (int i = 0; i < 5000; i++) if (i % 1000 == 3) seeded = i / 1000 + 1;
  }
  printf("%ld %.2f %d %d %d\\n", a.n, a.s, twice, inner, seeded);
  return 0;
}
"""


@pytest.mark.parametrize("threads", [1, 4])
def test_scopes_initializers_and_omp_orig(tmp_path, threads):
    assert_prints(tmp_path, SCOPES, threads, "44850 0.0\n1100 124875.50 2000 300 7\n")
