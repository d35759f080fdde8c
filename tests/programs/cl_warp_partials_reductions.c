/* A particle code's diagnostics as parallel-region reductions in a `target teams`
 * region (the control loop's team reductions): per time step a team reduces kinetic
 * energy, the fastest speed, the closest approach and a count of particles out of the
 * box, on team-shared variables its master initialised and then uses; a team of 40
 * threads (a last warp of 8 lanes) and a region of 33 (a warp of one); nine reductions
 * in one region, more than the kernel's per-warp partial arrays hold; a mapped scalar
 * folded by a single team's regions (global memory, not the team's own); and a step
 * loop the master may leave with `break` (a flag the team follows, sema/team_loop_jumps.py;
 * the state machine's form under --scheme control-loop), then one without. */
#include <stdio.h>
#include <float.h>

#define NP 1000
#define STEPS 6

struct particles {
    double x[NP], v[NP];
    float mass[NP];
    int cell[NP];
};

static struct particles p;
static double kinetic[STEPS], fastest[STEPS], closest[STEPS];
static long outside[STEPS];

static void initialise(void)
{
    for (int i = 0; i < NP; i++) {
        p.x[i] = (double) ((i * 37) % 1000) / 10.0;
        p.v[i] = (double) ((i * 11) % 23 - 11) / 4.0;
        p.mass[i] = 1.0f + (float) (i % 7) / 8.0f;
        p.cell[i] = i % 13;
    }
}

int main(void)
{
    int steps_run = 0;
    long grand_total = 0;
    double nine[9] = {0};

    initialise();

#pragma omp target teams num_teams(1) thread_limit(40) map(tofrom: p, kinetic, fastest, closest, outside) \
        map(tofrom: steps_run)
    {
        for (int step = 0; step < STEPS; step++) {
            double ke = 0.0, top = 0.0, gap = DBL_MAX;
            long out = 0;
#pragma omp parallel for reduction(+: ke) reduction(max: top) reduction(min: gap) reduction(+: out)
            for (int i = 0; i < NP; i++) {
                double speed = p.v[i] < 0 ? -p.v[i] : p.v[i];
                ke += 0.5 * p.mass[i] * p.v[i] * p.v[i];
                top = speed > top ? speed : top;
                if (i > 0) {
                    double d = p.x[i] - p.x[i - 1];
                    d = d < 0 ? -d : d;
                    gap = d < gap ? d : gap;
                }
                out += p.x[i] < 0.0 || p.x[i] > 100.0;
            }
            kinetic[step] = ke;
            fastest[step] = top;
            closest[step] = gap;
            outside[step] = out;
            steps_run = step + 1;
            if (out > NP / 2)
                break;
#pragma omp parallel for
            for (int i = 0; i < NP; i++)
                p.x[i] += 0.5 * p.v[i] * (1.0 + (double) (p.cell[i] % 3));
        }
    }

    for (int s = 0; s < steps_run; s++)
        printf("step %d: ke %.4f fastest %.3f closest %.4f outside %ld\n", s, kinetic[s], fastest[s], closest[s],
               outside[s]);

    /* A warp of one lane (33 threads), and nine reductions in one region. */
#pragma omp target teams num_teams(1) thread_limit(64) map(tofrom: nine, grand_total)
    {
        double a = 0, b = 1, c = -1e300, d = 1e300, e = 0, f = 0, g = 0, h = 0;
        float k = 0.0f;
#pragma omp parallel num_threads(33) reduction(+: a, e, k) reduction(*: b) reduction(max: c) reduction(min: d) \
        reduction(+: f, g, h)
        {
#pragma omp for
            for (int i = 1; i <= 330; i++) {
                a += i;
                b *= (i % 33 == 0) ? 1.5 : 1.0;
                c = i * 0.25 > c ? i * 0.25 : c;
                d = i * -0.5 < d ? i * -0.5 : d;
                e += 1.0 / (1 << (i % 8));
                f += (i % 2) ? i : -i;
                g += i * i;
                h += (double) (i % 7);
                k += 0.5f;
            }
        }
        nine[0] = a; nine[1] = b; nine[2] = c; nine[3] = d; nine[4] = e;
        nine[5] = f; nine[6] = g; nine[7] = h; nine[8] = k;
        for (int round = 0; round < 3; round++) {
            /* grand_total is the mapped scalar: folded in global memory */
#pragma omp parallel for reduction(+: grand_total)
            for (int i = 0; i < 100; i++)
                grand_total += i * (round + 1);
        }
    }
    printf("nine: %.1f %.4f %.2f %.2f %.6f %.1f %.1f %.1f %.1f\n", nine[0], nine[1], nine[2], nine[3], nine[4],
           nine[5], nine[6], nine[7], nine[8]);
    printf("grand total %ld\n", grand_total);
    return 0;
}
