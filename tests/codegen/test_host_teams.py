"""host_teams.py: a teams construct outside target is a league of teams on the host
(GOMP_teams_reg), with gcc's team numbers, team counts and thread limits; its teams
share a distribute [simd] loop, or a distribute parallel for loop (each team's chunk run
by a parallel region), as gcc deals it out; a target region's teams run on the host are
a league of num_teams' lower bound of teams, or one team without num_teams, as gcc's host
fallback runs them."""

from __future__ import annotations

import pytest
from host_programs import host_ir, run_like_gcc

LEAGUE = r"""
#include <stdio.h>
#include <omp.h>
int main(void) {
  int seen[8] = {0}, count = 0, threads[8] = {0};
  long total = 0;
  #pragma omp teams num_teams(4) thread_limit(2) reduction(+: total)
  {
    seen[omp_get_team_num()] = omp_get_num_teams();
    total += omp_get_team_num() + 1;
    #pragma omp parallel
    if (omp_get_thread_num() == 0) threads[omp_get_team_num()] = omp_get_num_threads();
  }
  #pragma omp teams
  if (omp_get_team_num() == 0) count = omp_get_num_teams();
  printf("%d %d %d %d / %ld / %d %d / %d\n", seen[0], seen[1], seen[2], seen[3], total, threads[0], threads[3], count);
  return 0;
}
"""


def test_a_host_league_has_gcc_s_teams(tmp_path):
    assert run_like_gcc(tmp_path, LEAGUE, 4) == "4 4 4 4 / 10 / 2 2 / 3\n"


DISTRIBUTE = r"""
#include <stdio.h>
#include <omp.h>
int main(void) {
  int owner[20], owner2[20], owner3[20], last = -1, fp = 7;
  long sum = 0;
  #pragma omp teams distribute num_teams(4) reduction(+: sum) lastprivate(last) firstprivate(fp)
  for (int i = 0; i < 20; i++) { owner[i] = omp_get_team_num(); sum += i * fp; last = i; }
  #pragma omp teams num_teams(3)
  {
    #pragma omp distribute dist_schedule(static, 2)
    for (int i = 0; i < 20; i++) owner2[i] = omp_get_team_num();
  }
  #pragma omp teams distribute simd num_teams(5) collapse(2)
  for (int i = 0; i < 4; i++) for (int j = 0; j < 5; j++) owner3[i * 5 + j] = omp_get_team_num();
  for (int i = 0; i < 20; i++) printf("%d%d%d ", owner[i], owner2[i], owner3[i]);
  printf("/ %ld %d\n", sum, last);
  return 0;
}
"""


def test_a_league_s_teams_share_its_distribute_loops(tmp_path):
    assert run_like_gcc(tmp_path, DISTRIBUTE, 2) == (
        "000 000 010 010 021 121 101 101 112 112 222 222 203 203 213 313 324 324 304 304 / 1330 19\n")


DISTRIBUTE_PARALLEL_FOR = r"""
#include <stdio.h>
#include <omp.h>
#define N 1000
int main(void) {
  static int owner[N], who[N];
  long sum = 0, sum2 = 0; int last = -1, fp = 3, m = 0;
  #pragma omp teams distribute parallel for num_teams(4) thread_limit(3) reduction(+: sum) lastprivate(last) \
      firstprivate(fp)
  for (int i = 0; i < N; i++) { owner[i] = omp_get_team_num(); sum += i * fp; last = i; }
  #pragma omp teams num_teams(3) reduction(+: sum2)
  {
    #pragma omp distribute parallel for dist_schedule(static, 64) schedule(dynamic, 7) collapse(2) reduction(+: sum2)
    for (int i = 0; i < 10; i++) for (int j = 0; j < 100; j++) { who[i * 100 + j] = omp_get_team_num(); sum2 += i + j; }
  }
  #pragma omp teams loop num_teams(2) reduction(max: m)
  for (int i = 0; i < N; i++) m = m > i ? m : i;
  long h[4] = {0}, h2[4] = {0};
  for (int i = 0; i < N; i++) { h[owner[i]]++; h2[who[i]]++; }
  printf("%ld %ld %ld %ld / %ld %ld %ld / %ld %d %ld %d\n", h[0], h[1], h[2], h[3], h2[0], h2[1], h2[2], sum, last,
         sum2, m);
  return 0;
}
"""


@pytest.mark.parametrize("threads", [1, 3])
def test_a_league_s_teams_share_distribute_parallel_for(tmp_path, threads):
    assert run_like_gcc(tmp_path, DISTRIBUTE_PARALLEL_FOR, threads) == (
        "250 250 250 250 / 360 320 320 / 1498500 999 54000 999\n")


FALLBACK_LEAGUES = r"""
#include <stdio.h>
#include <omp.h>
int main(void) {
  int n[4] = {0}, seen[8] = {0}, last = -1, low = 2;
  long sum = 0;
  #pragma omp target teams num_teams(4) map(tofrom: n, seen)
  { seen[omp_get_team_num()] = 1; if (omp_get_team_num() == 0) n[0] = omp_get_num_teams(); }
  #pragma omp target map(tofrom: n)
  #pragma omp teams num_teams(low + 1: 8)
  if (omp_get_team_num() == 0) n[1] = omp_get_num_teams();
  #pragma omp target teams map(tofrom: n)
  if (omp_get_team_num() == 0) n[2] = omp_get_num_teams();
  #pragma omp target teams distribute parallel for num_teams(low: 5) reduction(+: sum) lastprivate(last) \
      map(tofrom: n)
  for (int i = 0; i < 100; i++) { sum += i; last = i; if (i == 99) n[3] = omp_get_num_teams(); }
  printf("%d %d %d %d / %d%d%d%d / %ld %d\n", n[0], n[1], n[2], n[3], seen[0], seen[1], seen[2], seen[3],
         sum, last);
  return 0;
}
"""


@pytest.mark.parametrize("threads", [1, 3])
def test_a_target_region_s_teams_run_on_the_host_are_num_teams_lower_bound_of_them(tmp_path, threads):
    """The host fallback's league: num_teams(n) is n teams, num_teams(lower: upper) lower
    (the fewest OpenMP 5.1 allows, as gcc's fallback runs), no num_teams one team."""
    assert run_like_gcc(tmp_path, FALLBACK_LEAGUES, threads) == "4 3 1 2 / 1111 / 4950 99\n"


def test_only_a_target_region_s_teams_with_num_teams_are_a_host_league(tmp_path):
    one_team = ("int main(void) {\n#pragma omp target teams\n{ }\n"
                "#pragma omp target\n#pragma omp teams\n{ }\nreturn 0; }\n")
    assert "GOMP_teams_reg" not in host_ir(tmp_path, one_team)
    assert "GOMP_teams_reg" in host_ir(tmp_path, one_team.replace("teams\n", "teams num_teams(2)\n", 1))
    assert "GOMP_teams_reg" in host_ir(tmp_path, "int main(void) {\n#pragma omp teams\n{ }\nreturn 0; }\n")
