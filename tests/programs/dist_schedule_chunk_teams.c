/* dist_schedule(static, chunk) deals the loop's chunks to the teams round-robin: the
   iteration numbered k runs in team (k / chunk) % teams, on every device and in every
   spelling (combined, split, collapsed, a stepped loop, a chunk from a variable), and
   every iteration runs once. A tile-sum per team shows which team had which chunks. */
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define N 1003

static int check(const int *team_of, int count, int chunk, int teams, const char *what)
{
    int bad = 0;
    if (teams < 1 || teams > 5)
        bad++;
    for (int k = 0; k < count; k++)
        if (team_of[k] != (k / chunk) % teams)
            bad++;
    printf("%s: %d iterations, %s\n", what, count, bad ? "WRONG TEAMS" : "each in its chunk's team");
    return bad;
}

int main(int argc, char **argv)
{
    int chunk = argc > 5 ? atoi(argv[1]) : 37;   /* a variable, not a constant */
    int *team_of = malloc(sizeof(int) * 4 * N);
    int teams = 0, bad = 0;
    long sum = 0;

    /* the combined construct, with a reduction beside the chunks */
#pragma omp target teams distribute parallel for num_teams(5) thread_limit(64) \
        dist_schedule(static, chunk) map(from: team_of[0:N], teams) reduction(+: sum)
    for (int i = 0; i < N; i++) {
        team_of[i] = omp_get_team_num();
        if (i == 0)
            teams = omp_get_num_teams();
        sum += i;
    }
    bad += check(team_of, N, chunk, teams, "combined");
    printf("sum %ld\n", sum);

    /* split: target teams, then distribute parallel for with a constant chunk */
#pragma omp target teams num_teams(4) thread_limit(32) map(from: team_of[0:N], teams)
#pragma omp distribute parallel for dist_schedule(static, 8)
    for (int i = 0; i < N; i++) {
        team_of[i] = omp_get_team_num();
        if (i == N - 1)
            teams = omp_get_num_teams();
    }
    bad += check(team_of, N, 8, teams, "split");

    /* a stepped loop counting down: iteration k is i = 2 * N - 1 - 3 * k */
    int steps = 0;
    for (int i = 2 * N - 1; i >= 0; i -= 3)
        steps++;
#pragma omp target teams distribute parallel for num_teams(3) dist_schedule(static, 50) \
        map(from: team_of[0:steps], teams)
    for (int i = 2 * N - 1; i >= 0; i -= 3) {
        team_of[(2 * N - 1 - i) / 3] = omp_get_team_num();
        if (i == 2 * N - 1)
            teams = omp_get_num_teams();
    }
    bad += check(team_of, steps, 50, teams, "stepped");

    /* collapse(2): the chunks are of the collapsed space */
#pragma omp target teams distribute parallel for collapse(2) num_teams(5) dist_schedule(static, 64) \
        map(from: team_of[0:4 * N], teams)
    for (int r = 0; r < 4; r++)
        for (int c = 0; c < N; c++) {
            team_of[r * N + c] = omp_get_team_num();
            if (r == 0 && c == 0)
                teams = omp_get_num_teams();
        }
    bad += check(team_of, 4 * N, 64, teams, "collapsed");

    free(team_of);
    printf("%s\n", bad ? "FAILED" : "ok");
    return bad != 0;
}
