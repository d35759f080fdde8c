/* One call of a C function from the Python API (omp2gpu/api/c_function.py through
 * native_link): one call into the runtime before the function and one after, however many
 * arrays. Before: the device arrays passed (CuPy, Numba, DLPack) are lent to the default
 * device's present table, present as themselves (map clauses on them copy, count and free
 * nothing; kernels get the pointers), and every array passed, host or device, is known
 * with its C parameter's name (argument_arrays.c: a map section that starts in one and
 * runs past it is refused before any copy, naming the parameter). After: all undone, and
 * whether the call left an error to raise. Also: the work a caller queued on a stream. */
#include <stdio.h>
#include <stdlib.h>
#include "offload.h"

/* One array passed, as native_link packs it (CALL_ARRAY). */
struct call_array {
    uintptr_t begin;
    int64_t size;                /* > 0 */
    const char *name;            /* the C parameter's, the caller's, alive until __omp2gpu_call_end */
    int64_t on_device;           /* device memory: lent for the call */
};

struct range {
    uintptr_t begin, end;
};

/* Why the calling thread's last __omp2gpu_call_begin failed (__omp2gpu_call_why). */
static __thread char call_why[1024];

/* The device arrays' ranges in `ranges` (room for `count`), sorted, the overlapping and
 * touching ones joined (one array passed twice, two views of one): each is lent once. */
static int joined_ranges(int count, const struct call_array *arrays, struct range *ranges) {
    int i, j, n = 0, joined = 0;
    for (i = 0; i < count; i++) {
        if (!arrays[i].on_device) continue;
        for (j = n++; j > 0 && ranges[j - 1].begin > arrays[i].begin; j--) ranges[j] = ranges[j - 1];
        ranges[j].begin = arrays[i].begin;
        ranges[j].end = arrays[i].begin + (uintptr_t)arrays[i].size;
    }
    for (i = 0; i < n; i++) {
        if (joined && ranges[i].begin <= ranges[joined - 1].end) {
            if (ranges[i].end > ranges[joined - 1].end) ranges[joined - 1].end = ranges[i].end;
        } else {
            ranges[joined++] = ranges[i];
        }
    }
    return joined;
}

/* The default device, if target regions run on it and it is usable; else NULL, call_why
 * says why. */
static struct device *lending_device(void) {
    int number = device_current_default();
    struct device *d = offload_policy() == POLICY_DISABLED ? 0 : device_at(number);
    if (!d) snprintf(call_why, sizeof call_why, "device memory cannot be used here: target regions run on the host");
    else if (!d->usable) snprintf(call_why, sizeof call_why, "device %d is not usable", number);
    else if (images_activate(d)) snprintf(call_why, sizeof call_why, "%s", d->last_error);
    else return d;
    return 0;
}

/* The ranges lent on `d`, or the first `lent` of them ended (a failure part way). */
static void end_loans(struct device *d, const struct range *ranges, int lent) {
    int i;
    for (i = 0; i < lent; i++) table_end_loan(d, ranges[i].begin, (long)(ranges[i].end - ranges[i].begin));
}

/* 0 when every range is lent on `d`; else -1, none lent, call_why says why (not the
 * device's memory; lying in a mapped range). */
static int lend(struct device *d, const struct range *ranges, int count) {
    int i;
    for (i = 0; i < count; i++) {
        const char *problem = 0;
        char label[300];
        if (!d->ops->holds(d, ranges[i].begin)) {
            d->ops->label(d, label, sizeof label);
            snprintf(call_why, sizeof call_why, "memory at %#lx is not on device %d (%s), where target regions run",
                     (unsigned long)ranges[i].begin, device_current_default(), label);
            problem = call_why;
        } else if (table_lend(d, ranges[i].begin, (long)(ranges[i].end - ranges[i].begin)) == -2) {
            snprintf(call_why, sizeof call_why, "%s", table_mapping_error);
            problem = call_why;
        }
        if (problem) {
            end_loans(d, ranges, i);
            return -1;
        }
    }
    return 0;
}

static struct range *ranges_for(int count, struct range *small, int small_count) {
    return count <= small_count ? small : malloc((size_t)count * sizeof(struct range));
}

/* Before the call: 0; -1 when a device array cannot be lent (__omp2gpu_call_why says
 * why); -2 out of memory. Nothing is kept unless 0. */
int __omp2gpu_call_begin(int count, const struct call_array *arrays) {
    struct range small[16], *ranges = ranges_for(count, small, 16);
    struct device *d = 0;
    int i, n, result = 0;
    if (!ranges) return -2;
    offload_lock();
    n = joined_ranges(count, arrays, ranges);
    if (n) {
        d = lending_device();
        result = d ? lend(d, ranges, n) : -1;
    }
    for (i = 0; i < count && !result; i++) {
        if (argument_array_add(arrays[i].begin, (long)arrays[i].size, arrays[i].name,
                               arrays[i].on_device != 0) == 0) continue;
        result = -2;
        while (i-- > 0) argument_array_remove(arrays[i].begin, (long)arrays[i].size);
        if (d) end_loans(d, ranges, n);
        break;
    }
    offload_unlock();
    if (ranges != small) free(ranges);
    return result;
}

/* After the call (the same arrays): nonzero when the call left an error to raise
 * (__omp2gpu_take_error). */
int __omp2gpu_call_end(int count, const struct call_array *arrays) {
    struct range small[16], *ranges = ranges_for(count, small, 16);
    struct device *d;
    int i, n;
    offload_lock();
    for (i = 0; i < count; i++) argument_array_remove(arrays[i].begin, (long)arrays[i].size);
    d = device_at(device_current_default());
    if (ranges && d && (n = joined_ranges(count, arrays, ranges)) > 0) end_loans(d, ranges, n);
    offload_unlock();
    if (ranges != small) free(ranges);
    return offload_error_pending();
}

/* Why the calling thread's last __omp2gpu_call_begin failed, cut to `size`. */
void __omp2gpu_call_why(char *buffer, size_t size) {
    snprintf(buffer, size, "%s", call_why);
}

/* Work the caller queued on `stream` (a CuPy array's) done, on the default device: 0, or
 * -1 with `why` filled. */
int __omp2gpu_wait_stream(void *stream, char *why, size_t why_size) {
    struct device *d;
    int result = 0;
    offload_lock();
    d = device_at(device_current_default());
    if (d && d->usable && d->ops->wait_stream(d, stream)) {
        snprintf(why, why_size, "%s", d->last_error);
        result = -1;
    }
    offload_unlock();
    return result;
}
