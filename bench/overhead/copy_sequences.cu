// bench/overhead: which host sequence moves one int to the GPU, runs a kernel on it and
// brings it back fastest. CUDA C's own (cudaMemcpy, <<<>>>, cudaMemcpy) against driver-API
// sequences with the same kernel; each figure is the best of 5 timings of 20000 regions,
// in microseconds per region. The offload runtime's small copies (cuda_device.c) take the
// pinned-staging sequence: one wait a region instead of one a copy.
//
//   nvcc -cubin -arch=sm_90 -o /tmp/increment.cubin copy_sequences.cu
//   nvcc -O2 -arch=sm_90 -o copy_sequences copy_sequences.cu -lcuda && ./copy_sequences /tmp/increment.cubin
#include <chrono>
#include <cstdio>
#include <cuda.h>
#include <cuda_runtime.h>

extern "C" __global__ void increment(int *x) { x[0]++; }

static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <typename Body> static double best(Body body) {
    const int regions = 20000;
    double fastest = 1e9;
    for (int t = 0; t < 5; t++) {
        double start = now();
        for (int r = 0; r < regions; r++) body();
        double took = (now() - start) / regions * 1e6;
        if (took < fastest) fastest = took;
    }
    return fastest;
}

int main(int argc, char **argv) {
    static int x = 0;
    int *dx, *pinned;
    CUmodule module;
    CUfunction kernel;
    CUstream own;
    if (argc < 2) { fprintf(stderr, "usage: copy_sequences INCREMENT_CUBIN\n"); return 2; }
    cudaMalloc(&dx, sizeof(int));
    increment<<<1, 1>>>(dx);
    cudaDeviceSynchronize();                                   // the runtime's context, current
    if (cuModuleLoad(&module, argv[1]) || cuModuleGetFunction(&kernel, module, "increment")) return 1;
    CUdeviceptr device = (CUdeviceptr)dx;
    void *args[] = {&device};
    cudaMallocHost(&pinned, 64);
    cuStreamCreate(&own, CU_STREAM_NON_BLOCKING);
    auto launch = [&](CUstream stream) { cuLaunchKernel(kernel, 1, 1, 1, 1, 1, 1, 0, stream, args, 0); };
    for (int round = 1; round <= 2; round++) {
        printf("round %d\n", round);
        printf("CUDA C: cudaMemcpy, <<<>>>, cudaMemcpy            %7.3f\n", best([&] {
            cudaMemcpy(dx, &x, 4, cudaMemcpyHostToDevice); increment<<<1, 1>>>(dx);
            cudaMemcpy(&x, dx, 4, cudaMemcpyDeviceToHost); }));
        printf("driver: cuMemcpyHtoD, launch, cuMemcpyDtoH        %7.3f\n", best([&] {
            cuMemcpyHtoD(device, &x, 4); launch(0); cuMemcpyDtoH(&x, device, 4); }));
        printf("driver: async copies on the legacy stream, a wait %7.3f\n", best([&] {
            cuMemcpyHtoDAsync(device, &x, 4, 0); launch(0); cuMemcpyDtoHAsync(&x, device, 4, 0);
            cuStreamSynchronize(0); }));
        printf("driver: the same on a non-blocking stream         %7.3f\n", best([&] {
            cuMemcpyHtoDAsync(device, &x, 4, own); launch(own); cuMemcpyDtoHAsync(&x, device, 4, own);
            cuStreamSynchronize(own); }));
        printf("driver: pinned staging, legacy stream, a wait     %7.3f\n", best([&] {
            pinned[0] = x; cuMemcpyHtoDAsync(device, pinned, 4, 0); launch(0);
            cuMemcpyDtoHAsync(pinned + 1, device, 4, 0); cuStreamSynchronize(0); x = pinned[1]; }));
    }
    printf("x = %d\n", x);
    return 0;
}
