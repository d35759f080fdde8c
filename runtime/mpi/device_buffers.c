/* Device memory given to an MPI that cannot read it, staged through host memory
 * (README, "Several devices, and MPI programs"; docs/native-executables.md).
 *
 * A program may pass MPI the device address of a mapped array (`target data
 * use_device_ptr(p)`), as CUDA-aware MPI codes do. With a CUDA-aware MPI
 * (MPIX_Query_cuda_support() says so, or OMP2GPU_MPI_CUDA_AWARE=1; =0 overrides what
 * the MPI says) every call goes straight through. Otherwise the calls below, which take
 * the program's MPI_X calls (omp2gpu_MPI_X calls PMPI_X, as a PMPI tool's MPI_X does),
 * copy a device buffer to host memory before MPI reads it and back after MPI wrote it.
 * The offload runtime (libomp2gpu, runtime/offload/) says which device's memory a buffer
 * is, and copies it (__omp2gpu_target_memcpy); memory of no device, or memory host code
 * reads in place (the CPU device's), goes straight through, so without a GPU nothing is
 * staged. A native program links this file, compiled with its MPI's <mpi.h>, when it
 * calls one of these functions (omp2gpu/targets/mpi_device_buffers.py).
 * A buffer's bytes are those count elements of its datatype span (extent and true
 * extent), read in first for a receive as well, so the holes of a strided type keep
 * their values. Non-blocking calls keep their host copy until MPI_Wait/MPI_Waitall
 * complete the request. OMP2GPU_MPI_STAGING=all stages the CPU device's memory too and
 * says at exit how many buffers it staged: the tests run the staging on machines without
 * a GPU; OMP2GPU_MPI_STAGING=trace names each copy on stderr; =0 stages nothing.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

/* libomp2gpu's entry points (runtime/offload/entry_points.c) */
int __omp2gpu_device_memory(const void *address, int *host_readable);
int __omp2gpu_num_devices(void);
int __omp2gpu_target_memcpy(void *dst, void *src, size_t length, size_t dst_offset, size_t src_offset,
                            int dst_device, int src_device);

typedef int (*cuda_support_fn)(void);

#define NOT_STAGED -1
#define REQUESTS 256

enum { UNDECIDED, PASS_THROUGH, STAGE_DEVICE, STAGE_ALL };
static int mode = UNDECIDED;
static int tracing;                   /* OMP2GPU_MPI_STAGING=trace: each staged copy on stderr */
static long staged_count;             /* buffers staged, for OMP2GPU_MPI_STAGING=all's report */

static void report_staged(void) {
    fprintf(stderr, "omp2gpu: %ld MPI buffers staged through host memory\n", staged_count);
}

static int decide(void) {
    const char *staging = getenv("OMP2GPU_MPI_STAGING"), *aware = getenv("OMP2GPU_MPI_CUDA_AWARE");
    cuda_support_fn cuda_support = (cuda_support_fn)dlsym(RTLD_DEFAULT, "MPIX_Query_cuda_support");
    tracing = staging && strcmp(staging, "trace") == 0;
    if (staging && strcmp(staging, "all") == 0) {
        atexit(report_staged);
        return STAGE_ALL;
    }
    if ((staging && strcmp(staging, "0") == 0) || (aware && strcmp(aware, "1") == 0)) return PASS_THROUGH;
    /* OMP2GPU_MPI_CUDA_AWARE=0: staged whatever the MPI says of itself */
    if (!(aware && strcmp(aware, "0") == 0) && cuda_support && cuda_support()) return PASS_THROUGH;
    return STAGE_DEVICE;
}

/* The device whose memory `buffer` is, if it is to be staged; else NOT_STAGED. */
static int staged(const void *buffer) {
    int device, host_readable = 0;
    if (mode == UNDECIDED) mode = decide();
    if (mode == PASS_THROUGH || !buffer || buffer == MPI_IN_PLACE || buffer == MPI_BOTTOM) return NOT_STAGED;
    device = __omp2gpu_device_memory(buffer, &host_readable);
    return device >= 0 && (!host_readable || mode == STAGE_ALL) ? device : NOT_STAGED;
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

/* A buffer staged for one MPI call: its host copy (NULL: not staged) and where it came from. */
struct stage {
    void *host;
    long bytes;
    int device;
};

/* Copies `bytes` between device `device`'s buffer and host memory (`to_device`: host to
 * device). */
static void copy_bytes(void *to, const void *from, int device, int to_device, long bytes) {
    int host = __omp2gpu_num_devices();
    if (bytes <= 0) return;
    if (tracing) fprintf(stderr, "omp2gpu: MPI buffer %p staged %s (%ld bytes)\n", to_device ? to : (void *)from,
                         to_device ? "back to the device" : "to the host", bytes);
    if (__omp2gpu_target_memcpy(to, (void *)from, (size_t)bytes, 0, 0, to_device ? device : host,
                                to_device ? host : device) != 0)
        fprintf(stderr, "omp2gpu: staging an MPI buffer of %ld bytes between device %d and the host failed\n",
                bytes, device);
}

/* The host copy back into the device buffer, and freed. */
static void stage_out(void *buffer, const struct stage *stage) {
    copy_bytes(buffer, stage->host, stage->device, 1, stage->bytes);
    free(stage->host);
}

/* Whether count elements of `type` leave holes in the bytes they span. */
static int holes(int count, MPI_Datatype type, long bytes) {
    int size = 0;
    PMPI_Type_size(type, &size);
    return (long)count * size != bytes;
}

/* The buffer MPI is given: the host copy when staged (stage->host set), else the buffer.
 * A buffer MPI only writes is read in only where its type leaves holes. */
static const void *staged_buffer(const void *buffer, int count, MPI_Datatype type, int written_only,
                                 struct stage *stage) {
    stage->host = (void *)0;
    stage->device = staged(buffer);
    stage->bytes = stage->device == NOT_STAGED ? -1 : span(count, type);
    if (stage->bytes < 0) return buffer;
    stage->host = malloc(stage->bytes > 0 ? (size_t)stage->bytes : 1);
    if (!stage->host) return buffer;
    if (!written_only || holes(count, type, stage->bytes))
        copy_bytes(stage->host, buffer, stage->device, 0, stage->bytes);
    __atomic_fetch_add(&staged_count, 1, __ATOMIC_RELAXED);
    return stage->host;
}

static const void *given(const void *buffer, int count, MPI_Datatype type, struct stage *stage) {
    return staged_buffer(buffer, count, type, 0, stage);
}

static void *receiving(void *buffer, int count, MPI_Datatype type, struct stage *stage) {
    return (void *)staged_buffer(buffer, count, type, 1, stage);
}

static void release(const struct stage *stage) { free(stage->host); }

static void returned(void *buffer, const struct stage *stage) {
    if (stage->host) stage_out(buffer, stage);
}

int omp2gpu_MPI_Send(const void *buffer, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm) {
    struct stage stage;
    int result = PMPI_Send(given(buffer, count, type, &stage), count, type, dest, tag, comm);
    release(&stage);
    return result;
}

int omp2gpu_MPI_Recv(void *buffer, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                     MPI_Status *status) {
    struct stage stage;
    int result = PMPI_Recv(receiving(buffer, count, type, &stage), count, type, source, tag, comm, status);
    returned(buffer, &stage);
    return result;
}

int omp2gpu_MPI_Sendrecv(const void *send, int send_count, MPI_Datatype send_type, int dest, int send_tag,
                         void *receive, int receive_count, MPI_Datatype receive_type, int source,
                         int receive_tag, MPI_Comm comm, MPI_Status *status) {
    struct stage send_stage, receive_stage;
    const void *send_given = given(send, send_count, send_type, &send_stage);
    void *receive_given = receiving(receive, receive_count, receive_type, &receive_stage);
    int result = PMPI_Sendrecv(send_given, send_count, send_type, dest, send_tag, receive_given, receive_count,
                               receive_type, source, receive_tag, comm, status);
    release(&send_stage);
    returned(receive, &receive_stage);
    return result;
}

int omp2gpu_MPI_Bcast(void *buffer, int count, MPI_Datatype type, int root, MPI_Comm comm) {
    struct stage stage;
    int result = PMPI_Bcast((void *)given(buffer, count, type, &stage), count, type, root, comm);
    returned(buffer, &stage);
    return result;
}

/* MPI_Reduce to `root`, or MPI_Allreduce for root -1. */
static int reduce(const void *send, void *receive, int count, MPI_Datatype type, MPI_Op op, int root,
                  MPI_Comm comm) {
    struct stage send_stage, receive_stage;
    const void *send_given = given(send, count, type, &send_stage);
    /* in place, the receive buffer is read too */
    void *receive_given = send == MPI_IN_PLACE ? (void *)given(receive, count, type, &receive_stage)
                                               : receiving(receive, count, type, &receive_stage);
    int result = root < 0 ? PMPI_Allreduce(send_given, receive_given, count, type, op, comm)
                          : PMPI_Reduce(send_given, receive_given, count, type, op, root, comm);
    release(&send_stage);
    returned(receive, &receive_stage);
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

/* The staged buffers of non-blocking calls not yet completed. */
static pthread_mutex_t requests_lock = PTHREAD_MUTEX_INITIALIZER;
static struct staged_request {
    MPI_Request request;
    void *device;                    /* a receive's device buffer, NULL for a send */
    struct stage stage;
} requests[REQUESTS];
static int request_count;

/* A non-blocking call's host copy, kept until its request completes; 0, or -1 when the
 * table is full (the call is then refused: MPI_ERR_OTHER). */
static int keep(MPI_Request request, void *device, const struct stage *stage) {
    int kept = -1;
    pthread_mutex_lock(&requests_lock);
    if (request_count < REQUESTS) {
        requests[request_count].request = request;
        requests[request_count].device = device;
        requests[request_count].stage = *stage;
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
            if (done.device) stage_out(done.device, &done.stage);
            else release(&done.stage);
            return;
        }
    pthread_mutex_unlock(&requests_lock);
}

/* A non-blocking call made (`result`): its host copy, if any, kept until the request
 * completes (freed if the call failed); the call's result, or MPI_ERR_OTHER when too
 * many are pending. */
static int started(int result, MPI_Request request, void *device, const struct stage *stage) {
    if (!stage->host) return result;
    if (result != MPI_SUCCESS) {
        release(stage);
        return result;
    }
    if (keep(request, device, stage) == 0) return result;
    release(stage);
    fprintf(stderr, "omp2gpu: more than %d non-blocking MPI calls on staged device buffers at once\n", REQUESTS);
    return MPI_ERR_OTHER;
}

int omp2gpu_MPI_Isend(const void *buffer, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                      MPI_Request *request) {
    struct stage stage;
    int result = PMPI_Isend(given(buffer, count, type, &stage), count, type, dest, tag, comm, request);
    return started(result, *request, (void *)0, &stage);
}

int omp2gpu_MPI_Irecv(void *buffer, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
                      MPI_Request *request) {
    struct stage stage;
    int result = PMPI_Irecv(receiving(buffer, count, type, &stage), count, type, source, tag, comm, request);
    return started(result, *request, buffer, &stage);
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
