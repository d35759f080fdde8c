/* A construct's map entries checked before any byte is copied, so that a bad section ends in a message naming the
 * construct and the list item instead of a SIGSEGV or a corrupted heap: a negative length, a section longer
 * than the array passed for it (argument_arrays.c: the Python API's arguments), a section running past its
 * heap block (heap_chunks.c: where its pointer is one glibc's malloc returned), or off the memory the process
 * may read (/proc/self/maps: readable mappings only, never the no-access `---p` reserve after a thread
 * arena's heap or a thread's stack guard; read again only when a range is not inside those read before). */
#define _GNU_SOURCE
#include <inttypes.h>
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "offload.h"

#define NOT_HOST_MEMORY (MAP_LITERAL | MAP_IS_DEVICE_PTR | MAP_ATTACH | MAP_RETURN_PARAM)

/* The mappings the program may read, and those it may write, each merged where they touch and sorted. */
struct ranges { uintptr_t *starts, *ends; long count, last; };
static struct ranges may_read, may_write;
static uintptr_t heap_low, heap_high;     /* [heap]: the main arena's chunks */

static int compare_ranges(const void *a, const void *b) {
    const uintptr_t *x = a, *y = b;
    return x[0] < y[0] ? -1 : x[0] > y[0];
}

static void make_ranges(struct ranges *r, uintptr_t (*pairs)[2], long count) {
    long i;
    free(r->starts);
    free(r->ends);
    qsort(pairs, (size_t)count, sizeof *pairs, compare_ranges);
    r->starts = malloc((size_t)(count ? count : 1) * sizeof *r->starts);
    r->ends = malloc((size_t)(count ? count : 1) * sizeof *r->ends);
    r->count = 0;
    for (i = 0; i < count; i++) {
        if (r->count && pairs[i][0] <= r->ends[r->count - 1]) {
            if (pairs[i][1] > r->ends[r->count - 1]) r->ends[r->count - 1] = pairs[i][1];
        } else {
            r->starts[r->count] = pairs[i][0];
            r->ends[r->count] = pairs[i][1];
            r->count++;
        }
    }
}

static void read_maps(void) {
    FILE *maps = fopen("/proc/self/maps", "r");
    uintptr_t (*pairs)[2] = 0, (*written)[2] = 0;
    long count = 0, written_count = 0, capacity = 0;
    char line[4096];
    heap_low = heap_high = 0;
    if (!maps) {                    /* not knowable here: check nothing */
        uintptr_t everything[1][2] = {{0, UINTPTR_MAX}}, again[1][2] = {{0, UINTPTR_MAX}};
        make_ranges(&may_read, everything, 1);
        make_ranges(&may_write, again, 1);
        return;
    }
    while (fgets(line, sizeof line, maps)) {
        uintmax_t low, high;
        char permissions[5];
        if (sscanf(line, "%jx-%jx %4s", &low, &high, permissions) != 3 || permissions[0] != 'r') continue;
        if (strstr(line, "[heap]")) {
            heap_low = (uintptr_t)low;
            heap_high = (uintptr_t)high;
        }
        if (count == capacity) {
            capacity = capacity ? 2 * capacity : 256;
            pairs = realloc(pairs, (size_t)capacity * sizeof *pairs);
            written = realloc(written, (size_t)capacity * sizeof *written);
        }
        pairs[count][0] = (uintptr_t)low;
        pairs[count][1] = (uintptr_t)high;
        count++;
        if (permissions[1] == 'w') {
            written[written_count][0] = (uintptr_t)low;
            written[written_count][1] = (uintptr_t)high;
            written_count++;
        }
    }
    fclose(maps);
    make_ranges(&may_read, pairs, count);
    make_ranges(&may_write, written, written_count);
    free(pairs);
    free(written);
}

/* The range of `r` that holds `address`: its index (kept as r->last, which memory_fault
 * tries first: a time-step loop maps the same arrays again and again), or -1. */
static long range_of(struct ranges *r, uintptr_t address) {
    long low = 0, high = r->count;
    while (low < high) {             /* the first range starting after address */
        long middle = (low + high) / 2;
        if (r->starts[middle] <= address) low = middle + 1;
        else high = middle;
    }
    if (low == 0 || address >= r->ends[low - 1]) return -1;
    r->last = low - 1;
    return low - 1;
}

/* The range of `r` holding `begin` (-1: none), the maps read again first where it does
 * not hold all of [begin, end); *whole: whether it does. */
static long range_from(struct ranges *r, uintptr_t begin, uintptr_t end, int *whole) {
    long range = range_of(r, begin);
    if (range < 0 || end > r->ends[range]) {
        read_maps();
        range = range_of(r, begin);
    }
    *whole = range >= 0 && end <= r->ends[range];
    return range;
}

/* The end of the heap block `pointer`'s header claims (0: none), where `pointer` may be
 * in a heap: the main one, or a thread arena's (its 64 MiB boundary inside the range). */
static uintptr_t claimed_end(uintptr_t pointer, uintptr_t low, uintptr_t high) {
    int main_heap = pointer >= heap_low && pointer < heap_high;
    if (!main_heap && (pointer & ~(THREAD_HEAP_SPAN - 1)) < low) return 0;   /* stack, static data, mmap */
    return heap_chunk_claimed_end(pointer, low, high, main_heap);
}

/* Whether [begin, end), in range `range` of `r` (memory the program may read), runs past
 * the heap block it starts in: the block of its base pointer (`u` of `u[lo:n]`) where the
 * section starts inside what that claims, else of `begin`; then *block and *block_end are
 * that block. A section inside what the pointer's header claims costs one read; only one
 * past it is checked further (heap_chunks.c). */
static int past_heap_block(const struct ranges *r, long range, uintptr_t base, uintptr_t begin, uintptr_t end,
                           uintptr_t *block, uintptr_t *block_end) {
    uintptr_t low = r->starts[range], high = r->ends[range], pointer = begin, claimed = 0;
    if (base < begin && base >= low) {
        claimed = claimed_end(base, low, high);
        if (claimed > begin) pointer = base;
        else claimed = 0;
    }
    if (!claimed) claimed = claimed_end(begin, low, high);
    if (!claimed || end <= claimed) return 0;
    *block = pointer;
    return heap_chunk_proven_end(pointer, low, high, heap_low, heap_high, block_end) && begin < *block_end
           && end > *block_end;
}

enum fault { GOOD, PAST_HEAP_BLOCK, NOT_WRITABLE, PAST_HOST_MEMORY };

/* What is wrong with the host memory of an entry's section [begin, end) (`type` its map
 * bits: one copied back must be writable); the heap block it runs past in *block... */
static enum fault memory_fault(uintptr_t base, uintptr_t begin, uintptr_t end, int64_t type, uintptr_t *block,
                               uintptr_t *block_end) {
    struct ranges *r = type & MAP_FROM ? &may_write : &may_read;
    long range = r->last;
    int whole = range < r->count && r->starts[range] <= begin && end <= r->ends[range] && begin < end;
    if (!whole) range = range_from(r, begin, end, &whole);
    if (range >= 0 && past_heap_block(r, range, base, begin, end, block, block_end)) return PAST_HEAP_BLOCK;
    if (whole && begin < end) return GOOD;
    if (r == &may_write && begin < end && (range_from(&may_read, begin, end, &whole), whole)) return NOT_WRITABLE;
    return PAST_HOST_MEMORY;
}

/* Entry i's name for a message: its number, and its list item where the compiler wrote one. */
static const char *entry_name(const char *where, int i) {
    static char name[512];
    const char *label = map_entry_label(where, i);
    snprintf(name, sizeof name, "map entry %d%s%s", i + 1, *label ? " " : "", label);
    return name;
}

/* `device_bound`: every check (the entries are mapped onto a device); else only the
 * argument arrays' (the region runs on the host, which copies nothing but would read past
 * the array all the same). */
static const char *checked(int count, void **bases, void **begins, const int64_t *sizes, const int64_t *types,
                           const char *where, int device_bound, section_known_good known_good, void *context) {
    static char message[1024];
    const char *place = where && where[0] ? where : "";
    const char *colon = where && where[0] ? ": " : "";
    const char *name;
    uintptr_t array_begin, begin, block = 0, block_end = 0;
    long array_size;
    int i;
    for (i = 0; i < count; i++) {
        if (types[i] & NOT_HOST_MEMORY) continue;
        if (sizes[i] < 0 && device_bound) {
            snprintf(message, sizeof message, "%s%s%s has a negative length (%" PRId64
                     " bytes): an array section's length is negative", place, colon, entry_name(where, i), sizes[i]);
            return message;
        }
        if (sizes[i] <= 0) continue;
        begin = (uintptr_t)begins[i];
        if (known_good && known_good(context, begin, (long)sizes[i])) continue;
        if (argument_array_overrun(begin, (long)sizes[i], &name, &array_begin, &array_size)) {
            snprintf(message, sizeof message, "%s%s%s (address %#" PRIxPTR ", %" PRId64 " bytes) "
                     "runs past the array passed as '%s' (%ld bytes at %#" PRIxPTR "): a map section is "
                     "longer than the array", place, colon, entry_name(where, i), begin, sizes[i],
                     name, array_size, array_begin);
            return message;
        }
        if (!device_bound || argument_device_array_holds(begin, (long)sizes[i])) continue;
        switch (memory_fault((uintptr_t)bases[i], begin, begin + (uintptr_t)sizes[i], types[i], &block, &block_end)) {
        case GOOD:
            continue;
        case PAST_HEAP_BLOCK:
            snprintf(message, sizeof message, "%s%s%s (host address %#" PRIxPTR ", %" PRId64 " bytes) runs past "
                     "its heap block (%" PRIuPTR " usable bytes malloc'd at %#" PRIxPTR "): an array section goes "
                     "past its allocation", place, colon, entry_name(where, i), begin, sizes[i],
                     block_end - block, block);
            return message;
        case NOT_WRITABLE:
            snprintf(message, sizeof message, "%s%s%s (host address %#" PRIxPTR ", %" PRId64 " bytes) runs into "
                     "memory the program cannot write, where its copy from the device would go: an array "
                     "section goes past its allocation, or `from` names read-only data", place, colon,
                     entry_name(where, i), begin, sizes[i]);
            return message;
        case PAST_HOST_MEMORY:
            snprintf(message, sizeof message, "%s%s%s (host address %#" PRIxPTR ", %" PRId64 " bytes) runs past "
                     "the host memory of the program: an array section goes past its allocation", place, colon,
                     entry_name(where, i), begin, sizes[i]);
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

const char *check_entries(int count, void **bases, void **begins, const int64_t *sizes, const int64_t *types,
                          const char *where, section_known_good known_good, void *context) {
    return checked(count, bases, begins, sizes, types, where, 1, known_good, context);
}

const char *check_argument_entries(int count, void **bases, void **begins, const int64_t *sizes,
                                   const int64_t *types, const char *where) {
    return checked(count, bases, begins, sizes, types, where, 0, 0, 0);
}
