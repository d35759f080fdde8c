/* Page-locked host ranges for `target update` copies (native_launch.h). A copy from or
 * to pageable memory goes through the driver's staging buffers at a fraction of the
 * bus's speed; the same halo planes copied every time step (examples/mpi/stencil3d.c)
 * are worth locking once. The page-aligned inside of an update's range of at least
 * MIN_BYTES is registered with the driver (the device half's lock_pages) the first
 * time it is copied, and unregistered when no present mapping holds it any more
 * (mirror.c calls pinned_forget_unmapped whenever the present table changes: before
 * the construct that unmapped it returns, so before the program can free the memory).
 * A range the driver refuses (read-only pages, one overlapping another registered
 * range) is remembered and copied pageable. The driver tells locked from pageable
 * memory itself, but refuses (CUDA_ERROR_INVALID_VALUE) one copy that is partly in a
 * locked range and partly outside it: every copy of host memory the launcher makes, the
 * update copies and its own (cuda.py), is cut at the locked ranges' ends
 * (pinned_cuts). Only the native path's update copies lock pages, and the native
 * path's lock serialises every call.
 */
#include "native_launch.h"

#define PAGE 4096L
#define MIN_BYTES (256L * 1024)      /* smaller copies gain too little to lock */
#define RANGES PINNED_RANGES

static pinned_lock_fn lock_pages;
static pinned_unlock_fn unlock_pages;
static struct pinned_range {
    long begin, end;
    int locked;                      /* 0: the driver refused it, not tried again */
} ranges[RANGES];
static int range_count;
static long locked_so_far, refused_so_far;

void pinned_use(pinned_lock_fn lock, pinned_unlock_fn unlock) {
    lock_pages = lock;
    unlock_pages = unlock;
}

/* The page-aligned inside [*begin, *end) of [host, host + size): 1 when it is locked
 * (now or before), 0 when the copy stays pageable. */
int pinned_inside(long host, long size, long *begin, long *end) {
    long first = (host + PAGE - 1) & ~(PAGE - 1), last = (host + size) & ~(PAGE - 1);
    int i;
    if (!lock_pages || last - first < MIN_BYTES) return 0;
    *begin = first;
    *end = last;
    for (i = 0; i < range_count; i++)
        if (ranges[i].begin == first && ranges[i].end == last) return ranges[i].locked;
    if (range_count == RANGES) return 0;
    ranges[range_count].begin = first;
    ranges[range_count].end = last;
    ranges[range_count].locked = lock_pages(first, last - first) == 0;
    if (ranges[range_count].locked) locked_so_far++;
    else refused_so_far++;
    return ranges[range_count++].locked;
}

/* The ends of locked ranges strictly inside (host, host + size), ascending, at most
 * `most` of them: where a copy of that range must be cut. Their count. */
int pinned_cuts(long host, long size, long *cuts, int most) {
    int i, j, count = 0;
    for (i = 0; i < range_count; i++) {
        long ends[2];
        int e;
        if (!ranges[i].locked) continue;
        ends[0] = ranges[i].begin;
        ends[1] = ranges[i].end;
        for (e = 0; e < 2; e++) {
            if (ends[e] <= host || ends[e] >= host + size || count == most) continue;
            for (j = count; j > 0 && cuts[j - 1] > ends[e]; j--) cuts[j] = cuts[j - 1];
            cuts[j] = ends[e];
            count++;
        }
    }
    return count;
}

/* pinned_cuts for the launcher's own copies (cuda.py), with the lock. */
int __omp2gpu_native_pinned_cuts(long host, long size, long *cuts, int most) {
    int count;
    native_lock();
    count = pinned_cuts(host, size, cuts, most);
    native_unlock();
    return count;
}

/* The present table changed: ranges no mapping holds any more are unlocked. */
void pinned_forget_unmapped(void) {
    int i = 0;
    while (i < range_count) {
        if (native_holds(ranges[i].begin, ranges[i].end - ranges[i].begin)) {
            i++;
            continue;
        }
        if (ranges[i].locked && unlock_pages) unlock_pages(ranges[i].begin);
        ranges[i] = ranges[--range_count];
    }
}

/* For tests: ranges locked now, locked so far, refused so far. */
void __omp2gpu_native_pinned(long *counts) {
    int i;
    native_lock();
    counts[0] = 0;
    for (i = 0; i < range_count; i++) counts[0] += ranges[i].locked;
    counts[1] = locked_so_far;
    counts[2] = refused_so_far;
    native_unlock();
}

/* For tests of the CPU build: locking pretended (on) or none (off), the table forgotten. */
static int pretend_lock(long begin, long bytes) { return begin < 0 || bytes < 0; }

static void pretend_unlock(long begin) { (void)begin; }

void __omp2gpu_native_pin_pretend(int on) {
    native_lock();
    range_count = 0;
    pinned_use(on ? pretend_lock : (pinned_lock_fn)0, on ? pretend_unlock : (pinned_unlock_fn)0);
    native_unlock();
}

/* For tests: pinned_inside of [host, host + size), its answer. */
int __omp2gpu_native_pin_range(long host, long size) {
    long begin, end;
    int locked;
    native_lock();
    locked = pinned_inside(host, size, &begin, &end);
    native_unlock();
    return locked;
}
