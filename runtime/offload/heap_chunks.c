/* Where a heap allocation ends: the glibc malloc chunk a map section's pointer starts,
 * so that `map(a[0:n])` with n past what malloc gave `a` is refused even where the bytes
 * after it are mapped (the rest of the heap, or a thread arena's reserve).
 *
 * glibc (2.26 and later, 64-bit) puts an 8-byte header before each block it returns: the
 * chunk's size (a multiple of 16, at least 32) and three flag bits (1: the chunk before is
 * in use, 2: mmapped, 4: a thread arena's). Chunks of one heap lie end to end: the main
 * arena's from the start of [heap], a thread arena's in 64 MiB-aligned heaps from just
 * after the heap's header (heap_info; in an arena's first heap, after the arena's own
 * state too).
 *
 * Why reading it is safe, and never accuses a good program:
 *   - only where malloc is glibc's (not interposed: jemalloc, tcmalloc, a sanitizer) and
 *     not under valgrind (whose own malloc has no such headers: its redzone is not read);
 *   - only inside memory /proc/self/maps says is readable (host_memory.c passes the
 *     readable range around the pointer): a header is read at p - 8 >= the range's start;
 *   - a header is first only a claim (a pointer inside an array has the array's data
 *     before it). A section inside the claimed chunk is good: nothing more is read. A
 *     section past it is refused only once the pointer is proven a chunk start: the heap's
 *     chunks walked from its first one, every step a valid size inside the heap, land on
 *     it exactly, and the chunk after it says it is in use; only then is
 *     malloc_usable_size called (on a block malloc returned and that is not free) and
 *     must agree. A pointer the walk does not prove is remembered (NOT_CHUNKS) and keeps
 *     the mapping check alone. Another thread's malloc racing the walk can only make it
 *     miss (the mapping check then), never read outside the heap's range, which is
 *     the program's while the block at p is alive.
 * Called under the runtime's lock (host_memory.c's callers hold it). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <malloc.h>
#include <string.h>
#include "offload.h"

#define HEADER 16                   /* the chunk's prev_size and size words before p */
#define MIN_CHUNK 32
#define PREV_IN_USE 1
#define MMAPPED 2
#define THREAD_ARENA 4
#define FLAGS 7
#define ARENA_STATE_BYTES 2200                   /* sizeof(struct malloc_state), glibc >= 2.27 */
#define NOT_CHUNKS 64

static struct { uintptr_t pointer; size_t header; } not_chunks[NOT_CHUNKS];
static int usable = -1;                          /* glibc's malloc, no valgrind: known once */

static size_t word_at(uintptr_t address) { return *(const size_t *)address; }

static int valgrind_loaded(struct dl_phdr_info *info, size_t size, void *data) {
    (void)size;
    (void)data;
    return info->dlpi_name && strstr(info->dlpi_name, "vgpreload") != 0;
}

static int glibc_malloc(void) {
    if (usable < 0) {
        void *ours = dlsym(RTLD_DEFAULT, "malloc"), *glibc = dlsym(RTLD_DEFAULT, "__libc_malloc");
        usable = ours && ours == glibc && !dl_iterate_phdr(valgrind_loaded, 0);
    }
    return usable;
}

/* The end of the usable bytes of the chunk p's header claims, within [low, high); 0 when
 * the header cannot be a heap chunk's of this kind (`main_heap`: no thread-arena bit;
 * else that bit) or p is too near the range's start to have one. */
uintptr_t heap_chunk_claimed_end(uintptr_t p, uintptr_t low, uintptr_t high, int main_heap) {
    size_t header, size;
    if (!glibc_malloc() || (p & 15) || p < low + HEADER) return 0;
    header = word_at(p - 8);
    size = header & ~(size_t)FLAGS;
    if ((header & MMAPPED) || ((header & THREAD_ARENA) != 0) == main_heap) return 0;
    if (size < MIN_CHUNK || (size & 15) || size > high - (p - HEADER) - HEADER) return 0;
    return p - 8 + size;                      /* the next chunk's prev_size word is p's too */
}

/* Chunks from `chunk` to p's, each a valid size ending inside `limit`: 1 when they land
 * on p's chunk exactly and the chunk after p's says p's is in use. */
static int walk_lands_on(uintptr_t chunk, uintptr_t p, uintptr_t limit, int main_heap) {
    uintptr_t target = p - HEADER;
    size_t header, size;
    while (chunk < target) {
        header = word_at(chunk + 8);
        size = header & ~(size_t)FLAGS;
        if ((header & MMAPPED) || (main_heap && (header & THREAD_ARENA))) return 0;
        if (size < MIN_CHUNK || (size & 15) || size > limit - chunk) return 0;
        chunk += size;
    }
    if (chunk != target) return 0;
    size = word_at(p - 8) & ~(size_t)FLAGS;
    return size <= limit - chunk - HEADER && (word_at(chunk + size + 8) & PREV_IN_USE);
}

/* The first chunk of the thread-arena heap holding p, and where its chunks end (the
 * heap's header says); 0 when the memory at p's 64 MiB boundary is no such heap. */
static uintptr_t thread_heap_start(uintptr_t p, uintptr_t low, uintptr_t high, uintptr_t *limit) {
    uintptr_t heap = p & ~(THREAD_HEAP_SPAN - 1), arena, info_bytes, first;
    size_t size;
    if (heap < low || heap + 48 > high) return 0;
    arena = word_at(heap);                                   /* heap_info: ar_ptr, prev, size */
    size = word_at(heap + 16);
    info_bytes = arena - (arena & ~(THREAD_HEAP_SPAN - 1));  /* the arena sits after its first heap's header */
    if (info_bytes != 32 && info_bytes != 48) return 0;      /* heap_info before / since glibc 2.35 */
    if (size > THREAD_HEAP_SPAN || (size & 4095) || p >= heap + size || heap + size > high) return 0;
    first = arena == heap + info_bytes ? arena + ARENA_STATE_BYTES : heap + info_bytes;
    first += (uintptr_t)-(first + HEADER) & 15;              /* its user pointer 16-aligned */
    *limit = heap + size;
    return first;
}

static int proven_chunk(uintptr_t p, uintptr_t low, uintptr_t high, uintptr_t heap_low, uintptr_t heap_high) {
    int main_heap = p >= heap_low && p < heap_high;
    uintptr_t first = heap_low, limit = heap_high;
    if (!main_heap) first = thread_heap_start(p, low, high, &limit);
    return first && walk_lands_on(first, p, limit, main_heap);
}

/* 1 when p is proven the start of a block glibc's malloc returned and has not freed
 * (in the main heap [heap_low, heap_high), or a thread arena's heap inside the readable
 * range [low, high)), *end the end of its usable bytes (malloc_usable_size); else 0.
 * Only for a p whose header heap_chunk_claimed_end accepted (p - 8 is readable). */
int heap_chunk_proven_end(uintptr_t p, uintptr_t low, uintptr_t high, uintptr_t heap_low, uintptr_t heap_high,
                          uintptr_t *end) {
    int slot = (int)((p >> 4) % NOT_CHUNKS);
    size_t header = word_at(p - 8), size = header & ~(size_t)FLAGS;
    if (not_chunks[slot].pointer == p && not_chunks[slot].header == header) return 0;
    if (!proven_chunk(p, low, high, heap_low, heap_high) || malloc_usable_size((void *)p) != size - 8) {
        not_chunks[slot].pointer = p;
        not_chunks[slot].header = header;
        return 0;
    }
    *end = p + size - 8;
    return 1;
}
