/* Structs in target regions: arrays of structs, structs with array members, struct scalars. */
#include <stdio.h>

#define NP 500

struct particle { double x, y, vx, vy; int id; };
struct grid { int nx, ny; double cells[8][8]; };
struct params { double dt; int steps; double damping; };

int main(void)
{
    struct particle p[NP];
    struct grid g;
    struct params prm = { 0.5, 4, 0.5 };
    double sx = 0, sy = 0;
    long ids = 0;
    int i, j;

    for (i = 0; i < NP; i++) {
        p[i].x = i;
        p[i].y = -i;
        p[i].vx = 1.0;
        p[i].vy = (i % 4) * 0.5;
        p[i].id = i;
    }
#pragma omp target teams distribute parallel for map(tofrom: p) firstprivate(prm)
    for (i = 0; i < NP; i++) {
        int s;
        for (s = 0; s < prm.steps; s++) {
            p[i].x += p[i].vx * prm.dt;
            p[i].y += p[i].vy * prm.dt;
            p[i].vy *= prm.damping;
        }
        p[i].id = p[i].id * 2;
    }
    for (i = 0; i < NP; i++) {
        sx += p[i].x;
        sy += p[i].y;
        ids += p[i].id;
    }
    printf("sx = %.4f, sy = %.4f, ids = %ld, p[3] = (%.4f, %.4f, vy %.4f)\n", sx, sy, ids, p[3].x, p[3].y, p[3].vy);

    /* struct containing a 2-D array and sizes */
    g.nx = 8;
    g.ny = 8;
    for (i = 0; i < 8; i++)
        for (j = 0; j < 8; j++)
            g.cells[i][j] = i * 8 + j;
#pragma omp target map(tofrom: g)
    {
        int r, c;
        for (r = 0; r < g.nx; r++)
            for (c = 0; c < g.ny; c++)
                g.cells[r][c] = g.cells[r][c] * 2 + r;
        g.nx = -g.nx;
    }
    printf("g.nx = %d, g.cells[7][7] = %.1f, g.cells[3][5] = %.1f\n", g.nx, g.cells[7][7], g.cells[3][5]);

    /* struct scalar mapped tofrom, with members updated */
    {
        struct params out = { 0, 0, 0 };
#pragma omp target map(to: prm) map(tofrom: out)
        {
            out.dt = prm.dt * 4;
            out.steps = prm.steps + 1;
            out.damping = prm.damping * prm.damping;
        }
        printf("out = %.2f %d %.4f\n", out.dt, out.steps, out.damping);
    }
    /* section of an array of structs */
#pragma omp target map(tofrom: p[100:10])
    {
        int k;
        for (k = 100; k < 110; k++)
            p[k].x = -1;
    }
    printf("p[99].x = %.2f, p[100].x = %.2f, p[109].x = %.2f, p[110].x = %.2f\n", p[99].x, p[100].x, p[109].x, p[110].x);
    /* struct copies inside the target region */
    {
        struct particle best;
#pragma omp target map(to: p) map(from: best)
        {
            int k;
            best = p[0];
            for (k = 1; k < NP; k++)
                if (p[k].id % 97 > best.id % 97)
                    best = p[k];
        }
        printf("best id %d y %.4f\n", best.id, best.y);
    }
    return 0;
}
