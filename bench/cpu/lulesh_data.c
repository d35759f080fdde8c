/* The LULESH domain of examples/lulesh for the OpenCL (PoCL) runs of bench/cpu:
 *
 *     lulesh_data -s SIZE dump FILE        the monotonic-Q inputs, raw (see below)
 *     lulesh_data -s SIZE check FILE       FILE: qq then ql (numElem doubles each);
 *                                          the check of lulesh_kernels.c, exit 0 if it passes
 *
 * FILE for dump: int32 s, numElem, numReg; float64 qlc_monoq, qqc_monoq,
 * monoq_limiter_mult, monoq_max_slope, ptiny; int32 regElemSize[numReg],
 * regStart[numReg], regElemlist, elemBC, lxim, lxip, letam, letap, lzetam,
 * lzetap [numElem each]; float64 delv_xi, delv_eta, delv_zeta, delx_xi,
 * delx_eta, delx_zeta, vdov, elemMass, volo, vnew [numElem each].
 * Build: gcc -O2 -I examples/lulesh bench/cpu/lulesh_data.c -lm */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lulesh_domain.h"

static void put(FILE *out, const void *data, size_t size, size_t count) {
    if (fwrite(data, size, count, out) != count) {
        perror("lulesh_data: write");
        exit(2);
    }
}

int main(int argc, char **argv) {
    Domain d;
    int s;
    FILE *file;
    if (argc != 5 || strcmp(argv[1], "-s") != 0) {
        fprintf(stderr, "usage: %s -s SIZE dump|check FILE\n", argv[0]);
        return 2;
    }
    s = atoi(argv[2]);
    lulesh_build_domain(&d, s, 11);
    if (strcmp(argv[3], "dump") == 0) {
        int header[3] = {d.s, d.numElem, d.numReg};
        double params[5] = {d.qlc_monoq, d.qqc_monoq, d.monoq_limiter_mult, d.monoq_max_slope, d.ptiny};
        int *ints[] = {d.regElemlist, d.elemBC, d.lxim, d.lxip, d.letam, d.letap, d.lzetam, d.lzetap};
        double *doubles[] = {d.delv_xi, d.delv_eta, d.delv_zeta, d.delx_xi, d.delx_eta, d.delx_zeta,
                             d.vdov, d.elemMass, d.volo, d.vnew};
        size_t k;
        file = fopen(argv[4], "wb");
        if (!file) { perror(argv[4]); return 2; }
        put(file, header, sizeof(int), 3);
        put(file, params, sizeof(double), 5);
        put(file, d.regElemSize, sizeof(int), (size_t)d.numReg);
        put(file, d.regStart, sizeof(int), (size_t)d.numReg);
        for (k = 0; k < sizeof(ints) / sizeof(ints[0]); k++)
            put(file, ints[k], sizeof(int), (size_t)d.numElem);
        for (k = 0; k < sizeof(doubles) / sizeof(doubles[0]); k++)
            put(file, doubles[k], sizeof(double), (size_t)d.numElem);
        fclose(file);
        return 0;
    }
    if (strcmp(argv[3], "check") == 0) {
        long bad;
        file = fopen(argv[4], "rb");
        if (!file) { perror(argv[4]); return 2; }
        if (fread(d.qq, sizeof(double), (size_t)d.numElem, file) != (size_t)d.numElem ||
            fread(d.ql, sizeof(double), (size_t)d.numElem, file) != (size_t)d.numElem) {
            fprintf(stderr, "lulesh_data: %s is short\n", argv[4]);
            return 2;
        }
        fclose(file);
        bad = lulesh_check_monoq(&d, d.qq, d.ql, 1);
        printf("check CalcMonotonicQRegionForElems: %s (%d elements, %ld differ)\n",
               bad == 0 ? "OK" : "FAILED", d.numElem, bad);
        return bad != 0;
    }
    fprintf(stderr, "lulesh_data: unknown command %s\n", argv[3]);
    return 2;
}
