/* CUDA GPUs through the driver API, which is loaded with dlopen (libcuda.so.1) so that
 * the same program runs where there is no GPU or no driver: there, no GPU is found.
 * Each GPU uses its primary context, made current on the calling thread before each
 * call; a module is the image's PTX loaded with cuModuleLoadDataEx (the JIT's error log
 * goes into the message when it fails), or, where the PTX asks for it (code with recursion,
 * omp2gpu/targets/nvptx/relocatable.py), compiled relocatable and linked by the driver's
 * linker (cuLink*). Every CUresult is checked: a failure names the
 * call and the driver's error name and text.
 *
 * Queued launches (target tasks, target_tasks.c): the kernel goes on one of STREAMS
 * blocking streams in turn with an event recorded after it, and the call returns. The
 * blocking streams keep everything else correct: every other call here (copies, the
 * synchronous launches) works on the legacy default stream, which waits for the
 * kernels queued before it; device memory is freed only after the context is
 * synchronised once anything was queued.
 *
 * Small copies (a scalar, a short array: up to STAGED_COPY_BYTES) go through a pinned
 * staging buffer on the legacy stream: to the device, the bytes are copied into it and the
 * copy queued (cuMemcpyHtoDAsync), so a region's copies in, its kernel and its copy back
 * wait once, at the copy back; from the device, the copy is queued into the buffer and
 * the stream synchronised, then the bytes are copied out. A staged byte is not reused
 * until the legacy stream has been waited for. CUDA C's memcpy, launch, memcpy of one int
 * took 14.8-15.3 us on an H200 where this sequence took 11.9-12.2 (bench/overhead/
 * copy_sequences.md);
 * larger copies are direct (cuMemcpyHtoD/DtoH). */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "offload.h"

typedef int CUresult;
typedef int CUdevice;
typedef void *CUcontext;
typedef void *CUmodule;
typedef void *CUfunction;
typedef void *CUstream;
typedef unsigned long long CUdeviceptr;

#define CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK 1
#define CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT 16
#define CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR 39
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR 75
#define CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR 76
#define CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL 9
#define CU_POINTER_ATTRIBUTE_IS_MANAGED 8
#define CU_POINTER_ATTRIBUTE_DEVICE_POINTER 3
#define CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY 83
#define CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS 88
#define CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM 91
#define CU_MEM_ATTACH_GLOBAL 0x1
#define CU_MEMHOSTREGISTER_PORTABLE 0x1
#define CU_MEMHOSTREGISTER_DEVICEMAP 0x2
#define CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED 712
#define CU_JIT_ERROR_LOG_BUFFER 5
#define CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES 6
#define CU_JIT_GENERATE_LINE_INFO 13
#define JIT_LOG_BYTES 16384
#define CU_JIT_INPUT_PTX 1
/* The record at the top of PTX to be compiled relocatable and linked (relocatable.py) */
#define RELOCATABLE_RECORD "// omp2gpu-link relocatable\n"
#define STREAMS 16                       /* a time step's independent regions each on one (LULESH: 11) */
#define SPARE_EVENTS 64
#define STAGED_COPY_BYTES 65536            /* copies this small go through the staging buffer */
#define STAGING_BYTES (1 << 20)            /* the pinned staging buffer, made at first use */
#define EVENT_DISABLE_TIMING 0x2         /* CU_EVENT_DISABLE_TIMING */
#define ERROR_NOT_READY 600              /* CUDA_ERROR_NOT_READY: an event still pending */

/* CUDA_MEMCPY2D (cuda.h) */
struct memcpy_2d {
    size_t srcXInBytes, srcY;
    int srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    void *srcArray;
    size_t srcPitch;
    size_t dstXInBytes, dstY;
    int dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    void *dstArray;
    size_t dstPitch;
    size_t WidthInBytes, Height;
};
#define CU_MEMORYTYPE_HOST 1
#define CU_MEMORYTYPE_DEVICE 2

static struct {
    int tried, loaded;
    CUresult (*cuInit)(unsigned);
    CUresult (*cuDeviceGetCount)(int *);
    CUresult (*cuDeviceGet)(CUdevice *, int);
    CUresult (*cuDeviceGetName)(char *, int, CUdevice);
    CUresult (*cuDeviceGetAttribute)(int *, int, CUdevice);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*cuCtxSetCurrent)(CUcontext);
    CUresult (*cuCtxGetCurrent)(CUcontext *);
    CUresult (*cuCtxSynchronize)(void);
    CUresult (*cuMemAlloc)(CUdeviceptr *, size_t);
    CUresult (*cuMemFree)(CUdeviceptr);
    CUresult (*cuMemcpyHtoD)(CUdeviceptr, const void *, size_t);
    CUresult (*cuMemcpyDtoH)(void *, CUdeviceptr, size_t);
    CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);    /* optional: staging */
    CUresult (*cuMemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
    CUresult (*cuMemcpyDtoD)(CUdeviceptr, CUdeviceptr, size_t);
    CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *, void **);
    CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*cuModuleGetGlobal)(CUdeviceptr *, size_t *, CUmodule, const char *);
    CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                               unsigned, CUstream, void **, void **);
    CUresult (*cuGetErrorName)(CUresult, const char **);
    CUresult (*cuGetErrorString)(CUresult, const char **);
    CUresult (*cuPointerGetAttribute)(void *, int, CUdeviceptr);
    CUresult (*cuStreamSynchronize)(CUstream);
    CUresult (*cuEventCreate)(void **, unsigned);
    CUresult (*cuEventRecord)(void *, CUstream);
    CUresult (*cuEventSynchronize)(void *);
    CUresult (*cuEventElapsedTime)(float *, void *, void *);
    CUresult (*cuEventDestroy)(void *);
    CUresult (*cuFuncGetAttribute)(int *, int, CUfunction);     /* optional: the profile's */
    CUresult (*cuModuleUnload)(CUmodule);                       /* optional: a module loaded again */
    CUresult (*cuMemcpy2D)(const struct memcpy_2d *);      /* optional: strided target updates */
    CUresult (*cuMemAllocManaged)(CUdeviceptr *, size_t, unsigned);
    CUresult (*cuMemHostRegister)(void *, size_t, unsigned);
    CUresult (*cuMemHostGetDevicePointer)(CUdeviceptr *, void *, unsigned);
    CUresult (*cuStreamCreate)(CUstream *, unsigned);
    CUresult (*cuStreamDestroy)(CUstream);
    CUresult (*cuEventQuery)(void *);
    CUresult (*cuStreamWaitEvent)(CUstream, void *, unsigned);
    CUresult (*cuCtxSetLimit)(int, size_t);     /* optional: LIBOMPTARGET_HEAP_SIZE, _STACK_SIZE */
    CUresult (*cuMemAllocHost)(void **, size_t);        /* optional: the `pinned` allocator trait */
    CUresult (*cuMemFreeHost)(void *);
    /* optional: the driver's linker, for PTX with recursion (else the JIT's whole-program build) */
    CUresult (*cuLinkCreate)(unsigned, int *, void **, void **);
    CUresult (*cuLinkAddData)(void *, int, void *, size_t, const char *, unsigned, int *, void **);
    CUresult (*cuLinkComplete)(void *, void **, size_t *);
    CUresult (*cuLinkDestroy)(void *);
} cu;

struct cuda_state {
    int ordinal;
    CUdevice handle;
    CUcontext context;
    char name[256];
    long compute_capability;     /* major * 10 + minor */
    CUstream streams[STREAMS];   /* queued launches' blocking streams, made at first use */
    int next_stream;
    int queued;                  /* a launch may still run: synchronise before freeing memory */
    int unwaited;                /* a synchronous launch nothing has waited for yet (finish_launch) */
    char *staging;               /* pinned host memory small copies go through (STAGING_BYTES) */
    long staged;                 /* its bytes queued copies may still read: reused after a wait */
    int no_staging;              /* the driver gave no pinned memory: every copy is direct */
    pthread_mutex_t spare_lock;  /* events are given back by the poller and waiting threads */
    void *spare[SPARE_EVENTS];
    int spare_count;
    int recursion;               /* an image whose code recurses was loaded (relocatable.py) */
};

/* a kernel's wide-register twin (omp2gpu/targets/nvptx/wide_twins.py), one for each
 * `.entry NAME__wide(` of the image's PTX; looked up at its kernel's first launch */
struct cuda_twin {
    char *kernel;
    int looked_up;
    CUfunction function;        /* NULL: none worth launching (no more registers than the kernel) */
    int registers;
};

/* a module: the CUmodule and its functions found so far, by kernel name */
struct cuda_module {
    CUmodule module;
    const char **names;
    CUfunction *functions;
    int count;
    struct cuda_twin *twins;
    int twin_count;
};

/* The module's twins, one for each `.entry NAME__wide(` in its PTX: read from the PTX, so
 * that the driver is never asked for a function it lacks (compute-sanitizer reports every
 * failed call). */
static void find_twins(struct cuda_module *m, const char *ptx) {
    const char *at = ptx, *name, *end;
    while ((at = strstr(at, WIDE_TWIN_SUFFIX "(")) != NULL) {
        end = at;
        for (name = at; name > ptx && name[-1] != ' ' && name[-1] != '\t' && name[-1] != '\n'; name--) {}
        at += sizeof WIDE_TWIN_SUFFIX;
        if (name - ptx < 7 || strncmp(name - 7, ".entry ", 7) != 0) continue;
        m->twins = realloc(m->twins, (size_t)(m->twin_count + 1) * sizeof *m->twins);
        m->twins[m->twin_count] = (struct cuda_twin){calloc((size_t)(end - name) + 1, 1), 0, 0, 0};
        memcpy(m->twins[m->twin_count++].kernel, name, (size_t)(end - name));
    }
}

static void *find(void *library, const char *name, int *missing) {
    void *symbol = dlsym(library, name);
    if (!symbol) *missing = 1;
    return symbol;
}

/* Why no GPU can be used, with the fix (empty while the driver is loaded and has GPUs):
 * the "no device" message and `omp2gpu doctor` say it. */
static char why_not[512];
#define DRIVER_FIX "install the NVIDIA driver (e.g. `sudo apt install nvidia-driver-550`; `nvidia-smi` then lists the GPUs)"
#define NEEDED_DRIVER 12000        /* CUDA 12.0: the PTX ISA omp2gpu's kernels are written in */

static int driver_started(void *library) {
    CUresult (*get_version)(int *) = 0;
    int version = 0;
    CUresult started = cu.cuInit(0);
    if (started != 0) {
        const char *name = "?";
        if (cu.cuGetErrorName) cu.cuGetErrorName(started, &name);
        snprintf(why_not, sizeof why_not, "the NVIDIA driver did not start (cuInit: %s): %s", name ? name : "?",
                 started == 100 ? "no NVIDIA GPU is visible (check `nvidia-smi` and CUDA_VISIBLE_DEVICES)"
                                : "check `nvidia-smi`; " DRIVER_FIX);
        return 0;
    }
    *(void **)&get_version = dlsym(library, "cuDriverGetVersion");
    if (get_version && get_version(&version) == 0 && version < NEEDED_DRIVER) {
        snprintf(why_not, sizeof why_not, "the NVIDIA driver is too old (CUDA %d.%d; omp2gpu needs 12.0 or later): "
                 "update it (e.g. `sudo apt install nvidia-driver-550`)", version / 1000, version % 1000 / 10);
        return 0;
    }
    return 1;
}

static int load_driver(void) {
    void *library;
    int missing = 0;
    if (cu.tried) return cu.loaded;
    cu.tried = 1;
    library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!library) library = dlopen("libcuda.so", RTLD_NOW | RTLD_GLOBAL);
    if (!library) {
        snprintf(why_not, sizeof why_not, "no NVIDIA driver (libcuda.so.1 was not found): " DRIVER_FIX);
        return 0;
    }
    *(void **)&cu.cuInit = find(library, "cuInit", &missing);
    *(void **)&cu.cuDeviceGetCount = find(library, "cuDeviceGetCount", &missing);
    *(void **)&cu.cuDeviceGet = find(library, "cuDeviceGet", &missing);
    *(void **)&cu.cuDeviceGetName = find(library, "cuDeviceGetName", &missing);
    *(void **)&cu.cuDeviceGetAttribute = find(library, "cuDeviceGetAttribute", &missing);
    *(void **)&cu.cuDevicePrimaryCtxRetain = find(library, "cuDevicePrimaryCtxRetain", &missing);
    *(void **)&cu.cuCtxSetCurrent = find(library, "cuCtxSetCurrent", &missing);
    *(void **)&cu.cuCtxGetCurrent = find(library, "cuCtxGetCurrent", &missing);
    *(void **)&cu.cuCtxSynchronize = find(library, "cuCtxSynchronize", &missing);
    *(void **)&cu.cuMemAlloc = find(library, "cuMemAlloc_v2", &missing);
    *(void **)&cu.cuMemFree = find(library, "cuMemFree_v2", &missing);
    *(void **)&cu.cuMemcpyHtoD = find(library, "cuMemcpyHtoD_v2", &missing);
    *(void **)&cu.cuMemcpyDtoH = find(library, "cuMemcpyDtoH_v2", &missing);
    *(void **)&cu.cuMemcpyDtoD = find(library, "cuMemcpyDtoD_v2", &missing);
    *(void **)&cu.cuModuleLoadDataEx = find(library, "cuModuleLoadDataEx", &missing);
    *(void **)&cu.cuModuleGetFunction = find(library, "cuModuleGetFunction", &missing);
    *(void **)&cu.cuModuleGetGlobal = find(library, "cuModuleGetGlobal_v2", &missing);
    *(void **)&cu.cuLaunchKernel = find(library, "cuLaunchKernel", &missing);
    *(void **)&cu.cuGetErrorName = find(library, "cuGetErrorName", &missing);
    *(void **)&cu.cuGetErrorString = find(library, "cuGetErrorString", &missing);
    *(void **)&cu.cuPointerGetAttribute = find(library, "cuPointerGetAttribute", &missing);
    *(void **)&cu.cuStreamSynchronize = find(library, "cuStreamSynchronize", &missing);
    *(void **)&cu.cuEventCreate = find(library, "cuEventCreate", &missing);
    *(void **)&cu.cuEventRecord = find(library, "cuEventRecord", &missing);
    *(void **)&cu.cuEventSynchronize = find(library, "cuEventSynchronize", &missing);
    *(void **)&cu.cuEventElapsedTime = find(library, "cuEventElapsedTime", &missing);
    *(void **)&cu.cuEventDestroy = find(library, "cuEventDestroy_v2", &missing);
    *(void **)&cu.cuMemcpy2D = dlsym(library, "cuMemcpy2D_v2");
    *(void **)&cu.cuCtxSetLimit = dlsym(library, "cuCtxSetLimit");
    *(void **)&cu.cuMemAllocHost = dlsym(library, "cuMemAllocHost_v2");
    *(void **)&cu.cuMemcpyHtoDAsync = dlsym(library, "cuMemcpyHtoDAsync_v2");
    *(void **)&cu.cuMemcpyDtoHAsync = dlsym(library, "cuMemcpyDtoHAsync_v2");
    *(void **)&cu.cuMemFreeHost = dlsym(library, "cuMemFreeHost");
    *(void **)&cu.cuFuncGetAttribute = dlsym(library, "cuFuncGetAttribute");
    *(void **)&cu.cuModuleUnload = dlsym(library, "cuModuleUnload");
    *(void **)&cu.cuLinkCreate = dlsym(library, "cuLinkCreate_v2");
    *(void **)&cu.cuLinkAddData = dlsym(library, "cuLinkAddData_v2");
    *(void **)&cu.cuLinkComplete = dlsym(library, "cuLinkComplete");
    *(void **)&cu.cuLinkDestroy = dlsym(library, "cuLinkDestroy");
    *(void **)&cu.cuMemAllocManaged = find(library, "cuMemAllocManaged", &missing);
    *(void **)&cu.cuMemHostRegister = find(library, "cuMemHostRegister_v2", &missing);
    *(void **)&cu.cuMemHostGetDevicePointer = find(library, "cuMemHostGetDevicePointer_v2", &missing);
    *(void **)&cu.cuStreamCreate = find(library, "cuStreamCreate", &missing);
    *(void **)&cu.cuStreamDestroy = find(library, "cuStreamDestroy_v2", &missing);
    *(void **)&cu.cuEventQuery = find(library, "cuEventQuery", &missing);
    *(void **)&cu.cuStreamWaitEvent = find(library, "cuStreamWaitEvent", &missing);
    if (missing) {
        snprintf(why_not, sizeof why_not, "the NVIDIA driver is too old (libcuda.so.1 lacks functions omp2gpu "
                 "calls): update it (e.g. `sudo apt install nvidia-driver-550`)");
        return 0;
    }
    if (!driver_started(library)) return 0;
    cu.loaded = 1;
    return 1;
}

#define CUDA_ERROR_ILLEGAL_ADDRESS 700
/* what a fault may mean where the device code recurses and the stack is the driver's */
#define RECURSION_HINT " (the device code recurses: a recursion deeper than a GPU thread's stack, 1 KiB unless " \
                       "LIBOMPTARGET_STACK_SIZE sets it, faults so)"

/* 0 on success; else the device's message names the call and the driver's error */
static int check(struct device *d, CUresult result, const char *call) {
    const char *name = "?", *text = "";
    struct cuda_state *s = d->state;
    int deep;
    if (result == 0) return 0;
    deep = result == CUDA_ERROR_ILLEGAL_ADDRESS && s && s->recursion && !getenv("LIBOMPTARGET_STACK_SIZE");
    if (cu.cuGetErrorName) cu.cuGetErrorName(result, &name);
    if (cu.cuGetErrorString) cu.cuGetErrorString(result, &text);
    device_error(d, "%s: %s: %s%s", call, name ? name : "?", text ? text : "", deep ? RECURSION_HINT : "");
    return -1;
}

static int current(struct device *d) {
    struct cuda_state *s = d->state;
    CUcontext now = 0;
    if (cu.cuCtxGetCurrent(&now) == 0 && now == s->context) return 0;
    return check(d, cu.cuCtxSetCurrent(s->context), "cuCtxSetCurrent");
}

int cuda_device_count(void) {
    int count = 0;
    if (!load_driver() || cu.cuDeviceGetCount(&count) != 0) return 0;
    if (count == 0)
        snprintf(why_not, sizeof why_not, "the NVIDIA driver found no GPU (check `nvidia-smi` and "
                 "CUDA_VISIBLE_DEVICES)");
    return count;
}

/* Why no GPU can be used ("" when one can): the driver missing, too old, not starting, no GPU. */
const char *cuda_unavailable_reason(void) {
    cuda_device_count();
    return why_not;
}

/* For `omp2gpu doctor` (through ctypes): the number of GPUs, and in `buffer` why there is none. */
int __omp2gpu_gpu_status(char *buffer, size_t size) {
    int count = cuda_device_count();
    if (buffer && size) snprintf(buffer, size, "%s", count ? "" : why_not);
    return count;
}

/* GPU `ordinal`'s name (cut to `size`), compute capability (major * 10 + minor) and
 * multiprocessor count, for `omp2gpu report --run` and the benchmarks (through ctypes:
 * tools/doctor.py's gpu_facts): 0, or -1 for no such GPU. */
int __omp2gpu_gpu_facts(int ordinal, char *name, size_t size, int *compute_capability, int *multiprocessors) {
    CUdevice handle;
    int major = 0, minor = 0, count = 0;
    if (ordinal < 0 || ordinal >= cuda_device_count() || cu.cuDeviceGet(&handle, ordinal)
        || cu.cuDeviceGetName(name, (int)size, handle)
        || cu.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, handle)
        || cu.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, handle)
        || cu.cuDeviceGetAttribute(&count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, handle))
        return -1;
    *compute_capability = 10 * major + minor;
    *multiprocessors = count;
    return 0;
}

static int cuda_allocate(struct device *d, long bytes, uintptr_t *address) {
    CUdeviceptr made = 0;
    if (current(d) || check(d, cu.cuMemAlloc(&made, (size_t)bytes), "cuMemAlloc")) return -1;
    *address = (uintptr_t)made;
    return 0;
}

/* Nothing queued is running any more (a synchronous launch or a free waited for all). */
static int synchronise(struct device *d) {
    struct cuda_state *s = d->state;
    if (check(d, cu.cuCtxSynchronize(), "cuCtxSynchronize")) return -1;
    s->queued = 0;
    s->unwaited = 0;
    s->staged = 0;
    return 0;
}

/* Room for a copy of `bytes` in the staging buffer (a buffer full of queued copies is
 * waited for first), or NULL: the copy is direct (a large one, no pinned memory). */
static char *staging_room(struct device *d, long bytes) {
    struct cuda_state *s = d->state;
    long rounded = (bytes + 15) & ~15L;
    char *room;
    if (bytes > STAGED_COPY_BYTES || s->no_staging || !cu.cuMemAllocHost || !cu.cuMemcpyHtoDAsync
        || !cu.cuMemcpyDtoHAsync)
        return 0;
    if (!s->staging && cu.cuMemAllocHost((void **)&s->staging, STAGING_BYTES) != 0) {
        s->staging = 0;
        s->no_staging = 1;
        return 0;
    }
    if (s->staged + rounded > STAGING_BYTES) {   /* full of queued copies: wait for them once */
        if (cu.cuStreamSynchronize(0) != 0) return 0;     /* the direct copy meets the error */
        s->staged = 0;
    }
    room = s->staging + s->staged;
    s->staged += rounded;
    return room;
}

/* No memory is freed under a kernel that may still use it. */
static int cuda_release(struct device *d, uintptr_t address) {
    device_work_begins(d);              /* what the thread holds back for the device goes first */
    struct cuda_state *s = d->state;
    if (current(d) || ((s->queued || s->unwaited) && synchronise(d))) return -1;
    return check(d, cu.cuMemFree((CUdeviceptr)address), "cuMemFree");
}

static int cuda_to_device(struct device *d, uintptr_t dst, const void *src, long bytes) {
    device_work_begins(d);              /* what the thread holds back for the device goes first */
    char *room;
    if (bytes <= 0) return 0;
    if (current(d)) return -1;
    room = staging_room(d, bytes);
    if (!room) return check(d, cu.cuMemcpyHtoD((CUdeviceptr)dst, src, (size_t)bytes), "cuMemcpyHtoD");
    memcpy(room, src, (size_t)bytes);          /* the caller may change its bytes at once */
    return check(d, cu.cuMemcpyHtoDAsync((CUdeviceptr)dst, room, (size_t)bytes, 0), "cuMemcpyHtoD");
}

/* On the legacy stream, so after the kernel of a synchronous launch: its fault is this
 * copy's error, and the copy is its wait. */
static int cuda_to_host(struct device *d, void *dst, uintptr_t src, long bytes) {
    device_work_begins(d);              /* what the thread holds back for the device goes first */
    struct cuda_state *s = d->state;
    CUresult result;
    char *room;
    if (bytes <= 0) return 0;
    if (current(d)) return -1;
    room = staging_room(d, bytes);
    if (room) {
        result = cu.cuMemcpyDtoHAsync(room, (CUdeviceptr)src, (size_t)bytes, 0);
        if (result == 0) result = cu.cuStreamSynchronize(0);
        if (result == 0) memcpy(dst, room, (size_t)bytes);
    } else {
        result = cu.cuMemcpyDtoH(dst, (CUdeviceptr)src, (size_t)bytes);
    }
    if (result == 0) {
        s->unwaited = 0;
        s->staged = 0;                         /* everything before it on the stream is done */
    } else if (s->unwaited && synchronise(d)) {
        return -1;                             /* the kernel's fault, named as its wait's */
    }
    return check(d, result, "cuMemcpyDtoH");
}

/* a strided target update's rows in one call (strided_copies.c) */
static int cuda_to_device_2d(struct device *d, uintptr_t dst, const void *src, long width, long pitch, long height) {
    device_work_begins(d);              /* what the thread holds back for the device goes first */
    struct memcpy_2d copy;
    if (!cu.cuMemcpy2D) {                 /* an old driver: row by row */
        long row;
        for (row = 0; row < height; row++)
            if (cuda_to_device(d, dst + (uintptr_t)(row * pitch), (const char *)src + row * pitch, width)) return -1;
        return 0;
    }
    memset(&copy, 0, sizeof copy);
    copy.srcMemoryType = CU_MEMORYTYPE_HOST;
    copy.srcHost = src;
    copy.srcPitch = (size_t)pitch;
    copy.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.dstDevice = (CUdeviceptr)dst;
    copy.dstPitch = (size_t)pitch;
    copy.WidthInBytes = (size_t)width;
    copy.Height = (size_t)height;
    return current(d) || check(d, cu.cuMemcpy2D(&copy), "cuMemcpy2D");
}

static int cuda_to_host_2d(struct device *d, void *dst, uintptr_t src, long width, long pitch, long height) {
    device_work_begins(d);              /* what the thread holds back for the device goes first */
    struct memcpy_2d copy;
    if (!cu.cuMemcpy2D) {
        long row;
        for (row = 0; row < height; row++)
            if (cuda_to_host(d, (char *)dst + row * pitch, src + (uintptr_t)(row * pitch), width)) return -1;
        return 0;
    }
    memset(&copy, 0, sizeof copy);
    copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.srcDevice = (CUdeviceptr)src;
    copy.srcPitch = (size_t)pitch;
    copy.dstMemoryType = CU_MEMORYTYPE_HOST;
    copy.dstHost = dst;
    copy.dstPitch = (size_t)pitch;
    copy.WidthInBytes = (size_t)width;
    copy.Height = (size_t)height;
    return current(d) || check(d, cu.cuMemcpy2D(&copy), "cuMemcpy2D");
}

static int cuda_device_to_device(struct device *d, uintptr_t dst, uintptr_t src, long bytes) {
    device_work_begins(d);              /* what the thread holds back for the device goes first */
    if (bytes <= 0) return 0;
    return current(d) || check(d, cu.cuMemcpyDtoD((CUdeviceptr)dst, (CUdeviceptr)src, (size_t)bytes),
                               "cuMemcpyDtoD");
}

/* `line` where it is one of the comment lines at the top of the PTX, else NULL; and the
 * header line after `line` (NULL after the last) */
static const char *header_line(const char *line) { return strncmp(line, "//", 2) == 0 ? line : NULL; }

static const char *next_header_line(const char *line) {
    const char *end = strchr(line, '\n');
    return end ? header_line(end + 1) : NULL;
}

/* Whether the comment lines at the top of the PTX hold `record` (a whole line) */
static int ptx_header_has(const char *ptx, const char *record) {
    const char *line;
    for (line = header_line(ptx); line; line = next_header_line(line))
        if (strncmp(line, record, strlen(record)) == 0) return 1;
    return 0;
}

/* PTX compiled relocatable and linked by the driver (cuLink*) into a module; the options
 * are load_code's */
static CUresult load_linked(const char *ptx, CUmodule *module, unsigned count, int *options, void **values) {
    void *link = 0, *linked = 0;
    size_t bytes = 0;
    CUresult result = cu.cuLinkCreate(count, options, values, &link);
    if (result == 0)
        result = cu.cuLinkAddData(link, CU_JIT_INPUT_PTX, (void *)ptx, strlen(ptx) + 1, "omp2gpu-image.ptx", 0, 0, 0);
    if (result == 0) result = cu.cuLinkComplete(link, &linked, &bytes);
    if (result == 0) result = cu.cuModuleLoadDataEx(module, linked, 0, 0, 0);
    if (link) cu.cuLinkDestroy(link);       /* after the load: the linked image is the link's */
    return result;
}

/* One image's code loaded by the JIT (cuModuleLoadDataEx), or, for PTX that asks for it
 * (`relocatable`), linked first where the driver can (cuLink*, else the plain load): 0, or -1
 * with the message and the JIT's error log. `line_info`: PTX built with -g (its .loc
 * directives) keeps its source lines in the machine code, for compute-sanitizer and ncu
 * (nvcc's -lineinfo). */
static int load_code(struct device *d, const void *code, CUmodule *module, int line_info, int relocatable) {
    char *log = calloc(JIT_LOG_BYTES, 1);
    int options[3] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_GENERATE_LINE_INFO};
    void *values[3];
    int failed, linked = relocatable && cu.cuLinkCreate && cu.cuLinkAddData && cu.cuLinkComplete && cu.cuLinkDestroy;
    values[0] = log;
    values[1] = (void *)(uintptr_t)JIT_LOG_BYTES;
    values[2] = (void *)(uintptr_t)1;
    /* a link the driver refuses is only slower code lost: the whole-program load follows */
    failed = !(linked && load_linked(code, module, line_info ? 3 : 2, options, values) == 0)
             && check(d, cu.cuModuleLoadDataEx(module, code, line_info ? 3 : 2, options, values),
                      "cuModuleLoadDataEx");
    if (failed && log[0]) {
        size_t used = strlen(d->last_error);
        snprintf(d->last_error + used, sizeof d->last_error - used, " | %s", log);
    }
    free(log);
    return failed ? -1 : 0;
}

#define CU_FUNC_ATTRIBUTE_NUM_REGS 4
#define REGISTER_GRANULE 8          /* a thread's registers are allocated 8 at a time */

static int registers_of(CUmodule module, const char *kernel) {
    CUfunction function;
    int registers = 0;
    if (cu.cuModuleGetFunction(&function, module, kernel) != 0
        || cu.cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, function) != 0)
        return 0;
    return registers;
}

/* The fused kernel (fused_launches.c) reads its parts' arguments at offsets known only at
 * run time, so ptxas may keep every pointer of a part in registers where the part's own
 * kernel reads them from the constant bank: it can take far more registers than any part,
 * and hold fewer of its blocks at once (LULESH's monotonic Q with its loads speculated:
 * 100 against 46). The register budget that the fused kernel should have: its parts' most,
 * rounded up to the allocation's granule, where it took more; 0 where it did not. */
static int fused_register_budget(CUmodule module, const char *ptx) {
    const char *line;
    char kernel[256];
    int most = 0, fused;
    if (!cu.cuFuncGetAttribute || !cu.cuModuleUnload || fusion_policy() == FUSE_OFF
        || !strstr(ptx, ".entry " FUSED_KERNEL "(") || (fused = registers_of(module, FUSED_KERNEL)) == 0)
        return 0;
    for (line = header_line(ptx); line; line = next_header_line(line))
        if (strncmp(line, FUSED_PTX_TAG, strlen(FUSED_PTX_TAG)) == 0
            && sscanf(line + strlen(FUSED_PTX_TAG), "%255s", kernel) == 1) {
            int registers = registers_of(module, kernel);
            most = registers > most ? registers : most;
        }
    most = (most + REGISTER_GRANULE - 1) / REGISTER_GRANULE * REGISTER_GRANULE;
    return most > 0 && fused > most ? most : 0;
}

/* `ptx` with `.maxnreg budget` on the fused kernel's entry (NULL where it has none) */
static char *fused_kernel_budgeted(const char *ptx, int budget) {
    const char *entry = strstr(ptx, ".entry " FUSED_KERNEL "("), *body;
    char directive[32];
    char *made;
    size_t head;
    if (!entry || !(body = strchr(entry, '{'))) return NULL;
    snprintf(directive, sizeof directive, ".maxnreg %d\n", budget);
    head = (size_t)(body - ptx);
    made = malloc(strlen(ptx) + strlen(directive) + 1);
    memcpy(made, ptx, head);
    strcpy(made + head, directive);
    strcat(made + head, body);
    return made;
}

/* Load `made` again from its PTX with the fused kernel's budget, where it needs one (a
 * load that fails keeps the module as it was: only speed is at stake) */
static void budget_fused_kernel(struct device *d, struct cuda_module *made, const char *ptx, int relocatable) {
    int budget = fused_register_budget(made->module, ptx);
    char *budgeted = budget ? fused_kernel_budgeted(ptx, budget) : NULL;
    CUmodule first = made->module;
    if (!budgeted) return;
    if (load_code(d, budgeted, &made->module, strstr(ptx, "\t.loc\t") != NULL, relocatable) == 0)
        cu.cuModuleUnload(first);
    else {
        made->module = first;
        d->last_error[0] = 0;
    }
    free(budgeted);
}

/* The image's cubin where it was assembled for this GPU's architecture, else its PTX
 * (which the driver compiles for any GPU at least as new as the PTX's target). From PTX,
 * a fused kernel that took more registers than its parts is compiled again with their
 * budget (fused_register_budget; OMP2GPU_FUSE_LAUNCHES=0 leaves it). */
static int cuda_load(struct device *d, const struct image_desc *image, void **module) {
    struct cuda_state *s = d->state;
    struct cuda_module *made;
    int relocatable;
    *module = 0;
    if (!image->ptx) return 0;
    if (current(d)) return -1;
    relocatable = ptx_header_has(image->ptx, RELOCATABLE_RECORD);
    s->recursion |= relocatable;                /* the cubin, where there is one, is of the same PTX */
    made = calloc(1, sizeof *made);
    find_twins(made, image->ptx);
    if (image->cubin && image->cubin_arch == s->compute_capability && load_code(d, image->cubin, &made->module, 0, 0) == 0) {
        *module = made;
        return 0;
    }
    if (load_code(d, image->ptx, &made->module, strstr(image->ptx, "\t.loc\t") != NULL, relocatable)) {
        while (made->twin_count) free(made->twins[--made->twin_count].kernel);
        free(made->twins);
        free(made);
        return -1;
    }
    budget_fused_kernel(d, made, image->ptx, relocatable);
    *module = made;
    return 0;
}

static int cuda_global(struct device *d, void *module, const char *name, uintptr_t *address, long *size) {
    struct cuda_module *m = module;
    CUdeviceptr found = 0;
    size_t bytes = 0;
    if (!m || current(d) || cu.cuModuleGetGlobal(&found, &bytes, m->module, name) != 0) return -1;
    *address = (uintptr_t)found;
    *size = (long)bytes;
    return 0;
}

static int cuda_function(struct device *d, struct cuda_module *m, const char *name, CUfunction *function) {
    int i;
    for (i = 0; i < m->count; i++)
        if (strcmp(m->names[i], name) == 0) {
            *function = m->functions[i];
            return 0;
        }
    if (check(d, cu.cuModuleGetFunction(function, m->module, name), "cuModuleGetFunction")) return -1;
    m->names = realloc(m->names, (size_t)(m->count + 1) * sizeof *m->names);
    m->functions = realloc(m->functions, (size_t)(m->count + 1) * sizeof *m->functions);
    m->names[m->count] = name;
    m->functions[m->count++] = *function;
    return 0;
}

#define CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES 1

/* The kernel's twin, its function and registers looked up once: NULL where the PTX has
 * none; its function NULL where it has no more registers than the kernel. */
static const struct cuda_twin *twin_of(struct cuda_module *m, const char *kernel, CUfunction function) {
    char name[512];
    int i, registers = 0;
    struct cuda_twin *twin = NULL;
    for (i = 0; i < m->twin_count && !twin; i++)
        if (strcmp(m->twins[i].kernel, kernel) == 0) twin = &m->twins[i];
    if (!twin || twin->looked_up) return twin;
    twin->looked_up = 1;
    if (snprintf(name, sizeof name, "%s%s", kernel, WIDE_TWIN_SUFFIX) >= (int)sizeof name
        || cu.cuModuleGetFunction(&twin->function, m->module, name) != 0
        || cu.cuFuncGetAttribute(&twin->registers, CU_FUNC_ATTRIBUTE_NUM_REGS, twin->function) != 0
        || cu.cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, function) != 0
        || twin->registers <= registers)
        twin->function = 0;
    return twin;
}

/* The function a launch of grid x block runs: the kernel's wide-register twin where the
 * grid is too small for the twin's registers to cost occupancy (policy.c), else the kernel.
 * `launching`: said in the debug output (not when the profile only asks what would run). */
static int launch_function(struct device *d, struct cuda_module *m, const char *kernel, long grid, long block,
                           int launching, CUfunction *function) {
    const struct cuda_twin *twin;
    if (cuda_function(d, m, kernel, function)) return -1;
    if (!wide_twins_enabled() || !cu.cuFuncGetAttribute) return 0;
    twin = twin_of(m, kernel, *function);
    if (twin && twin->function && wide_twin_fits(grid, block, d->multiprocessors, twin->registers)) {
        if (launching)
            offload_debug(1, "kernel %s: its wide-register twin (%d registers) for %ld x %ld", kernel,
                          twin->registers, grid, block);
        *function = twin->function;
    }
    return 0;
}

/* The kernel's own time, from CUDA events recorded around the launch on stream 0. */
static int timed_launch(struct device *d, CUfunction function, long grid, long block, void **args, double *micros) {
    void *start = 0, *stop = 0;
    float milliseconds = 0;
    int failed = check(d, cu.cuEventCreate(&start, 0), "cuEventCreate") || check(d, cu.cuEventCreate(&stop, 0), "cuEventCreate")
                 || check(d, cu.cuEventRecord(start, 0), "cuEventRecord")
                 || check(d, cu.cuLaunchKernel(function, (unsigned)grid, 1, 1, (unsigned)block, 1, 1, 0, 0, args, 0),
                          "cuLaunchKernel");
    int ran_and_failed = !failed && (check(d, cu.cuEventRecord(stop, 0), "cuEventRecord")
                                     || check(d, cu.cuEventSynchronize(stop), "cuEventSynchronize")
                                     || check(d, cu.cuEventElapsedTime(&milliseconds, start, stop), "cuEventElapsedTime"));
    if (start) cu.cuEventDestroy(start);
    if (stop) cu.cuEventDestroy(stop);
    *micros = milliseconds * 1000.0;
    return ran_and_failed ? LAUNCH_RAN_AND_FAILED : failed ? -1 : 0;
}

static int cuda_launch(struct device *d, void *module, const struct kernel_desc *kernel, long grid, long block,
                       void **args, int arg_count, double *micros) {
    device_work_begins(d);              /* what the thread holds back for the device goes first */
    struct cuda_state *s = d->state;
    CUfunction function;
    (void)arg_count;
    if (!module || !kernel->gpu) {
        device_error(d, "no code for kernel '%s' on device %d", kernel->name, d->number);
        return -1;
    }
    if (current(d) || launch_function(d, module, kernel->name, grid, block, 1, &function)) return -1;
    if (micros) return timed_launch(d, function, grid, block, args, micros);
    if (check(d, cu.cuLaunchKernel(function, (unsigned)grid, 1, 1, (unsigned)block, 1, 1, 0, 0, args, 0),
              "cuLaunchKernel"))
        return -1;
    s->unwaited = 1;                   /* waited for by a copy back or finish_launch */
    return 0;
}

static int cuda_finish_launch(struct device *d) {
    struct cuda_state *s = d->state;
    if (!s->unwaited) return 0;
    return current(d) || synchronise(d) ? LAUNCH_RAN_AND_FAILED : 0;
}

static int cuda_kernel_resources(struct device *d, void *module, const struct kernel_desc *kernel, long grid,
                                 long block, int *registers, int *shared_bytes) {
    CUfunction function;
    if (!module || !kernel->gpu || !cu.cuFuncGetAttribute || current(d)
        || launch_function(d, module, kernel->name, grid, block, 0, &function))
        return -1;
    if (cu.cuFuncGetAttribute(registers, CU_FUNC_ATTRIBUTE_NUM_REGS, function) != 0) *registers = -1;
    if (cu.cuFuncGetAttribute(shared_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function) != 0) *shared_bytes = -1;
    return 0;
}

/* ---------------------------------------------------------------- queued launches */
static void *spare_event(struct cuda_state *s) {
    void *event = 0;
    pthread_mutex_lock(&s->spare_lock);
    if (s->spare_count > 0) event = s->spare[--s->spare_count];
    pthread_mutex_unlock(&s->spare_lock);
    return event;
}

static void cuda_event_release(struct device *d, void *event) {
    struct cuda_state *s = d->state;
    pthread_mutex_lock(&s->spare_lock);
    if (s->spare_count < SPARE_EVENTS) s->spare[s->spare_count++] = event;
    else cu.cuEventDestroy(event);
    pthread_mutex_unlock(&s->spare_lock);
}

/* The kernel on the next of the streams after the `after` events, `*done` an event
 * recorded after it, `*stream` the stream's number (1..STREAMS); called with the
 * runtime's lock held. */
static int cuda_launch_queued(struct device *d, void *module, const struct kernel_desc *kernel, long grid,
                              long block, void **args, int arg_count, void *const *after, int after_count,
                              void **done, int *stream) {
    device_work_begins(d);              /* what the thread holds back for the device goes first */
    struct cuda_state *s = d->state;
    CUfunction function;
    void *event;
    int slot, i;
    (void)arg_count;
    if (!module || !kernel->gpu) {
        device_error(d, "no code for kernel '%s' on device %d", kernel->name, d->number);
        return -1;
    }
    if (current(d) || launch_function(d, module, kernel->name, grid, block, 1, &function)) return -1;
    slot = s->next_stream;
    if (!s->streams[slot] && check(d, cu.cuStreamCreate(&s->streams[slot], 0), "cuStreamCreate")) return -1;
    for (i = 0; i < after_count; i++)
        if (check(d, cu.cuStreamWaitEvent(s->streams[slot], after[i], 0), "cuStreamWaitEvent")) return -1;
    event = spare_event(s);
    if (!event && check(d, cu.cuEventCreate(&event, EVENT_DISABLE_TIMING), "cuEventCreate")) return -1;
    s->queued = 1;
    if (check(d, cu.cuLaunchKernel(function, (unsigned)grid, 1, 1, (unsigned)block, 1, 1, 0, s->streams[slot], args, 0),
              "cuLaunchKernel")
        || check(d, cu.cuEventRecord(event, s->streams[slot]), "cuEventRecord")) {
        cuda_event_release(d, event);
        return -1;
    }
    s->next_stream = (slot + 1) % STREAMS;
    *done = event;
    *stream = slot + 1;
    return 0;
}

/* From any thread, with no lock of the runtime's held: 0 done, 1 still running, -1 failed
 * (no message is written: the poller completes the task, and the program meets the
 * failure at its next synchronisation). */
static int cuda_event_state(struct device *d, void *event) {
    struct cuda_state *s = d->state;
    CUcontext now = 0;
    CUresult result;
    if ((cu.cuCtxGetCurrent(&now) != 0 || now != s->context) && cu.cuCtxSetCurrent(s->context) != 0) return -1;
    result = cu.cuEventQuery(event);
    return result == 0 ? 0 : result == ERROR_NOT_READY ? 1 : -1;
}

/* From any thread: 0 when the work before `event` finished, else -1 with the message. */
static int cuda_event_wait(struct device *d, void *event) {
    return current(d) || check(d, cu.cuEventSynchronize(event), "cuEventSynchronize");
}

static void cuda_label(struct device *d, char *buffer, size_t size) {
    struct cuda_state *s = d->state;
    snprintf(buffer, size, "GPU %d (%s)", s->ordinal, s->name);
}

/* Memory the driver places on this GPU (unified addressing tells a pointer's device). */
static int cuda_holds(struct device *d, uintptr_t address) {
    struct cuda_state *s = d->state;
    int ordinal = -1;
    if (current(d) || cu.cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                                               (CUdeviceptr)address) != 0)
        return 0;
    return ordinal == s->ordinal;
}

/* Work the caller queued on `stream` (a CuPy array's) done; the legacy default stream,
 * where this runtime works, already waits for blocking streams. */
static int cuda_wait_stream(struct device *d, void *stream) {
    device_work_begins(d);              /* what the thread holds back for the device goes first */
    if (!stream) return 0;
    return current(d) || check(d, cu.cuStreamSynchronize(stream), "cuStreamSynchronize");
}

/* ---------------------------------------------------------------- unified_shared_memory */
/* How this GPU reaches host memory (docs/unified-memory.md): as it is where the driver
 * reports pageable memory access (HMM or ATS); else the USM heap is managed memory and
 * other host objects are registered as they are mapped (host_alias), which needs managed
 * memory and registered memory at its host address. OMP2GPU_USM=managed chooses the
 * second on any GPU that has it (to test it where HMM is present). */
static int cuda_unify(struct device *d) {
    struct cuda_state *s = d->state;
    const char *choice = getenv("OMP2GPU_USM");
    int pageable = 0, managed = 0, host_pointer = 0;
    if (current(d)
        || check(d, cu.cuDeviceGetAttribute(&pageable, CU_DEVICE_ATTRIBUTE_PAGEABLE_MEMORY_ACCESS, s->handle),
                 "cuDeviceGetAttribute")
        || check(d, cu.cuDeviceGetAttribute(&managed, CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY, s->handle),
                 "cuDeviceGetAttribute")
        || check(d, cu.cuDeviceGetAttribute(&host_pointer, CU_DEVICE_ATTRIBUTE_CAN_USE_HOST_POINTER_FOR_REGISTERED_MEM,
                                            s->handle), "cuDeviceGetAttribute"))
        return -1;
    if (pageable && !(choice && strcmp(choice, "managed") == 0)) return USM_SHARED;
    if (managed && host_pointer) return USM_MANAGED;
    device_error(d, "unified_shared_memory needs pageable memory access (HMM or ATS), or managed memory and "
                    "registered host memory at its host address, which GPU %d (%s) lacks", s->ordinal, s->name);
    return -1;
}

/* host pages registered with the driver (cuMemHostRegister), sorted, never overlapping */
static struct { uintptr_t begin, end; } *registered;
static long registered_count, registered_capacity;

static int register_range(struct device *d, uintptr_t begin, uintptr_t end) {
    CUresult result = cu.cuMemHostRegister((void *)begin, (size_t)(end - begin),
                                           CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP);
    long i;
    if (result != 0 && result != CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED)   /* the program's own: fine */
        return check(d, result, "cuMemHostRegister");
    if (registered_count == registered_capacity) {
        registered_capacity = registered_capacity ? 2 * registered_capacity : 64;
        registered = realloc(registered, (size_t)registered_capacity * sizeof *registered);
    }
    for (i = registered_count; i > 0 && registered[i - 1].begin > begin; i--) registered[i] = registered[i - 1];
    registered[i].begin = begin;
    registered[i].end = end;
    registered_count++;
    return 0;
}

/* Every page of [begin, end) registered: the gaps between earlier registrations. */
static int register_pages(struct device *d, uintptr_t begin, uintptr_t end) {
    uintptr_t page = 4096, cursor = begin & ~(page - 1);
    long i, known = registered_count;
    end = (end + page - 1) & ~(page - 1);
    for (i = 0; i < known && cursor < end; i++) {
        if (registered[i].end <= cursor || registered[i].begin >= end) continue;
        if (registered[i].begin > cursor && register_range(d, cursor, registered[i].begin)) return -1;
        if (registered[i].end > cursor) cursor = registered[i].end;
    }
    return cursor < end ? register_range(d, cursor, end) : 0;
}

static int cuda_host_alias(struct device *d, uintptr_t begin, long bytes, uintptr_t *alias) {
    CUdeviceptr device_pointer = 0;
    int is_managed = 0;
    if (current(d)) return -1;
    if (cu.cuPointerGetAttribute(&is_managed, CU_POINTER_ATTRIBUTE_IS_MANAGED, (CUdeviceptr)begin) == 0 && is_managed) {
        *alias = begin;                         /* the USM heap's: the GPU reaches it as it is */
        return 0;
    }
    if (register_pages(d, begin, begin + (uintptr_t)(bytes > 0 ? bytes : 1))
        || check(d, cu.cuMemHostGetDevicePointer(&device_pointer, (void *)begin, 0), "cuMemHostGetDevicePointer"))
        return -1;
    *alias = (uintptr_t)device_pointer;
    return 0;
}

static int cuda_allocate_managed(struct device *d, long bytes, uintptr_t *address) {
    CUdeviceptr made = 0;
    if (current(d) || check(d, cu.cuMemAllocManaged(&made, (size_t)bytes, CU_MEM_ATTACH_GLOBAL), "cuMemAllocManaged"))
        return -1;
    *address = (uintptr_t)made;
    return 0;
}

/* Memory this GPU reaches without a map, whatever the program requires: the driver's
 * own (this GPU's memory, managed memory, registered host memory). Pageable memory that
 * HMM would reach too is not counted: without unified_shared_memory the program's maps
 * copy it, so a region would not see what the host sees (libomptarget's CUDA plugin
 * answers the same); under it the caller answers yes for all. */
static int cuda_accessible(struct device *d, uintptr_t address, long bytes) {
    CUdeviceptr device_pointer = 0;
    (void)bytes;
    if (current(d)) return 0;
    return cu.cuPointerGetAttribute(&device_pointer, CU_POINTER_ATTRIBUTE_DEVICE_POINTER, (CUdeviceptr)address) == 0;
}

/* `interop init(targetsync: ...)`: a stream of its own (blocking: ordered with the legacy
 * default stream this runtime launches on), the device's ordinal and its primary context;
 * with *stream set, that stream's work is waited for and the stream destroyed. */
static int cuda_interop_handles(struct device *d, void **stream, void **device_handle, void **context) {
    device_work_begins(d);              /* what the thread holds back for the device goes first */
    struct cuda_state *s = d->state;
    if (current(d)) return -1;
    if (*stream)
        return check(d, cu.cuStreamSynchronize(*stream), "cuStreamSynchronize")
               || check(d, cu.cuStreamDestroy(*stream), "cuStreamDestroy");
    *device_handle = (void *)(intptr_t)s->handle;
    *context = s->context;
    return check(d, cu.cuStreamCreate((CUstream *)stream, 0), "cuStreamCreate");
}

/* page-locked host memory from the driver (the `pinned` allocator trait: pinned_memory.c) */
static int cuda_allocate_pinned(struct device *d, long bytes, void **host) {
    if (!cu.cuMemAllocHost || !cu.cuMemFreeHost) {
        device_error(d, "the NVIDIA driver lacks cuMemAllocHost");
        return -1;
    }
    return current(d) || check(d, cu.cuMemAllocHost(host, (size_t)bytes), "cuMemAllocHost");
}
static int cuda_release_pinned(struct device *d, void *host) {
    return current(d) || check(d, cu.cuMemFreeHost(host), "cuMemFreeHost");
}

static const struct device_ops cuda_ops = {
    "gpu", cuda_allocate, cuda_release, cuda_to_device, cuda_to_host, cuda_device_to_device,
    cuda_load, cuda_global, cuda_launch, cuda_label, cuda_holds, cuda_wait_stream,
    cuda_to_device_2d, cuda_to_host_2d,
    cuda_unify, cuda_host_alias, cuda_allocate_managed, cuda_release, cuda_accessible, cuda_interop_handles,
    cuda_launch_queued, cuda_event_state, cuda_event_wait, cuda_event_release,
    cuda_allocate_pinned, cuda_release_pinned, cuda_kernel_resources, cuda_finish_launch,
};

/* The context's limits the environment sets, as LLVM's offload runtime reads them, before any
 * kernel of the context runs: LIBOMPTARGET_HEAP_SIZE, the device heap malloc (and so omp_alloc
 * in a kernel) takes from (the driver's default 8 MiB); LIBOMPTARGET_STACK_SIZE, each thread's
 * stack (1 KiB by default), which recursion deeper than that needs (relocatable.py). Bytes. */
static const struct { const char *variable; int limit; } CONTEXT_LIMITS[] = {
    {"LIBOMPTARGET_STACK_SIZE", 0x00},      /* CU_LIMIT_STACK_SIZE */
    {"LIBOMPTARGET_HEAP_SIZE", 0x02},       /* CU_LIMIT_MALLOC_HEAP_SIZE */
};
static int context_limits(struct device *d) {
    size_t i;
    for (i = 0; i < sizeof CONTEXT_LIMITS / sizeof CONTEXT_LIMITS[0]; i++) {
        const char *text = getenv(CONTEXT_LIMITS[i].variable);
        size_t bytes = text ? (size_t)strtoull(text, NULL, 0) : 0;
        if (bytes && cu.cuCtxSetLimit && check(d, cu.cuCtxSetLimit(CONTEXT_LIMITS[i].limit, bytes), "cuCtxSetLimit"))
            return -1;
    }
    return 0;
}

int cuda_device_make(struct device *d, int ordinal) {
    struct cuda_state *s = calloc(1, sizeof *s);
    int value = 0;
    d->ops = &cuda_ops;
    d->state = s;
    s->ordinal = ordinal;
    pthread_mutex_init(&s->spare_lock, 0);
    if (check(d, cu.cuDeviceGet(&s->handle, ordinal), "cuDeviceGet")
        || check(d, cu.cuDevicePrimaryCtxRetain(&s->context, s->handle), "cuDevicePrimaryCtxRetain")
        || current(d)
        || check(d, cu.cuDeviceGetName(s->name, sizeof s->name, s->handle), "cuDeviceGetName"))
        return -1;
    if (check(d, cu.cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, s->handle),
              "cuDeviceGetAttribute"))
        return -1;
    d->multiprocessors = value;
    snprintf(d->name, sizeof d->name, "%s", s->name);
    if (check(d, cu.cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, s->handle),
              "cuDeviceGetAttribute"))
        return -1;
    d->max_threads_per_block = value;
    if (check(d, cu.cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR, s->handle),
              "cuDeviceGetAttribute"))
        return -1;
    d->threads_per_multiprocessor = value;
    if (check(d, cu.cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, s->handle),
              "cuDeviceGetAttribute"))
        return -1;
    s->compute_capability = 10L * value;
    if (check(d, cu.cuDeviceGetAttribute(&value, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, s->handle),
              "cuDeviceGetAttribute"))
        return -1;
    s->compute_capability += value;
    return context_limits(d);
}
