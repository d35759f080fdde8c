/* A stand-in for the CUDA driver (libcuda.so.1) that runtime/offload/cuda_device.c loads
 * with dlopen, for testing on a machine without a GPU what the runtime decides and asks of
 * the driver: one "GPU" whose memory is host memory (copies are memcpy) and whose
 * attributes the environment sets (FAKE_CUDA_PAGEABLE: pageable memory access,
 * FAKE_CUDA_MANAGED: managed memory and registered memory at the host's address; 0 or 1).
 * FAKE_CUDA_LOG names a file that gets a line per managed allocation, free, host
 * registration, page-locked (pinned) allocation and free, stream made or destroyed,
 * module global looked up, and PTX linked (cuLink*: "link-ptx NAME"; the "linked image" is
 * the PTX itself; FAKE_CUDA_LINK_FAILS=1: cuLinkComplete fails), and context limit set
 * (cuCtxSetLimit: "limit L BYTES").
 *
 * Kernels, in one of three ways:
 * - by default it cannot launch one (regions fall back to the host);
 * - FAKE_CUDA_KERNEL_FAULT=1: the launch succeeds and the kernel "faults" (an illegal
 *   address at the next synchronisation or copy, as a kernel that ran part way);
 * - FAKE_CUDA_KERNEL_MS=N: a kernel computes nothing but takes N milliseconds on its
 *   stream, and logs "FAKE-CUDA: start KERNEL stream=S" and "FAKE-CUDA: end KERNEL
 *   stream=S" on stderr (S 0: the default stream). Streams are then threads: an event
 *   recorded on one is done when the stream reaches it, a stream told to wait for an event
 *   (cuStreamWaitEvent) goes on once that record is done, and the legacy default stream
 *   behaves as CUDA's does: a copy, a launch on it or cuCtxSynchronize ("FAKE-CUDA:
 *   synchronize") first waits for every stream's work. Freeing memory while a kernel runs
 *   logs "FAKE-CUDA: free while a kernel runs": a bug of the runtime's.
 * - FAKE_CUDA_LOG_COPIES=1: a queued copy (cuMemcpy*Async) logs "FAKE-CUDA: queued-copy
 *   to-device|to-host" once made.
 * FAKE_CUDA_REGISTERS=N,W[,F]: a kernel uses N registers, its wide-register twin (the name
 *   ending in __wide) W and the fused kernel (__omp_offloading_fused_launch) F (N where F is
 *   not given), or fewer where the PTX gives the fused kernel a `.maxnreg` (unless
 *   FAKE_CUDA_IGNORE_MAXNREG=1, as for a cubin assembled without one) (cuFuncGetAttribute;
 *   unset: it cannot say). FAKE_CUDA_LOG gets "load-module MAXNREG" for each module loaded
 *   from PTX with a fused kernel (its `.maxnreg`, 0 for none) and "unload-module".
 * FAKE_CUDA_MULTIPROCESSORS=N: the GPU's multiprocessors (default 2; an H200 has 132).
 * FAKE_CUDA_EXIT_TEARDOWN=MS: as the real driver, an exit handler registered by cuInit
 * tears the driver down, taking MS milliseconds; every copy, allocation, launch and wait
 * from its start fails with CUDA_ERROR_DEINITIALIZED (another thread still offloading
 * while one calls exit).
 * Built by tests/native/conftest.py. */
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef int CUresult;
#define NOT_SUPPORTED 801
#define NOT_FOUND 500
#define INVALID_VALUE 1
#define NOT_READY 600
#define QUEUE 256

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

/* a line on stderr, written at once (the program's marks go there too, in order) */
static void say(const char *format, ...) {
    char line[512];
    va_list args;
    int length;
    va_start(args, format);
    length = vsnprintf(line, sizeof line, format, args);
    va_end(args);
    if (length > 0 && write(2, line, (size_t)length) < 0) return;
}

static struct { uintptr_t address; size_t size; } managed[4096];
static int managed_count;

/* ---------------------------------------------------------------- streams as threads */
struct event { long recorded, completed; };   /* done when every record is completed */
struct operation {
    const char *kernel;          /* a kernel to run */
    struct event *event;         /* an event record to complete */
    struct event *wait_for;      /* cuStreamWaitEvent: until wait_for->completed >= wait_until */
    long wait_until;
};
struct stream {
    int number;
    struct operation queue[QUEUE];
    int head, count, busy, started;
    pthread_t worker;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static struct stream *streams[256];
static int stream_count, stream_numbers;
static int device_number_global;

static void run_kernel(const char *kernel, int stream) {
    long millis = flag("FAKE_CUDA_KERNEL_MS", 0);
    struct timespec pause;
    say("FAKE-CUDA: start %s stream=%d\n", kernel, stream);
    pause.tv_sec = millis / 1000;
    pause.tv_nsec = (millis % 1000) * 1000000L;
    nanosleep(&pause, 0);
    say("FAKE-CUDA: end %s stream=%d\n", kernel, stream);
}

static void *work(void *argument) {
    struct stream *s = argument;
    pthread_mutex_lock(&lock);
    for (;;) {
        struct operation op;
        while (s->count == 0) pthread_cond_wait(&changed, &lock);
        op = s->queue[s->head];
        s->busy = 1;
        while (op.wait_for && op.wait_for->completed < op.wait_until) pthread_cond_wait(&changed, &lock);
        pthread_mutex_unlock(&lock);
        if (op.kernel) run_kernel(op.kernel, s->number);
        pthread_mutex_lock(&lock);
        if (op.event) op.event->completed++;
        s->head = (s->head + 1) % QUEUE;
        s->count--;
        s->busy = 0;
        pthread_cond_broadcast(&changed);
    }
    return 0;
}

static int idle(struct stream *s) { return s->count == 0 && !s->busy; }

static int any_busy(void) {
    int i;
    for (i = 0; i < stream_count; i++)
        if (!idle(streams[i])) return 1;
    return 0;
}

/* the legacy default stream: after every stream's work (called with the lock held) */
static void drain_all(void) {
    while (any_busy()) pthread_cond_wait(&changed, &lock);
}

static void drain(void) {
    pthread_mutex_lock(&lock);
    drain_all();
    pthread_mutex_unlock(&lock);
}

static void enqueue(struct stream *s, struct operation op) {
    if (!s->started) s->started = pthread_create(&s->worker, 0, work, s) == 0;
    while (s->count == QUEUE) pthread_cond_wait(&changed, &lock);
    s->queue[(s->head + s->count) % QUEUE] = op;
    s->count++;
    pthread_cond_broadcast(&changed);
}

/* ---------------------------------------------------------------- the driver's entry points */
#define DEINITIALIZED 4
static volatile int torn_down;
static void tear_down(void) {
    long millis = flag("FAKE_CUDA_EXIT_TEARDOWN", 0);
    struct timespec pause = {millis / 1000, (millis % 1000) * 1000000L};
    torn_down = 1;
    nanosleep(&pause, 0);
}
#define UNLESS_TORN_DOWN if (torn_down) return DEINITIALIZED
CUresult cuInit(unsigned flags) {
    (void)flags;
    if (flag("FAKE_CUDA_EXIT_TEARDOWN", 0)) atexit(tear_down);
    return 0;
}
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
    case 16: *value = flag("FAKE_CUDA_MULTIPROCESSORS", 2); break;   /* multiprocessors */
    case 39: *value = 2048; break;                             /* threads resident on one */
    case 75: *value = 9; break;                                /* compute capability 9.0 */
    case 76: *value = 0; break;
    case 88: *value = flag("FAKE_CUDA_PAGEABLE", 0); break;    /* pageable memory access */
    case 83: case 91: *value = flag("FAKE_CUDA_MANAGED", 1); break;
    default: *value = 0;
    }
    return 0;
}
CUresult cuDevicePrimaryCtxRetain(void **context, int device) { *context = (void *)(uintptr_t)(device + 1); return 0; }
static __thread void *current_context;
CUresult cuCtxSetCurrent(void *context) { current_context = context; return 0; }
CUresult cuCtxGetCurrent(void **context) { *context = current_context; return 0; }
static int kernel_faulted;
CUresult cuCtxSynchronize(void) {
    UNLESS_TORN_DOWN;
    drain();
    if (flag("FAKE_CUDA_KERNEL_MS", 0)) say("FAKE-CUDA: synchronize\n");
    return kernel_faulted ? 700 : 0;                           /* CUDA_ERROR_ILLEGAL_ADDRESS */
}
CUresult cuMemAlloc_v2(unsigned long long *address, size_t bytes) {
    UNLESS_TORN_DOWN;
    *address = (uintptr_t)calloc(1, bytes ? bytes : 1);
    return 0;
}
CUresult cuMemFree_v2(unsigned long long address) {
    int i;
    UNLESS_TORN_DOWN;
    pthread_mutex_lock(&lock);
    if (any_busy()) say("FAKE-CUDA: free while a kernel runs\n");
    pthread_mutex_unlock(&lock);
    for (i = 0; i < managed_count; i++)
        if (managed[i].address == address) {
            note("free managed %zu", managed[i].size);
            managed[i] = managed[--managed_count];
            break;
        }
    free((void *)(uintptr_t)address);
    return 0;
}
static CUresult copy(void *dst, const void *src, size_t n) {
    UNLESS_TORN_DOWN;
    drain();
    if (kernel_faulted) return 700;                            /* sticky, as the driver's */
    memmove(dst, src, n);
    return 0;
}
CUresult cuMemcpyHtoD_v2(unsigned long long dst, const void *src, size_t n) { return copy((void *)(uintptr_t)dst, src, n); }
CUresult cuMemcpyDtoH_v2(void *dst, unsigned long long src, size_t n) { return copy(dst, (void *)(uintptr_t)src, n); }
/* Queued copies (the runtime's staged small copies) are made at once, after the kernels;
 * FAKE_CUDA_LOG_COPIES=1 logs each ("FAKE-CUDA: queued-copy to-device|to-host"). */
static CUresult queued_copy(void *dst, const void *src, size_t n, const char *direction) {
    CUresult result = copy(dst, src, n);
    if (flag("FAKE_CUDA_LOG_COPIES", 0)) say("FAKE-CUDA: queued-copy %s\n", direction);
    return result;
}
CUresult cuMemcpyHtoDAsync_v2(unsigned long long dst, const void *src, size_t n, void *stream) {
    (void)stream;
    return queued_copy((void *)(uintptr_t)dst, src, n, "to-device");
}
CUresult cuMemcpyDtoHAsync_v2(void *dst, unsigned long long src, size_t n, void *stream) {
    (void)stream;
    return queued_copy(dst, (void *)(uintptr_t)src, n, "to-host");
}
CUresult cuMemcpyDtoD_v2(unsigned long long dst, unsigned long long src, size_t n) {
    return copy((void *)(uintptr_t)dst, (void *)(uintptr_t)src, n);
}
static const char *loaded_ptx;                                  /* the last module's PTX text */
/* the `.maxnreg` the PTX gives the fused kernel, 0 for none */
static int fused_maxnreg(const char *ptx) {
    const char *entry = ptx ? strstr(ptx, ".entry __omp_offloading_fused_launch(") : NULL;
    const char *body = entry ? strchr(entry, '{') : NULL, *budget = entry ? strstr(entry, ".maxnreg ") : NULL;
    return budget && budget < body ? atoi(budget + strlen(".maxnreg ")) : 0;
}
CUresult cuModuleLoadDataEx(void **module, const void *image, unsigned n, int *options, void **values) {
    (void)n; (void)options; (void)values;
    free((void *)loaded_ptx);                        /* the runtime may free its text after */
    loaded_ptx = memcmp(image, "\177ELF", 4) != 0 ? strdup(image) : NULL;
    if (loaded_ptx && strstr(loaded_ptx, ".entry __omp_offloading_fused_launch("))
        note("load-module %d", fused_maxnreg(loaded_ptx));
    *module = (void *)1;
    return 0;
}
CUresult cuModuleUnload(void *module) {
    (void)module;
    note("unload-module");
    return 0;
}
/* A context limit set ("limit L BYTES" in the log) */
CUresult cuCtxSetLimit(int limit, size_t bytes) {
    note("limit %d %zu", limit, bytes);
    return 0;
}
/* The driver's linker: one PTX input, "linked" as itself */
struct link { const char *ptx; };
CUresult cuLinkCreate_v2(unsigned n, int *options, void **values, void **state) {
    (void)n; (void)options; (void)values;
    *state = calloc(1, sizeof(struct link));
    return 0;
}
CUresult cuLinkAddData_v2(void *state, int type, void *data, size_t size, const char *name, unsigned n,
                          int *options, void **values) {
    (void)size; (void)n; (void)options; (void)values;
    if (type != 1) return INVALID_VALUE;                        /* CU_JIT_INPUT_PTX */
    ((struct link *)state)->ptx = data;
    note("link-ptx %s", name);
    return 0;
}
CUresult cuLinkComplete(void *state, void **image, size_t *size) {
    const char *ptx = ((struct link *)state)->ptx;
    if (!ptx || flag("FAKE_CUDA_LINK_FAILS", 0)) return INVALID_VALUE;
    *image = (void *)ptx;
    *size = strlen(ptx) + 1;
    return 0;
}
CUresult cuLinkDestroy(void *state) {
    free(state);
    return 0;
}
/* A function the module's PTX has no `.entry` of is not found, as the driver says (and
 * compute-sanitizer reports): "FAKE-CUDA: no function NAME" on stderr. */
CUresult cuModuleGetFunction(void **function, void *module, const char *name) {
    char entry[600];
    (void)module;
    snprintf(entry, sizeof entry, ".entry %s(", name);
    if (loaded_ptx && !strstr(loaded_ptx, entry)) {
        fprintf(stderr, "FAKE-CUDA: no function %s\n", name);
        return NOT_FOUND;
    }
    *function = strdup(name);                                  /* the kernel's name, for the log */
    return 0;
}
CUresult cuFuncGetAttribute(int *value, int attribute, void *function) {
    const char *registers = getenv("FAKE_CUDA_REGISTERS"), *name = function, *comma, *fused;
    size_t length = strlen(name);
    if (!registers || attribute != 4 || !(comma = strchr(registers, ','))) return NOT_SUPPORTED;
    fused = strchr(comma + 1, ',');
    *value = length > 6 && strcmp(name + length - 6, "__wide") == 0 ? atoi(comma + 1)
             : fused && strcmp(name, "__omp_offloading_fused_launch") == 0 ? atoi(fused + 1)
                                                                        : atoi(registers);
    if (strcmp(name, "__omp_offloading_fused_launch") == 0 && fused_maxnreg(loaded_ptx) > 0
        && !flag("FAKE_CUDA_IGNORE_MAXNREG", 0) && *value > fused_maxnreg(loaded_ptx))
        *value = fused_maxnreg(loaded_ptx);
    return 0;
}
CUresult cuModuleGetGlobal_v2(unsigned long long *address, size_t *bytes, void *module, const char *name) {
    (void)module;
    note("module-global %s", name);
    if (!flag("FAKE_CUDA_KERNEL_MS", 0) || strcmp(name, "__omp2gpu_device_num") != 0) return NOT_FOUND;
    *address = (uintptr_t)&device_number_global;
    *bytes = sizeof device_number_global;
    return 0;
}
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by, unsigned bz,
                        unsigned shared, void *stream, void **args, void **extra) {
    (void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz; (void)shared; (void)args; (void)extra;
    UNLESS_TORN_DOWN;
    if (flag("FAKE_CUDA_KERNEL_FAULT", 0)) {
        kernel_faulted = 1;
        return 0;
    }
    if (!flag("FAKE_CUDA_KERNEL_MS", 0)) return NOT_SUPPORTED; /* no kernels here: the host runs them */
    if (stream) {
        struct operation op = {f, 0, 0, 0};
        pthread_mutex_lock(&lock);
        enqueue(stream, op);
        pthread_mutex_unlock(&lock);
        return 0;
    }
    drain();
    run_kernel(f, 0);
    return 0;
}
CUresult cuGetErrorName(CUresult error, const char **name) {
    *name = error == NOT_SUPPORTED ? "CUDA_ERROR_NOT_SUPPORTED" : error == 700 ? "CUDA_ERROR_ILLEGAL_ADDRESS"
            : error == DEINITIALIZED ? "CUDA_ERROR_DEINITIALIZED" : "CUDA_ERROR_FAKE";
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
CUresult cuStreamCreate(void **stream, unsigned flags) {
    struct stream *s = calloc(1, sizeof *s);
    note("stream create flags %u", flags);
    pthread_mutex_lock(&lock);
    s->number = ++stream_numbers;
    if (stream_count < 256) streams[stream_count++] = s;
    pthread_mutex_unlock(&lock);
    *stream = s;
    return 0;
}
CUresult cuStreamDestroy_v2(void *stream) {
    struct stream *s = stream;
    int i;
    note("stream destroy");
    pthread_mutex_lock(&lock);
    while (!idle(s)) pthread_cond_wait(&changed, &lock);
    for (i = 0; i < stream_count; i++)
        if (streams[i] == s) streams[i] = streams[--stream_count];
    pthread_mutex_unlock(&lock);
    if (!s->started) free(s);                                  /* a worker keeps its own */
    return 0;
}
CUresult cuStreamSynchronize(void *stream) {
    struct stream *s = stream;
    UNLESS_TORN_DOWN;
    pthread_mutex_lock(&lock);
    if (s) while (!idle(s)) pthread_cond_wait(&changed, &lock);
    else drain_all();
    pthread_mutex_unlock(&lock);
    return 0;
}
CUresult cuStreamWaitEvent(void *stream, void *event, unsigned flags) {
    struct event *e = event;
    (void)flags;
    pthread_mutex_lock(&lock);
    if (stream) {
        struct operation op = {0, 0, e, e->recorded};
        enqueue(stream, op);
    } else {
        while (e->completed < e->recorded) pthread_cond_wait(&changed, &lock);
    }
    pthread_mutex_unlock(&lock);
    return 0;
}
CUresult cuEventCreate(void **event, unsigned flags) { (void)flags; *event = calloc(1, sizeof(struct event)); return 0; }
CUresult cuEventDestroy_v2(void *event) { free(event); return 0; }
CUresult cuEventRecord(void *event, void *stream) {
    struct event *e = event;
    pthread_mutex_lock(&lock);
    if (stream) {
        struct operation op = {0, e, 0, 0};
        e->recorded++;
        enqueue(stream, op);
    } else {
        drain_all();
        e->completed = e->recorded;
    }
    pthread_mutex_unlock(&lock);
    return 0;
}
CUresult cuEventQuery(void *event) {
    struct event *e = event;
    int pending;
    UNLESS_TORN_DOWN;
    pthread_mutex_lock(&lock);
    pending = e->completed < e->recorded;
    pthread_mutex_unlock(&lock);
    return pending ? NOT_READY : 0;
}
CUresult cuEventSynchronize(void *event) {
    struct event *e = event;
    UNLESS_TORN_DOWN;
    pthread_mutex_lock(&lock);
    while (e->completed < e->recorded) pthread_cond_wait(&changed, &lock);
    pthread_mutex_unlock(&lock);
    return 0;
}
CUresult cuEventElapsedTime(float *ms, void *start, void *stop) { (void)start; (void)stop; *ms = 0; return 0; }
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
CUresult cuMemAllocHost_v2(void **host, size_t bytes) {          /* page-locked: plain memory here */
    *host = malloc(bytes);
    note("pinned %zu", bytes);
    return *host ? 0 : INVALID_VALUE;
}
CUresult cuMemFreeHost(void *host) {
    note("pinned free");
    free(host);
    return 0;
}
CUresult cuMemHostGetDevicePointer_v2(unsigned long long *device, void *host, unsigned flags) {
    (void)flags;
    *device = (uintptr_t)host;                                 /* registered memory at its host address */
    return 0;
}
