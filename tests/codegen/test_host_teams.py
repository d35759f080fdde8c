"""host_teams.py: a teams construct outside target is a league of teams on the host
(GOMP_teams_reg), with gcc's team numbers, team counts and thread limits; a league
whose teams would share a distribute loop, or a teams region inside a target region
run on the host, stays one team."""

from __future__ import annotations

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


def test_teams_with_a_distribute_or_inside_target_is_one_team(tmp_path):
    source = r"""
int main(void) {
  int a[64];
  #pragma omp teams num_teams(4)
  #pragma omp distribute
  for (int i = 0; i < 64; i++) a[i] = i;
  #pragma omp target map(tofrom: a)
  #pragma omp teams num_teams(4)
  a[0] = 1;
  return a[0];
}
"""
    assert "GOMP_teams_reg" not in host_ir(tmp_path, source)
    assert "GOMP_teams_reg" in host_ir(tmp_path, "int main(void) {\n#pragma omp teams\n{ }\nreturn 0; }\n")
