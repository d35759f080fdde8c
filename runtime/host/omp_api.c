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
int omp_target_is_present(void *ptr, int device_num) {
    return is_host(device_num) || __omp2gpu_target_is_present(ptr, device_num);
}
int omp_target_memcpy(void *dst, void *src, size_t length, size_t dst_offset,
                      size_t src_offset, int dst_device_num, int src_device_num) {
    if (!is_host(dst_device_num) || !is_host(src_device_num))
        return __omp2gpu_target_memcpy(dst, src, length, dst_offset, src_offset,
                                       dst_device_num, src_device_num);
    memcpy((char *)dst + dst_offset, (char *)src + src_offset, length);
    return 0;
}
/* Copies a num_dims-dimensional sub-volume, one dimension per recursion level. */
static void copy_rect(char *dst, const char *src, size_t element_size, int num_dims,
                      const size_t *volume, const size_t *dst_offsets, const size_t *src_offsets,
                      const size_t *dst_dimensions, const size_t *src_dimensions) {
    size_t dst_stride = element_size, src_stride = element_size, i;
    int d;
    for (d = 1; d < num_dims; d++) {
        dst_stride *= dst_dimensions[d];
        src_stride *= src_dimensions[d];
    }
    dst += dst_offsets[0] * dst_stride;
    src += src_offsets[0] * src_stride;
    if (num_dims == 1) {
        memcpy(dst, src, volume[0] * element_size);
        return;
    }
    for (i = 0; i < volume[0]; i++)
        copy_rect(dst + i * dst_stride, src + i * src_stride, element_size, num_dims - 1,
                  volume + 1, dst_offsets + 1, src_offsets + 1, dst_dimensions + 1, src_dimensions + 1);
}
int omp_target_memcpy_rect(void *dst, void *src, size_t element_size, int num_dims,
                           const size_t *volume, const size_t *dst_offsets,
                           const size_t *src_offsets, const size_t *dst_dimensions,
                           const size_t *src_dimensions, int dst_device_num, int src_device_num) {
    if (dst == NULL && src == NULL) return 3;     /* the number of dimensions supported */
    if (!is_host(dst_device_num) || !is_host(src_device_num) || num_dims < 1) return -1;
    copy_rect((char *)dst, (const char *)src, element_size, num_dims, volume, dst_offsets,
              src_offsets, dst_dimensions, src_dimensions);
    return 0;
}
int omp_target_associate_ptr(void *host_ptr, void *device_ptr, size_t size,
                             size_t device_offset, int device_num) {
    (void)host_ptr; (void)device_ptr; (void)size; (void)device_offset; (void)device_num;
    return -1;                       /* no device memory to associate with */
}
int omp_target_disassociate_ptr(void *ptr, int device_num) {
    (void)ptr; (void)device_num;
    return -1;
}
