/* A LULESH-like staggered-grid Lagrangian hydrodynamics code in one dimension
 * (the Sod shock tube): nodal positions and velocities, zonal density,
 * energy, pressure and artificial viscosity, and per cycle the same sequence
 * of kernels as LULESH's LagrangeLeapFrog:
 *   CalcForceForNodes -> CalcAccelerationForNodes -> ApplyBoundaryConditions ->
 *   CalcVelocityForNodes -> CalcPositionForNodes -> CalcLagrangeElements ->
 *   CalcQForElems -> ApplyMaterialPropertiesForElems (EOS) -> CalcTimeConstraints.
 * Every kernel is a target region over a domain struct's arrays, all resident
 * in a `target data` region around the cycle loop; the time-step constraints
 * are min reductions brought back to the host each cycle.
 *
 * Command line: [-s zones] [-i max_cycles] [-t stop_time]; other words are ignored. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

typedef double Real_t;
typedef int Index_t;

typedef struct {
    Index_t numElem, numNode;
    /* nodal */
    Real_t *x, *xd, *xdd, *f, *nodalMass;
    /* zonal */
    Real_t *e, *p, *q, *v, *volo, *delv, *vdov, *arealg, *ss, *elemMass;
    /* parameters */
    Real_t gamma, qqc, monoq_max_slope, cfl, dvovmax, hgcoef;
    Real_t time, deltatime, stoptime;
    Index_t cycle;
} Domain;

#pragma omp declare target
/* Ideal-gas EOS: pressure and sound speed from energy per unit mass and relative volume. */
static void eos(Real_t e, Real_t v, Real_t rho0, Real_t gamma, Real_t *p, Real_t *ss)
{
    Real_t rho = rho0 / v;
    *p = (gamma - 1.0) * rho * e;
    if (*p < 0.0)
        *p = 0.0;
    *ss = sqrt(gamma * (*p + 1e-12) / rho);
}
#pragma omp end declare target

static void init_domain(Domain *d, Index_t nz)
{
    Index_t i;
    d->numElem = nz;
    d->numNode = nz + 1;
    d->x = malloc(d->numNode * sizeof(Real_t));
    d->xd = calloc(d->numNode, sizeof(Real_t));
    d->xdd = calloc(d->numNode, sizeof(Real_t));
    d->f = calloc(d->numNode, sizeof(Real_t));
    d->nodalMass = calloc(d->numNode, sizeof(Real_t));
    d->e = malloc(nz * sizeof(Real_t));
    d->p = malloc(nz * sizeof(Real_t));
    d->q = calloc(nz, sizeof(Real_t));
    d->v = malloc(nz * sizeof(Real_t));
    d->volo = malloc(nz * sizeof(Real_t));
    d->delv = calloc(nz, sizeof(Real_t));
    d->vdov = calloc(nz, sizeof(Real_t));
    d->arealg = malloc(nz * sizeof(Real_t));
    d->ss = malloc(nz * sizeof(Real_t));
    d->elemMass = malloc(nz * sizeof(Real_t));
    d->gamma = 1.4;
    d->qqc = 2.0;
    d->monoq_max_slope = 1.0;
    d->cfl = 0.5;
    d->dvovmax = 0.1;
    d->hgcoef = 0.0;
    d->time = 0.0;
    d->deltatime = 1e-5;
    d->stoptime = 0.2;
    d->cycle = 0;
    for (i = 0; i < d->numNode; i++)
        d->x[i] = (Real_t) i / nz;
    for (i = 0; i < nz; i++) {
        Real_t rho = i < nz / 2 ? 1.0 : 0.125;           /* Sod: left state, right state */
        Real_t pres = i < nz / 2 ? 1.0 : 0.1;
        d->volo[i] = 1.0 / nz;
        d->v[i] = 1.0;                                     /* relative volume */
        d->elemMass[i] = rho * d->volo[i];
        d->e[i] = pres / ((d->gamma - 1.0) * rho);
        d->p[i] = pres;
        d->arealg[i] = d->volo[i];
        d->ss[i] = sqrt(d->gamma * pres / rho);
        d->nodalMass[i] += 0.5 * d->elemMass[i];
        d->nodalMass[i + 1] += 0.5 * d->elemMass[i];
    }
}

static void free_domain(Domain *d)
{
    Real_t *arrays[] = {d->x, d->xd, d->xdd, d->f, d->nodalMass, d->e, d->p, d->q, d->v, d->volo,
                        d->delv, d->vdov, d->arealg, d->ss, d->elemMass};
    size_t k;
    for (k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
        free(arrays[k]);
}

int main(int argc, char **argv)
{
    Domain dom;
    Index_t nz = 400, max_cycles = 150, i;
    Real_t stop = 0.2, mass = 0.0, energy = 0.0, momentum = 0.0, t0, elapsed;
    Real_t *x, *xd, *xdd, *f, *nodalMass, *e, *p, *q, *v, *volo, *delv, *vdov, *arealg, *ss, *elemMass;
    Index_t numElem, numNode;

    for (i = 1; i + 1 < argc; i++) {
        if (!strcmp(argv[i], "-s"))
            nz = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-i"))
            max_cycles = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-t"))
            stop = atof(argv[++i]);
    }
    init_domain(&dom, nz);
    dom.stoptime = stop;
    numElem = dom.numElem;
    numNode = dom.numNode;
    x = dom.x, xd = dom.xd, xdd = dom.xdd, f = dom.f, nodalMass = dom.nodalMass;
    e = dom.e, p = dom.p, q = dom.q, v = dom.v, volo = dom.volo, delv = dom.delv, vdov = dom.vdov;
    arealg = dom.arealg, ss = dom.ss, elemMass = dom.elemMass;
    printf("1-D Lagrangian hydro (Sod): %d zones, stop time %.3f, at most %d cycles\n", nz, stop, max_cycles);

    t0 = omp_get_wtime();
#pragma omp target data map(tofrom: x[0:numNode], xd[0:numNode], e[0:numElem], p[0:numElem], q[0:numElem], \
                                    v[0:numElem], ss[0:numElem]) \
                        map(to: nodalMass[0:numNode], volo[0:numElem], elemMass[0:numElem]) \
                        map(alloc: xdd[0:numNode], f[0:numNode], delv[0:numElem], vdov[0:numElem], \
                                   arealg[0:numElem])
    while (dom.time < dom.stoptime && dom.cycle < max_cycles) {
        Real_t dt = dom.deltatime, gamma = dom.gamma, qqc = dom.qqc, dtcourant = 1e20, dthydro = 1e20;
        Real_t dvovmax = dom.dvovmax, cfl = dom.cfl;

        /* CalcForceForNodes: pressure plus viscosity of the zones on each side. */
#pragma omp target teams distribute parallel for
        for (i = 0; i < numNode; i++) {
            Real_t left = i > 0 ? p[i - 1] + q[i - 1] : p[0] + q[0];
            Real_t right = i < numElem ? p[i] + q[i] : p[numElem - 1] + q[numElem - 1];
            f[i] = left - right;
        }
        /* CalcAccelerationForNodes, ApplyAccelerationBoundaryConditions (walls at both ends),
         * CalcVelocityForNodes, CalcPositionForNodes. */
#pragma omp target teams distribute parallel for firstprivate(dt)
        for (i = 0; i < numNode; i++) {
            xdd[i] = (i == 0 || i == numNode - 1) ? 0.0 : f[i] / nodalMass[i];
            xd[i] += xdd[i] * dt;
            if (fabs(xd[i]) < 1e-14)
                xd[i] = 0.0;
            x[i] += xd[i] * dt;
        }
        /* CalcLagrangeElements: new relative volume and its rate. */
#pragma omp target teams distribute parallel for firstprivate(dt)
        for (i = 0; i < numElem; i++) {
            Real_t vnew = (x[i + 1] - x[i]) / volo[i];
            delv[i] = vnew - v[i];
            vdov[i] = delv[i] / (vnew * dt);
            arealg[i] = x[i + 1] - x[i];
            v[i] = vnew;
        }
        /* CalcQForElems (a quadratic viscosity in compressing zones), then the EOS
         * with the work p dV done on the zone. */
#pragma omp target teams distribute parallel for firstprivate(qqc, gamma)
        for (i = 0; i < numElem; i++) {
            Real_t rho0 = elemMass[i] / volo[i], du = xd[i + 1] - xd[i];
            Real_t qnew = du < 0.0 ? qqc * rho0 / v[i] * du * du : 0.0;
            Real_t pnew, ssnew;
            e[i] -= 0.5 * (p[i] + q[i] + qnew) * delv[i] * volo[i] / elemMass[i];
            if (e[i] < 0.0)
                e[i] = 0.0;
            q[i] = qnew;
            eos(e[i], v[i], rho0, gamma, &pnew, &ssnew);
            p[i] = pnew;
            ss[i] = ssnew;
        }
        /* CalcCourantConstraintForElems and CalcHydroConstraintForElems. */
#pragma omp target teams distribute parallel for reduction(min: dtcourant, dthydro) \
    map(tofrom: dtcourant, dthydro) firstprivate(dvovmax, qqc)
        for (i = 0; i < numElem; i++) {
            Real_t dtf = ss[i] * ss[i];
            if (vdov[i] < 0.0)
                dtf += qqc * qqc * arealg[i] * arealg[i] * vdov[i] * vdov[i];
            dtf = arealg[i] / sqrt(dtf);
            if (dtf < dtcourant)
                dtcourant = dtf;
            if (vdov[i] != 0.0) {
                Real_t dtdvov = dvovmax / (fabs(vdov[i]) + 1e-20);
                if (dtdvov < dthydro)
                    dthydro = dtdvov;
            }
        }
        dom.time += dt;
        dom.cycle++;
        /* TimeIncrement: the next step from the constraints, growing at most 20%. */
        dom.deltatime = cfl * dtcourant;
        if (2.0 / 3.0 * dthydro < dom.deltatime)
            dom.deltatime = 2.0 / 3.0 * dthydro;
        if (dom.deltatime > 1.2 * dt)
            dom.deltatime = 1.2 * dt;
        if (dom.time + dom.deltatime > dom.stoptime)
            dom.deltatime = dom.stoptime - dom.time;
        if (dom.cycle % 25 == 0)
            printf("cycle %4d: time %.6e, dt %.6e (courant %.6e)\n", dom.cycle, dom.time, dt, dtcourant);
    }
    elapsed = omp_get_wtime() - t0;

    for (i = 0; i < numElem; i++) {
        mass += elemMass[i];
        energy += elemMass[i] * e[i] + 0.25 * (nodalMass[i] * xd[i] * xd[i] + nodalMass[i + 1] * xd[i + 1] * xd[i + 1]);
    }
    for (i = 0; i < numNode; i++)
        momentum += nodalMass[i] * xd[i];
    printf("finished after %d cycles at time %.6e\n", dom.cycle, dom.time);
    printf("mass %.10f, total energy %.6e, momentum %.6e\n", mass, energy, momentum);
    printf("shock region: density at x=0.5 %.5f, at x=0.7 %.5f; pressure %.5f, %.5f\n",
           elemMass[nz / 2] / (volo[nz / 2] * v[nz / 2]), elemMass[7 * nz / 10] / (volo[7 * nz / 10] * v[7 * nz / 10]),
           p[nz / 2], p[7 * nz / 10]);
    printf("timing: %.4f s, %.3e zone-cycles per second\n", elapsed, (double) nz * dom.cycle / elapsed);
    free_domain(&dom);
    return 0;
}
