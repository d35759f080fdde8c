/* The LULESH-style domain of examples/lulesh: one s x s x s element mesh, no MPI.
 *
 * Shared by lulesh_kernels.c (C99 + OpenMP, built by omp2gpu and gcc) and
 * cuda/lulesh_cuda.cu (nvcc, compiled as C++), so it is plain C that is also
 * valid C++: casts on malloc, no VLAs, no designated initialisers, no restrict.
 * Everything is static: each program includes it once.
 *
 * What it holds:
 *   - the symmetry-plane node lists symmX/symmY/symmZ (numNodeBC entries each),
 *   - element neighbours lxim, lxip, letam, letap, lzetam, lzetap,
 *   - boundary-condition masks elemBC,
 *   - regions: numReg lists of elements, stored one after another in
 *     regElemlist; region r is regElemlist[regStart[r] .. regStart[r]+regElemSize[r]-1],
 *     in increasing element order,
 *   - the monotonic-Q inputs (delv_*, delx_*, vdov, elemMass, volo, vnew)
 *     and outputs (qq, ql), the node accelerations xdd, ydd, zdd,
 * plus the host references of the two kernels and the checks against them.
 *
 * All pseudo-random values come from one seeded splitmix64 stream, so every
 * build (gcc, omp2gpu, nvcc) makes exactly the same domain.
 */
#ifndef LULESH_DOMAIN_H
#define LULESH_DOMAIN_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* elemBC fields: 3 bits per face (SYMM, FREE, COMM). */
#define XI_M        0x00007
#define XI_M_SYMM   0x00001
#define XI_M_FREE   0x00002
#define XI_M_COMM   0x00004
#define XI_P        0x00038
#define XI_P_SYMM   0x00008
#define XI_P_FREE   0x00010
#define XI_P_COMM   0x00020
#define ETA_M       0x001c0
#define ETA_M_SYMM  0x00040
#define ETA_M_FREE  0x00080
#define ETA_M_COMM  0x00100
#define ETA_P       0x00e00
#define ETA_P_SYMM  0x00200
#define ETA_P_FREE  0x00400
#define ETA_P_COMM  0x00800
#define ZETA_M      0x07000
#define ZETA_M_SYMM 0x01000
#define ZETA_M_FREE 0x02000
#define ZETA_M_COMM 0x04000
#define ZETA_P      0x38000
#define ZETA_P_SYMM 0x08000
#define ZETA_P_FREE 0x10000
#define ZETA_P_COMM 0x20000

#define LULESH_SEED 20151115ULL
/* Tolerance of the monotonic-Q check (relative; see lulesh_check_monoq). */
#define LULESH_MONOQ_TOLERANCE 1e-12

typedef struct {
    int s;                      /* elements per edge */
    int numElem, numNode, numNodeBC, numReg;
    int *symmX, *symmY, *symmZ; /* numNodeBC each */
    int *lxim, *lxip, *letam, *letap, *lzetam, *lzetap;
    int *elemBC;
    int *regElemSize, *regStart; /* numReg each */
    int *regElemlist;           /* numElem: the regions' lists, one after another */
    int numRuns;                /* contiguous runs of elements the regions were built from */
    double *delv_xi, *delv_eta, *delv_zeta;
    double *delx_xi, *delx_eta, *delx_zeta;
    double *vdov, *elemMass, *volo, *vnew;
    double *qq, *ql;            /* outputs of monotonic Q (start at -1: "not computed") */
    double *xdd, *ydd, *zdd;    /* node accelerations (numNode) */
    double qlc_monoq, qqc_monoq, monoq_limiter_mult, monoq_max_slope, ptiny;
} Domain;

/* ------------------------------------------------------------------ random numbers */
static unsigned long long lulesh_next(unsigned long long *state)
{
    unsigned long long z;
    *state += 0x9E3779B97F4A7C15ULL;
    z = *state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* An integer in [0, n). */
static int lulesh_below(unsigned long long *state, int n)
{
    return (int)(lulesh_next(state) % (unsigned long long)n);
}

/* A double in [lo, hi). */
static double lulesh_uniform(unsigned long long *state, double lo, double hi)
{
    double unit = (double)(lulesh_next(state) >> 11) * (1.0 / 9007199254740992.0);
    return lo + (hi - lo) * unit;
}

/* A double of random sign with magnitude in [lo, hi). */
static double lulesh_signed(unsigned long long *state, double lo, double hi)
{
    double magnitude = lulesh_uniform(state, lo, hi);
    return (lulesh_next(state) >> 63) ? -magnitude : magnitude;
}

static void *lulesh_alloc(size_t count, size_t size)
{
    void *p = malloc(count * size);
    if (p == NULL) {
        fprintf(stderr, "lulesh: out of memory (%lu x %lu bytes)\n",
                (unsigned long)count, (unsigned long)size);
        exit(2);
    }
    return p;
}

#define LULESH_INTS(n) ((int *)lulesh_alloc((size_t)(n), sizeof(int)))
#define LULESH_DOUBLES(n) ((double *)lulesh_alloc((size_t)(n), sizeof(double)))

/* ------------------------------------------------------------------ regions */
/* LULESH's scheme (balance 1): runs of consecutive elements go to regions
 * picked at random, region i with weight i+1, never the same region twice in a
 * row; the run length is 1-15 (77.3% of runs), 16-31, 32-63, 64-127, 128-255,
 * 256-511 or 512-2048 elements. numReg == 1: one region holding every element. */
static void lulesh_build_regions(Domain *d, int numReg, unsigned long long *rng)
{
    int *regNum = LULESH_INTS(d->numElem);
    int *binEnd = LULESH_INTS(numReg);
    int *fill = LULESH_INTS(numReg);
    int next = 0, last = -1, total = 0, i, r;

    d->numReg = numReg;
    d->regElemSize = LULESH_INTS(numReg);
    d->regStart = LULESH_INTS(numReg);
    d->regElemlist = LULESH_INTS(d->numElem);
    d->numRuns = 0;
    for (r = 0; r < numReg; r++) {
        total += r + 1;
        binEnd[r] = total;
        d->regElemSize[r] = 0;
    }
    if (numReg == 1) {
        for (i = 0; i < d->numElem; i++)
            regNum[i] = 0;
        d->numRuns = 1;
    } else {
        while (next < d->numElem) {
            int region, bin, length, end;
            do {
                int pick = lulesh_below(rng, total);
                region = 0;
                while (pick >= binEnd[region])
                    region++;
            } while (region == last);
            bin = lulesh_below(rng, 1000);
            if (bin < 773)
                length = 1 + lulesh_below(rng, 15);
            else if (bin < 937)
                length = 16 + lulesh_below(rng, 16);
            else if (bin < 970)
                length = 32 + lulesh_below(rng, 32);
            else if (bin < 974)
                length = 64 + lulesh_below(rng, 64);
            else if (bin < 978)
                length = 128 + lulesh_below(rng, 128);
            else if (bin < 981)
                length = 256 + lulesh_below(rng, 256);
            else
                length = 512 + lulesh_below(rng, 1537);
            end = next + length < d->numElem ? next + length : d->numElem;
            for (; next < end; next++)
                regNum[next] = region;
            last = region;
            d->numRuns++;
        }
    }
    for (i = 0; i < d->numElem; i++)
        d->regElemSize[regNum[i]]++;
    for (r = 0, total = 0; r < numReg; r++) {
        d->regStart[r] = total;
        fill[r] = total;
        total += d->regElemSize[r];
    }
    for (i = 0; i < d->numElem; i++)
        d->regElemlist[fill[regNum[i]]++] = i;
    free(regNum);
    free(binEnd);
    free(fill);
}

/* ------------------------------------------------------------------ the domain */
static void lulesh_build_domain(Domain *d, int s, int numReg)
{
    unsigned long long rng = LULESH_SEED;
    int edge = s + 1, plane, row, col, i, j, e;

    d->s = s;
    d->numElem = s * s * s;
    d->numNode = edge * edge * edge;
    d->numNodeBC = edge * edge;

    /* symmetry planes x = 0, y = 0, z = 0 */
    d->symmX = LULESH_INTS(d->numNodeBC);
    d->symmY = LULESH_INTS(d->numNodeBC);
    d->symmZ = LULESH_INTS(d->numNodeBC);
    for (i = 0; i < edge; i++)
        for (j = 0; j < edge; j++) {
            int n = i * edge + j;
            d->symmZ[n] = i * edge + j;
            d->symmY[n] = i * edge * edge + j;
            d->symmX[n] = i * edge * edge + j * edge;
        }

    /* neighbours and boundary masks: minus faces SYMM, plus faces FREE */
    d->lxim = LULESH_INTS(d->numElem);
    d->lxip = LULESH_INTS(d->numElem);
    d->letam = LULESH_INTS(d->numElem);
    d->letap = LULESH_INTS(d->numElem);
    d->lzetam = LULESH_INTS(d->numElem);
    d->lzetap = LULESH_INTS(d->numElem);
    d->elemBC = LULESH_INTS(d->numElem);
    for (plane = 0; plane < s; plane++)
        for (row = 0; row < s; row++)
            for (col = 0; col < s; col++) {
                int bc = 0;
                e = plane * s * s + row * s + col;
                d->lxim[e] = col > 0 ? e - 1 : e;
                d->lxip[e] = col < s - 1 ? e + 1 : e;
                d->letam[e] = row > 0 ? e - s : e;
                d->letap[e] = row < s - 1 ? e + s : e;
                d->lzetam[e] = plane > 0 ? e - s * s : e;
                d->lzetap[e] = plane < s - 1 ? e + s * s : e;
                if (col == 0) bc |= XI_M_SYMM;
                if (col == s - 1) bc |= XI_P_FREE;
                if (row == 0) bc |= ETA_M_SYMM;
                if (row == s - 1) bc |= ETA_P_FREE;
                if (plane == 0) bc |= ZETA_M_SYMM;
                if (plane == s - 1) bc |= ZETA_P_FREE;
                d->elemBC[e] = bc;
            }

    lulesh_build_regions(d, numReg, &rng);

    /* monotonic-Q inputs: deterministic, realistic sign and size */
    d->delv_xi = LULESH_DOUBLES(d->numElem);
    d->delv_eta = LULESH_DOUBLES(d->numElem);
    d->delv_zeta = LULESH_DOUBLES(d->numElem);
    d->delx_xi = LULESH_DOUBLES(d->numElem);
    d->delx_eta = LULESH_DOUBLES(d->numElem);
    d->delx_zeta = LULESH_DOUBLES(d->numElem);
    d->vdov = LULESH_DOUBLES(d->numElem);
    d->elemMass = LULESH_DOUBLES(d->numElem);
    d->volo = LULESH_DOUBLES(d->numElem);
    d->vnew = LULESH_DOUBLES(d->numElem);
    d->qq = LULESH_DOUBLES(d->numElem);
    d->ql = LULESH_DOUBLES(d->numElem);
    for (e = 0; e < d->numElem; e++) {
        d->delv_xi[e] = lulesh_signed(&rng, 0.1, 1.0);
        d->delv_eta[e] = lulesh_signed(&rng, 0.1, 1.0);
        d->delv_zeta[e] = lulesh_signed(&rng, 0.1, 1.0);
        d->delx_xi[e] = lulesh_uniform(&rng, 0.5, 1.5);
        d->delx_eta[e] = lulesh_uniform(&rng, 0.5, 1.5);
        d->delx_zeta[e] = lulesh_uniform(&rng, 0.5, 1.5);
        d->vdov[e] = lulesh_uniform(&rng, -1.0, 1.0);
        d->elemMass[e] = lulesh_uniform(&rng, 0.5, 1.5);
        d->volo[e] = lulesh_uniform(&rng, 0.5, 1.5);
        d->vnew[e] = lulesh_uniform(&rng, 0.8, 1.2);
        d->qq[e] = -1.0;
        d->ql[e] = -1.0;
    }

    /* node accelerations: nonzero everywhere, so the boundary kernel's zeros show */
    d->xdd = LULESH_DOUBLES(d->numNode);
    d->ydd = LULESH_DOUBLES(d->numNode);
    d->zdd = LULESH_DOUBLES(d->numNode);
    for (i = 0; i < d->numNode; i++) {
        d->xdd[i] = lulesh_signed(&rng, 0.5, 1.5);
        d->ydd[i] = lulesh_signed(&rng, 0.5, 1.5);
        d->zdd[i] = lulesh_signed(&rng, 0.5, 1.5);
    }

    d->qlc_monoq = 0.5;
    d->qqc_monoq = 2.0 / 3.0;
    d->monoq_limiter_mult = 2.0;
    d->monoq_max_slope = 1.0;
    d->ptiny = 1e-36;
}

static void lulesh_free_domain(Domain *d)
{
    free(d->symmX); free(d->symmY); free(d->symmZ);
    free(d->lxim); free(d->lxip); free(d->letam); free(d->letap);
    free(d->lzetam); free(d->lzetap); free(d->elemBC);
    free(d->regElemSize); free(d->regStart); free(d->regElemlist);
    free(d->delv_xi); free(d->delv_eta); free(d->delv_zeta);
    free(d->delx_xi); free(d->delx_eta); free(d->delx_zeta);
    free(d->vdov); free(d->elemMass); free(d->volo); free(d->vnew);
    free(d->qq); free(d->ql); free(d->xdd); free(d->ydd); free(d->zdd);
}

/* A copy of n doubles (for the references and for resetting device inputs). */
static double *lulesh_copy(const double *from, int n)
{
    double *to = LULESH_DOUBLES(n);
    int i;
    for (i = 0; i < n; i++)
        to[i] = from[i];
    return to;
}

/* ------------------------------------------------------------------ host references */
static void lulesh_reference_accel_bc(const Domain *d, double *xdd, double *ydd, double *zdd)
{
    int i;
    for (i = 0; i < d->numNodeBC; i++)
        xdd[d->symmX[i]] = 0.0;
    for (i = 0; i < d->numNodeBC; i++)
        ydd[d->symmY[i]] = 0.0;
    for (i = 0; i < d->numNodeBC; i++)
        zdd[d->symmZ[i]] = 0.0;
}

/* The limiter phi of one direction (steps 1-7 of the spec). */
static double lulesh_reference_phi(const double *delv, int e, int bc, int fieldM, int symmM, int freeM,
                                   int commM, const int *lm, int fieldP, int symmP, int freeP, int commP,
                                   const int *lp, const Domain *d)
{
    double norm = 1.0 / (delv[e] + d->ptiny);
    double delvm, delvp, phi;
    int m = bc & fieldM, p = bc & fieldP;
    if (m == 0 || m == commM) delvm = delv[lm[e]];
    else if (m == symmM) delvm = delv[e];
    else if (m == freeM) delvm = 0.0;
    else delvm = 0.0;                   /* an invalid mask: LULESH reports it */
    if (p == 0 || p == commP) delvp = delv[lp[e]];
    else if (p == symmP) delvp = delv[e];
    else if (p == freeP) delvp = 0.0;
    else delvp = 0.0;
    delvm = delvm * norm;
    delvp = delvp * norm;
    phi = 0.5 * (delvm + delvp);
    delvm *= d->monoq_limiter_mult;
    delvp *= d->monoq_limiter_mult;
    if (delvm < phi) phi = delvm;
    if (delvp < phi) phi = delvp;
    if (phi < 0.0) phi = 0.0;
    if (phi > d->monoq_max_slope) phi = d->monoq_max_slope;
    return phi;
}

/* qq and ql of element e; *scale_ql and *scale_qq: the magnitudes the results
 * are sums of (each term with its (1 - phi) factor taken as 1), for the check. */
static void lulesh_reference_monoq_element(const Domain *d, int e, double *qq, double *ql,
                                           double *scale_qq, double *scale_ql)
{
    int bc = d->elemBC[e];
    double phixi = lulesh_reference_phi(d->delv_xi, e, bc, XI_M, XI_M_SYMM, XI_M_FREE, XI_M_COMM, d->lxim,
                                        XI_P, XI_P_SYMM, XI_P_FREE, XI_P_COMM, d->lxip, d);
    double phieta = lulesh_reference_phi(d->delv_eta, e, bc, ETA_M, ETA_M_SYMM, ETA_M_FREE, ETA_M_COMM,
                                         d->letam, ETA_P, ETA_P_SYMM, ETA_P_FREE, ETA_P_COMM, d->letap, d);
    double phizeta = lulesh_reference_phi(d->delv_zeta, e, bc, ZETA_M, ZETA_M_SYMM, ZETA_M_FREE,
                                          ZETA_M_COMM, d->lzetam, ZETA_P, ZETA_P_SYMM, ZETA_P_FREE,
                                          ZETA_P_COMM, d->lzetap, d);
    if (d->vdov[e] > 0.0) {
        *qq = 0.0;
        *ql = 0.0;
        *scale_qq = 0.0;
        *scale_ql = 0.0;
    } else {
        double dxi = d->delv_xi[e] * d->delx_xi[e];
        double deta = d->delv_eta[e] * d->delx_eta[e];
        double dzeta = d->delv_zeta[e] * d->delx_zeta[e];
        double rho;
        if (dxi > 0.0) dxi = 0.0;
        if (deta > 0.0) deta = 0.0;
        if (dzeta > 0.0) dzeta = 0.0;
        rho = d->elemMass[e] / (d->volo[e] * d->vnew[e]);
        *ql = -d->qlc_monoq * rho * (dxi * (1.0 - phixi) + deta * (1.0 - phieta) + dzeta * (1.0 - phizeta));
        *qq = d->qqc_monoq * rho * (dxi * dxi * (1.0 - phixi * phixi) + deta * deta * (1.0 - phieta * phieta)
                                    + dzeta * dzeta * (1.0 - phizeta * phizeta));
        *scale_ql = -d->qlc_monoq * rho * (dxi + deta + dzeta);
        *scale_qq = d->qqc_monoq * rho * (dxi * dxi + deta * deta + dzeta * dzeta);
    }
}

/* ------------------------------------------------------------------ checks */
/* Elements where got differs from the reference by more than
 * LULESH_MONOQ_TOLERANCE relative to max(|reference|, scale): the scale is
 * what the result is a sum of, so an element whose (1 - phi) factors nearly
 * cancel (phi within rounding of 1) is held to the precision its inputs carry.
 * Every element of every region is checked (a missed one still holds -1). */
static long lulesh_check_monoq(const Domain *d, const double *qq, const double *ql, int verbose)
{
    long bad = 0;
    int e;
    for (e = 0; e < d->numElem; e++) {
        double want_qq, want_ql, scale_qq, scale_ql, limit_qq, limit_ql;
        lulesh_reference_monoq_element(d, e, &want_qq, &want_ql, &scale_qq, &scale_ql);
        limit_qq = LULESH_MONOQ_TOLERANCE * (fabs(want_qq) > scale_qq ? fabs(want_qq) : scale_qq);
        limit_ql = LULESH_MONOQ_TOLERANCE * (fabs(want_ql) > scale_ql ? fabs(want_ql) : scale_ql);
        if (!(fabs(qq[e] - want_qq) <= limit_qq) || !(fabs(ql[e] - want_ql) <= limit_ql)) {
            if (bad < 5 && verbose)
                printf("  element %d: qq %.17g (want %.17g), ql %.17g (want %.17g)\n",
                       e, qq[e], want_qq, ql[e], want_ql);
            bad++;
        }
    }
    return bad;
}

/* Nodes where the accelerations differ in any bit from the initial ones with the
 * boundary kernel applied on the host. */
static long lulesh_check_accel_bc(const Domain *d, const double *xdd0, const double *ydd0,
                                  const double *zdd0, const double *xdd, const double *ydd,
                                  const double *zdd, int verbose)
{
    double *wx = lulesh_copy(xdd0, d->numNode), *wy = lulesh_copy(ydd0, d->numNode);
    double *wz = lulesh_copy(zdd0, d->numNode);
    long bad = 0;
    int i;
    lulesh_reference_accel_bc(d, wx, wy, wz);
    for (i = 0; i < d->numNode; i++)
        if (xdd[i] != wx[i] || ydd[i] != wy[i] || zdd[i] != wz[i]) {
            if (bad < 5 && verbose)
                printf("  node %d: (%.17g, %.17g, %.17g), want (%.17g, %.17g, %.17g)\n",
                       i, xdd[i], ydd[i], zdd[i], wx[i], wy[i], wz[i]);
            bad++;
        }
    free(wx); free(wy); free(wz);
    return bad;
}

/* How many nodes the boundary kernel zeroes (a node on several planes counts once). */
static int lulesh_boundary_nodes(const Domain *d)
{
    int edge = d->s + 1;
    return edge * edge * edge - d->s * d->s * d->s;
}

/* The summary both programs print (identical for every build). */
static void lulesh_print_domain(const Domain *d)
{
    int r, minSize = d->numElem, maxSize = 0;
    long hash = 0;
    int e;
    for (r = 0; r < d->numReg; r++) {
        if (d->regElemSize[r] < minSize) minSize = d->regElemSize[r];
        if (d->regElemSize[r] > maxSize) maxSize = d->regElemSize[r];
    }
    for (e = 0; e < d->numElem; e++)
        hash = (hash * 31 + d->regElemlist[e]) % 1000000007L;
    printf("mesh: s=%d elements=%d nodes=%d symmetry-list=%d boundary-nodes=%d\n",
           d->s, d->numElem, d->numNode, d->numNodeBC, lulesh_boundary_nodes(d));
    printf("regions: %d from %d runs, sizes %d..%d, list hash %ld\n",
           d->numReg, d->numRuns, minSize, maxSize, hash);
    printf("region sizes:");
    for (r = 0; r < d->numReg; r++)
        printf(" %d", d->regElemSize[r]);
    printf("\n");
}

#endif /* LULESH_DOMAIN_H */
