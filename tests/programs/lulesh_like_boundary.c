/* LULESH-style kernels: symmetry-plane boundary conditions through index lists, element-to-node
   gathers through a node list, and nodal updates, all inside one target data region. */
#include <stdio.h>
#include <stdlib.h>

#define EDGE 6                   /* elements per edge */
#define NE (EDGE * EDGE * EDGE)  /* elements */
#define NN ((EDGE + 1) * (EDGE + 1) * (EDGE + 1))
#define NSYM ((EDGE + 1) * (EDGE + 1))

int main(void)
{
    int nn = NN, ne = NE, nsym = NSYM;
    double *xd = malloc(NN * sizeof(double)), *yd = malloc(NN * sizeof(double)), *zd = malloc(NN * sizeof(double));
    double *fx = malloc(NN * sizeof(double)), *e = malloc(NE * sizeof(double));
    int *nodelist = malloc(8 * NE * sizeof(int));
    int *symX = malloc(NSYM * sizeof(int)), *symY = malloc(NSYM * sizeof(int)), *symZ = malloc(NSYM * sizeof(int));
    int *elemCount = malloc(NN * sizeof(int));
    int i, j, k, p = 0, cnt;
    double sx = 0, sy = 0, sz = 0, sf = 0;
    long sc = 0;
    const int ep = EDGE + 1;

    for (i = 0; i < NN; i++) {
        xd[i] = 1.0 + (i % 5);
        yd[i] = -2.0 + (i % 3);
        zd[i] = 0.5 * (i % 4);
    }
    /* hexahedral element connectivity */
    for (k = 0; k < EDGE; k++)
        for (j = 0; j < EDGE; j++)
            for (i = 0; i < EDGE; i++) {
                int base = k * ep * ep + j * ep + i;
                int *nl = &nodelist[8 * p];
                nl[0] = base;            nl[1] = base + 1;
                nl[2] = base + ep + 1;   nl[3] = base + ep;
                nl[4] = base + ep * ep;  nl[5] = base + ep * ep + 1;
                nl[6] = base + ep * ep + ep + 1; nl[7] = base + ep * ep + ep;
                e[p] = (double)(p % 9);
                p++;
            }
    /* nodes on the x=0, y=0 and z=0 planes */
    cnt = 0;
    for (k = 0; k < ep; k++)
        for (j = 0; j < ep; j++) {
            symX[cnt] = k * ep * ep + j * ep;
            symY[cnt] = k * ep * ep + j;
            symZ[cnt] = k * ep + j;
            cnt++;
        }

#pragma omp target data map(tofrom: xd[0:nn], yd[0:nn], zd[0:nn]) map(from: fx[0:nn], elemCount[0:nn]) \
    map(to: e[0:ne], nodelist[0:8*ne], symX[0:nsym], symY[0:nsym], symZ[0:nsym])
    {
        /* ApplyAccelerationBoundaryConditionsForNodes */
#pragma omp target teams distribute parallel for map(tofrom: xd[0:nn], yd[0:nn], zd[0:nn]) map(to: symX[0:nsym], symY[0:nsym], symZ[0:nsym])
        for (i = 0; i < nsym; i++) {
            xd[symX[i]] = 0.0;
            yd[symY[i]] = 0.0;
            zd[symZ[i]] = 0.0;
        }
        /* gather element energies to nodes (each node scans all elements: no races) */
#pragma omp target teams distribute parallel for map(to: e[0:ne], nodelist[0:8*ne]) map(from: fx[0:nn], elemCount[0:nn])
        for (i = 0; i < nn; i++) {
            double f = 0;
            int c = 0, el, corner;
            for (el = 0; el < ne; el++)
                for (corner = 0; corner < 8; corner++)
                    if (nodelist[8 * el + corner] == i) {
                        f += e[el] * 0.125;
                        c++;
                    }
            fx[i] = f;
            elemCount[i] = c;
        }
        /* CalcVelocityForNodes-like update using the gathered forces */
#pragma omp target teams distribute parallel for map(tofrom: xd[0:nn], yd[0:nn], zd[0:nn]) map(to: fx[0:nn])
        for (i = 0; i < nn; i++) {
            double dt = 0.5;
            xd[i] += fx[i] * dt;
            yd[i] -= fx[i] * dt;
            if (zd[i] != 0.0)
                zd[i] += dt;
        }
    }
    for (i = 0; i < NN; i++) {
        sx += xd[i] * (i % 7);
        sy += yd[i];
        sz += zd[i];
        sf += fx[i];
        sc += elemCount[i] * (long)(i % 11);
    }
    printf("sx = %.4f, sy = %.4f, sz = %.4f, sf = %.4f, sc = %ld\n", sx, sy, sz, sf, sc);
    printf("corner node count %d, interior node count %d, edge node count %d\n", elemCount[0], elemCount[ep * ep + ep + 1], elemCount[1]);
    printf("xd[0] = %.3f, xd[NN-1] = %.3f, yd[ep] = %.3f, zd[ep*ep+1] = %.3f\n", xd[0], xd[NN - 1], yd[ep], zd[ep * ep + 1]);
    free(xd); free(yd); free(zd); free(fx); free(e); free(nodelist);
    free(symX); free(symY); free(symZ); free(elemCount);
    return 0;
}
