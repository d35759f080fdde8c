/* The device routines of the OpenMP API on the initial device (the host), OpenMP
 * 4.5 sections 3.2.31-3.2.36 and 3.5: what the offload launcher knows.
 *
 * Everything else of the API (threads, ICVs, locks, timing) is the production
 * OpenMP runtime's that runs the host's threads (targets/openmp_runtime.py); these
 * definitions, linked into every host module, come first, so the runtime's own
 * device routines (which know no devices) are not used.
 * Compiled by omp2gpu itself and linked into every host module.
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int default_device = -1;   /* default-device-var; -1: not yet read from the environment */

/* ---------------------------------------------------------------- devices */
/* The offload launcher (omp2gpu/offload/abi.py) knows the devices and their memory. */
int __omp2gpu_num_devices(void);
void __omp2gpu_set_default_device(int device);
void *__omp2gpu_target_alloc(size_t size, int device);
void __omp2gpu_target_free(void *device_pointer, int device);
int __omp2gpu_target_is_present(void *host_pointer, int device);
int __omp2gpu_target_memcpy(void *dst, void *src, size_t length, size_t dst_offset,
                            size_t src_offset, int dst_device, int src_device);
int __omp2gpu_device_name(int device, char *buffer, size_t size);

int omp_get_num_devices(void) { return __omp2gpu_num_devices(); }
int omp_get_initial_device(void) { return omp_get_num_devices(); }
int omp_is_initial_device(void) { return 1; }
void omp_set_default_device(int device_num) {
    default_device = device_num;
    __omp2gpu_set_default_device(device_num);
}
int omp_get_default_device(void) {
    if (default_device < 0) {
        const char *text = getenv("OMP_DEFAULT_DEVICE");
        default_device = text ? atoi(text) : 0;
        if (default_device < 0) default_device = 0;
    }
    return default_device;
}

static int is_host(int device_num) { return device_num == omp_get_initial_device(); }

/* What device device_num is (-1: the default device): 0 the host, 1 the CPU device, 2 a
 * GPU (offload/abi.py's DEVICE_CODE_*), for a metadirective's target_device selector. */
int __omp2gpu_device_kind(int device);
int __omp2gpu_device_code(int device_num) {
    if (device_num == -1) device_num = omp_get_default_device();
    return is_host(device_num) ? 0 : __omp2gpu_device_kind(device_num);
}

/* OpenMP 5.0: the host is the initial device, numbered after the offload devices. */
int omp_get_device_num(void) { return omp_get_initial_device(); }
/* A device's memory and modules stay until the program ends (nothing to release early);
 * the host's threads are the OpenMP runtime's to pause. */
int omp_pause_resource(omp_pause_resource_t kind, int device_num) {
    if (device_num < 0 || device_num > omp_get_num_devices()) return -1;
    return is_host(device_num) ? omp_pause_resource_all(kind) : 0;
}

/* omp2gpu's own: where a program ran, by name (<omp.h> says more). */
int omp2gpu_get_device_name(int device_num, char *buffer, size_t size) {
    if (!is_host(device_num))
        return __omp2gpu_device_name(device_num, buffer, size);
    static const char host[] = "host";
    size_t kept = sizeof host - 1;
    if (buffer && size > 0) {
        if (kept > size - 1) kept = size - 1;
        memcpy(buffer, host, kept);
        buffer[kept] = 0;
    }
    return (int)(sizeof host - 1);
}

void *omp_target_alloc(size_t size, int device_num) {
    return is_host(device_num) ? malloc(size) : __omp2gpu_target_alloc(size, device_num);
}
void omp_target_free(void *device_ptr, int device_num) {
    if (is_host(device_num)) free(device_ptr);
    else __omp2gpu_target_free(device_ptr, device_num);
}
int omp_target_is_present(const void *ptr, int device_num) {
    return is_host(device_num) || __omp2gpu_target_is_present((void *)ptr, device_num);
}
int omp_target_memcpy(void *dst, const void *src, size_t length, size_t dst_offset,
                      size_t src_offset, int dst_device_num, int src_device_num) {
    if (!is_host(dst_device_num) || !is_host(src_device_num))
        return __omp2gpu_target_memcpy(dst, (void *)src, length, dst_offset, src_offset,
                                       dst_device_num, src_device_num);
    memcpy((char *)dst + dst_offset, (char *)src + src_offset, length);
    return 0;
}
/* Copies a num_dims-dimensional sub-volume, one dimension per recursion level; the
 * innermost rows by omp_target_memcpy (any two devices). Nonzero: a row's copy failed. */
static int copy_rect(char *dst, const char *src, size_t element_size, int num_dims,
                     const size_t *volume, const size_t *dst_offsets, const size_t *src_offsets,
                     const size_t *dst_dimensions, const size_t *src_dimensions,
                     int dst_device_num, int src_device_num) {
    size_t dst_stride = element_size, src_stride = element_size, i;
    int d;
    for (d = 1; d < num_dims; d++) {
        dst_stride *= dst_dimensions[d];
        src_stride *= src_dimensions[d];
    }
    dst += dst_offsets[0] * dst_stride;
    src += src_offsets[0] * src_stride;
    if (num_dims == 1)
        return omp_target_memcpy(dst, (void *)src, volume[0] * element_size, 0, 0, dst_device_num, src_device_num);
    for (i = 0; i < volume[0]; i++)
        if (copy_rect(dst + i * dst_stride, src + i * src_stride, element_size, num_dims - 1, volume + 1,
                      dst_offsets + 1, src_offsets + 1, dst_dimensions + 1, src_dimensions + 1,
                      dst_device_num, src_device_num))
            return -1;
    return 0;
}
#define MAX_RECT_DIMS 16
static int valid_device(int device_num) { return device_num >= 0 && device_num <= omp_get_num_devices(); }
int omp_target_memcpy_rect(void *dst, const void *src, size_t element_size, int num_dims,
                           const size_t *volume, const size_t *dst_offsets,
                           const size_t *src_offsets, const size_t *dst_dimensions,
                           const size_t *src_dimensions, int dst_device_num, int src_device_num) {
    if (dst == NULL && src == NULL) return MAX_RECT_DIMS;   /* the number of dimensions supported */
    if (!valid_device(dst_device_num) || !valid_device(src_device_num) || num_dims < 1 || num_dims > MAX_RECT_DIMS
        || !dst || !src)
        return -1;
    return copy_rect((char *)dst, (const char *)src, element_size, num_dims, volume, dst_offsets, src_offsets,
                     dst_dimensions, src_dimensions, dst_device_num, src_device_num);
}

/* ---------------------------------------------------------------- 5.1 asynchronous copies */
/* omp_target_memcpy_async / _rect_async: a task (the host OpenMP runtime's, GOMP_task as
 * compiled tasks are made) that depends on the depend objects (depobj), so that it is
 * ordered with sibling tasks and target tasks as a `target nowait depend(...)` would be.
 * The task holds copies of the arguments: the caller's arrays may be gone when it runs. */
void GOMP_task(void (*fn)(void *), void *data, void (*copy)(void *, void *), long size, long align,
               _Bool if_clause, unsigned flags, void **depend, int priority, void *detach);
#define GOMP_TASK_FLAG_DEPEND 8
struct async_copy {
    void *dst, *src;
    size_t length, dst_offset, src_offset, element_size;
    int dst_device_num, src_device_num, num_dims;     /* num_dims 0: a plain copy */
    size_t volume[MAX_RECT_DIMS], dst_offsets[MAX_RECT_DIMS], src_offsets[MAX_RECT_DIMS];
    size_t dst_dimensions[MAX_RECT_DIMS], src_dimensions[MAX_RECT_DIMS];
};
static void run_async_copy(void *data) {
    struct async_copy *c = data;
    if (c->num_dims == 0)
        omp_target_memcpy(c->dst, c->src, c->length, c->dst_offset, c->src_offset, c->dst_device_num,
                          c->src_device_num);
    else
        omp_target_memcpy_rect(c->dst, c->src, c->element_size, c->num_dims, c->volume, c->dst_offsets,
                               c->src_offsets, c->dst_dimensions, c->src_dimensions, c->dst_device_num,
                               c->src_device_num);
}
/* GOMP's 5.0 dependence array: [0, total, outs, mutexinoutsets, ins, depobj objects...] */
static void start_async_copy(struct async_copy *copy, int depobj_count, omp_depend_t *depobj_list) {
    void *small[21], **depend = depobj_count <= 16 ? small : malloc((size_t)(depobj_count + 5) * sizeof *depend);
    int i;
    depend[0] = 0;
    depend[1] = (void *)(long)depobj_count;
    depend[2] = depend[3] = depend[4] = 0;
    for (i = 0; i < depobj_count; i++) depend[5 + i] = &depobj_list[i];
    GOMP_task(run_async_copy, copy, 0, (long)sizeof *copy, 8, 1, depobj_count > 0 ? GOMP_TASK_FLAG_DEPEND : 0,
              depobj_count > 0 ? depend : 0, 0, 0);
    if (depend != small) free(depend);
}
int omp_target_memcpy_async(void *dst, const void *src, size_t length, size_t dst_offset, size_t src_offset,
                            int dst_device_num, int src_device_num, int depobj_count,
                            omp_depend_t *depobj_list) {
    struct async_copy copy;
    if (!valid_device(dst_device_num) || !valid_device(src_device_num) || depobj_count < 0) return -1;
    memset(&copy, 0, sizeof copy);
    copy.dst = dst;
    copy.src = (void *)src;
    copy.length = length;
    copy.dst_offset = dst_offset;
    copy.src_offset = src_offset;
    copy.dst_device_num = dst_device_num;
    copy.src_device_num = src_device_num;
    start_async_copy(&copy, depobj_count, depobj_list);
    return 0;
}
int omp_target_memcpy_rect_async(void *dst, const void *src, size_t element_size, int num_dims,
                                 const size_t *volume, const size_t *dst_offsets, const size_t *src_offsets,
                                 const size_t *dst_dimensions, const size_t *src_dimensions,
                                 int dst_device_num, int src_device_num, int depobj_count,
                                 omp_depend_t *depobj_list) {
    struct async_copy copy;
    int d;
    if (dst == NULL && src == NULL) return MAX_RECT_DIMS;
    if (!valid_device(dst_device_num) || !valid_device(src_device_num) || num_dims < 1
        || num_dims > MAX_RECT_DIMS || !dst || !src || depobj_count < 0)
        return -1;
    memset(&copy, 0, sizeof copy);
    copy.dst = dst;
    copy.src = (void *)src;
    copy.element_size = element_size;
    copy.num_dims = num_dims;
    copy.dst_device_num = dst_device_num;
    copy.src_device_num = src_device_num;
    for (d = 0; d < num_dims; d++) {
        copy.volume[d] = volume[d];
        copy.dst_offsets[d] = dst_offsets[d];
        copy.src_offsets[d] = src_offsets[d];
        copy.dst_dimensions[d] = dst_dimensions[d];
        copy.src_dimensions[d] = src_dimensions[d];
    }
    start_async_copy(&copy, depobj_count, depobj_list);
    return 0;
}

/* ---------------------------------------------------------------- 5.1 mapped pointers, accessibility */
void *__omp2gpu_mapped_ptr(void *pointer, int device);
int __omp2gpu_target_is_accessible(const void *pointer, size_t size, int device);
int __omp2gpu_associate_ptr(void *host, void *device_pointer, size_t size, size_t device_offset, int device);
int __omp2gpu_disassociate_ptr(void *host, int device);
void *__omp2gpu_target_alloc_kind(size_t size, int device, int kind);
void *omp_get_mapped_ptr(const void *ptr, int device_num) {
    if (is_host(device_num)) return (void *)ptr;
    if (!valid_device(device_num)) return NULL;
    return __omp2gpu_mapped_ptr((void *)ptr, device_num);
}
int omp_target_is_accessible(const void *ptr, size_t size, int device_num) {
    if (is_host(device_num)) return 1;
    if (!valid_device(device_num)) return 0;
    return __omp2gpu_target_is_accessible(ptr, size, device_num);
}
/* Clang's extensions (omp.h says more) */
void *llvm_omp_target_alloc_device(size_t size, int device_num) { return omp_target_alloc(size, device_num); }
void *llvm_omp_target_alloc_host(size_t size, int device_num) {
    return is_host(device_num) ? malloc(size) : __omp2gpu_target_alloc_kind(size, device_num, 1);
}
void *llvm_omp_target_alloc_shared(size_t size, int device_num) {
    return is_host(device_num) ? malloc(size) : __omp2gpu_target_alloc_kind(size, device_num, 2);
}
int omp_target_associate_ptr(const void *host_ptr, const void *device_ptr, size_t size,
                             size_t device_offset, int device_num) {
    if (is_host(device_num) || !valid_device(device_num)) return -1;   /* nothing to associate on the host */
    return __omp2gpu_associate_ptr((void *)host_ptr, (void *)device_ptr, size, device_offset, device_num);
}
int omp_target_disassociate_ptr(const void *ptr, int device_num) {
    if (is_host(device_num) || !valid_device(device_num)) return -1;
    return __omp2gpu_disassociate_ptr((void *)ptr, device_num);
}
