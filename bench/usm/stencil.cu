// bench/usm's reference: the same Jacobi stencil in CUDA C, its grids in managed memory
// (cudaMallocManaged, first touched by the host as the OpenMP program does) or, with
// -DEXPLICIT, in device memory with the copies in the first sweep's time.
#include <cstdio>
#include <cstdlib>
#include <chrono>

__global__ void sweep(const double *__restrict__ in, double *__restrict__ out, int n) {
    long k = blockIdx.x * (long)blockDim.x + threadIdx.x;
    long inner = (long)(n - 2) * (n - 2);
    for (; k < inner; k += (long)gridDim.x * blockDim.x) {
        int i = 1 + k / (n - 2), j = 1 + k % (n - 2);
        out[i * n + j] = 0.25 * (in[(i - 1) * n + j] + in[(i + 1) * n + j] + in[i * n + j - 1] + in[i * n + j + 1]);
    }
}

static double now() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 4096, sweeps = argc > 2 ? atoi(argv[2]) : 20;
    size_t bytes = sizeof(double) * n * n;
    double *a, *b;
#ifdef EXPLICIT
    double *ha = (double *)malloc(bytes), *hb = (double *)malloc(bytes);
    cudaMalloc(&a, bytes);
    cudaMalloc(&b, bytes);
#else
    cudaMallocManaged(&a, bytes);
    cudaMallocManaged(&b, bytes);
    double *ha = a, *hb = b;
#endif
    for (long k = 0; k < (long)n * n; k++) ha[k] = hb[k] = (k % n == 0) ? 1.0 : 0.0;
    cudaFree(0);
    double first = 0, rest = 0;
    for (int s = 0; s < sweeps; s++) {
        double start = now();
#ifdef EXPLICIT
        if (s == 0) { cudaMemcpy(a, ha, bytes, cudaMemcpyHostToDevice); cudaMemcpy(b, hb, bytes, cudaMemcpyHostToDevice); }
#endif
        sweep<<<1056, 256>>>(s % 2 ? b : a, s % 2 ? a : b, n);
        cudaDeviceSynchronize();
        double took = now() - start;
        if (s == 0) first = took; else rest += took;
    }
#ifdef EXPLICIT
    cudaMemcpy(ha, a, bytes, cudaMemcpyDeviceToHost);
    cudaMemcpy(hb, b, bytes, cudaMemcpyDeviceToHost);
#endif
    double sum = 0;
    for (long k = 0; k < (long)n * n; k++) sum += ha[k] + hb[k];
    printf("first_ms %.3f\nsteady_ms %.3f\nchecksum %.10e\n", first * 1e3, sweeps > 1 ? rest / (sweeps - 1) * 1e3 : 0.0, sum);
    return 0;
}
