/* A stand-in for the NVIDIA driver's libcuda.so.1, to test what the offload runtime and
 * `omp2gpu doctor` say of a driver that is too old, one that finds no GPU, one whose cuInit
 * fails: FAKE_CUDA_VERSION (e.g. 11080), FAKE_CUDA_INIT (a CUresult), no GPU ever. */
#include <stdlib.h>

static int env(const char *name, int fallback) {
    const char *text = getenv(name);
    return text ? atoi(text) : fallback;
}

int cuInit(unsigned flags) { (void)flags; return env("FAKE_CUDA_INIT", 0); }
int cuDriverGetVersion(int *version) { *version = env("FAKE_CUDA_VERSION", 12040); return 0; }
int cuDeviceGetCount(int *count) { *count = 0; return 0; }

/* The rest of what the runtime looks up: present, never called without a GPU. */
#define UNUSED(name) int name(void) { return 1; }
UNUSED(cuDeviceGet) UNUSED(cuDeviceGetName) UNUSED(cuDeviceGetAttribute) UNUSED(cuDevicePrimaryCtxRetain)
UNUSED(cuCtxSetCurrent) UNUSED(cuCtxGetCurrent) UNUSED(cuCtxSynchronize) UNUSED(cuMemAlloc_v2)
UNUSED(cuMemFree_v2) UNUSED(cuMemcpyHtoD_v2) UNUSED(cuMemcpyDtoH_v2) UNUSED(cuMemcpyDtoD_v2)
UNUSED(cuModuleLoadDataEx) UNUSED(cuModuleGetFunction) UNUSED(cuModuleGetGlobal_v2) UNUSED(cuLaunchKernel)
UNUSED(cuGetErrorName) UNUSED(cuGetErrorString) UNUSED(cuPointerGetAttribute) UNUSED(cuStreamSynchronize)
UNUSED(cuEventCreate) UNUSED(cuEventRecord) UNUSED(cuEventSynchronize) UNUSED(cuEventElapsedTime)
UNUSED(cuEventDestroy_v2) UNUSED(cuMemAllocManaged) UNUSED(cuMemHostRegister_v2) UNUSED(cuMemHostGetDevicePointer_v2)
UNUSED(cuStreamCreate) UNUSED(cuStreamDestroy_v2) UNUSED(cuEventQuery) UNUSED(cuStreamWaitEvent)
