/* N-body gravitational simulation (all pairs, Plummer softening), the way
 * course and benchmark codes write it for offload: bodies as an array of
 * structs, one `target teams distribute parallel for` for the accelerations
 * and one for the kick-drift update per step, the bodies resident in a
 * `target data` region; the energy diagnostic is a reduction over pairs with
 * collapse(2) every few steps.
 *
 * Command line: [nbodies steps] as numbers; other words are ignored. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>

#define SOFTENING 1e-3
#define G 1.0

typedef struct {
    double x, y, z;
    double vx, vy, vz;
    double ax, ay, az;
    double mass;
} Body;

static double rand_uniform(unsigned long long *state)
{
    *state = *state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double) (*state >> 11) * (1.0 / 9007199254740992.0);
}

/* A cold disc of bodies around a heavy central one. */
static void init_bodies(Body *p, int n)
{
    unsigned long long state = 2718281828ULL;
    int i;
    p[0].x = p[0].y = p[0].z = 0;
    p[0].vx = p[0].vy = p[0].vz = 0;
    p[0].mass = 1.0;
    for (i = 1; i < n; i++) {
        double r = 0.2 + rand_uniform(&state);
        double phi = 2.0 * 3.14159265358979323846 * rand_uniform(&state);
        double speed = sqrt(G * p[0].mass / r);
        p[i].x = r * cos(phi);
        p[i].y = r * sin(phi);
        p[i].z = 0.02 * (rand_uniform(&state) - 0.5);
        p[i].vx = -speed * sin(phi);
        p[i].vy = speed * cos(phi);
        p[i].vz = 0;
        p[i].mass = 1e-4 * (0.5 + rand_uniform(&state));
    }
    for (i = 0; i < n; i++)
        p[i].ax = p[i].ay = p[i].az = 0;
}

static void accelerations(Body *p, int n)
{
    int i;
#pragma omp target teams distribute parallel for
    for (i = 0; i < n; i++) {
        double ax = 0, ay = 0, az = 0;
        int j;
        for (j = 0; j < n; j++) {
            double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y, dz = p[j].z - p[i].z;
            double dist2 = dx * dx + dy * dy + dz * dz + SOFTENING * SOFTENING;
            double inv = 1.0 / sqrt(dist2);
            double s = G * p[j].mass * inv * inv * inv;
            ax += s * dx;
            ay += s * dy;
            az += s * dz;
        }
        p[i].ax = ax;
        p[i].ay = ay;
        p[i].az = az;
    }
}

/* Kick by half a step, drift by a whole one (the first half of leapfrog), or
 * just kick (the second half). */
static void kick_drift(Body *p, int n, double dt, int drift)
{
    int i;
#pragma omp target teams distribute parallel for firstprivate(dt, drift)
    for (i = 0; i < n; i++) {
        p[i].vx += 0.5 * dt * p[i].ax;
        p[i].vy += 0.5 * dt * p[i].ay;
        p[i].vz += 0.5 * dt * p[i].az;
        if (drift) {
            p[i].x += dt * p[i].vx;
            p[i].y += dt * p[i].vy;
            p[i].z += dt * p[i].vz;
        }
    }
}

static void energies(Body *p, int n, double *kinetic, double *potential)
{
    double ke = 0.0, pe = 0.0;
    int i, j;
#pragma omp target teams distribute parallel for reduction(+: ke)
    for (i = 0; i < n; i++)
        ke += 0.5 * p[i].mass * (p[i].vx * p[i].vx + p[i].vy * p[i].vy + p[i].vz * p[i].vz);
#pragma omp target teams distribute parallel for collapse(2) reduction(+: pe)
    for (i = 0; i < n; i++)
        for (j = 0; j < n; j++)
            if (j > i) {
                double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y, dz = p[j].z - p[i].z;
                pe -= G * p[i].mass * p[j].mass / sqrt(dx * dx + dy * dy + dz * dz + SOFTENING * SOFTENING);
            }
    *kinetic = ke;
    *potential = pe;
}

/* The reference: accelerations of the final positions on the host, compared
 * with the device's of the last step (relative to the largest magnitude). */
static double check_accelerations(const Body *p, int n)
{
    double worst = 0.0, largest = 0.0;
    int i, j;
    for (i = 0; i < n; i++) {
        double ax = 0, ay = 0, az = 0, mag;
        for (j = 0; j < n; j++) {
            double dx = p[j].x - p[i].x, dy = p[j].y - p[i].y, dz = p[j].z - p[i].z;
            double dist2 = dx * dx + dy * dy + dz * dz + SOFTENING * SOFTENING;
            double inv = 1.0 / sqrt(dist2);
            double s = G * p[j].mass * inv * inv * inv;
            ax += s * dx;
            ay += s * dy;
            az += s * dz;
        }
        mag = sqrt(ax * ax + ay * ay + az * az);
        if (mag > largest)
            largest = mag;
        ax -= p[i].ax;
        ay -= p[i].ay;
        az -= p[i].az;
        mag = sqrt(ax * ax + ay * ay + az * az);
        if (mag > worst)
            worst = mag;
    }
    return worst / largest;
}

/* Bodies closer to the centre than r, on the host: how far the disc has wound up. */
static int count_within(const Body *p, int n, double r)
{
    int i, count = 0;
    for (i = 1; i < n; i++) {
        double dx = p[i].x - p[0].x, dy = p[i].y - p[0].y;
        if (dx * dx + dy * dy < r * r)
            count++;
    }
    return count;
}

int main(int argc, char **argv)
{
    int n = 512, steps = 30, step, i;
    double dt = 1e-3, ke0, pe0, ke, pe, t0, t1;
    double cx = 0, cy = 0, cz = 0, total_mass = 0, lz = 0;
    Body *p;

    if (argc == 3 && atoi(argv[1]) > 1 && atoi(argv[2]) > 0) {
        n = atoi(argv[1]);
        steps = atoi(argv[2]);
    }
    p = malloc(n * sizeof(Body));
    init_bodies(p, n);
    printf("N-body: %d bodies, %d steps of %.1e\n", n, steps, dt);

    t0 = omp_get_wtime();
#pragma omp target data map(tofrom: p[0:n])
    {
        accelerations(p, n);
        energies(p, n, &ke0, &pe0);
        printf("step %3d: E = %.6e (K %.6e, U %.6e)\n", 0, ke0 + pe0, ke0, pe0);
        for (step = 1; step <= steps; step++) {
            kick_drift(p, n, dt, 1);
            accelerations(p, n);
            kick_drift(p, n, dt, 0);
            if (step % 10 == 0) {
                energies(p, n, &ke, &pe);
                printf("step %3d: E = %.6e, relative drift below 1e-4: %s\n", step, ke + pe,
                       fabs((ke + pe - ke0 - pe0) / (ke0 + pe0)) < 1e-4 ? "yes" : "no");
            }
        }
    }
    t1 = omp_get_wtime();

    for (i = 0; i < n; i++) {
        total_mass += p[i].mass;
        cx += p[i].mass * p[i].x;
        cy += p[i].mass * p[i].y;
        cz += p[i].mass * p[i].z;
        lz += p[i].mass * (p[i].x * p[i].vy - p[i].y * p[i].vx);
    }
    printf("centre of mass (%.6e, %.6e, %.6e)\n", cx / total_mass, cy / total_mass, cz / total_mass);
    printf("angular momentum Lz %.6e\n", lz);
    printf("body 1 at (%.6f, %.6f, %.6f)\n", p[1].x, p[1].y, p[1].z);
    printf("bodies within 0.5 of the centre: %d, within 1.0: %d\n", count_within(p, n, 0.5), count_within(p, n, 1.0));
    printf("device accelerations match the host's to 1e-12: %s\n", check_accelerations(p, n) < 1e-12 ? "yes" : "no");
    printf("timing: %.4f s, %.2f Mpairs/s\n", t1 - t0, (double) n * n * steps / (t1 - t0) * 1e-6);
    free(p);
    return 0;
}
