"""launch_shape.capped_by_trip_count: num_teams(INT_MAX) on a short loop runs no more
teams than the loop has iterations, on the host (a league through GOMP_teams_reg) and
on the CPU device (a target region's launch), so it takes a moment, not a minute of
two billion idle teams."""

from __future__ import annotations

import pytest
from program_runs_here import run_on

SHORT_LOOP = r"""
#include <limits.h>
#include <stdio.h>
#include <omp.h>
#define N 1000
int main(void) {
  static double a[N];
  int teams = 0, league = 0;
  #pragma omp target teams distribute parallel for num_teams(INT_MAX) map(tofrom: a, teams)
  for (int i = 0; i < N; i++) {
    a[i] = i;
    if (i == 0) teams = omp_get_num_teams();
  }
  #pragma omp teams distribute num_teams(INT_MAX)
  for (int i = 0; i < N; i++) {
    a[i] += i;
    if (i == 0) league = omp_get_num_teams();
  }
  double sum = 0;
  for (int i = 0; i < N; i++) sum += a[i];
  printf("sum %.0f teams<=N %d league<=N %d\n", sum, teams >= 1 && teams <= N, league >= 1 && league <= N);
  return 0;
}
"""


@pytest.mark.parametrize("device", ["host", "cpu"])
def test_num_teams_int_max_is_capped_by_the_trip_count(tmp_path, device):
    assert run_on(tmp_path, SHORT_LOOP, device) == "sum 999000 teams<=N 1 league<=N 1\n"


@pytest.mark.gpu
def test_num_teams_int_max_is_capped_on_the_gpu(tmp_path):
    assert run_on(tmp_path, SHORT_LOOP, "gpu") == "sum 999000 teams<=N 1 league<=N 1\n"
