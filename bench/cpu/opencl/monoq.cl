/* bench/cpu: CalcMonotonicQRegionForElems of examples/lulesh/lulesh_kernels.c as
 * OpenCL C, one work-item per element of the region's list (as LULESH's OpenCL
 * and CUDA ports), the loop body unchanged; the region's list is the element list
 * from `start` (regElemlist + regStart[r] in the C program). */
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

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

__kernel void monoq(int elength, int start, __global const int *regElemlist, __global const int *elemBC,
                    __global const int *lxim, __global const int *lxip,
                    __global const int *letam, __global const int *letap,
                    __global const int *lzetam, __global const int *lzetap,
                    __global const double *delv_xi, __global const double *delv_eta,
                    __global const double *delv_zeta, __global const double *delx_xi,
                    __global const double *delx_eta, __global const double *delx_zeta,
                    __global const double *vdov, __global const double *elemMass,
                    __global const double *volo, __global const double *vnew,
                    __global double *qq, __global double *ql,
                    double qlc_monoq, double qqc_monoq, double monoq_limiter_mult,
                    double monoq_max_slope, double ptiny) {
    int i = get_global_id(0);
    if (i >= elength)
        return;
    {
        const int ielem = regElemlist[start + i];
        const int bcMask = elemBC[ielem];
        double qlin, qquad, phixi, phieta, phizeta, norm;
        double delvm = 0.0, delvp = 0.0;

        norm = 1.0 / (delv_xi[ielem] + ptiny);
        switch (bcMask & XI_M) {
        case XI_M_COMM:
        case 0:         delvm = delv_xi[lxim[ielem]]; break;
        case XI_M_SYMM: delvm = delv_xi[ielem]; break;
        case XI_M_FREE: delvm = 0.0; break;
        default:        delvm = 0.0; break;
        }
        switch (bcMask & XI_P) {
        case XI_P_COMM:
        case 0:         delvp = delv_xi[lxip[ielem]]; break;
        case XI_P_SYMM: delvp = delv_xi[ielem]; break;
        case XI_P_FREE: delvp = 0.0; break;
        default:        delvp = 0.0; break;
        }
        delvm = delvm * norm;
        delvp = delvp * norm;
        phixi = 0.5 * (delvm + delvp);
        delvm *= monoq_limiter_mult;
        delvp *= monoq_limiter_mult;
        if (delvm < phixi) phixi = delvm;
        if (delvp < phixi) phixi = delvp;
        if (phixi < 0.0) phixi = 0.0;
        if (phixi > monoq_max_slope) phixi = monoq_max_slope;

        norm = 1.0 / (delv_eta[ielem] + ptiny);
        switch (bcMask & ETA_M) {
        case ETA_M_COMM:
        case 0:          delvm = delv_eta[letam[ielem]]; break;
        case ETA_M_SYMM: delvm = delv_eta[ielem]; break;
        case ETA_M_FREE: delvm = 0.0; break;
        default:         delvm = 0.0; break;
        }
        switch (bcMask & ETA_P) {
        case ETA_P_COMM:
        case 0:          delvp = delv_eta[letap[ielem]]; break;
        case ETA_P_SYMM: delvp = delv_eta[ielem]; break;
        case ETA_P_FREE: delvp = 0.0; break;
        default:         delvp = 0.0; break;
        }
        delvm = delvm * norm;
        delvp = delvp * norm;
        phieta = 0.5 * (delvm + delvp);
        delvm *= monoq_limiter_mult;
        delvp *= monoq_limiter_mult;
        if (delvm < phieta) phieta = delvm;
        if (delvp < phieta) phieta = delvp;
        if (phieta < 0.0) phieta = 0.0;
        if (phieta > monoq_max_slope) phieta = monoq_max_slope;

        norm = 1.0 / (delv_zeta[ielem] + ptiny);
        switch (bcMask & ZETA_M) {
        case ZETA_M_COMM:
        case 0:           delvm = delv_zeta[lzetam[ielem]]; break;
        case ZETA_M_SYMM: delvm = delv_zeta[ielem]; break;
        case ZETA_M_FREE: delvm = 0.0; break;
        default:          delvm = 0.0; break;
        }
        switch (bcMask & ZETA_P) {
        case ZETA_P_COMM:
        case 0:           delvp = delv_zeta[lzetap[ielem]]; break;
        case ZETA_P_SYMM: delvp = delv_zeta[ielem]; break;
        case ZETA_P_FREE: delvp = 0.0; break;
        default:          delvp = 0.0; break;
        }
        delvm = delvm * norm;
        delvp = delvp * norm;
        phizeta = 0.5 * (delvm + delvp);
        delvm *= monoq_limiter_mult;
        delvp *= monoq_limiter_mult;
        if (delvm < phizeta) phizeta = delvm;
        if (delvp < phizeta) phizeta = delvp;
        if (phizeta < 0.0) phizeta = 0.0;
        if (phizeta > monoq_max_slope) phizeta = monoq_max_slope;

        if (vdov[ielem] > 0.0) {
            qlin = 0.0;
            qquad = 0.0;
        } else {
            double delvxxi = delv_xi[ielem] * delx_xi[ielem];
            double delvxeta = delv_eta[ielem] * delx_eta[ielem];
            double delvxzeta = delv_zeta[ielem] * delx_zeta[ielem];
            double rho;
            if (delvxxi > 0.0) delvxxi = 0.0;
            if (delvxeta > 0.0) delvxeta = 0.0;
            if (delvxzeta > 0.0) delvxzeta = 0.0;
            rho = elemMass[ielem] / (volo[ielem] * vnew[ielem]);
            qlin = -qlc_monoq * rho *
                   (delvxxi * (1.0 - phixi) + delvxeta * (1.0 - phieta) + delvxzeta * (1.0 - phizeta));
            qquad = qqc_monoq * rho *
                    (delvxxi * delvxxi * (1.0 - phixi * phixi) + delvxeta * delvxeta * (1.0 - phieta * phieta) +
                     delvxzeta * delvxzeta * (1.0 - phizeta * phizeta));
        }
        qq[ielem] = qquad;
        ql[ielem] = qlin;
    }
}

__kernel void empty(void) {
}
