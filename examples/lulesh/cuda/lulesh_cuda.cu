// CUDA C references for examples/lulesh: the two kernels as LULESH's CUDA port
// writes them, on the same domain as lulesh_kernels.c (../lulesh_domain.h).
//
//   ApplyAccelerationBoundaryConditionsForNodes: one kernel launched three times
//     (X, Y, Z), 128 threads per block, ceil(numNodeBC / 128) blocks each.
//   CalcMonotonicQRegionForElems: one kernel, 128 threads per block, one thread
//     per element of the list, launched
//       "per-region": once per region over its list (what the OpenMP version does),
//       "one-launch": once over all regions' lists one after another (what the
//                     CUDA port does: elength = numElem).
//
// Each launch is timed with its own pair of cudaEvents (as omp2gpu's launcher
// profile times its launches); a sweep's time is the sum over its launches and
// the best of ITERATIONS sweeps counts. sweep_us is the same sweep timed with one
// pair of events around launches issued back to back.
//
//   nvcc -O3 -arch=sm_90 -o lulesh_cuda lulesh_cuda.cu
//   ./lulesh_cuda [-s SIZE] [-r REGIONS (11 or 1)] [-i ITERATIONS] [-t THREADS] [-H]
//
// -H adds the per-region sweep host-timed four ways (host_timed_monoq below): the
// reference for bench/lulesh/sweep.py, CUDA graphs included.
//
// Prints the domain summary and checks as lulesh_kernels.c does, then one line
// per kernel and variant:
//   RESULT impl=cuda kernel=NAME variant=V s=S regions=R launches=L blocks=B
//          threads=T registers=N shared=BYTES local=BYTES occupancy=F us=BEST sweep_us=BEST check=OK|FAILED
// (blocks=* where the launches' grids differ; occupancy: the theoretical one of a
// full grid, active warps / maximum warps per multiprocessor). Exit status 0 only
// if every check passes.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <cuda_runtime.h>

#include "../lulesh_domain.h"

#define CHECK(call)                                                                        \
    do {                                                                                   \
        cudaError_t e_ = (call);                                                           \
        if (e_ != cudaSuccess) {                                                           \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__,  \
                    __LINE__);                                                             \
            exit(2);                                                                       \
        }                                                                                  \
    } while (0)

__global__ void ApplyAccelerationBoundaryConditionsForNodes_kernel(int numNodeBC, double *xyzdd,
                                                                   const int *symm)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i < numNodeBC)
        xyzdd[symm[i]] = 0.0;
}

__global__ void CalcMonotonicQRegionForElems_kernel(
    double qlc_monoq, double qqc_monoq, double monoq_limiter_mult, double monoq_max_slope,
    double ptiny, int elength, const int *regElemlist, const int *elemBC, const int *lxim,
    const int *lxip, const int *letam, const int *letap, const int *lzetam, const int *lzetap,
    const double *delv_xi, const double *delv_eta, const double *delv_zeta,
    const double *delx_xi, const double *delx_eta, const double *delx_zeta, const double *vdov,
    const double *elemMass, const double *volo, const double *vnew, double *qq, double *ql)
{
    int i = blockDim.x * blockIdx.x + threadIdx.x;
    if (i >= elength)
        return;
    int ielem = regElemlist[i];
    int bcMask = elemBC[ielem];
    double qlin, qquad, phixi, phieta, phizeta, norm;
    double delvm = 0.0, delvp = 0.0;

    // phixi
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

    // phieta
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

    // phizeta
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

    // remove length scale
    if (vdov[ielem] > 0.0) {
        qlin = 0.0;
        qquad = 0.0;
    } else {
        double delvxxi = delv_xi[ielem] * delx_xi[ielem];
        double delvxeta = delv_eta[ielem] * delx_eta[ielem];
        double delvxzeta = delv_zeta[ielem] * delx_zeta[ielem];
        if (delvxxi > 0.0) delvxxi = 0.0;
        if (delvxeta > 0.0) delvxeta = 0.0;
        if (delvxzeta > 0.0) delvxzeta = 0.0;
        double rho = elemMass[ielem] / (volo[ielem] * vnew[ielem]);
        qlin = -qlc_monoq * rho *
               (delvxxi * (1.0 - phixi) + delvxeta * (1.0 - phieta) + delvxzeta * (1.0 - phizeta));
        qquad = qqc_monoq * rho *
                (delvxxi * delvxxi * (1.0 - phixi * phixi) + delvxeta * delvxeta * (1.0 - phieta * phieta) +
                 delvxzeta * delvxzeta * (1.0 - phizeta * phizeta));
    }
    qq[ielem] = qquad;
    ql[ielem] = qlin;
}

// ------------------------------------------------------------------ device copies
static int *to_device(const int *host, int n)
{
    int *p;
    CHECK(cudaMalloc(&p, sizeof(int) * (n > 0 ? n : 1)));
    if (n > 0) CHECK(cudaMemcpy(p, host, sizeof(int) * n, cudaMemcpyHostToDevice));
    return p;
}

static double *to_device(const double *host, int n)
{
    double *p;
    CHECK(cudaMalloc(&p, sizeof(double) * (n > 0 ? n : 1)));
    if (n > 0) CHECK(cudaMemcpy(p, host, sizeof(double) * n, cudaMemcpyHostToDevice));
    return p;
}

struct DeviceDomain {
    int *symmX, *symmY, *symmZ, *regElemlist, *elemBC, *lxim, *lxip, *letam, *letap, *lzetam, *lzetap;
    double *delv_xi, *delv_eta, *delv_zeta, *delx_xi, *delx_eta, *delx_zeta, *vdov, *elemMass, *volo,
        *vnew, *qq, *ql, *xdd, *ydd, *zdd;
};

static int blocks_for(int n, int threads) { return (n + threads - 1) / threads; }

// ------------------------------------------------------------------ timing
struct Timer {
    cudaEvent_t start, stop, sweepStart, sweepStop;
    float launches_ms;    // sum of the launches of the current sweep, each timed alone
};

static void timer_init(Timer *t)
{
    CHECK(cudaEventCreate(&t->start));
    CHECK(cudaEventCreate(&t->stop));
    CHECK(cudaEventCreate(&t->sweepStart));
    CHECK(cudaEventCreate(&t->sweepStop));
}

// One launch, timed alone.
#define TIMED_LAUNCH(timer, launch)                                         \
    do {                                                                    \
        float ms_;                                                          \
        CHECK(cudaEventRecord((timer).start));                              \
        launch;                                                             \
        CHECK(cudaEventRecord((timer).stop));                               \
        CHECK(cudaEventSynchronize((timer).stop));                          \
        CHECK(cudaGetLastError());                                          \
        CHECK(cudaEventElapsedTime(&ms_, (timer).start, (timer).stop));     \
        (timer).launches_ms += ms_;                                         \
    } while (0)

static void launch_accel(const Domain *d, const DeviceDomain *g, int threads, Timer *t)
{
    int blocks = blocks_for(d->numNodeBC, threads);
    if (d->numNodeBC == 0) return;
    if (t) {
        TIMED_LAUNCH(*t, (ApplyAccelerationBoundaryConditionsForNodes_kernel<<<blocks, threads>>>(
                             d->numNodeBC, g->xdd, g->symmX)));
        TIMED_LAUNCH(*t, (ApplyAccelerationBoundaryConditionsForNodes_kernel<<<blocks, threads>>>(
                             d->numNodeBC, g->ydd, g->symmY)));
        TIMED_LAUNCH(*t, (ApplyAccelerationBoundaryConditionsForNodes_kernel<<<blocks, threads>>>(
                             d->numNodeBC, g->zdd, g->symmZ)));
    } else {
        ApplyAccelerationBoundaryConditionsForNodes_kernel<<<blocks, threads>>>(d->numNodeBC, g->xdd, g->symmX);
        ApplyAccelerationBoundaryConditionsForNodes_kernel<<<blocks, threads>>>(d->numNodeBC, g->ydd, g->symmY);
        ApplyAccelerationBoundaryConditionsForNodes_kernel<<<blocks, threads>>>(d->numNodeBC, g->zdd, g->symmZ);
    }
}

static void launch_monoq_list(const Domain *d, const DeviceDomain *g, int threads, int start, int elength,
                              Timer *t, cudaStream_t stream = 0)
{
    if (elength == 0) return;
#define MONOQ_ARGS                                                                                    \
    d->qlc_monoq, d->qqc_monoq, d->monoq_limiter_mult, d->monoq_max_slope, d->ptiny, elength,         \
        g->regElemlist + start, g->elemBC, g->lxim, g->lxip, g->letam, g->letap, g->lzetam, g->lzetap, \
        g->delv_xi, g->delv_eta, g->delv_zeta, g->delx_xi, g->delx_eta, g->delx_zeta, g->vdov,         \
        g->elemMass, g->volo, g->vnew, g->qq, g->ql
    if (t)
        TIMED_LAUNCH(*t, (CalcMonotonicQRegionForElems_kernel<<<blocks_for(elength, threads), threads>>>(MONOQ_ARGS)));
    else
        CalcMonotonicQRegionForElems_kernel<<<blocks_for(elength, threads), threads, 0, stream>>>(MONOQ_ARGS);
#undef MONOQ_ARGS
}

static void launch_monoq(const Domain *d, const DeviceDomain *g, int threads, int perRegion, Timer *t)
{
    if (perRegion)
        for (int r = 0; r < d->numReg; r++)
            launch_monoq_list(d, g, threads, d->regStart[r], d->regElemSize[r], t);
    else
        launch_monoq_list(d, g, threads, 0, d->numElem, t);
}

enum { ACCEL, MONOQ_PER_REGION, MONOQ_ONE_LAUNCH };

static void sweep(int which, const Domain *d, const DeviceDomain *g, int threads, Timer *t)
{
    if (which == ACCEL) launch_accel(d, g, threads, t);
    else launch_monoq(d, g, threads, which == MONOQ_PER_REGION, t);
}

// Best over iterations of: (sum of individually timed launches, one back-to-back sweep), in us.
static void best_sweep(int which, const Domain *d, const DeviceDomain *g, int threads, int iterations,
                       Timer *t, double *best_us, double *best_sweep_us)
{
    *best_us = *best_sweep_us = 1e30;
    sweep(which, d, g, threads, NULL);          // warm-up
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaGetLastError());
    for (int it = 0; it < iterations; it++) {
        float ms;
        t->launches_ms = 0.0f;
        sweep(which, d, g, threads, t);
        if (t->launches_ms * 1e3 < *best_us) *best_us = t->launches_ms * 1e3;
        CHECK(cudaEventRecord(t->sweepStart));
        sweep(which, d, g, threads, NULL);
        CHECK(cudaEventRecord(t->sweepStop));
        CHECK(cudaEventSynchronize(t->sweepStop));
        CHECK(cudaGetLastError());
        CHECK(cudaEventElapsedTime(&ms, t->sweepStart, t->sweepStop));
        if (ms * 1e3 < *best_sweep_us) *best_sweep_us = ms * 1e3;
    }
}

// ------------------------------------------------------------------ host-timed sweeps
// The per-region sweep timed on the host (as bench/lulesh/sweep.py times omp2gpu's), four ways:
//   waited:   each launch followed by cudaStreamSynchronize (a synchronous target region each);
//   serial:   the launches back to back on one stream, one synchronisation at the end;
//   streams:  launch r on stream r (11 streams), one device synchronisation at the end;
//   graph:    the streams sweep captured once into a CUDA graph (fork/join events), replayed;
//   hostfunc: as streams, each launch followed by a host function that counts it done, the
//             host waiting for the count (how omp2gpu completes a nowait target task).
// Prints HOSTTIMED mode=M best_us=B mean_us=A for each.
static double now_us()
{
    timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec * 1e-3;
}

enum { WAITED, SERIAL, STREAMS, GRAPH, HOSTFUNC, HOST_MODES };

static volatile int launches_done;

static void CUDART_CB count_done(void *)
{
    __sync_fetch_and_add(&launches_done, 1);
}

static void host_timed_monoq(const Domain *d, const DeviceDomain *g, int threads, int iterations)
{
    const char *modes[] = {"waited", "serial", "streams", "graph", "hostfunc"};
    const int nstreams = d->numReg;
    cudaStream_t *streams = (cudaStream_t *)malloc(sizeof(cudaStream_t) * nstreams);
    cudaEvent_t *joined = (cudaEvent_t *)malloc(sizeof(cudaEvent_t) * nstreams);
    cudaStream_t origin;
    cudaEvent_t fork;
    CHECK(cudaStreamCreateWithFlags(&origin, cudaStreamNonBlocking));
    CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
    for (int r = 0; r < nstreams; r++) {
        CHECK(cudaStreamCreateWithFlags(&streams[r], cudaStreamNonBlocking));
        CHECK(cudaEventCreateWithFlags(&joined[r], cudaEventDisableTiming));
    }
    // the graph: origin forks to every region's stream and joins them again
    cudaGraph_t graph;
    cudaGraphExec_t replay;
    CHECK(cudaStreamBeginCapture(origin, cudaStreamCaptureModeGlobal));
    CHECK(cudaEventRecord(fork, origin));
    for (int r = 0; r < nstreams; r++) {
        CHECK(cudaStreamWaitEvent(streams[r], fork, 0));
        launch_monoq_list(d, g, threads, d->regStart[r], d->regElemSize[r], NULL, streams[r]);
        CHECK(cudaEventRecord(joined[r], streams[r]));
        CHECK(cudaStreamWaitEvent(origin, joined[r], 0));
    }
    CHECK(cudaStreamEndCapture(origin, &graph));
    CHECK(cudaGraphInstantiate(&replay, graph, 0));
    for (int mode = WAITED; mode < HOST_MODES; mode++) {
        double best = 1e30, sum = 0.0;
        for (int it = 0; it <= iterations; it++) {      // sweep 0 warms up, untimed
            double t0 = now_us();
            if (mode == GRAPH) {
                CHECK(cudaGraphLaunch(replay, origin));
                CHECK(cudaStreamSynchronize(origin));
            } else if (mode == HOSTFUNC) {
                int launched = 0;
                launches_done = 0;
                for (int r = 0; r < d->numReg; r++) {
                    if (d->regElemSize[r] == 0) continue;
                    launch_monoq_list(d, g, threads, d->regStart[r], d->regElemSize[r], NULL, streams[r]);
                    CHECK(cudaLaunchHostFunc(streams[r], count_done, NULL));
                    launched++;
                }
                while (launches_done < launched) {
                }
            } else {
                for (int r = 0; r < d->numReg; r++) {
                    cudaStream_t s = mode == STREAMS ? streams[r] : 0;
                    launch_monoq_list(d, g, threads, d->regStart[r], d->regElemSize[r], NULL, s);
                    if (mode == WAITED) CHECK(cudaStreamSynchronize(s));
                }
                CHECK(cudaDeviceSynchronize());
            }
            double us = now_us() - t0;
            if (it > 0) {
                sum += us;
                if (us < best) best = us;
            }
        }
        CHECK(cudaGetLastError());
        printf("HOSTTIMED mode=%s best_us=%.3f mean_us=%.3f\n", modes[mode], best, sum / iterations);
    }
    CHECK(cudaGraphExecDestroy(replay));
    CHECK(cudaGraphDestroy(graph));
    for (int r = 0; r < nstreams; r++) {
        CHECK(cudaStreamDestroy(streams[r]));
        CHECK(cudaEventDestroy(joined[r]));
    }
    CHECK(cudaStreamDestroy(origin));
    CHECK(cudaEventDestroy(fork));
    free(streams);
    free(joined);
}

static double occupancy(const void *kernel, int threads, const cudaDeviceProp *prop)
{
    int active = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, kernel, threads, 0));
    int warps = (threads + prop->warpSize - 1) / prop->warpSize;
    return (double)(active * warps) / (double)(prop->maxThreadsPerMultiProcessor / prop->warpSize);
}

int main(int argc, char **argv)
{
    int s = 30, regions = 11, iterations = 10, threads = 128, hostTimed = 0;
    for (int a = 1; a < argc; a++) {
        if (a + 1 < argc && strcmp(argv[a], "-s") == 0) s = atoi(argv[++a]);
        else if (a + 1 < argc && strcmp(argv[a], "-r") == 0) regions = atoi(argv[++a]);
        else if (a + 1 < argc && strcmp(argv[a], "-i") == 0) iterations = atoi(argv[++a]);
        else if (a + 1 < argc && strcmp(argv[a], "-t") == 0) threads = atoi(argv[++a]);
        else if (strcmp(argv[a], "-H") == 0) hostTimed = 1;
        else {
            fprintf(stderr, "usage: %s [-s SIZE] [-r REGIONS (11 or 1)] [-i ITERATIONS] [-t THREADS] [-H]\n", argv[0]);
            return 2;
        }
    }
    if (s < 1 || s > 400 || (regions != 11 && regions != 1) || iterations < 1 || threads < 1 || threads > 1024) {
        fprintf(stderr, "%s: bad option value\n", argv[0]);
        return 2;
    }

    Domain d;
    lulesh_build_domain(&d, s, regions);
    printf("lulesh_cuda: s=%d regions=%d iterations=%d threads=%d\n", s, regions, iterations, threads);
    lulesh_print_domain(&d);

    cudaDeviceProp prop;
    int device;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaGetDeviceProperties(&prop, device));
    printf("device: %s (sm_%d%d, %d multiprocessors)\n", prop.name, prop.major, prop.minor,
           prop.multiProcessorCount);

    DeviceDomain g;
    g.symmX = to_device(d.symmX, d.numNodeBC);
    g.symmY = to_device(d.symmY, d.numNodeBC);
    g.symmZ = to_device(d.symmZ, d.numNodeBC);
    g.regElemlist = to_device(d.regElemlist, d.numElem);
    g.elemBC = to_device(d.elemBC, d.numElem);
    g.lxim = to_device(d.lxim, d.numElem);
    g.lxip = to_device(d.lxip, d.numElem);
    g.letam = to_device(d.letam, d.numElem);
    g.letap = to_device(d.letap, d.numElem);
    g.lzetam = to_device(d.lzetam, d.numElem);
    g.lzetap = to_device(d.lzetap, d.numElem);
    g.delv_xi = to_device(d.delv_xi, d.numElem);
    g.delv_eta = to_device(d.delv_eta, d.numElem);
    g.delv_zeta = to_device(d.delv_zeta, d.numElem);
    g.delx_xi = to_device(d.delx_xi, d.numElem);
    g.delx_eta = to_device(d.delx_eta, d.numElem);
    g.delx_zeta = to_device(d.delx_zeta, d.numElem);
    g.vdov = to_device(d.vdov, d.numElem);
    g.elemMass = to_device(d.elemMass, d.numElem);
    g.volo = to_device(d.volo, d.numElem);
    g.vnew = to_device(d.vnew, d.numElem);
    g.xdd = to_device(d.xdd, d.numNode);
    g.ydd = to_device(d.ydd, d.numNode);
    g.zdd = to_device(d.zdd, d.numNode);
    g.qq = to_device(d.qq, d.numElem);
    g.ql = to_device(d.ql, d.numElem);

    Timer timer;
    timer_init(&timer);
    const char *names[] = {"ApplyAccelerationBoundaryConditionsForNodes", "CalcMonotonicQRegionForElems",
                           "CalcMonotonicQRegionForElems"};
    const char *variants[] = {"xyz", "per-region", "one-launch"};
    const void *kernels[] = {(const void *)ApplyAccelerationBoundaryConditionsForNodes_kernel,
                             (const void *)CalcMonotonicQRegionForElems_kernel,
                             (const void *)CalcMonotonicQRegionForElems_kernel};
    int allOk = 1;
    double *qq = LULESH_DOUBLES(d.numElem), *ql = LULESH_DOUBLES(d.numElem);
    double *xdd = LULESH_DOUBLES(d.numNode), *ydd = LULESH_DOUBLES(d.numNode), *zdd = LULESH_DOUBLES(d.numNode);
    int launchedRegions = 0;
    for (int r = 0; r < d.numReg; r++) launchedRegions += d.regElemSize[r] > 0;

    for (int which = ACCEL; which <= MONOQ_ONE_LAUNCH; which++) {
        // fresh outputs: the check sees only what this variant wrote
        CHECK(cudaMemcpy(g.qq, d.qq, sizeof(double) * d.numElem, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(g.ql, d.ql, sizeof(double) * d.numElem, cudaMemcpyHostToDevice));
        double us, sweep_us;
        best_sweep(which, &d, &g, threads, iterations, &timer, &us, &sweep_us);
        long bad;
        int launches, blocks;
        if (which == ACCEL) {
            CHECK(cudaMemcpy(xdd, g.xdd, sizeof(double) * d.numNode, cudaMemcpyDeviceToHost));
            CHECK(cudaMemcpy(ydd, g.ydd, sizeof(double) * d.numNode, cudaMemcpyDeviceToHost));
            CHECK(cudaMemcpy(zdd, g.zdd, sizeof(double) * d.numNode, cudaMemcpyDeviceToHost));
            bad = lulesh_check_accel_bc(&d, d.xdd, d.ydd, d.zdd, xdd, ydd, zdd, 1);
            printf("check %s (%s): %s (%d nodes, %ld differ, exact)\n", names[which], variants[which],
                   bad == 0 ? "OK" : "FAILED", d.numNode, bad);
            launches = d.numNodeBC > 0 ? 3 : 0;
            blocks = blocks_for(d.numNodeBC, threads);
        } else {
            CHECK(cudaMemcpy(qq, g.qq, sizeof(double) * d.numElem, cudaMemcpyDeviceToHost));
            CHECK(cudaMemcpy(ql, g.ql, sizeof(double) * d.numElem, cudaMemcpyDeviceToHost));
            bad = lulesh_check_monoq(&d, qq, ql, 1);
            printf("check %s (%s): %s (%d elements, %ld differ, tolerance %g relative)\n", names[which],
                   variants[which], bad == 0 ? "OK" : "FAILED", d.numElem, bad, LULESH_MONOQ_TOLERANCE);
            launches = which == MONOQ_PER_REGION ? launchedRegions : 1;
            blocks = which == MONOQ_PER_REGION && launchedRegions > 1 ? -1 : blocks_for(d.numElem, threads);
        }
        allOk = allOk && bad == 0;
        cudaFuncAttributes attributes;
        CHECK(cudaFuncGetAttributes(&attributes, kernels[which]));
        char blockText[32];
        if (blocks < 0) snprintf(blockText, sizeof blockText, "*");
        else snprintf(blockText, sizeof blockText, "%d", blocks);
        printf("RESULT impl=cuda kernel=%s variant=%s s=%d regions=%d launches=%d blocks=%s threads=%d "
               "registers=%d shared=%d local=%d occupancy=%.4f us=%.3f sweep_us=%.3f check=%s\n",
               names[which], variants[which], s, d.numReg, launches, blockText, threads, attributes.numRegs,
               (int)attributes.sharedSizeBytes, (int)attributes.localSizeBytes,
               occupancy(kernels[which], threads, &prop), us, sweep_us, bad == 0 ? "OK" : "FAILED");
    }
    if (hostTimed && d.numReg > 1) {
        host_timed_monoq(&d, &g, threads, iterations);
        CHECK(cudaMemcpy(qq, g.qq, sizeof(double) * d.numElem, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(ql, g.ql, sizeof(double) * d.numElem, cudaMemcpyDeviceToHost));
        long bad = lulesh_check_monoq(&d, qq, ql, 1);
        printf("check CalcMonotonicQRegionForElems (host-timed modes): %s\n", bad == 0 ? "OK" : "FAILED");
        allOk = allOk && bad == 0;
    }
    printf("%s\n", allOk ? "PASSED" : "FAILED");
    free(qq); free(ql); free(xdd); free(ydd); free(zdd);
    lulesh_free_domain(&d);
    return allOk ? 0 : 1;
}
