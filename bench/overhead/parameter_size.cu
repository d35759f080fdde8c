// bench/overhead/parameter_size.py: launch cost against the kernel parameter's size (CUDA C): host-timed
// launch + wait, the launch call alone, and back-to-back throughput, on a stream with an event
// waited for, as omp2gpu's runtime does (the fused kernel's parameter is 4,096 bytes).
#include <cstdio>
#include <chrono>
#include <cuda_runtime.h>
static double now_us() { return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now().time_since_epoch()).count(); }
template <int N> struct P { long w[N]; };
template <int N> __global__ void k(P<N> p) { if (threadIdx.x == 0 && p.w[N - 1] == 12345) printf("x"); }
template <int N> void measure(int grid) {
    P<N> p = {};
    cudaStream_t s; cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaEvent_t e; cudaEventCreateWithFlags(&e, cudaEventDisableTiming);
    for (int i = 0; i < 200; i++) k<N><<<grid, 128, 0, s>>>(p);
    cudaStreamSynchronize(s);
    double best = 1e9, sum = 0, callbest = 1e9, callsum = 0;
    const int R = 3000;
    for (int i = 0; i < R; i++) {
        double t0 = now_us();
        k<N><<<grid, 128, 0, s>>>(p);
        double t1 = now_us();
        cudaEventRecord(e, s);
        cudaEventSynchronize(e);
        double t2 = now_us();
        best = std::min(best, t2 - t0); sum += t2 - t0;
        callbest = std::min(callbest, t1 - t0); callsum += t1 - t0;
    }
    double b0 = now_us();
    for (int i = 0; i < R; i++) k<N><<<grid, 128, 0, s>>>(p);
    cudaStreamSynchronize(s);
    double b1 = now_us();
    printf("PARAMS bytes=%5d grid=%5d launch+wait best %.2f mean %.2f us | launch call best %.2f mean %.2f us | back-to-back %.2f us each\n",
           (int)sizeof(P<N>), grid, best, sum / R, callbest, callsum / R, (b1 - b0) / R);
    cudaEventDestroy(e); cudaStreamDestroy(s);
}
int main() {
    for (int grid : {1, 2112}) {
        measure<1>(grid); measure<64>(grid); measure<128>(grid); measure<256>(grid); measure<384>(grid); measure<512>(grid);
    }
    return 0;
}
