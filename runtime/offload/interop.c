/* OpenMP 5.1 interop objects (`#pragma omp interop`, codegen/openmp/host/interop.py) and the
 * omp_get_interop_* routines. An object is made for one device: on a GPU, CUDA's (fr_id
 * omp_ifr_cuda): with targetsync a stream of its own, made blocking so that it is ordered
 * with the legacy default stream target regions launch on (a cuBLAS call queued on it
 * runs after earlier target regions and before later ones), the device's ordinal and its
 * primary context; `use` and `destroy` wait for the stream's work. On the CPU device and
 * the host there is no foreign runtime: those properties have no value. */
#include <stdlib.h>
#include <string.h>
#include "offload.h"

/* omp.h's omp_interop_property_t and omp_interop_rc_t */
enum { PROPERTY_FR_ID = -1, PROPERTY_FR_NAME = -2, PROPERTY_VENDOR = -3, PROPERTY_VENDOR_NAME = -4,
       PROPERTY_DEVICE_NUM = -5, PROPERTY_PLATFORM = -6, PROPERTY_DEVICE = -7, PROPERTY_DEVICE_CONTEXT = -8,
       PROPERTY_TARGETSYNC = -9, PROPERTY_FIRST = -9 };
enum { RC_NO_VALUE = 1, RC_SUCCESS = 0, RC_EMPTY = -1, RC_OUT_OF_RANGE = -2, RC_TYPE_INT = -3, RC_TYPE_PTR = -4,
       RC_TYPE_STR = -5, RC_OTHER = -6 };
#define FR_CUDA 1

struct interop {
    int device_number;           /* the device it is for (the host's number: the host) */
    int cuda;                    /* a GPU's: CUDA is its foreign runtime */
    void *stream, *device_handle, *context;
};

static struct device *device_of_interop(const struct interop *made) {
    struct device *d = device_at(made->device_number);
    return d && d->usable ? d : 0;
}

void __omp2gpu_interop_init(void **object, int64_t device, int32_t targetsync, const char *where) {
    struct interop *made = calloc(1, sizeof *made);
    struct device *d;
    offload_lock();
    d = select_device(device);
    made->device_number = d ? d->number : device_count();
    if (d && d->ops->interop_handles) {
        made->cuda = strcmp(d->ops->kind, "gpu") == 0;
        if (d->ops->interop_handles(d, &made->stream, &made->device_handle, &made->context)) {
            offload_report("warning", "%s: 'interop init' on device %d: %s; the interop object is for the host",
                           where, d->number, d->last_error);
            made->device_number = device_count();
            made->cuda = 0;
            made->stream = made->device_handle = made->context = 0;
        } else if (!targetsync && made->stream) {
            void *unused = 0;
            d->ops->interop_handles(d, &made->stream, &unused, &unused);   /* no targetsync: no stream */
            made->stream = 0;
        }
    }
    offload_unlock();
    *object = made;
}

/* `use(obj)`: what the foreign runtime queued on its stream is done */
void __omp2gpu_interop_use(void **object, const char *where) {
    struct interop *made = *object;
    struct device *d;
    if (!made) return;
    offload_lock();
    d = device_of_interop(made);
    if (d && made->stream && d->ops->wait_stream(d, made->stream))
        offload_report("warning", "%s: 'interop use': %s", where, d->last_error);
    offload_unlock();
}

void __omp2gpu_interop_destroy(void **object, const char *where) {
    struct interop *made = *object;
    struct device *d;
    if (!made) return;
    offload_lock();
    d = device_of_interop(made);
    if (d && made->stream && d->ops->interop_handles(d, &made->stream, &made->device_handle, &made->context))
        offload_report("warning", "%s: 'interop destroy': %s", where, d->last_error);
    offload_unlock();
    free(made);
    *object = 0;
}

/* ---------------------------------------------------------------- omp_get_interop_* (5.1 3.12) */
/* A property's kind: 'i' int, 'p' pointer, 's' string; 0: out of range */
static char kind_of(int property) {
    static const char kinds[] = "isisipipp";          /* fr_id ... targetsync, from -1 down */
    return property <= -1 && property >= PROPERTY_FIRST ? kinds[-property - 1] : 0;
}

static const char *property_names[] = {"fr_id", "fr_name", "vendor", "vendor_name", "device_num", "platform",
                                       "device", "device_context", "targetsync"};

/* The property's value (as a pointer-sized word or a string) and its return code. */
static int property(const struct interop *made, int id, long *value, const char **text) {
    *value = 0;
    *text = 0;
    if (!made) return RC_EMPTY;
    switch (id) {
    case PROPERTY_FR_ID: *value = FR_CUDA; return made->cuda ? RC_SUCCESS : RC_NO_VALUE;
    case PROPERTY_FR_NAME: *text = "cuda"; return made->cuda ? RC_SUCCESS : RC_NO_VALUE;
    case PROPERTY_VENDOR: return RC_NO_VALUE;          /* vendor_name says it */
    case PROPERTY_VENDOR_NAME: *text = made->cuda ? "nvidia" : "omp2gpu"; return RC_SUCCESS;
    case PROPERTY_DEVICE_NUM: *value = made->device_number; return RC_SUCCESS;
    case PROPERTY_PLATFORM: return RC_NO_VALUE;
    case PROPERTY_DEVICE: *value = (long)(intptr_t)made->device_handle; return made->cuda ? RC_SUCCESS : RC_NO_VALUE;
    case PROPERTY_DEVICE_CONTEXT: *value = (long)(intptr_t)made->context; return made->cuda ? RC_SUCCESS : RC_NO_VALUE;
    case PROPERTY_TARGETSYNC: *value = (long)(intptr_t)made->stream; return made->stream ? RC_SUCCESS : RC_NO_VALUE;
    default: return RC_OUT_OF_RANGE;
    }
}

static int typed(const struct interop *made, int id, char wanted, long *value, const char **text) {
    int rc = property(made, id, value, text);
    char kind = kind_of(id);
    if (rc == RC_EMPTY || rc == RC_OUT_OF_RANGE || kind == wanted) return rc;
    if (kind == 'i') return RC_TYPE_INT;          /* the code names the property's own type */
    return kind == 'p' ? RC_TYPE_PTR : RC_TYPE_STR;
}

int omp_get_num_interop_properties(const void *interop) {
    (void)interop;
    return 0;                    /* no implementation-defined properties beyond the standard's */
}

long omp_get_interop_int(const void *interop, int property_id, int *ret_code) {
    long value;
    const char *text;
    int rc = typed(interop, property_id, 'i', &value, &text);
    if (ret_code) *ret_code = rc;
    return rc == RC_SUCCESS ? value : 0;
}

void *omp_get_interop_ptr(const void *interop, int property_id, int *ret_code) {
    long value;
    const char *text;
    int rc = typed(interop, property_id, 'p', &value, &text);
    if (ret_code) *ret_code = rc;
    return rc == RC_SUCCESS ? (void *)(intptr_t)value : 0;
}

const char *omp_get_interop_str(const void *interop, int property_id, int *ret_code) {
    long value;
    const char *text;
    int rc = typed(interop, property_id, 's', &value, &text);
    if (ret_code) *ret_code = rc;
    return rc == RC_SUCCESS ? text : 0;
}

const char *omp_get_interop_name(const void *interop, int property_id) {
    (void)interop;
    return kind_of(property_id) ? property_names[-property_id - 1] : 0;
}

const char *omp_get_interop_type_desc(const void *interop, int property_id) {
    (void)interop;
    switch (kind_of(property_id)) {
    case 'i': return property_id == PROPERTY_DEVICE ? "CUdevice (int)" : "int";
    case 'p': return property_id == PROPERTY_TARGETSYNC ? "CUstream" : property_id == PROPERTY_DEVICE_CONTEXT ? "CUcontext" : "void *";
    case 's': return "const char *";
    default: return 0;
    }
}

const char *omp_get_interop_rc_desc(const void *interop, int ret_code) {
    (void)interop;
    switch (ret_code) {
    case RC_NO_VALUE: return "the property has no value here";
    case RC_SUCCESS: return "success";
    case RC_EMPTY: return "the interop object is omp_interop_none";
    case RC_OUT_OF_RANGE: return "no such property";
    case RC_TYPE_INT: return "the property's value is an int";
    case RC_TYPE_PTR: return "the property's value is a pointer";
    case RC_TYPE_STR: return "the property's value is a string";
    default: return "other error";
    }
}
