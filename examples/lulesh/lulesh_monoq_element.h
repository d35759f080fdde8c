/* The body of CalcMonotonicQRegionForElems for one element `i` of a region's
 * list: included as the loop body of each offloaded version of the loop in
 * lulesh_kernels.c (the synchronous one and the `nowait` one), so both run the
 * same code. Uses the names lulesh_kernels.c declares. */
{
    const int ielem = regList[i];
    const int bcMask = elemBC[ielem];
    double qlin, qquad, phixi, phieta, phizeta, norm;
    double delvm = 0.0, delvp = 0.0;

    /* phixi */
    norm = 1.0 / (delv_xi[ielem] + ptiny);
    switch (bcMask & XI_M) {
    case XI_M_COMM: /* needs comm data */
    case 0:         delvm = delv_xi[lxim[ielem]]; break;
    case XI_M_SYMM: delvm = delv_xi[ielem]; break;
    case XI_M_FREE: delvm = 0.0; break;
    default:        delvm = 0.0; break;   /* an invalid mask */
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

    /* phieta */
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

    /* phizeta */
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

    /* remove length scale */
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
               (delvxxi * (1.0 - phixi) + delvxeta * (1.0 - phieta) +
                delvxzeta * (1.0 - phizeta));
        qquad = qqc_monoq * rho *
                (delvxxi * delvxxi * (1.0 - phixi * phixi) +
                 delvxeta * delvxeta * (1.0 - phieta * phieta) +
                 delvxzeta * delvxzeta * (1.0 - phizeta * phizeta));
    }
    qq[ielem] = qquad;
    ql[ielem] = qlin;
}
