/* The recent launches of each kernel whose map entries were all present already (regions in
 * a time-step loop inside `target data`; LULESH's sweep launches one kernel for 11 regions'
 * arrays): launched again with the same entries while the present table kept the same
 * mappings, a construct gets the same answers from the table as then, so target() takes
 * them from here instead of asking again. That skips five passes over the entries
 * (check_entries, table_all_present, table_begin, table_translate, table_end: on the
 * stand-in driver four fifths of a region's runtime work, docs/async.md), each looking
 * every entry up.
 *
 * Why the answers are the same: with every entry present, table_begin only counts a
 * reference on each mapping and table_end takes it back -- nothing is copied, attached,
 * mapped or freed -- so the table is left as it was found; the device addresses are those
 * of the same mappings. A launch is kept only where that holds: no `always`, `delete`,
 * attachment, allocator record or strided entry, every host range the construct names
 * inside a mapping (check_entries then reads no host memory). The table's generation
 * (present_table.c) counts every mapping made or removed; a different generation, device
 * or entry, and the construct goes through the table as usual. */
#include <stdlib.h>
#include <string.h>
#include "offload.h"

#define MEMO_KERNELS 64          /* direct-mapped by the kernel name's address */
#define MEMO_VARIANTS 16         /* launches kept per kernel: one kernel, many arrays (LULESH's 11 regions) */
#define MEMO_ENTRIES 64          /* a construct with more is not kept */
#define NOT_KEPT (MAP_ALWAYS | MAP_DELETE | MAP_ATTACH | MAP_MAPPER | MAP_NON_CONTIG | MAP_ALLOCATOR | MAP_PRIVATE)

struct launch_memo {
    const struct device *device;
    unsigned long generation;
    int count;                   /* 0: nothing kept */
    struct map_entry entries[MEMO_ENTRIES];
    uintptr_t translated[MEMO_ENTRIES];    /* table_translate's answer for each entry */
};

struct kernel_memos {
    const char *kernel_name;     /* the compiled code's constant: one address per kernel */
    int next;                    /* the variant a new launch replaces (round robin) */
    struct launch_memo *variants;
};

static struct kernel_memos kernels[MEMO_KERNELS];

static struct kernel_memos *memos_of(const char *kernel_name) {
    uintptr_t key = (uintptr_t)kernel_name;
    return &kernels[(key >> 3 ^ key >> 11) % MEMO_KERNELS];
}

static int same_launch(const struct launch_memo *memo, const struct device *d, const struct map_entry *entries,
                       int count) {
    return memo->count == count && memo->device == d && memo->generation == d->table.generation
           && memcmp(memo->entries, entries, (size_t)count * sizeof *entries) == 0;
}

const uintptr_t *launch_memo_find(const struct device *d, const char *kernel_name,
                                  const struct map_entry *entries, int count) {
    const struct kernel_memos *memos = memos_of(kernel_name);
    int i;
    if (memos->kernel_name != kernel_name || !count) return 0;
    for (i = 0; i < MEMO_VARIANTS; i++)
        if (same_launch(&memos->variants[i], d, entries, count)) {
            offload_debug(2, "launch of %s: its map entries as at an earlier launch, all present", kernel_name);
            return memos->variants[i].translated;
        }
    return 0;
}

/* Every entry that maps storage lies in a mapping (table_all_present), and so does a
 * pointer looked up with a length: check_entries then reads no host memory. `all_present`:
 * table_all_present's answer before the launch's table_begin, or -1 when target() did not
 * ask; a launch's begin and end leave the mappings as they were, so the answer holds. */
static int keepable(struct device *d, const struct map_entry *entries, int count, int all_present) {
    int i;
    if (!count || count > MEMO_ENTRIES || d->usm == USM_MANAGED) return 0;
    for (i = 0; i < count; i++) {
        const struct map_entry *e = &entries[i];
        if (e->type & NOT_KEPT) return 0;
        if ((e->type & MAP_POINTER_LOOKUP) && e->size > 0 && !table_holds_section(d, e->begin, e->size)) return 0;
    }
    return all_present >= 0 ? all_present : table_all_present(d, entries, count);
}

void launch_memo_keep(struct device *d, const char *kernel_name, const struct map_entry *entries, int count,
                      const uintptr_t *translated, int all_present) {
    struct kernel_memos *memos = memos_of(kernel_name);
    struct launch_memo *memo;
    if (!keepable(d, entries, count, all_present)) return;
    if (memos->kernel_name != kernel_name) {        /* the slot's kernel, or another hashed there */
        if (!memos->variants && !(memos->variants = malloc(MEMO_VARIANTS * sizeof *memos->variants))) return;
        memset(memos->variants, 0, MEMO_VARIANTS * sizeof *memos->variants);
        memos->kernel_name = kernel_name;
        memos->next = 0;
    }
    memo = &memos->variants[memos->next];
    memos->next = (memos->next + 1) % MEMO_VARIANTS;
    memo->device = d;
    memo->generation = d->table.generation;
    memo->count = count;
    memcpy(memo->entries, entries, (size_t)count * sizeof *entries);
    memcpy(memo->translated, translated, (size_t)count * sizeof *translated);
}
