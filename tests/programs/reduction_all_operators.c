/* Every C reduction operator (+ * - & | ^ && || max min) on int and double, host and target. */
#include <stdio.h>

#define N 64

int main(void)
{
    int v[N];
    double dv[N];
    int i;
    int isum = 0, iprod = 1, idiff = 0, iand = ~0, ior = 0, ixor = 0, land = 1, lor = 0, imax = -1000, imin = 1000;
    double dsum = 0, dprod = 1, ddiff = 0, dmax = -1e300, dmin = 1e300;
    int tland = 1, tlor = 0, tand = ~0, tor = 0, txor = 0, tmax = -1000, tmin = 1000, tprod = 1, tsum = 0;
    double tdsum = 0, tdprod = 1, tdmax = -1e300, tdmin = 1e300;

    for (i = 0; i < N; i++) {
        v[i] = (i * 37) % 61 - 20;
        dv[i] = (i % 2 ? -1.0 : 1.0) * (1.0 + (i % 3));
    }

#pragma omp parallel for reduction(+: isum) reduction(*: iprod) reduction(-: idiff) reduction(&: iand) \
    reduction(|: ior) reduction(^: ixor) reduction(&&: land) reduction(||: lor) reduction(max: imax) reduction(min: imin)
    for (i = 0; i < N; i++) {
        isum += v[i];
        if (i % 8 == 0)
            iprod *= (v[i] % 3 + 3) % 3 + 1;
        idiff -= v[i];
        iand &= v[i] | 0x100;
        ior |= 1 << (i % 20);
        ixor ^= v[i];
        land = land && (v[i] > -50);
        lor = lor || (v[i] == 40);
        if (v[i] > imax) imax = v[i];
        if (v[i] < imin) imin = v[i];
    }
    printf("int host: + %d * %d - %d & %d | %d ^ %d && %d || %d max %d min %d\n",
           isum, iprod, idiff, iand, ior, ixor, land, lor, imax, imin);

#pragma omp parallel for reduction(+: dsum) reduction(*: dprod) reduction(-: ddiff) reduction(max: dmax) reduction(min: dmin)
    for (i = 0; i < N; i++) {
        dsum += dv[i];
        if (i % 4 == 0)
            dprod *= dv[i];
        ddiff -= dv[i] * 0.5;
        dmax = dmax > dv[i] * i ? dmax : dv[i] * i;
        dmin = dmin < dv[i] * i ? dmin : dv[i] * i;
    }
    printf("double host: + %g * %g - %g max %g min %g\n", dsum, dprod, ddiff, dmax, dmin);

#pragma omp target teams distribute parallel for map(to: v) map(tofrom: tland, tlor, tand, tor, txor, tmax, tmin, tprod, tsum) \
    reduction(&&: tland) reduction(||: tlor) reduction(&: tand) reduction(|: tor) reduction(^: txor) \
    reduction(max: tmax) reduction(min: tmin) reduction(*: tprod) reduction(+: tsum)
    for (i = 0; i < N; i++) {
        tland = tland && (v[i] != 0);
        tlor = tlor || (v[i] > 39);
        tand &= ~(1 << (i % 31));
        tor |= v[i] & 0xf0;
        txor ^= i * 3;
        tmax = v[i] > tmax ? v[i] : tmax;
        tmin = v[i] < tmin ? v[i] : tmin;
        if (i % 16 == 3)
            tprod *= -2;
        tsum += 1;
    }
    printf("int target: && %d || %d & %d | %d ^ %d max %d min %d * %d + %d\n", tland, tlor, tand, tor, txor, tmax, tmin, tprod, tsum);

#pragma omp target teams distribute parallel for map(to: dv) map(tofrom: tdsum, tdprod, tdmax, tdmin) \
    reduction(+: tdsum) reduction(*: tdprod) reduction(max: tdmax) reduction(min: tdmin)
    for (i = 0; i < N; i++) {
        tdsum += dv[i] * 0.25;
        if (i % 8 == 1)
            tdprod *= dv[i] * 2;
        tdmax = tdmax > dv[i] ? tdmax : dv[i];
        tdmin = tdmin < dv[i] ? tdmin : dv[i];
    }
    printf("double target: + %g * %g max %g min %g\n", tdsum, tdprod, tdmax, tdmin);

    /* logical reductions that flip: all zero / none zero */
    land = 1;
    lor = 0;
#pragma omp parallel for reduction(&&: land) reduction(||: lor)
    for (i = 0; i < N; i++) {
        land = land && (i != 33);
        lor = lor || (i == 63);
    }
    printf("flip: && %d || %d\n", land, lor);
    return 0;
}
