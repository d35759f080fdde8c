/* Two LULESH kernels offloaded with OpenMP 4.5, as in Section 5.3 of Bertolli
 * et al. (LLVM-HPC 2015): ApplyAccelerationBoundaryConditionsForNodes and
 * CalcMonotonicQRegionForElems (once per region), each a
 * `target teams distribute parallel for`, inside a `target data` that keeps
 * the domain on the device while the time loop repeats them.
 *
 *     lulesh_kernels [-s SIZE] [-r REGIONS] [-i ITERATIONS] [-n | -p]
 *
 * SIZE: elements per edge (default 30); REGIONS: 11 (LULESH's default) or 1;
 * ITERATIONS: timed sweeps (default 10) after one untimed warm-up sweep;
 * -n: the monotonic-Q regions as `nowait` target tasks (docs/async.md), met in
 * sequential code and waited for by a taskwait; -p: the same tasks made by one thread
 * of a `parallel` region (`single`), for another thread to run.
 * The results are checked against host references (lulesh_domain.h): the
 * boundary kernel bit for bit, monotonic Q to 1e-12 relative. Exit status 0
 * only when both checks pass. Lines starting with "time:" are the only ones
 * that differ between runs and builds.
 *
 * Build: omp2gpu run lulesh_kernels.c -- -s 30   (-DLULESH_SPECULATED_LOADS: the loop body of
 *        lulesh_monoq_speculated.h, its loads hoisted by hand)
 *        gcc -std=c99 -fopenmp -O2 lulesh_kernels.c -o lulesh_kernels -lm
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <omp.h>

#include "lulesh_domain.h"

/* -DLULESH_SPECULATED_LOADS: the loop body with its loads hoisted out of its branches by hand */
#ifdef LULESH_SPECULATED_LOADS
#define MONOQ_ELEMENT "lulesh_monoq_speculated.h"
#else
#define MONOQ_ELEMENT "lulesh_monoq_element.h"
#endif

/* What each monotonic-Q region maps (both versions of its loop): the region's element
 * list and the domain's arrays, all present inside the time loop's `target data`. */
#define MONOQ_MAPS \
    map(to: regList[0:elength], elemBC[0:numElem], \
            lxim[0:numElem], lxip[0:numElem], letam[0:numElem], letap[0:numElem], \
            lzetam[0:numElem], lzetap[0:numElem], \
            delv_xi[0:numElem], delv_eta[0:numElem], delv_zeta[0:numElem], \
            delx_xi[0:numElem], delx_eta[0:numElem], delx_zeta[0:numElem], \
            vdov[0:numElem], elemMass[0:numElem], volo[0:numElem], vnew[0:numElem]) \
    map(tofrom: qq[0:numElem], ql[0:numElem])

static void usage(const char *program)
{
    fprintf(stderr, "usage: %s [-s SIZE] [-r REGIONS (11 or 1)] [-i ITERATIONS] [-n | -p]\n", program);
    exit(2);
}

/* Where the target regions ran: a "time:" line, since it differs from build to build.
 * omp2gpu names its devices (a GPU, the CPU device); another compiler's OpenMP numbers them. */
static void print_where_it_ran(void)
{
    int on_host = 1;
    char name[96] = "the host";
    #pragma omp target map(from: on_host)
    on_host = omp_is_initial_device();
#ifdef __OMP2GPU__
    if (!on_host)
        omp2gpu_get_device_name(omp_get_default_device(), name, sizeof name);
#else
    if (!on_host)
        snprintf(name, sizeof name, "device %d", omp_get_default_device());
#endif
    printf("time: ran on %s (%d devices)\n", name, omp_get_num_devices());
}

int main(int argc, char **argv)
{
    int s = 30, regions = 11, iterations = 10, nowait = 0;
    int a, i, r, it;
    Domain d;

    for (a = 1; a < argc; a++) {
        if (a + 1 < argc && strcmp(argv[a], "-s") == 0)
            s = atoi(argv[++a]);
        else if (a + 1 < argc && strcmp(argv[a], "-r") == 0)
            regions = atoi(argv[++a]);
        else if (a + 1 < argc && strcmp(argv[a], "-i") == 0)
            iterations = atoi(argv[++a]);
        else if (strcmp(argv[a], "-n") == 0)
            nowait = 1;
        else if (strcmp(argv[a], "-p") == 0)
            nowait = 2;
        else
            usage(argv[0]);
    }
    if (s < 1 || s > 400 || (regions != 11 && regions != 1) || iterations < 1)
        usage(argv[0]);

    lulesh_build_domain(&d, s, regions);
    printf("lulesh_kernels: s=%d regions=%d iterations=%d\n", s, regions, iterations);
    lulesh_print_domain(&d);

    {
        /* The domain as plain arrays and scalars: what the map clauses name. */
        const int numElem = d.numElem, numNode = d.numNode, numNodeBC = d.numNodeBC;
        const int numReg = d.numReg;
        int *symmX = d.symmX, *symmY = d.symmY, *symmZ = d.symmZ;
        int *lxim = d.lxim, *lxip = d.lxip, *letam = d.letam, *letap = d.letap;
        int *lzetam = d.lzetam, *lzetap = d.lzetap, *elemBC = d.elemBC;
        int *regElemSize = d.regElemSize, *regStart = d.regStart, *regElemlist = d.regElemlist;
        double *delv_xi = d.delv_xi, *delv_eta = d.delv_eta, *delv_zeta = d.delv_zeta;
        double *delx_xi = d.delx_xi, *delx_eta = d.delx_eta, *delx_zeta = d.delx_zeta;
        double *vdov = d.vdov, *elemMass = d.elemMass, *volo = d.volo, *vnew = d.vnew;
        double *qq = d.qq, *ql = d.ql, *xdd = d.xdd, *ydd = d.ydd, *zdd = d.zdd;
        const double qlc_monoq = d.qlc_monoq, qqc_monoq = d.qqc_monoq;
        const double monoq_limiter_mult = d.monoq_limiter_mult, monoq_max_slope = d.monoq_max_slope;
        const double ptiny = d.ptiny;
        /* LULESH guards each direction with "this symmetry list is not empty". */
        const int hasSymmX = numNodeBC != 0, hasSymmY = numNodeBC != 0, hasSymmZ = numNodeBC != 0;
        double *xdd0 = lulesh_copy(xdd, numNode), *ydd0 = lulesh_copy(ydd, numNode);
        double *zdd0 = lulesh_copy(zdd, numNode);
        double accelBest = 1e30, accelSum = 0.0, monoqBest = 1e30, monoqSum = 0.0;
        int launchedRegions = 0;
        long badAccel, badMonoq;

        for (r = 0; r < numReg; r++)
            launchedRegions += regElemSize[r] > 0;

        #pragma omp target data map(to: symmX[0:numNodeBC], symmY[0:numNodeBC], symmZ[0:numNodeBC], \
                                        regElemlist[0:numElem], elemBC[0:numElem], \
                                        lxim[0:numElem], lxip[0:numElem], letam[0:numElem], \
                                        letap[0:numElem], lzetam[0:numElem], lzetap[0:numElem], \
                                        delv_xi[0:numElem], delv_eta[0:numElem], delv_zeta[0:numElem], \
                                        delx_xi[0:numElem], delx_eta[0:numElem], delx_zeta[0:numElem], \
                                        vdov[0:numElem], elemMass[0:numElem], volo[0:numElem], \
                                        vnew[0:numElem]) \
                                map(tofrom: xdd[0:numNode], ydd[0:numNode], zdd[0:numNode], \
                                            qq[0:numElem], ql[0:numElem])
        for (it = 0; it <= iterations; it++) {      /* sweep 0 warms up, untimed */
            double t0, t1, t2;
            t0 = omp_get_wtime();

            /* ApplyAccelerationBoundaryConditionsForNodes */
            #pragma omp target teams distribute parallel for \
                map(to: symmX[0:numNodeBC], symmY[0:numNodeBC], symmZ[0:numNodeBC]) \
                map(tofrom: xdd[0:numNode], ydd[0:numNode], zdd[0:numNode])
            for (i = 0; i < numNodeBC; i++) {
                if (hasSymmX)
                    xdd[symmX[i]] = 0.0;
                if (hasSymmY)
                    ydd[symmY[i]] = 0.0;
                if (hasSymmZ)
                    zdd[symmZ[i]] = 0.0;
            }
            t1 = omp_get_wtime();

            /* CalcMonotonicQRegionForElems, once per region */
            if (!nowait) {
                for (r = 0; r < numReg; r++) {
                    const int elength = regElemSize[r];
                    const int *regList = regElemlist + regStart[r];
                    if (elength == 0)
                        continue;
                    #pragma omp target teams distribute parallel for MONOQ_MAPS
                    for (i = 0; i < elength; i++) {
                        #include MONOQ_ELEMENT
                    }
                }
            } else if (nowait == 1) {
                /* -n: each region a deferred target task. Every element is in one region,
                 * so the regions write disjoint qq/ql entries and nothing orders them; the
                 * taskwait ends the sweep when all have finished. */
                for (r = 0; r < numReg; r++) {
                    const int elength = regElemSize[r];
                    const int *regList = regElemlist + regStart[r];
                    if (elength == 0)
                        continue;
                    #pragma omp target teams distribute parallel for nowait MONOQ_MAPS
                    for (i = 0; i < elength; i++) {
                        #include MONOQ_ELEMENT
                    }
                }
                #pragma omp taskwait
            } else {
                /* -p: the same tasks, made by one thread of a team for the other to run */
                #pragma omp parallel num_threads(2)
                #pragma omp single
                {
                    for (r = 0; r < numReg; r++) {
                        const int elength = regElemSize[r];
                        const int *regList = regElemlist + regStart[r];
                        if (elength == 0)
                            continue;
                        #pragma omp target teams distribute parallel for nowait MONOQ_MAPS
                        for (i = 0; i < elength; i++) {
                            #include MONOQ_ELEMENT
                        }
                    }
                    #pragma omp taskwait
                }
            }
            t2 = omp_get_wtime();
            if (it > 0) {
                accelSum += t1 - t0;
                monoqSum += t2 - t1;
                if (t1 - t0 < accelBest) accelBest = t1 - t0;
                if (t2 - t1 < monoqBest) monoqBest = t2 - t1;
            }
        }

        badAccel = lulesh_check_accel_bc(&d, xdd0, ydd0, zdd0, xdd, ydd, zdd, 1);
        printf("check ApplyAccelerationBoundaryConditionsForNodes: %s (%d nodes, %ld differ, exact)\n",
               badAccel == 0 ? "OK" : "FAILED", numNode, badAccel);
        badMonoq = lulesh_check_monoq(&d, qq, ql, 1);
        printf("check CalcMonotonicQRegionForElems: %s (%d elements in %d region launches, %ld differ, "
               "tolerance %g relative)\n", badMonoq == 0 ? "OK" : "FAILED", numElem, launchedRegions,
               badMonoq, LULESH_MONOQ_TOLERANCE);
        printf("time: ApplyAccelerationBoundaryConditionsForNodes per sweep: best %.3f us, mean %.3f us "
               "(1 launch)\n", accelBest * 1e6, accelSum / iterations * 1e6);
        printf("time: CalcMonotonicQRegionForElems per sweep: best %.3f us, mean %.3f us (%d launches)\n",
               monoqBest * 1e6, monoqSum / iterations * 1e6, launchedRegions);
        print_where_it_ran();
        printf("%s\n", badAccel == 0 && badMonoq == 0 ? "PASSED" : "FAILED");
        free(xdd0); free(ydd0); free(zdd0);
        lulesh_free_domain(&d);
        return badAccel == 0 && badMonoq == 0 ? 0 : 1;
    }
}
