/* A planned launch's device footprint, for the GPU's automatic concurrency
 * (docs/async.md, "Automatic concurrency"): the device ranges a kernel may touch and
 * which of them it may write. Known only for a kernel that writes memory through its
 * pointer parameters alone (the compiler's `args_only`, from LLVM's inferred
 * attributes) whose every pointer argument lies in a present mapping: the range is
 * then that whole mapping (the kernel may index anywhere in it). Two launches conflict
 * when a range of one overlaps a range of the other and either writes it. Device
 * independent, so the CPU build tests it (footprint_of below).
 */
#include "native_launch.h"

/* The plan's footprint: 0 when known, -1 when not (the launch is then waited for). */
int native_footprint(struct launch_plan *plan, struct footprint *footprint) {
    struct native_kernel *kernel = plan->kernel;
    int i;
    footprint->count = 0;
    if (!kernel->args_only || plan->transient_count > 0) return -1;
    for (i = 0; i < kernel->param_count; i++) {
        long address = plan->slots[i], begin, end;
        int n = footprint->count;
        if (kernel->by_value[i] || address == 0) continue;
        if (native_device_range(address, &begin, &end) != 0) return -1;   /* a device pointer, a loan */
        footprint->begin[n] = begin;
        footprint->end[n] = end;
        footprint->writes[n] = !kernel->read_only[i];
        footprint->count = n + 1;
    }
    return 0;
}

/* 1 when the two launches may not run at once. */
int native_footprints_conflict(const struct footprint *first, const struct footprint *second) {
    int i, j;
    for (i = 0; i < first->count; i++)
        for (j = 0; j < second->count; j++)
            if (first->begin[i] < second->end[j] && second->begin[j] < first->end[i]
                    && (first->writes[i] || second->writes[j]))
                return 1;
    return 0;
}

/* For tests: the footprint a launch of registered kernel `name` with these map entries
 * would have (planned as __omp2gpu_target would, nothing launched): its range count,
 * ranges and write flags written out; -1 when unknown or not planned natively. */
int __omp2gpu_native_footprint_of(const char *name, int count, void **bases, void **begins, long *sizes,
                                  long *types, long *range_begins, long *range_ends, char *writes) {
    struct launch_plan plan;
    struct footprint footprint;
    int i, known;
    if (native_begin(-1, name, count, bases, begins, sizes, types, 0, 0, 1, &plan) != 0) return -1;
    known = native_footprint(&plan, &footprint);
    native_unlock();
    if (known != 0) return -1;
    for (i = 0; i < footprint.count; i++) {
        range_begins[i] = footprint.begin[i];
        range_ends[i] = footprint.end[i];
        writes[i] = footprint.writes[i];
    }
    return footprint.count;
}

/* For tests: whether two footprints, given as arrays, conflict. */
int __omp2gpu_native_footprints_conflict(int first_count, long *first_begins, long *first_ends,
                                         char *first_writes, int second_count, long *second_begins,
                                         long *second_ends, char *second_writes) {
    struct footprint first, second;
    int i;
    if (first_count > MAX_ARGS || second_count > MAX_ARGS) return 1;
    first.count = first_count;
    second.count = second_count;
    for (i = 0; i < first_count; i++) {
        first.begin[i] = first_begins[i];
        first.end[i] = first_ends[i];
        first.writes[i] = first_writes[i];
    }
    for (i = 0; i < second_count; i++) {
        second.begin[i] = second_begins[i];
        second.end[i] = second_ends[i];
        second.writes[i] = second_writes[i];
    }
    return native_footprints_conflict(&first, &second);
}
