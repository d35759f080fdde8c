/* A construct's map entries checked before any byte is copied (as
 * omp2gpu/offload/map_checks.py), so that a bad section ends in a message naming the
 * construct instead of a SIGSEGV: a negative length, or a section running off the
 * memory the process has mapped (/proc/self/maps, read again only when a range is not
 * inside the ranges read before). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include "offload.h"

#define NOT_HOST_MEMORY (MAP_LITERAL | MAP_IS_DEVICE_PTR | MAP_ATTACH | MAP_RETURN_PARAM)

static uintptr_t *starts, *ends;     /* merged where they touch, sorted */
static long range_count;

static int compare_ranges(const void *a, const void *b) {
    const uintptr_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

static void read_maps(void) {
    FILE *maps = fopen("/proc/self/maps", "r");
    uintptr_t (*pairs)[2] = 0;
    long count = 0, capacity = 0, i;
    char line[4096];
    if (!maps) {                    /* not knowable here: check nothing */
        free(starts);
        free(ends);
        starts = malloc(sizeof *starts);
        ends = malloc(sizeof *ends);
        starts[0] = 0;
        ends[0] = UINTPTR_MAX;
        range_count = 1;
        return;
    }
    while (fgets(line, sizeof line, maps)) {
        uintmax_t low, high;
        if (sscanf(line, "%jx-%jx", &low, &high) != 2) continue;
        if (count == capacity) {
            capacity = capacity ? 2 * capacity : 256;
            pairs = realloc(pairs, (size_t)capacity * sizeof *pairs);
        }
        pairs[count][0] = (uintptr_t)low;
        pairs[count][1] = (uintptr_t)high;
        count++;
    }
    fclose(maps);
    qsort(pairs, (size_t)count, sizeof *pairs, compare_ranges);
    free(starts);
    free(ends);
    starts = malloc((size_t)(count ? count : 1) * sizeof *starts);
    ends = malloc((size_t)(count ? count : 1) * sizeof *ends);
    range_count = 0;
    for (i = 0; i < count; i++) {
        if (range_count && pairs[i][0] <= ends[range_count - 1]) {
            if (pairs[i][1] > ends[range_count - 1]) ends[range_count - 1] = pairs[i][1];
        } else {
            starts[range_count] = pairs[i][0];
            ends[range_count] = pairs[i][1];
            range_count++;
        }
    }
    free(pairs);
}

static int inside_read(uintptr_t begin, uintptr_t end) {
    long low = 0, high = range_count;
    while (low < high) {             /* the first range starting after begin */
        long middle = (low + high) / 2;
        if (starts[middle] <= begin) low = middle + 1;
        else high = middle;
    }
    return low > 0 && end <= ends[low - 1] && end >= begin;
}

static int host_holds(uintptr_t begin, long size) {
    if (size <= 0 || inside_read(begin, begin + (uintptr_t)size)) return 1;
    read_maps();
    return inside_read(begin, begin + (uintptr_t)size);
}

const char *check_entries(int count, void **begins, const int64_t *sizes, const int64_t *types,
                          const char *where) {
    static char message[768];
    const char *place = where && where[0] ? where : "";
    const char *colon = where && where[0] ? ": " : "";
    int i;
    for (i = 0; i < count; i++) {
        if (types[i] & NOT_HOST_MEMORY) continue;
        if (sizes[i] < 0) {
            snprintf(message, sizeof message, "%s%smap entry %d has a negative length (%" PRId64
                     " bytes): an array section's length is negative", place, colon, i + 1, sizes[i]);
            return message;
        }
        if (sizes[i] && !host_holds((uintptr_t)begins[i], (long)sizes[i])) {
            snprintf(message, sizeof message, "%s%smap entry %d (host address %#" PRIxPTR ", %" PRId64
                     " bytes) runs past the host memory of the program: an array section goes past "
                     "its allocation", place, colon, i + 1, (uintptr_t)begins[i], sizes[i]);
            return message;
        }
    }
    return 0;
}
