/* The mirror of the device's present table (native_launch.h): the Python data
 * environment pushes it whole on every change (mirror.c's __omp2gpu_native_mappings),
 * sorted by host address; the arrays are the Python side's. Lookups for mirror.c's
 * planning, loans.c (a loan never overlaps a mapping) and pinned_ranges.c (pages stay
 * locked while a mapping holds them), all with the native lock held. It calls none of
 * them: the path's files call each other in one direction. */
#include "native_launch.h"

static long mapping_count;
static long *mapping_begin;
static long *mapping_end;
static long *mapping_device;
static char *mapping_plain;       /* 1: copied as it is (not lent device memory, no attached pointer) */

void mirror_set(long count, long *begins, long *ends, long *devices, char *plain) {
    mapping_begin = begins;
    mapping_end = ends;
    mapping_device = devices;
    mapping_plain = plain;
    mapping_count = count;
}

/* The last mapping starting at or before `begin`, -1 if none. */
static long mapping_before(long begin) {
    long low = 0, high = mapping_count;
    while (low < high) {                 /* the first mapping starting after begin */
        long middle = (low + high) / 2;
        if (mapping_begin[middle] <= begin) low = middle + 1;
        else high = middle;
    }
    return low - 1;
}

/* The mapping holding [begin, begin + size) (size 0: holding begin, or ending there), -1: none. */
long mirror_find(long begin, long size) {
    long found = mapping_before(begin);
    if (found < 0) return -1;
    if (size > 0) return begin + size <= mapping_end[found] ? found : -1;
    return begin <= mapping_end[found] ? found : -1;
}

long mirror_begin(long index) { return mapping_begin[index]; }
long mirror_device_offset(long index) { return mapping_device[index] - mapping_begin[index]; }
int mirror_plain(long index) { return mapping_plain[index]; }

/* Whether one present mapping holds all of [begin, begin + size). */
int native_holds(long begin, long size) { return mirror_find(begin, size) >= 0; }

/* Whether any mapped byte lies in [begin, begin + size). */
int native_touches_mapping(long begin, long size) {
    long before = mapping_before(begin);
    if (before >= 0 && mapping_end[before] > begin) return 1;
    return before + 1 < mapping_count && mapping_begin[before + 1] < begin + size;
}

/* The present mapping whose device copy holds `address`: its device range, 0; -1 if none. */
int native_device_range(long address, long *begin, long *end) {
    long i;
    for (i = 0; i < mapping_count; i++) {
        long start = mapping_device[i], stop = start + (mapping_end[i] - mapping_begin[i]);
        if (start <= address && address < stop) {
            *begin = start;
            *end = stop;
            return 0;
        }
    }
    return -1;
}
