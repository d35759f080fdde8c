/* OpenMP 5.1's num_teams(lower: upper) in a small cell-list code: each step bins
 * particles into cells, spreads the per-cell work over a league whose size the user
 * bounds (-l FEWEST -u MOST), and checks that every league kept within its bounds. The
 * league runs on the device, and every other step on the host (if(target: ...) false: the
 * host fallback's league, num_teams' lower bound of teams) unless `-d` keeps all there.
 * Everything printed is independent of how many teams each league has. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <omp.h>

#define CELLS 64
#define PARTICLES 4096

typedef struct {
  double *x, *v;       /* position in [0, CELLS), velocity */
  int *cell;
  int n;
} particles_t;

static void league_seen(int *out_of_bounds, int fewest, int most)
{
  int teams = omp_get_num_teams(), team = omp_get_team_num();
  if (teams < fewest || teams > most || team < 0 || team >= teams)
    (*out_of_bounds)++;
}
#pragma omp declare target to(league_seen)

int main(int argc, char **argv)
{
  int fewest = 2, most = 6, steps = 4, host_every_other = 1, opt;
  while ((opt = getopt(argc, argv, "l:u:s:d")) != -1) {
    switch (opt) {
    case 'l': fewest = atoi(optarg); break;
    case 'u': most = atoi(optarg); break;
    case 's': steps = atoi(optarg); break;
    case 'd': host_every_other = 0; break;
    default: fprintf(stderr, "usage: %s [-l fewest] [-u most] [-s steps] [-d]\n", argv[0]); return 2;
    }
  }
  particles_t p;
  p.n = PARTICLES;
  p.x = malloc(sizeof(double) * p.n);
  p.v = malloc(sizeof(double) * p.n);
  p.cell = malloc(sizeof(int) * p.n);
  for (int i = 0; i < p.n; i++) {
    p.x[i] = (double)((i * 37) % (CELLS * 16)) / 16.0;
    p.v[i] = ((i % 7) - 3) * 0.125;
  }
  int count[CELLS];
  double energy[CELLS];
  int out_of_bounds = 0, league_checks = 0;
  double *x = p.x, *v = p.v;
  int *cell = p.cell, n = p.n;

  /* each region maps what it uses: a step on the host must see the last step's data */
  for (int step = 0; step < steps; step++) {
    int on_device = !(host_every_other && step % 2 == 1);

    /* move and bin: a combined construct, the bounds from the command line */
    #pragma omp target teams distribute parallel for num_teams(fewest: most) \
        if(target: on_device) map(tofrom: x[0:n], out_of_bounds) map(to: v[0:n]) map(from: cell[0:n])
    for (int i = 0; i < n; i++) {
      if (i == 0) league_seen(&out_of_bounds, fewest, most);
      double moved = x[i] + v[i];
      if (moved < 0.0) moved += CELLS;
      if (moved >= CELLS) moved -= CELLS;
      x[i] = moved;
      cell[i] = (int)moved;
    }
    league_checks++;

    memset(count, 0, sizeof count);
    memset(energy, 0, sizeof energy);
    /* per-cell sums: target and teams spelt apart, the teams' bounds constant */
    #pragma omp target map(tofrom: count, energy, out_of_bounds) map(to: cell[0:n], v[0:n]) if(on_device)
    #pragma omp teams num_teams(3: 8) thread_limit(64)
    {
      if (omp_get_team_num() == 0) league_seen(&out_of_bounds, 3, 8);
      #pragma omp distribute
      for (int c = 0; c < CELLS; c++) {
        int k = 0;
        double e = 0.0;
        #pragma omp parallel for reduction(+: k, e)
        for (int i = 0; i < n; i++)
          if (cell[i] == c) {
            k++;
            e += 0.5 * v[i] * v[i];
          }
        count[c] = k;
        energy[c] = e;
      }
    }
    league_checks++;

    /* the fullest cell: a reduction across the league, and its lastprivate index */
    int fullest = 0, last_cell = -1;
    #pragma omp target teams distribute num_teams(fewest: fewest) reduction(max: fullest) \
        lastprivate(last_cell) map(to: count) if(on_device)
    for (int c = 0; c < CELLS; c++) {
      if (count[c] > fullest) fullest = count[c];
      last_cell = c;
    }
    double total = 0.0;
    for (int c = 0; c < CELLS; c++) total += energy[c];
    printf("step %d: fullest cell %d particles, last cell %d, kinetic energy %.4f\n", step, fullest,
           last_cell, total);
  }

  /* a league on the host, outside any target region */
  int host_out_of_bounds = 0;
  long checksum = 0;
  #pragma omp teams num_teams(2: 4) reduction(+: checksum, host_out_of_bounds)
  {
    league_seen(&host_out_of_bounds, 2, 4);
    #pragma omp distribute
    for (int i = 0; i < n; i++) checksum += cell[i] * (long)(i % 5);
  }

  printf("checksum %ld\n", checksum);
  printf("leagues within their bounds: %s (%d checked)\n",
         out_of_bounds == 0 && host_out_of_bounds == 0 ? "yes" : "no", league_checks);
  free(p.x);
  free(p.v);
  free(p.cell);
  return 0;
}
