/* lulesh_monoq_element.h's loop body with its loads speculated by hand (built with
 * -DLULESH_SPECULATED_LOADS): what a compiler that hoisted every load of a mapped array out
 * of the branches would make. Each load is issued as soon as `ielem` is known, a neighbour's
 * index clamped into the arrays' mapped length (numElem) so that no load can fault, and the
 * boundary-mask switches and the vdov test become selects. Same results, bit for bit; the
 * measurements (the loads in flight against the registers they take) are in
 * bench/lulesh/sweep-experiments-session27.md. */
{
    const int ielem = regList[i];
    const int bcMask = elemBC[ielem];
    const int n_xim = lxim[ielem], n_xip = lxip[ielem], n_etam = letam[ielem];
    const int n_etap = letap[ielem], n_zetam = lzetam[ielem], n_zetap = lzetap[ielem];
    const double dxi = delv_xi[ielem], deta = delv_eta[ielem], dzeta = delv_zeta[ielem];
    const double e_vdov = vdov[ielem];
    const double e_dxi = delx_xi[ielem], e_deta = delx_eta[ielem], e_dzeta = delx_zeta[ielem];
    const double e_mass = elemMass[ielem], e_volo = volo[ielem], e_vnew = vnew[ielem];
#define CL(n) ((unsigned)(n) < (unsigned)numElem ? (n) : ielem)
    const double v_xim = delv_xi[CL(n_xim)], v_xip = delv_xi[CL(n_xip)];
    const double v_etam = delv_eta[CL(n_etam)], v_etap = delv_eta[CL(n_etap)];
    const double v_zetam = delv_zeta[CL(n_zetam)], v_zetap = delv_zeta[CL(n_zetap)];
#undef CL
#define PICK(m, COMM, SYMM, nb, own) (((m) == 0 || (m) == (COMM)) ? (nb) : ((m) == (SYMM) ? (own) : 0.0))
    double qlin, qquad, phixi, phieta, phizeta, norm, delvm, delvp;
    int m;

    norm = 1.0 / (dxi + ptiny);
    m = bcMask & XI_M; delvm = PICK(m, XI_M_COMM, XI_M_SYMM, v_xim, dxi);
    m = bcMask & XI_P; delvp = PICK(m, XI_P_COMM, XI_P_SYMM, v_xip, dxi);
    delvm = delvm * norm; delvp = delvp * norm;
    phixi = 0.5 * (delvm + delvp);
    delvm *= monoq_limiter_mult; delvp *= monoq_limiter_mult;
    phixi = delvm < phixi ? delvm : phixi;
    phixi = delvp < phixi ? delvp : phixi;
    phixi = phixi < 0.0 ? 0.0 : phixi;
    phixi = phixi > monoq_max_slope ? monoq_max_slope : phixi;

    norm = 1.0 / (deta + ptiny);
    m = bcMask & ETA_M; delvm = PICK(m, ETA_M_COMM, ETA_M_SYMM, v_etam, deta);
    m = bcMask & ETA_P; delvp = PICK(m, ETA_P_COMM, ETA_P_SYMM, v_etap, deta);
    delvm = delvm * norm; delvp = delvp * norm;
    phieta = 0.5 * (delvm + delvp);
    delvm *= monoq_limiter_mult; delvp *= monoq_limiter_mult;
    phieta = delvm < phieta ? delvm : phieta;
    phieta = delvp < phieta ? delvp : phieta;
    phieta = phieta < 0.0 ? 0.0 : phieta;
    phieta = phieta > monoq_max_slope ? monoq_max_slope : phieta;

    norm = 1.0 / (dzeta + ptiny);
    m = bcMask & ZETA_M; delvm = PICK(m, ZETA_M_COMM, ZETA_M_SYMM, v_zetam, dzeta);
    m = bcMask & ZETA_P; delvp = PICK(m, ZETA_P_COMM, ZETA_P_SYMM, v_zetap, dzeta);
    delvm = delvm * norm; delvp = delvp * norm;
    phizeta = 0.5 * (delvm + delvp);
    delvm *= monoq_limiter_mult; delvp *= monoq_limiter_mult;
    phizeta = delvm < phizeta ? delvm : phizeta;
    phizeta = delvp < phizeta ? delvp : phizeta;
    phizeta = phizeta < 0.0 ? 0.0 : phizeta;
    phizeta = phizeta > monoq_max_slope ? monoq_max_slope : phizeta;
#undef PICK
    {
        double delvxxi = dxi * e_dxi, delvxeta = deta * e_deta, delvxzeta = dzeta * e_dzeta, rho;
        delvxxi = delvxxi > 0.0 ? 0.0 : delvxxi;
        delvxeta = delvxeta > 0.0 ? 0.0 : delvxeta;
        delvxzeta = delvxzeta > 0.0 ? 0.0 : delvxzeta;
        rho = e_mass / (e_volo * e_vnew);
        qlin = -qlc_monoq * rho *
               (delvxxi * (1.0 - phixi) + delvxeta * (1.0 - phieta) + delvxzeta * (1.0 - phizeta));
        qquad = qqc_monoq * rho *
                (delvxxi * delvxxi * (1.0 - phixi * phixi) + delvxeta * delvxeta * (1.0 - phieta * phieta) +
                 delvxzeta * delvxzeta * (1.0 - phizeta * phizeta));
    }
    qq[ielem] = e_vdov > 0.0 ? 0.0 : qquad;
    ql[ielem] = e_vdov > 0.0 ? 0.0 : qlin;
}
