/* A construct's map entries checked before any byte is copied, so that a bad section ends in a message naming the
 * construct instead of a SIGSEGV: a negative length, a section longer than the array
 * passed for it (argument_arrays.c: the Python API's arguments), or a section running off
 * the memory the process has mapped (/proc/self/maps, read again only when a range is not
 * inside the ranges read before). */
#define _GNU_SOURCE
#include <inttypes.h>
#include <link.h>
#include <pthread.h>
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

/* `device_bound`: every check (the entries are mapped onto a device); else only the
 * argument arrays' (the region runs on the host, which copies nothing but would read past
 * the array all the same). */
static const char *checked(int count, void **begins, const int64_t *sizes, const int64_t *types,
                           const char *where, int device_bound) {
    static char message[768];
    const char *place = where && where[0] ? where : "";
    const char *colon = where && where[0] ? ": " : "";
    const char *name;
    uintptr_t array_begin;
    long array_size;
    int i;
    for (i = 0; i < count; i++) {
        if (types[i] & NOT_HOST_MEMORY) continue;
        if (sizes[i] < 0 && device_bound) {
            snprintf(message, sizeof message, "%s%smap entry %d has a negative length (%" PRId64
                     " bytes): an array section's length is negative", place, colon, i + 1, sizes[i]);
            return message;
        }
        if (sizes[i] > 0 && argument_array_overrun((uintptr_t)begins[i], (long)sizes[i], &name, &array_begin,
                                               &array_size)) {
            snprintf(message, sizeof message, "%s%smap entry %d (address %#" PRIxPTR ", %" PRId64 " bytes) "
                     "runs past the array passed as '%s' (%ld bytes at %#" PRIxPTR "): a map section is "
                     "longer than the array", place, colon, i + 1, (uintptr_t)begins[i], sizes[i], name,
                     array_size, array_begin);
            return message;
        }
        if (sizes[i] > 0 && device_bound && !host_holds((uintptr_t)begins[i], (long)sizes[i])) {
            snprintf(message, sizeof message, "%s%smap entry %d (host address %#" PRIxPTR ", %" PRId64
                     " bytes) runs past the host memory of the program: an array section goes past "
                     "its allocation", place, colon, i + 1, (uintptr_t)begins[i], sizes[i]);
            return message;
        }
    }
    return 0;
}

/* ---------------------------------------------------------------- what unified memory registers */
/* The calling thread's stack from `from` (an address in the caller's frame) to its top:
 * 0, or -1 where the thread's stack is not known. */
int thread_stack(uintptr_t from, uintptr_t *low, uintptr_t *high) {
    static __thread uintptr_t top;
    pthread_attr_t attributes;
    void *address;
    size_t size;
    if (!top) {
        if (pthread_getattr_np(pthread_self(), &attributes)) return -1;
        if (pthread_attr_getstack(&attributes, &address, &size) == 0) top = (uintptr_t)address + size;
        pthread_attr_destroy(&attributes);
        if (!top) return -1;
    }
    *low = from;                         /* the calling frames' objects lie above `from` */
    *high = top;
    return 0;
}

struct writable { uintptr_t low, high, relro_end; };

static int first_writable(struct dl_phdr_info *info, size_t size, void *data) {
    struct writable *found = data;
    int i;
    (void)size;
    for (i = 0; i < info->dlpi_phnum; i++) {
        const ElfW(Phdr) *segment = &info->dlpi_phdr[i];
        uintptr_t low = info->dlpi_addr + segment->p_vaddr;
        if (segment->p_type == PT_GNU_RELRO) found->relro_end = low + segment->p_memsz;
        if (segment->p_type != PT_LOAD || !(segment->p_flags & PF_W)) continue;
        if (!found->low || low < found->low) found->low = low;
        if (low + segment->p_memsz > found->high) found->high = low + segment->p_memsz;
    }
    return 1;                            /* the first object is the executable: done */
}

/* The executable's static data (its writable segments: .data, .bss, less RELRO): 0, or -1. */
int executable_data(uintptr_t *low, uintptr_t *high) {
    struct writable found = {0, 0, 0};
    dl_iterate_phdr(first_writable, &found);
    /* the start made read-only after relocation (RELRO) is not the program's to write */
    if (found.relro_end > found.low) found.low = (found.relro_end + 4095) & ~(uintptr_t)4095;
    if (!found.low || found.low >= found.high) return -1;
    *low = found.low;
    *high = found.high;
    return 0;
}

const char *check_entries(int count, void **begins, const int64_t *sizes, const int64_t *types,
                          const char *where) {
    return checked(count, begins, sizes, types, where, 1);
}

const char *check_argument_entries(int count, void **begins, const int64_t *sizes, const int64_t *types,
                                   const char *where) {
    return checked(count, begins, sizes, types, where, 0);
}
