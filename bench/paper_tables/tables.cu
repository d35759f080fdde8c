// The CUDA C columns of the paper's Tables 1 and 2: Fig. 6's vectorAdd and
// Fig. 7's vectorAddUnroll, timed over a list of launch configurations.
//
//   tables_cuda TABLE N REPS [BLOCKS THREADS]...       (TABLE: 1 or 2)
//
// Prints one line per configuration, "config BLOCKS THREADS BEST_US", then
// "attributes REGISTERS SHARED_BYTES LOCAL_BYTES MULTIPROCESSORS" (cudaFuncGetAttributes)
// and "errors E". Data stays on the device; each launch is timed with its own events.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define N_LOOP 100

extern "C" __global__ void vectorAdd(int n, double *a, double *b, double *c) {
    for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += blockDim.x * gridDim.x)
        a[i] += b[i] + c[i];
}

extern "C" __global__ void vectorAddUnroll(int n, double *a, double *b, double *c) {
    for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += blockDim.x * gridDim.x)
        for (int j = 0; j < N_LOOP; j++)
            a[i] += b[i] + c[N_LOOP * i + j];
}

#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { \
    fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(e), __FILE__, __LINE__); exit(1); } } while (0)

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s TABLE N REPS [BLOCKS THREADS]...\n", argv[0]);
        return 2;
    }
    int table = atoi(argv[1]), n = atoi(argv[2]), reps = atoi(argv[3]);
    int configs = (argc - 4) / 2;
    void (*kernel)(int, double *, double *, double *) = table == 2 ? vectorAddUnroll : vectorAdd;
    size_t c_count = table == 2 ? (size_t)n * N_LOOP : (size_t)n;
    double *hb = (double *)malloc(sizeof(double) * n), *hc = (double *)malloc(sizeof(double) * c_count);
    double *ha = (double *)malloc(sizeof(double) * n);
    for (int i = 0; i < n; i++) hb[i] = (double)(i % 5);
    for (size_t m = 0; m < c_count; m++) hc[m] = (double)(m % 3);
    double *a, *b, *c;
    CHECK(cudaMalloc(&a, sizeof(double) * n)); CHECK(cudaMalloc(&b, sizeof(double) * n));
    CHECK(cudaMalloc(&c, sizeof(double) * c_count));
    CHECK(cudaMemset(a, 0, sizeof(double) * n));
    CHECK(cudaMemcpy(b, hb, sizeof(double) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(c, hc, sizeof(double) * c_count, cudaMemcpyHostToDevice));
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start)); CHECK(cudaEventCreate(&stop));
    long launches = 0;
    for (int k = 0; k < configs; k++) {
        int blocks = atoi(argv[4 + 2 * k]), threads = atoi(argv[5 + 2 * k]);
        float best = 1e30f;
        for (int r = 0; r < reps; r++) {
            CHECK(cudaEventRecord(start));
            kernel<<<blocks, threads>>>(n, a, b, c);
            CHECK(cudaEventRecord(stop));
            CHECK(cudaEventSynchronize(stop));
            CHECK(cudaGetLastError());
            float ms; CHECK(cudaEventElapsedTime(&ms, start, stop));
            if (ms < best) best = ms;
            launches++;
        }
        printf("config %d %d %.3f\n", blocks, threads, best * 1e3);
        fflush(stdout);
    }
    CHECK(cudaMemcpy(ha, a, sizeof(double) * n, cudaMemcpyDeviceToHost));
    long errors = 0;
    for (int i = 0; i < n; i++) {
        double once = 0.0;
        int loop = table == 2 ? N_LOOP : 1;
        for (int j = 0; j < loop; j++) once += hb[i] + hc[(size_t)loop * i + j];
        if (ha[i] != (double)launches * once) errors++;
    }
    cudaFuncAttributes attributes;
    CHECK(cudaFuncGetAttributes(&attributes, kernel));
    int device, multiprocessors;
    CHECK(cudaGetDevice(&device));
    CHECK(cudaDeviceGetAttribute(&multiprocessors, cudaDevAttrMultiProcessorCount, device));
    printf("attributes %d %zu %zu %d\n", attributes.numRegs, attributes.sharedSizeBytes,
           attributes.localSizeBytes, multiprocessors);
    printf("errors %ld\n", errors);
    return errors != 0;
}
