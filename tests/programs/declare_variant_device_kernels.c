/* Beads on a ring pulled by springs: each time step a kernel computes every bead's force
 * from its two neighbours through `spring_force`, which has a variant per device, the way
 * tuned codes carry one: a branch-free spelling for the GPU (`arch(nvptx)`), one with an
 * early exit for an offload device that is a CPU (`kind(nohost, cpu)`: omp2gpu's CPU
 * device), and the plain base function, which the host (and its own final check) calls. `declare variant` replaces the call by the variant of the device the
 * kernel is compiled for. All three compute the same integer force, so every device prints
 * gcc's output; which function each device called is checked in
 * tests/codegen/test_variants.py.
 *
 * Positions are integers (micro-units) and the force is clamped, so the arithmetic is
 * exact and the output independent of the order the threads run in. */
#include <stdio.h>
#include <stdlib.h>

#define BEADS 2048
#define REST 1000           /* the springs' rest length */
#define CLAMP 40000         /* the most force one spring exerts */

typedef struct {
    long x[BEADS];
    long v[BEADS];
    long f[BEADS];
} Ring;

long spring_force_gpu(long stretch);
long spring_force_cpu(long stretch);

#pragma omp declare target
#pragma omp declare variant(spring_force_gpu) match(device={arch("nvptx")})
#pragma omp declare variant(spring_force_cpu) match(device={kind(nohost, cpu)})
long spring_force(long stretch)
{
    long f = -4 * stretch;
    if (f > CLAMP) f = CLAMP;
    if (f < -CLAMP) f = -CLAMP;
    return f;
}

/* As a GPU code writes it: no branch, min/max by arithmetic on the sign. */
long spring_force_gpu(long stretch)
{
    long f = -4 * stretch;
    long over = f - CLAMP, under = f + CLAMP;
    f -= over * (over > 0);
    f -= under * (under < 0);
    return f;
}

/* As a CPU code writes it: the common small stretch returns at once. */
long spring_force_cpu(long stretch)
{
    if (stretch > -CLAMP / 4 && stretch < CLAMP / 4)
        return -4 * stretch;
    return stretch > 0 ? -CLAMP : CLAMP;
}
#pragma omp end declare target

static void forces(Ring *ring)
{
    long *x = ring->x, *f = ring->f;
    #pragma omp target teams distribute parallel for map(to: x[0:BEADS]) map(from: f[0:BEADS])
    for (int i = 0; i < BEADS; i++) {
        int left = (i + BEADS - 1) % BEADS, right = (i + 1) % BEADS;
        long to_left = (x[i] - x[left] + (long)BEADS * REST) % ((long)BEADS * REST) - REST;
        long to_right = (x[right] - x[i] + (long)BEADS * REST) % ((long)BEADS * REST) - REST;
        f[i] = spring_force(to_left) - spring_force(to_right);
    }
}

static void move(Ring *ring)
{
    long *x = ring->x, *v = ring->v, *f = ring->f;
    #pragma omp target teams distribute parallel for map(tofrom: x[0:BEADS], v[0:BEADS]) map(to: f[0:BEADS])
    for (int i = 0; i < BEADS; i++) {
        v[i] = (v[i] * 255) / 256 + f[i] / 64;
        x[i] = ((x[i] + v[i]) % ((long)BEADS * REST) + (long)BEADS * REST) % ((long)BEADS * REST);
    }
}

int main(void)
{
    Ring *ring = calloc(1, sizeof(Ring));
    for (int i = 0; i < BEADS; i++)
        ring->x[i] = (long)i * REST + (i % 7 == 0 ? 3000 : 0) - (i % 11 == 0 ? 2500 : 0);
    for (int step = 1; step <= 300; step++) {
        forces(ring);
        move(ring);
        if (step % 100 == 0) {
            long energy = 0, fastest = 0;
            for (int i = 0; i < BEADS; i++) {
                energy += ring->v[i] * ring->v[i] / 1000;
                if (labs(ring->v[i]) > fastest) fastest = labs(ring->v[i]);
            }
            printf("step %d: kinetic %ld, fastest %ld, bead 7 at %ld\n", step, energy, fastest, ring->x[7]);
        }
    }
    /* The host's own check: the base function, on the last stretches. */
    long worst = 0;
    for (int i = 0; i < BEADS; i++) {
        long stretch = (ring->x[(i + 1) % BEADS] - ring->x[i] + (long)BEADS * REST) % ((long)BEADS * REST) - REST;
        long f = labs(spring_force(stretch));
        if (f > worst) worst = f;
    }
    printf("largest spring force %ld\n", worst);
    free(ring);
    return 0;
}
