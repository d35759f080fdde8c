/* A stand-in for the CUDA driver (libcuda.so.1) that runtime/offload/cuda_device.c loads
 * with dlopen, for testing on a machine without a GPU what the runtime decides and asks of
 * the driver: one "GPU" whose memory is host memory (copies are memcpy), whose attributes
 * the environment sets (FAKE_CUDA_PAGEABLE: pageable memory access, FAKE_CUDA_MANAGED:
 * managed memory and registered memory at the host's address; 0 or 1), and which cannot
 * launch a kernel (so regions fall back to the host; with FAKE_CUDA_KERNEL_FAULT=1 the
 * launch succeeds and the kernel "faults": an illegal address at the next synchronisation,
 * as a kernel that ran part way). FAKE_CUDA_LOG names a file that
 * gets a line per managed allocation, free and host registration. Built by
 * tests/native/test_unified_memory.py. */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int CUresult;
#define NOT_SUPPORTED 801
#define NOT_FOUND 500
#define INVALID_VALUE 1

static void note(const char *format, ...) {
    const char *path = getenv("FAKE_CUDA_LOG");
    FILE *log;
    va_list args;
    if (!path || !(log = fopen(path, "a"))) return;
    va_start(args, format);
    vfprintf(log, format, args);
    va_end(args);
    fputc('\n', log);
    fclose(log);
}

static int flag(const char *name, int otherwise) {
    const char *text = getenv(name);
    return text ? atoi(text) : otherwise;
}

static struct { uintptr_t address; size_t size; } managed[4096];
static int managed_count;

CUresult cuInit(unsigned flags) { (void)flags; return 0; }
CUresult cuDeviceGetCount(int *count) { *count = 1; return 0; }
CUresult cuDeviceGet(int *device, int ordinal) { *device = ordinal; return 0; }
CUresult cuDeviceGetName(char *name, int size, int device) {
    (void)device;
    snprintf(name, (size_t)size, "Fake GPU");
    return 0;
}
CUresult cuDeviceGetAttribute(int *value, int attribute, int device) {
    (void)device;
    switch (attribute) {
    case 1: *value = 1024; break;                              /* max threads per block */
    case 16: *value = 2; break;                                /* multiprocessors */
    case 75: *value = 9; break;                                /* compute capability 9.0 */
    case 76: *value = 0; break;
    case 88: *value = flag("FAKE_CUDA_PAGEABLE", 0); break;    /* pageable memory access */
    case 83: case 91: *value = flag("FAKE_CUDA_MANAGED", 1); break;
    default: *value = 0;
    }
    return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **context, int device) { *context = (void *)(uintptr_t)(device + 1); return 0; }
static void *current_context;
CUresult cuCtxSetCurrent(void *context) { current_context = context; return 0; }
CUresult cuCtxGetCurrent(void **context) { *context = current_context; return 0; }
static int kernel_faulted;
CUresult cuCtxSynchronize(void) { return kernel_faulted ? 700 : 0; }   /* CUDA_ERROR_ILLEGAL_ADDRESS */
CUresult cuMemAlloc_v2(unsigned long long *address, size_t bytes) {
    *address = (uintptr_t)malloc(bytes ? bytes : 1);
    return 0;
}
CUresult cuMemFree_v2(unsigned long long address) {
    int i;
    for (i = 0; i < managed_count; i++)
        if (managed[i].address == address) {
            note("free managed %zu", managed[i].size);
            managed[i] = managed[--managed_count];
            break;
        }
    free((void *)(uintptr_t)address);
    return 0;
}
CUresult cuMemcpyHtoD_v2(unsigned long long dst, const void *src, size_t n) { memcpy((void *)(uintptr_t)dst, src, n); return 0; }
CUresult cuMemcpyDtoH_v2(void *dst, unsigned long long src, size_t n) { memcpy(dst, (void *)(uintptr_t)src, n); return 0; }
CUresult cuMemcpyDtoD_v2(unsigned long long dst, unsigned long long src, size_t n) {
    memmove((void *)(uintptr_t)dst, (void *)(uintptr_t)src, n);
    return 0;
}
CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned n, int *options, void **values) {
    (void)image; (void)n; (void)options; (void)values;
    *module = (void *)1;
    return 0;
}
CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
    (void)module; (void)name;
    *function = (void *)1;
    return 0;
}
CUresult cuModuleGetGlobal_v2(unsigned long long *address, size_t *bytes, void *module, const char *name) {
    (void)address; (void)bytes; (void)module; (void)name;
    return NOT_FOUND;
}
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void *stream, void **args, void **extra) {
    (void)f; (void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz; (void)shared; (void)stream;
    (void)args; (void)extra;
    if (flag("FAKE_CUDA_KERNEL_FAULT", 0)) {
        kernel_faulted = 1;
        return 0;
    }
    return NOT_SUPPORTED;                                      /* no kernels here: the host runs them */
}
CUresult cuGetErrorName(CUresult error, const char **name) {
    *name = error == NOT_SUPPORTED ? "CUDA_ERROR_NOT_SUPPORTED" : error == 700 ? "CUDA_ERROR_ILLEGAL_ADDRESS"
                                                                               : "CUDA_ERROR_FAKE";
    return 0;
}
CUresult cuGetErrorString(CUresult error, const char **text) {
    (void)error;
    *text = "the fake driver does not do that";
    return 0;
}
CUresult cuPointerGetAttribute(void *data, int attribute, unsigned long long pointer) {
    int i;
    if (attribute == 8) {                                      /* is managed */
        *(int *)data = 0;
        for (i = 0; i < managed_count; i++)
            if (managed[i].address <= pointer && pointer < managed[i].address + managed[i].size) *(int *)data = 1;
        return 0;
    }
    if (attribute == 3)                                        /* device pointer: the driver's memory only */
        for (i = 0; i < managed_count; i++)
            if (managed[i].address <= pointer && pointer < managed[i].address + managed[i].size) {
                *(unsigned long long *)data = pointer;
                return 0;
            }
    return INVALID_VALUE;
}
CUresult cuStreamSynchronize(void *stream) { (void)stream; return 0; }
CUresult cuEventCreate(void **event, unsigned flags) { (void)flags; *event = malloc(1); return 0; }
CUresult cuEventRecord(void *event, void *stream) { (void)event; (void)stream; return 0; }
CUresult cuEventSynchronize(void *event) { (void)event; return 0; }
CUresult cuEventElapsedTime(float *ms, void *start, void *stop) { (void)start; (void)stop; *ms = 0; return 0; }
CUresult cuEventDestroy_v2(void *event) { free(event); return 0; }
CUresult cuMemAllocManaged(unsigned long long *address, size_t bytes, unsigned flags) {
    (void)flags;
    if (managed_count == 4096) return INVALID_VALUE;
    *address = (uintptr_t)calloc(1, bytes);
    managed[managed_count].address = *address;
    managed[managed_count++].size = bytes;
    note("managed %zu", bytes);
    return 0;
}
CUresult cuMemHostRegister_v2(void *pointer, size_t bytes, unsigned flags) {
    note("register %#lx %zu flags %u", (unsigned long)(uintptr_t)pointer, bytes, flags);
    return 0;
}
CUresult cuMemHostGetDevicePointer_v2(unsigned long long *device, void *host, unsigned flags) {
    (void)flags;
    *device = (uintptr_t)host;                                 /* registered memory at its host address */
    return 0;
}
CUresult cuStreamCreate(void **stream, unsigned flags) {
    note("stream create flags %u", flags);
    *stream = malloc(1);
    return 0;
}
CUresult cuStreamDestroy_v2(void *stream) {
    note("stream destroy");
    free(stream);
    return 0;
}
