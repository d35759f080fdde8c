/* Automatic concurrency (OMP2GPU_AUTO_ASYNC=1; off by default; docs/async.md): a
 * *synchronous* target region's kernel is left running beside the launches before it
 * when nothing could tell the difference. The in-order-queue idea of
 * ../shared/papers/opencl-task-parallelism-inorder-queues.txt, applied at run time.
 *
 * - What a kernel may touch comes from the compiler (targets/nvptx/effects.py, the image
 *   table's `writes`): a kernel that writes memory only through its pointer parameters,
 *   each marked read-only or written.
 * - Its footprint is, per pointer argument, the whole mapping holding it (the kernel may
 *   index anywhere in it), written unless read-only. Unknown, and the launch waited for,
 *   when the kernel is not such a kernel, a pointer argument lies in no mapping (a
 *   device pointer, a loan), or the region has data of its own (target_tasks.c only asks
 *   for regions whose data are all present, and no team stack).
 * - The launch goes on the device's next stream after the event of every launch left
 *   running whose footprint conflicts (one writes a range the other touches); each other
 *   one is an overlapped pair, logged (OMP2GPU_OFFLOAD_LOG: `KERNEL device=... overlaps
 *   OTHER`).
 * - What waits for it: everything that could observe the difference already does. The
 *   runtime's copies and the launches it waits for are on the legacy default stream,
 *   which waits for the blocking streams; freeing device memory synchronises first; a
 *   target task's kernel follows every launch left running (auto_async_in_flight); the
 *   end of the program waits for them all.
 * Off by default because a host timer around a region no longer includes its kernel, and
 * a kernel that faults is met at the next synchronisation, not at its own launch.
 */
#include <stdlib.h>
#include <string.h>
#include "offload.h"

static struct slot {
    struct device *device;       /* NULL: free */
    void *done;                  /* the device's event after the kernel */
    const char *kernel;
    long order;                  /* launch order: the oldest is waited for when all are taken */
    struct footprint footprint;
} slots[AUTO_ASYNC_SLOTS];
static long launches;

int auto_async_enabled(void) {
    static int on = -1;
    if (on < 0) {
        const char *value = getenv("OMP2GPU_AUTO_ASYNC");
        on = value && strcmp(value, "1") == 0;
    }
    return on;
}

int footprint_of(struct device *d, const struct kernel_desc *kernel, void **args, int arg_count,
                 struct footprint *footprint) {
    int i, params = (int)strlen(kernel->params);
    footprint->count = 0;
    if (!kernel->writes || params > arg_count) return -1;
    for (i = 0; i < params; i++) {
        uintptr_t address = *(uintptr_t *)args[i];
        int n = footprint->count;
        if (kernel->params[i] != 'p' || address == 0) continue;
        if (n == FOOTPRINT_RANGES || table_device_range(d, address, &footprint->begin[n], &footprint->end[n]))
            return -1;
        footprint->writes[n] = kernel->writes[i] != 'r';
        footprint->count = n + 1;
    }
    return 0;
}

int footprints_conflict(const struct footprint *first, const struct footprint *second) {
    int i, j;
    for (i = 0; i < first->count; i++)
        for (j = 0; j < second->count; j++)
            if (first->begin[i] < second->end[j] && second->begin[j] < first->end[i]
                && (first->writes[i] || second->writes[j]))
                return 1;
    return 0;
}

static void release(struct slot *slot) {
    slot->device->ops->event_release(slot->device, slot->done);
    slot->device = 0;
}

/* The slots whose kernels finished made free (a failed query counts as finished: the
 * failure is met at the next synchronisation). */
static void retire_finished(void) {
    int i;
    for (i = 0; i < AUTO_ASYNC_SLOTS; i++)
        if (slots[i].device && slots[i].device->ops->event_state(slots[i].device, slots[i].done) != 1)
            release(&slots[i]);
}

static void program_ends(void) {
    int i;
    for (i = 0; i < AUTO_ASYNC_SLOTS; i++)
        if (slots[i].device) {
            slots[i].device->ops->event_wait(slots[i].device, slots[i].done);
            release(&slots[i]);
        }
}

/* A free slot (the oldest launch waited for when there is none): its index, or -1 with
 * the device's message when that wait failed. */
static int free_slot(void) {
    int i, oldest = -1;
    retire_finished();
    for (i = 0; i < AUTO_ASYNC_SLOTS; i++) {
        if (!slots[i].device) return i;
        if (oldest < 0 || slots[i].order < slots[oldest].order) oldest = i;
    }
    if (slots[oldest].device->ops->event_wait(slots[oldest].device, slots[oldest].done)) return -1;
    release(&slots[oldest]);
    return oldest;
}

/* Called with the runtime's lock held (target_tasks.c). */
int auto_async_launch(struct device *d, void *module, const struct kernel_desc *kernel, long grid, long block,
                      void **args, int arg_count, int *stream) {
    struct footprint footprint;
    void *after[AUTO_ASYNC_SLOTS], *done;
    int i, index, after_count = 0;
    if (footprint_of(d, kernel, args, arg_count, &footprint)) return 1;
    index = free_slot();
    if (index < 0) return -1;
    for (i = 0; i < AUTO_ASYNC_SLOTS; i++) {
        if (slots[i].device != d) continue;
        if (footprints_conflict(&footprint, &slots[i].footprint)) after[after_count++] = slots[i].done;
        else record_overlap(d, kernel->name, slots[i].kernel);
    }
    if (d->ops->launch_queued(d, module, kernel, grid, block, args, arg_count, after, after_count, &done, stream))
        return -1;
    if (launches++ == 0) atexit(program_ends);
    slots[index].device = d;
    slots[index].done = done;
    slots[index].kernel = kernel->name;
    slots[index].order = launches;
    slots[index].footprint = footprint;
    return 0;
}

/* The events of the launches left running on `d` (at most `most`), for a target task's
 * kernel to follow. */
int auto_async_in_flight(struct device *d, void **events, int most) {
    int i, count = 0;
    if (!launches) return 0;
    retire_finished();
    for (i = 0; i < AUTO_ASYNC_SLOTS && count < most; i++)
        if (slots[i].device == d) events[count++] = slots[i].done;
    return count;
}
