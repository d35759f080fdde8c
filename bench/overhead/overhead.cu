// bench/overhead's reference: the same three measurements in CUDA C, host-timed the
// same way (best of 5 over REGIONS), plus the vector add's kernel time from events.
// Usage: overhead_cuda REGIONS VADD_N VADD_REPS BLOCKS THREADS
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <algorithm>
#include <cuda.h>
#include <cuda_runtime.h>

__global__ void empty() {}
__global__ void increment(int *x) { x[0]++; }
__global__ void vectorAdd(int n, double *a, double *b, double *c) {
    for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += blockDim.x * gridDim.x)
        a[i] += b[i] + c[i];
}

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); exit(1); } } while (0)

static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

template <typename Body> static double best_of_5(int count, Body body) {
    double best = 1e30;
    for (int t = 0; t < 5; t++) {
        double start = now();
        for (int r = 0; r < count; r++) body();
        double took = (now() - start) / count;
        if (took < best) best = took;
    }
    return best * 1e6;
}

int main(int argc, char **argv) {
    int regions = atoi(argv[1]), n = atoi(argv[2]), reps = atoi(argv[3]);
    int blocks = atoi(argv[4]), threads = atoi(argv[5]);
    int x = 0, *dx;
    double *a, *b, *c;
    size_t bytes = sizeof(double) * n;
    CHECK(cudaMalloc(&dx, sizeof(int)));
    CHECK(cudaMalloc(&a, bytes)); CHECK(cudaMalloc(&b, bytes)); CHECK(cudaMalloc(&c, bytes));
    CHECK(cudaMemset(a, 0, bytes)); CHECK(cudaMemset(b, 0, bytes)); CHECK(cudaMemset(c, 0, bytes));
    empty<<<1, 1>>>(); CHECK(cudaDeviceSynchronize());
    double empty_us = best_of_5(regions, [&] { empty<<<1, 1>>>(); cudaDeviceSynchronize(); });
    double scalar_us = best_of_5(regions, [&] {
        cudaMemcpy(dx, &x, sizeof(int), cudaMemcpyHostToDevice);
        increment<<<1, 1>>>(dx);
        cudaMemcpy(&x, dx, sizeof(int), cudaMemcpyDeviceToHost);
    });
    vectorAdd<<<blocks, threads>>>(n, a, b, c); CHECK(cudaDeviceSynchronize());
    double vadd_us = best_of_5(reps, [&] { vectorAdd<<<blocks, threads>>>(n, a, b, c); cudaDeviceSynchronize(); });
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start)); CHECK(cudaEventCreate(&stop));
    float kernel_ms = 1e30f;
    for (int r = 0; r < reps; r++) {
        vectorAdd<<<blocks, threads>>>(n, a, b, c);      // keeps the stream busy: no latency timed
        CHECK(cudaEventRecord(start));
        vectorAdd<<<blocks, threads>>>(n, a, b, c);
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        float ms; CHECK(cudaEventElapsedTime(&ms, start, stop));
        if (ms < kernel_ms) kernel_ms = ms;
    }
    // the fastest wait, for the empty kernel and the vector add alike
    cudaStream_t stream;
    cudaEvent_t done;
    unsigned *flag, sequence = 0;
    CUdeviceptr flag_device;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    CHECK(cudaHostAlloc((void **)&flag, sizeof(unsigned), cudaHostAllocMapped));
    *flag = 0;
    CHECK(cudaHostGetDevicePointer((void **)&flag_device, flag, 0));
    double fastest[2];
    for (int k = 0; k < 2; k++) {
        int count = k == 0 ? regions : reps;
        auto launch = [&](cudaStream_t s) {
            if (k == 0) empty<<<1, 1, 0, s>>>();
            else vectorAdd<<<blocks, threads, 0, s>>>(n, a, b, c);
        };
        double stream_sync = best_of_5(count, [&] { launch(stream); cudaStreamSynchronize(stream); });
        double event_spin = best_of_5(count, [&] {
            launch(stream); cudaEventRecord(done, stream);
            while (cudaEventQuery(done) == cudaErrorNotReady) {}
        });
        double flag_spin = best_of_5(count, [&] {
            launch(stream);
            if (cuStreamWriteValue32((CUstream)stream, flag_device, ++sequence, 0) != CUDA_SUCCESS) exit(1);
            while (*(volatile unsigned *)flag != sequence) {}
        });
        fastest[k] = std::min({k == 0 ? empty_us : vadd_us, stream_sync, event_spin, flag_spin});
        const char *name = k == 0 ? "empty" : "vadd";
        printf("%s_wait_stream_sync_us %.3f\n%s_wait_event_spin_us %.3f\n%s_wait_flag_spin_us %.3f\n", name,
               stream_sync, name, event_spin, name, flag_spin);
    }
    CHECK(cudaGetLastError());
    printf("empty_fastest_us %.3f\nvadd_fastest_us %.3f\n", fastest[0], fastest[1]);
    printf("empty_us %.3f\nscalar_us %.3f\nvadd_us %.3f\nvadd_kernel_us %.3f\nerrors %d\n", empty_us,
           scalar_us, vadd_us, kernel_ms * 1e3, x == 5 * regions ? 0 : 1);
    return 0;
}
