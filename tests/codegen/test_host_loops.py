"""host_loops.py: a collapsed nest runs row by row (chunks that start and end mid-row,
collapse(3), decreasing and strided loops, int and long iteration types, `continue`,
linear and lastprivate beside it, taskloop); a single loop stays one counted loop."""

from __future__ import annotations

import re

import pytest
from host_programs import host_ir, run, run_like_gcc

COLLAPSED = """
#include <stdio.h>
int main(void) {
  static int seen[7][11], cube[3][4][5];
  long order = 0, pointer_sum = 0, tasks = 0;
  int step = 0;
  #pragma omp parallel
  {
    #pragma omp for collapse(2) schedule(dynamic, 4)
    for (int i = 0; i < 7; i++)
      for (int j = 0; j < 11; j++) seen[i][j] += 1 + i * 11 + j;
    #pragma omp for collapse(2) schedule(static, 5) reduction(+: order)
    for (long i = 6; i >= 0; i -= 2)
      for (long j = 1; j <= 10; j += 3) {
        if (j == 4) continue;
        order += i * 100 + j;
      }
    #pragma omp for collapse(3) schedule(guided, 2)
    for (int a = 0; a < 3; a++)
      for (int b = 3; b >= 0; b--)
        for (int c = 0; c < 5; c++) cube[a][b][c] += a * 20 + b * 5 + c + 1;
    #pragma omp for collapse(2) lastprivate(step) schedule(static, 3)
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 3; j++) step = i * 3 + j;
    #pragma omp single
    #pragma omp taskloop collapse(2) grainsize(4)
    for (int i = 0; i < 5; i++)
      for (int j = 0; j < 9; j++) {
        #pragma omp atomic
        tasks += i * 9 + j;
      }
  }
  int bad = 0;
  for (int i = 0; i < 7; i++) for (int j = 0; j < 11; j++) bad += seen[i][j] != 1 + i * 11 + j;
  for (int a = 0; a < 3; a++) for (int b = 0; b < 4; b++) for (int c = 0; c < 5; c++)
    bad += cube[a][b][c] != a * 20 + b * 5 + c + 1;
  int empty = 0;
  #pragma omp parallel for collapse(2) reduction(+: empty)
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 0; j++) empty++;
  double row[4];
  #pragma omp parallel for collapse(2) reduction(+: pointer_sum)
  for (int i = 0; i < 3; i++)
    for (double *p = row; p < row + 4; p++) pointer_sum += (p - row) * (i + 1);
  printf("%d %ld %d %ld %d %ld\\n", bad, order, step, tasks, empty, pointer_sum);
  return 0;
}
"""


@pytest.mark.parametrize("threads", [1, 3])
def test_collapsed_nests_visit_every_iteration_once(tmp_path, threads):
    assert run_like_gcc(tmp_path, COLLAPSED, threads) == "0 3672 11 990 0 36\n"


def test_collapsed_nest_divides_once_a_row_and_a_single_loop_not_at_all(tmp_path):
    source = """
    void f(double *a, int n, int m) {
      #pragma omp parallel for collapse(2)
      for (int i = 0; i < n; i++) for (int j = 0; j < m; j++) a[i * m + j] = i + j;
    }
    void g(double *a, int n) {
      #pragma omp parallel for
      for (int i = 0; i < n; i++) a[i] = i;
    }
    """
    ir = host_ir(tmp_path, source)
    functions = dict(re.findall(r'define internal void @"?(\w+)\._omp_fn[^{]*\{(.*?)\n\}', ir, re.S))
    rows, single = functions["f"], functions["g"]
    assert "row.test" in rows and "iter.test" in rows
    division = re.compile(r"\b[us](div|rem) ")
    row_block = rows.split("row.body:")[1].split("iter.test")[0]
    # One udiv and one urem a row (where the row starts), none in the iteration loop.
    assert len(division.findall(row_block)) == 2
    assert not division.findall(rows.split("iter.body:")[1])
    loop = single.split("iter.test:")[1].split("iter.done:")[0]       # the counted loop's blocks
    assert "row.test" not in single and not division.findall(loop)


NON_RECTANGULAR = """
#include <stdio.h>
static int seen[3][40][40], expect[3][40][40];
int main(void) {
  int n = 37, bad = 0, order_bad = 0;
  long last = -1;
  #pragma omp parallel
  {
    #pragma omp for collapse(2)
    for (int i = 0; i < n; i++)
      for (int j = i; j < n; j++) seen[0][i][j]++;
    #pragma omp for collapse(3) nowait
    for (int p = 0; p < 2; p++)
      for (int i = n - 1; i >= 0; i -= 2)
        for (int j = 2 * i - 30; j <= i + 1; j += 2)
          if (j >= 0 && j < 40) seen[1 + p][i][j]++;
    #pragma omp single
    #pragma omp taskloop collapse(2) grainsize(5)
    for (int i = 0; i < 12; i++)
      for (int j = 11 - i; j >= 0; j--) {
        #pragma omp atomic
        order_bad += (i + j) > 11;
      }
    #pragma omp for collapse(2) lastprivate(last)
    for (int i = 0; i < 12; i++)
      for (int j = 11 - i; j >= 0; j--) last = i * 100 + (11 - j);
  }
  for (int i = 0; i < n; i++) for (int j = i; j < n; j++) expect[0][i][j]++;
  for (int p = 0; p < 2; p++)
    for (int i = n - 1; i >= 0; i -= 2)
      for (int j = 2 * i - 30; j <= i + 1; j += 2) if (j >= 0 && j < 40) expect[1 + p][i][j]++;
  for (int k = 0; k < 3; k++) for (int i = 0; i < 40; i++) for (int j = 0; j < 40; j++)
    bad += seen[k][i][j] != expect[k][i][j];
  printf("%d %d %ld\\n", bad, order_bad, last);
  return 0;
}
"""


@pytest.mark.parametrize("threads", [1, 3])
def test_non_rectangular_nests_visit_every_iteration_once_in_order(tmp_path, threads):
    """Chunks starting mid-row, rows of no iteration, a loop before the dependent pair,
    taskloop chunks, lastprivate from the last pair. The program checks itself against the
    sequential nest (gcc 12 miscounts some of these shapes with several threads)."""
    assert run(tmp_path, NON_RECTANGULAR, threads) == "0 0 1111\n"


def test_a_triangle_searches_its_row_once_a_row(tmp_path):
    source = """
    void f(double *a, int n) {
      #pragma omp parallel for collapse(2)
      for (int i = 0; i < n; i++) for (int j = i; j < n; j++) a[i * n + j] = i + j;
    }
    """
    ir = host_ir(tmp_path, source)
    body = re.search(r'define internal void @"?f\._omp_fn[^{]*\{(.*?)\n\}', ir, re.S).group(1)
    corrections = re.findall(r'^"?(row\.(?:up|down))"?:', body, re.M)
    assert sorted(corrections) == ["row.down", "row.up"]     # found once, at a row's start
    assert body.count("llvm.sqrt") == 1
