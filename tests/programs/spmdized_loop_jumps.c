/* Loops of a team master's code around parallel regions that leave or restart with
 * `break` and `continue`, as iterative solvers are written: a relaxation until the
 * largest change drops below a tolerance (`while (1)` ... `break`), sweeps that skip
 * every third step (`continue` in a `for` whose step then still runs, two variables
 * stepped), a `do ... while` that restarts, a break in an `if` that also holds a
 * parallel region, a parallel region after the jump in the same block, and an inner
 * team loop's break that leaves only the inner loop. A `switch` of the master's code
 * keeps its own breaks. Teams share out the problems (each its own grid). */
#include <stdio.h>
#include <omp.h>

#define N 48
#define PROBLEMS 4

struct grid {
    double u[N], v[N];
};

static struct grid grids[PROBLEMS];
static int sweeps[PROBLEMS], skipped[PROBLEMS], restarts[PROBLEMS], inner_exits[PROBLEMS];
static double centre[PROBLEMS], spread[PROBLEMS];

int main(void)
{
#pragma omp target teams num_teams(2) thread_limit(64) map(tofrom: grids, sweeps, skipped, restarts, inner_exits) \
        map(tofrom: centre, spread)
    {
        for (int p = omp_get_team_num(); p < PROBLEMS; p += omp_get_num_teams()) {
            struct grid *g = &grids[p];
            double source = 2.0 + p;
#pragma omp parallel for
            for (int i = 0; i < N; i++)
                g->u[i] = 0.0;

            /* relaxation until converged: exact in any order (max of differences) */
            int it = 0;
            while (1) {
                double change = 0.0;
#pragma omp parallel for reduction(max: change)
                for (int i = 0; i < N; i++) {
                    double left = i > 0 ? g->u[i - 1] : 0.0, right = i < N - 1 ? g->u[i + 1] : 0.0;
                    g->v[i] = 0.5 * (left + right) + (i == N / 2 ? 0.5 * source : 0.0);
                    double d = g->v[i] > g->u[i] ? g->v[i] - g->u[i] : g->u[i] - g->v[i];
                    change = change > d ? change : d;
                }
                it++;
                if (change < 1e-2)
                    break;
#pragma omp parallel for
                for (int i = 0; i < N; i++)
                    g->u[i] = g->v[i];
                if (it >= 5000)
                    break;
            }
            sweeps[p] = it;
            centre[p] = g->u[N / 2];

            /* every third step skipped; the step (two variables) still runs after a continue */
            int skips = 0, k, step;
            for (k = 0, step = 1; k < 12; k++, step += 2) {
                if (k % 3 == 2) {
                    skips++;
                    continue;
                }
                switch (k % 4) {            /* the switch's own breaks */
                case 0:
                    step += 0;
                    break;
                default:
                    break;
                }
#pragma omp parallel for
                for (int i = 0; i < N; i++)
                    g->v[i] = g->u[i] * 0.5 + step;
            }
            skipped[p] = skips * 100 + step;

            /* do ... while with a restart; a break in an if that holds a parallel region */
            int rounds = 0, again = 0;
            do {
                rounds++;
                if (rounds % 2 == 0) {
                    again++;
                    continue;
                }
                if (rounds > 6) {
#pragma omp parallel for
                    for (int i = 0; i < N; i++)
                        g->v[i] = -g->v[i];
                    break;
                }
#pragma omp parallel for
                for (int i = 0; i < N; i++)
                    g->v[i] += 1.0;
            } while (rounds < 100);
            restarts[p] = again * 1000 + rounds;

            /* an inner team loop's break leaves only the inner loop */
            int exits = 0;
            for (int outer = 0; outer < 3; outer++) {
                for (int inner = 0; inner < 10; inner++) {
#pragma omp parallel for
                    for (int i = 0; i < N; i++)
                        g->u[i] += 0.25;
                    if (inner == outer + 1) {
                        exits++;
                        break;
                    }
                }
            }
            inner_exits[p] = exits;
            double lo = g->v[0], hi = g->v[0];
#pragma omp parallel for reduction(min: lo) reduction(max: hi)
            for (int i = 0; i < N; i++) {
                lo = g->v[i] < lo ? g->v[i] : lo;
                hi = g->v[i] > hi ? g->v[i] : hi;
            }
            spread[p] = hi - lo + g->u[0];
        }
    }

    for (int p = 0; p < PROBLEMS; p++)
        printf("problem %d: %d sweeps, centre %.4f, skipped %d, restarts %d, inner exits %d, spread %.4f\n", p,
               sweeps[p], centre[p], skipped[p], restarts[p], inner_exits[p], spread[p]);
    return 0;
}
