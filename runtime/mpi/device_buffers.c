/* Device memory given to an MPI that cannot read it, staged through host memory
 * (targets/mpi_staging.py; README, "Several devices, and MPI programs").
 *
 * A program may pass MPI the device address of a mapped array (`target data
 * use_device_ptr(p)`), as CUDA-aware MPI codes do. With a CUDA-aware MPI
 * (MPIX_Query_cuda_support() says so, or OMP2GPU_MPI_CUDA_AWARE=1; =0 overrides what
 * the MPI says) every call goes straight through. Otherwise the calls below, interposed as PMPI tools are
 * (omp2gpu_MPI_X calls PMPI_X), copy a device buffer to host memory before MPI reads
 * it and back after MPI wrote it. A buffer is device memory when the CUDA driver,
 * already loaded by the launcher, says so; without the driver nothing is staged.
 * A buffer's bytes are those count elements of its datatype span (extent and true
 * extent), read in first for a receive as well, so the holes of a strided type keep
 * their values. Non-blocking calls keep their host copy until MPI_Wait/MPI_Waitall
 * complete the request. OMP2GPU_MPI_STAGING=all stages every buffer (with memcpy on
 * host memory) and says at exit how many it staged: the tests run the staging on
 * machines without a GPU; OMP2GPU_MPI_STAGING=trace names each copy on stderr.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

typedef int (*pointer_attribute_fn)(void *value, int attribute, unsigned long pointer);
typedef int (*copy_fn)(unsigned long dst, unsigned long src, unsigned long bytes);
typedef int (*push_context_fn)(void *context);
typedef int (*pop_context_fn)(void **context);
typedef int (*cuda_support_fn)(void);

#define ATTRIBUTE_CONTEXT 1          /* CU_POINTER_ATTRIBUTE_CONTEXT */
#define ATTRIBUTE_MEMORY_TYPE 2      /* CU_POINTER_ATTRIBUTE_MEMORY_TYPE */
#define MEMORY_DEVICE 2              /* CU_MEMORYTYPE_DEVICE */
#define REQUESTS 256

enum { UNDECIDED, PASS_THROUGH, STAGE_DEVICE, STAGE_ALL };
static int mode = UNDECIDED;
static int tracing;                   /* OMP2GPU_MPI_STAGING=trace: each staged copy on stderr */
static pointer_attribute_fn pointer_attribute;
static copy_fn copy;
static push_context_fn push_context;
static pop_context_fn pop_context;
static pthread_mutex_t requests_lock = PTHREAD_MUTEX_INITIALIZER;
static struct staged_request {
    MPI_Request request;
    void *device;                    /* a receive's device buffer, NULL for a send */
    void *host;
    long bytes;
} requests[REQUESTS];
static int request_count;
static long staged_count;             /* buffers staged, for OMP2GPU_MPI_STAGING=all's report */

static void report_staged(void) {
    fprintf(stderr, "omp2gpu: %ld MPI buffers staged through host memory\n", staged_count);
}

static int decide(void) {
    const char *staging = getenv("OMP2GPU_MPI_STAGING"), *aware = getenv("OMP2GPU_MPI_CUDA_AWARE");
    cuda_support_fn cuda_support = (cuda_support_fn)dlsym(RTLD_DEFAULT, "MPIX_Query_cuda_support");
    void *driver = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    tracing = staging && strcmp(staging, "trace") == 0;
    if (staging && strcmp(staging, "all") == 0) {
        atexit(report_staged);
        return STAGE_ALL;
    }
    if ((staging && strcmp(staging, "0") == 0) || (aware && strcmp(aware, "1") == 0) || !driver)
        return PASS_THROUGH;
    /* OMP2GPU_MPI_CUDA_AWARE=0: staged whatever the MPI says of itself */
    if (!(aware && strcmp(aware, "0") == 0) && cuda_support && cuda_support()) return PASS_THROUGH;
    pointer_attribute = (pointer_attribute_fn)dlsym(driver, "cuPointerGetAttribute");
    copy = (copy_fn)dlsym(driver, "cuMemcpy");
    push_context = (push_context_fn)dlsym(driver, "cuCtxPushCurrent_v2");
    pop_context = (pop_context_fn)dlsym(driver, "cuCtxPopCurrent_v2");
    return pointer_attribute && copy && push_context && pop_context ? STAGE_DEVICE : PASS_THROUGH;
}

/* Whether `buffer` is to be staged. */
static int staged(const void *buffer) {
    unsigned memory_type = 0;
    if (mode == UNDECIDED) mode = decide();
    if (mode == PASS_THROUGH || !buffer || buffer == MPI_IN_PLACE || buffer == MPI_BOTTOM) return 0;
    if (mode == STAGE_ALL) return 1;
    return pointer_attribute(&memory_type, ATTRIBUTE_MEMORY_TYPE, (unsigned long)buffer) == 0
           && memory_type == MEMORY_DEVICE;
}

/* The bytes `count` elements of `type` span from the buffer's address; -1 when they
 * start before it (a negative lower bound: not staged). */
static long span(int count, MPI_Datatype type) {
    MPI_Aint lb, extent, true_lb, true_extent;
    if (count <= 0) return 0;
    PMPI_Type_get_extent(type, &lb, &extent);
    PMPI_Type_get_true_extent(type, &true_lb, &true_extent);
    if (true_lb < 0) return -1;
    return (long)((count - 1) * extent + true_lb + true_extent);
}

/* Copies `bytes` between a device buffer and host memory, in its context. */
static void copy_bytes(void *to, const void *from, const void *device, long bytes) {
    void *context = (void *)0, *previous;
    if (bytes <= 0) return;
    if (tracing) fprintf(stderr, "omp2gpu: MPI buffer %p staged %s (%ld bytes)\n", (void *)device,
                         to == device ? "back to the device" : "to the host", bytes);
    if (mode == STAGE_ALL) {
        memcpy(to, from, (size_t)bytes);
        return;
    }
    pointer_attribute(&context, ATTRIBUTE_CONTEXT, (unsigned long)device);
    push_context(context);
    if (copy((unsigned long)to, (unsigned long)from, (unsigned long)bytes) != 0)
        fprintf(stderr, "omp2gpu: staging an MPI buffer of %ld bytes between device and host failed\n", bytes);
    pop_context(&previous);
}

/* Host memory for the device buffer's `bytes`, its contents copied in when `read`
 * (NULL: none to be had). */
static void *stage_in(const void *device, long bytes, int read) {
    void *host = malloc(bytes > 0 ? (size_t)bytes : 1);
    if (host && read) copy_bytes(host, device, device, bytes);
    return host;
}

static void stage_out(void *device, void *host, long bytes) {
    copy_bytes(device, host, device, bytes);
    free(host);
}

/* Whether count elements of `type` leave holes in the bytes they span. */
static int holes(int count, MPI_Datatype type, long bytes) {
    int size = 0;
    PMPI_Type_size(type, &size);
    return (long)count * size != bytes;
}

/* The buffer MPI is given: the host copy when staged (*host set), else the buffer. A
 * buffer MPI only writes is read in only where its type leaves holes. */
static const void *staged_buffer(const void *buffer, int count, MPI_Datatype type, int written_only,
                                 void **host, long *bytes) {
    *host = (void *)0;
    *bytes = staged(buffer) ? span(count, type) : -1;
    if (*bytes < 0) return buffer;
    *host = stage_in(buffer, *bytes, !written_only || holes(count, type, *bytes));
    __atomic_fetch_add(&staged_count, 1, __ATOMIC_RELAXED);
    return *host ? *host : buffer;
}

static const void *given(const void *buffer, int count, MPI_Datatype type, void **host, long *bytes) {
    return staged_buffer(buffer, count, type, 0, host, bytes);
}

static void *receiving(void *buffer, int count, MPI_Datatype type, void **host, long *bytes) {
    return (void *)staged_buffer(buffer, count, type, 1, host, bytes);
}

static void release(void *host) { free(host); }

static void returned(void *device, void *host, long bytes) {
    if (host) stage_out(device, host, bytes);
}

int omp2gpu_MPI_Send(const void *buffer, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    void *host;
    long bytes;
    int result = PMPI_Send(given(buffer, count, type, &host, &bytes), count, type, dest, tag, comm);
    release(host);
    return result;
}

int omp2gpu_MPI_Recv(void *buffer, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                     MPI_Status *status) {
    void *host;
    long bytes;
    int result = PMPI_Recv(receiving(buffer, count, type, &host, &bytes), count, type, source, tag, comm,
                           status);
    returned(buffer, host, bytes);
    return result;
}

int omp2gpu_MPI_Sendrecv(const void *send, int send_count, MPI_Datatype send_type, int dest, int send_tag,
                         void *receive, int receive_count, MPI_Datatype receive_type, int source,
                         int receive_tag, MPI_Comm comm, MPI_Status *status) {
    void *send_host, *receive_host;
    long send_bytes, receive_bytes;
    const void *send_given = given(send, send_count, send_type, &send_host, &send_bytes);
    void *receive_given = receiving(receive, receive_count, receive_type, &receive_host, &receive_bytes);
    int result = PMPI_Sendrecv(send_given, send_count, send_type, dest, send_tag, receive_given, receive_count,
                               receive_type, source, receive_tag, comm, status);
    release(send_host);
    returned(receive, receive_host, receive_bytes);
    return result;
}

int omp2gpu_MPI_Bcast(void *buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    void *host;
    long bytes;
    int result = PMPI_Bcast((void *)given(buffer, count, type, &host, &bytes), count, type, root, comm);
    returned(buffer, host, bytes);
    return result;
}

/* MPI_Reduce to `root`, or MPI_Allreduce for root -1. */
static int reduce(const void *send, void *receive, int count, MPI_Datatype type, MPI_Op op, int root,
                  MPI_Comm comm) {
    void *send_host, *receive_host;
    long send_bytes, receive_bytes;
    const void *send_given = given(send, count, type, &send_host, &send_bytes);
    /* in place, the receive buffer is read too */
    void *receive_given = send == MPI_IN_PLACE ? (void *)given(receive, count, type, &receive_host, &receive_bytes)
                                               : receiving(receive, count, type, &receive_host, &receive_bytes);
    int result = root < 0 ? PMPI_Allreduce(send_given, receive_given, count, type, op, comm)
                          : PMPI_Reduce(send_given, receive_given, count, type, op, root, comm);
    release(send_host);
    returned(receive, receive_host, receive_bytes);
    return result;
}

int omp2gpu_MPI_Reduce(const void *send, void *receive, int count, MPI_Datatype type, MPI_Op op, int root,
                       MPI_Comm comm) {
    return reduce(send, receive, count, type, op, root, comm);
}

int omp2gpu_MPI_Allreduce(const void *send, void *receive, int count, MPI_Datatype type, MPI_Op op,
                          MPI_Comm comm) {
    return reduce(send, receive, count, type, op, -1, comm);
}

/* A non-blocking call's host copy, kept until its request completes; 0, or -1 when the
 * table is full (the call is then refused: MPI_ERR_OTHER). */
static int keep(MPI_Request request, void *device, void *host, long bytes) {
    int kept = -1;
    pthread_mutex_lock(&requests_lock);
    if (request_count < REQUESTS) {
        requests[request_count].request = request;
        requests[request_count].device = device;
        requests[request_count].host = host;
        requests[request_count].bytes = bytes;
        request_count++;
        kept = 0;
    }
    pthread_mutex_unlock(&requests_lock);
    return kept;
}

/* A request completed: its receive copied back to the device, its host copy freed. */
static void complete(MPI_Request request) {
    int i;
    pthread_mutex_lock(&requests_lock);
    for (i = 0; i < request_count; i++)
        if (requests[i].request == request) {
            struct staged_request done = requests[i];
            requests[i] = requests[--request_count];
            pthread_mutex_unlock(&requests_lock);
            if (done.device) stage_out(done.device, done.host, done.bytes);
            else free(done.host);
            return;
        }
    pthread_mutex_unlock(&requests_lock);
}

/* A non-blocking call made (`result`): its host copy, if any, kept until the request
 * completes (freed if the call failed); the call's result, or MPI_ERR_OTHER when too
 * many are pending. */
static int started(int result, MPI_Request request, void *device, void *host, long bytes) {
    if (!host) return result;
    if (result != MPI_SUCCESS) {
        free(host);
        return result;
    }
    if (keep(request, device, host, bytes) == 0) return result;
    free(host);
    fprintf(stderr, "omp2gpu: more than %d non-blocking MPI calls on staged device buffers at once\n", REQUESTS);
    return MPI_ERR_OTHER;
}

int omp2gpu_MPI_Isend(const void *buffer, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request) {
    void *host;
    long bytes;
    int result = PMPI_Isend(given(buffer, count, type, &host, &bytes), count, type, dest, tag, comm, request);
    return started(result, *request, (void *)0, host, bytes);
}

int omp2gpu_MPI_Irecv(void *buffer, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                      MPI_Request *request) {
    void *host;
    long bytes;
    int result = PMPI_Irecv(receiving(buffer, count, type, &host, &bytes), count, type, source, tag, comm,
                            request);
    return started(result, *request, buffer, host, bytes);
}

int omp2gpu_MPI_Wait(MPI_Request *request, MPI_Status *status) {
    MPI_Request waited = *request;          /* MPI sets it to MPI_REQUEST_NULL */
    int result = PMPI_Wait(request, status);
    if (request_count > 0) complete(waited);
    return result;
}

int omp2gpu_MPI_Waitall(int count, MPI_Request requests_given[], MPI_Status statuses[]) {
    MPI_Request *waited;
    int i, result;
    if (request_count == 0) return PMPI_Waitall(count, requests_given, statuses);
    waited = (MPI_Request *)malloc(sizeof(MPI_Request) * (count > 0 ? count : 1));
    for (i = 0; i < count; i++) waited[i] = requests_given[i];
    result = PMPI_Waitall(count, requests_given, statuses);
    for (i = 0; i < count; i++) complete(waited[i]);
    free(waited);
    return result;
}
