/* One device's data environment (OpenMP 4.5 2.15.5, 2.10): host ranges mapped to device storage with a
 * reference count. A list item is found by any range inside a mapped one; one sticking
 * out of a mapping is the program's error, except an implicitly mapped object, which is
 * present in the mapping it overlaps (libomptarget's rule: the OpenMP Examples'
 * array_sections.3 and .4), and a range around whole mappings, which takes them in
 * (take_in). `declare target` globals are mapped for the whole run;
 * `declare target link` globals have module storage that a map clause maps.
 * Struct members (MEMBER_OF) are copied when their struct is newly mapped or released;
 * ATTACH entries point the device copy of a pointer at the device copy of its pointee,
 * and copies back to the host never overwrite an attached pointer.
 *
 * Results: 0 done; -1 the device failed (device->last_error says why); -2 the program's
 * mapping error (table_mapping_error says which). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "offload.h"

/* an attached pointer: its slot, its pointee's section, and the device address written
 * into the device's slot (0: to be written again, as after a copy of the slot's range) */
struct attached { uintptr_t slot, begin; long size; uintptr_t device_value; };

struct mapping {
    uintptr_t host_begin;
    long nbytes;
    uintptr_t device_address;
    long references;
    int always_present;          /* declare target: mapped until the program ends */
    int link;                    /* declare target link: the module's storage */
    int in_place;                /* the host's own storage (zero-copy device), or lent device memory */
    int lent;                    /* the caller's device memory (table_lend), counted in references */
    int associated;              /* omp_target_associate_ptr's, until disassociated */
    int device_newer;            /* a kernel ran since the host last copied it all back */
    struct attached *attached;
    int attached_count, attached_capacity;
    int attached_hint;           /* the last answer of first_attached_at, tried first */
};

char table_mapping_error[512];

static uintptr_t host_end(const struct mapping *m) { return m->host_begin + (uintptr_t)m->nbytes; }
static uintptr_t device_of(const struct mapping *m, uintptr_t host) {
    return m->device_address + (host - m->host_begin);
}
static int frees_storage(const struct mapping *m) { return !(m->always_present || m->link || m->in_place); }
static int maps_storage(const struct map_entry *e) { return e->size > 0 && !(e->type & MAP_NOT_MAPPED); }
static long parent_of(int64_t type) { return (long)((uint64_t)type >> MAP_MEMBER_OF_SHIFT) - 1; }

/* ---------------------------------------------------------------- lookups */
static int starts_run_at(const struct present_table *t, long index, uintptr_t address) {
    return index >= 0 && index < t->count && t->items[index].host_begin <= address
           && (index + 1 == t->count || t->items[index + 1].host_begin > address);
}

/* before's search: the last two answers, and the mappings next to them, are tried first:
 * a mapper's entries walk an array of structs' sections in address order (backwards at
 * exits), between two places of the table. */
static long search(struct present_table *t, uintptr_t address) {
    long low = 0, high = t->count;
    int i;
    for (i = 0; i < 2; i++) {
        long hint = t->hints[i];
        if (starts_run_at(t, hint, address)) return hint;
        if (starts_run_at(t, hint + 1, address)) return t->hints[i] = hint + 1;
        if (starts_run_at(t, hint - 1, address)) return t->hints[i] = hint - 1;     /* exits walk back */
    }
    while (low < high) {
        long middle = (low + high) / 2;
        if (t->items[middle].host_begin <= address) low = middle + 1;
        else high = middle;
    }
    t->next_hint ^= 1;
    t->hints[t->next_hint] = low - 1;
    return low - 1;
}

/* the index of the last mapping starting at or before `address`, -1: none. The answer
 * the same address got last is tried first: a region launched again and again looks up
 * the same few dozen addresses four times a launch (present?, begin, translate, end). */
static long before(struct present_table *t, uintptr_t address) {
    long *recent = &t->recent[(address >> 4 ^ address >> 12) % PRESENT_RECENT];
    if (!starts_run_at(t, *recent, address)) *recent = search(t, address);
    return *recent;
}

static struct mapping *lookup_address(struct present_table *t, uintptr_t address, int one_past_end) {
    long index = before(t, address);
    struct mapping *m;
    if (index < 0) return 0;
    m = &t->items[index];
    return address < host_end(m) || (one_past_end && address == host_end(m)) ? m : 0;
}

/* The mapping holding [begin, begin + size); NULL: none of it is mapped; *partial: it
 * overlaps one without lying inside it (the message is made here). */
static struct mapping *lookup(struct present_table *t, uintptr_t begin, long size, int *partial) {
    uintptr_t end = begin + (uintptr_t)size;
    long index;
    *partial = 0;
    if (size <= 0) return lookup_address(t, begin, 0);
    index = before(t, begin);
    if (index < 0) index = 0;
    for (; index < t->count && t->items[index].host_begin < end; index++) {
        struct mapping *m = &t->items[index];
        if (host_end(m) <= begin) continue;
        if (m->host_begin <= begin && end <= host_end(m)) return m;
        snprintf(table_mapping_error, sizeof table_mapping_error,
                 "host range [%#" PRIxPTR ", %#" PRIxPTR ") is partially mapped: it overlaps the mapped "
                 "range [%#" PRIxPTR ", %#" PRIxPTR ") without lying inside it (OpenMP 4.5 2.15.5)",
                 begin, end, m->host_begin, host_end(m));
        *partial = 1;
        return m;
    }
    return 0;
}

/* lookup for a map entry: an implicit one sticking out is present in what it overlaps */
static struct mapping *lookup_entry(struct present_table *t, const struct map_entry *e, int *error) {
    int partial;
    struct mapping *m = lookup(t, e->begin, e->size, &partial);
    *error = partial && !(e->type & MAP_IMPLICIT);
    return m;
}

static struct mapping *insert(struct present_table *t, const struct mapping *fresh) {
    long index = before(t, fresh->host_begin) + 1;
    if (t->count == t->capacity) {
        t->capacity = t->capacity ? 2 * t->capacity : 64;
        t->items = realloc(t->items, (size_t)t->capacity * sizeof *t->items);
    }
    memmove(&t->items[index + 1], &t->items[index], (size_t)(t->count - index) * sizeof *t->items);
    t->items[index] = *fresh;
    t->count++;
    t->generation++;
    return &t->items[index];
}

static void remove_range(struct present_table *t, uintptr_t host_begin) {
    long index = before(t, host_begin);
    if (index < 0 || t->items[index].host_begin != host_begin) return;
    free(t->items[index].attached);
    memmove(&t->items[index], &t->items[index + 1], (size_t)(t->count - index - 1) * sizeof *t->items);
    t->count--;
    t->generation++;
}

/* ---------------------------------------------------------------- copies */
static int attach(struct device *d, uintptr_t slot, uintptr_t begin, long size);

/* A mapping's attached pointers are kept sorted by their slot's host address: a mapper's
 * array of structs attaches one or more per element, so a search is a bisection and the
 * pointers in a copied range are a run. */
static int first_at_or_after(const struct mapping *m, int index, uintptr_t address) {
    return index >= 0 && index <= m->attached_count
           && (index == m->attached_count || m->attached[index].slot >= address)
           && (index == 0 || m->attached[index - 1].slot < address);
}

static int first_attached_at(struct mapping *m, uintptr_t address) {
    int low = 0, high = m->attached_count, hint = m->attached_hint;
    if (first_at_or_after(m, hint, address)) return hint;
    if (first_at_or_after(m, hint + 1, address)) return m->attached_hint = hint + 1;
    while (low < high) {
        int middle = (low + high) / 2;
        if (m->attached[middle].slot < address) low = middle + 1;
        else high = middle;
    }
    return m->attached_hint = low;
}

/* [*first, *last): the attached pointers whose slots lie in [begin, begin + size) */
static void attached_in(struct mapping *m, uintptr_t begin, long size, int *first, int *last) {
    int i = first_attached_at(m, begin);
    *first = i;
    while (i < m->attached_count && m->attached[i].slot + sizeof(void *) <= begin + (uintptr_t)size) i++;
    *last = i;
}

static int to_device(struct device *d, struct mapping *m, uintptr_t begin, long size) {
    struct attached small[64], *within = small;
    double start;
    int i, first, last, result = 0;
    if (m->in_place || size <= 0) return 0;
    record_copy(d, 1, begin, device_of(m, begin), size);
    start = profile_active() ? profile_now() : 0;
    if (d->ops->to_device(d, device_of(m, begin), (const void *)begin, size)) return -1;
    profile_copy(d, 1, size, start);
    attached_in(m, begin, size, &first, &last);      /* the copy put host pointers there */
    for (i = first; i < last; i++) m->attached[i].device_value = 0;
    if (last - first > 64) within = malloc((size_t)(last - first) * sizeof *within);
    if (last > first) memcpy(within, &m->attached[first], (size_t)(last - first) * sizeof *within);
    for (i = 0; i < last - first && !result; i++) result = attach(d, within[i].slot, within[i].begin, within[i].size);
    if (within != small) free(within);
    return result;
}

static int to_host(struct device *d, struct mapping *m, uintptr_t begin, long size) {
    double start;
    int i, first, last, failed;
    void *small[64], **kept = small;
    if (m->in_place || size <= 0) return 0;
    /* attached pointers hold device addresses on the device: the host keeps its own */
    attached_in(m, begin, size, &first, &last);
    if (last - first > 64) kept = malloc((size_t)(last - first) * sizeof *kept);
    for (i = first; i < last; i++) kept[i - first] = *(void **)m->attached[i].slot;
    record_copy(d, 0, begin, device_of(m, begin), size);
    start = profile_active() ? profile_now() : 0;
    failed = d->ops->to_host(d, (void *)begin, device_of(m, begin), size);
    if (!failed) profile_copy(d, 0, size, start);
    for (i = first; i < last; i++) *(void **)m->attached[i].slot = kept[i - first];
    if (kept != small) free(kept);
    if (failed) return -1;
    if (begin == m->host_begin && size == m->nbytes) m->device_newer = 0;
    return 0;
}

static void remember_attached(struct mapping *holder, uintptr_t slot, uintptr_t begin, long size,
                              uintptr_t device_value) {
    int i = first_attached_at(holder, slot);
    if (i == holder->attached_count || holder->attached[i].slot != slot) {
        if (holder->attached_count == holder->attached_capacity) {
            holder->attached_capacity = holder->attached_capacity ? 2 * holder->attached_capacity : 4;
            holder->attached = realloc(holder->attached,
                                       (size_t)holder->attached_capacity * sizeof *holder->attached);
        }
        memmove(&holder->attached[i + 1], &holder->attached[i],
                (size_t)(holder->attached_count - i) * sizeof *holder->attached);
        holder->attached_count++;
    }
    holder->attached[i].slot = slot;
    holder->attached[i].begin = begin;
    holder->attached[i].size = size;
    holder->attached[i].device_value = device_value;
}

static void forget_attached(struct mapping *holder, uintptr_t slot) {
    int i = first_attached_at(holder, slot);
    if (i == holder->attached_count || holder->attached[i].slot != slot) return;
    memmove(&holder->attached[i], &holder->attached[i + 1],
            (size_t)(holder->attached_count - i - 1) * sizeof *holder->attached);
    holder->attached_count--;
}

/* Point the device copy of the host pointer at `slot` at the device copy of its pointee
 * (the section [begin, begin + size) it designates), where both are mapped. */
static int attach(struct device *d, uintptr_t slot, uintptr_t begin, long size) {
    int partial, known;
    struct mapping *holder = lookup(&d->table, slot, sizeof(void *), &partial), *pointee;
    uintptr_t value;
    if (partial) return -2;
    if (!holder) return 0;
    pointee = size > 0 ? lookup(&d->table, begin, size, &partial) : lookup_address(&d->table, begin, 1);
    if (partial) return -2;
    if (!pointee) {
        forget_attached(holder, slot);        /* nothing to point at: the host value stays */
        return 0;
    }
    value = device_of(pointee, (uintptr_t)*(void **)slot);
    known = first_attached_at(holder, slot);
    if (known < holder->attached_count && holder->attached[known].slot == slot
        && holder->attached[known].device_value == value)
        return 0;               /* attached already (each construct a mapper expands attaches again) */
    if (!holder->in_place && d->ops->to_device(d, device_of(holder, slot), &value, sizeof value)) return -1;
    remember_attached(holder, slot, begin, size, value);
    return 0;
}

/* ---------------------------------------------------------------- present (5.1) */
static const char *entry_label(const char *where, int index) {
    const char *label = map_entry_label(where, index);
    return *label ? label : "a list item";
}

/* Every entry with the `present` modifier must be mapped already, before any entry of
 * the construct maps, copies or counts anything (OpenMP 5.1 2.21.7.1: present maps are
 * done first); -2 with the message naming the list item where one is not. */
static int check_present(struct device *d, const struct map_entry *entries, int count, const char *where) {
    int i, partial = 0;
    for (i = 0; i < count; i++) {
        const struct map_entry *e = &entries[i];
        const struct mapping *m;
        if (!(e->type & MAP_PRESENT) || (e->type & MAP_NOT_MAPPED)) continue;
        m = e->size > 0 ? lookup(&d->table, e->begin, e->size, &partial) : lookup_address(&d->table, e->begin, 0);
        if (partial) return -2;
        if (m) continue;
        snprintf(table_mapping_error, sizeof table_mapping_error,
                 "%s is not present on device %d (%s): the 'present' modifier needs host range [%#" PRIxPTR
                 ", %#" PRIxPTR ") (%ld bytes) mapped already", entry_label(where, i), d->number, d->name,
                 e->begin, e->begin + (uintptr_t)(e->size > 0 ? e->size : 0), e->size > 0 ? e->size : 0);
        return -2;
    }
    return 0;
}

/* ---------------------------------------------------------------- map clauses */
static struct mapping *link_mapping(struct present_table *t, const struct map_entry *e) {
    long i;
    for (i = 0; i < t->link_count; i++) {
        struct mapping *link = &t->links[i];
        if (link->host_begin <= e->begin && e->begin + (uintptr_t)e->size <= host_end(link)) return link;
    }
    return 0;
}

/* A range mapped around mappings that lie inside it: a struct mapped whole after some of
 * its members were (`target enter data map(to: s.p[0:n])`, whose pointer member s.p is
 * mapped, then `target map(to: s, s.p[0:n])`: sollve_vv's 5.1 target_update_iterator). The
 * range takes them in: one mapping of it, its new device storage holding their device bytes
 * (attached pointers too) and the host's bytes between them (MAP_TO), its reference count
 * the largest of theirs. 1: done (*out), 0: not that case (a mapping sticks out of the
 * range, or is a declare target's, lent or associated: the caller's partial-map error),
 * -1: the device failed. */
static int take_in(struct device *d, const struct map_entry *e, struct mapping **out) {
    struct present_table *t = &d->table;
    uintptr_t begin = e->begin, end = e->begin + (uintptr_t)e->size, at = begin;
    struct mapping made = {0};
    long first = before(t, begin), last, i;
    if (first < 0 || host_end(&t->items[first]) <= begin) first++;
    for (last = first; last < t->count && t->items[last].host_begin < end; last++) {
        const struct mapping *m = &t->items[last];
        if (m->host_begin < begin || host_end(m) > end || m->always_present || m->link || m->lent || m->associated
            || m->in_place != t->in_place)
            return 0;
    }
    made.host_begin = begin;
    made.nbytes = e->size;
    made.device_address = begin;
    made.in_place = t->in_place;
    if (!t->in_place && block_take(d, e->size, &made.device_address)) return -1;
    for (i = first; i < last; i++) {
        struct mapping *m = &t->items[i];
        if (!t->in_place && d->ops->device_to_device(d, device_of(&made, m->host_begin), m->device_address, m->nbytes))
            return -1;
        if (m->references > made.references) made.references = m->references;
        made.device_newer |= m->device_newer;
        made.attached = realloc(made.attached, (size_t)(made.attached_count + m->attached_count) * sizeof *made.attached);
        if (m->attached_count)
            memcpy(made.attached + made.attached_count, m->attached, (size_t)m->attached_count * sizeof *m->attached);
        made.attached_count += m->attached_count;
        made.attached_capacity = made.attached_count;
    }
    for (i = first; i < last; i++) {
        uintptr_t inner = t->items[i].host_begin, inner_end = host_end(&t->items[i]);
        if ((e->type & MAP_TO) && inner > at && to_device(d, &made, at, (long)(inner - at))) return -1;
        at = inner_end;
    }
    if ((e->type & MAP_TO) && end > at && to_device(d, &made, at, (long)(end - at))) return -1;
    while (last-- > first) {
        struct mapping *m = &t->items[last];
        if (frees_storage(m)) block_give(d, m->device_address, m->nbytes);
        free(m->attached);
        m->attached = 0;
        remove_range(t, m->host_begin);
    }
    *out = insert(t, &made);
    return 1;
}

/* ---------------------------------------------------------------- private copies */
/* A firstprivate array or struct (MAP_PRIVATE with MAP_TO) starts from the host's bytes at
 * the construct (OpenMP 5.2 5.4.4: the original list item's value), even where the variable
 * is mapped and its device copy differs; a private one (MAP_PRIVATE alone) starts from
 * nothing. So each gets device storage of its own, a mapping kept outside the present
 * table from the construct's table_begin to its table_end and then given back. A device
 * that uses the host's storage maps it as any other entry: the host's bytes are its own. */
static int private_entry(const struct present_table *t, const struct map_entry *e) {
    return (e->type & MAP_PRIVATE) && !t->in_place && e->size > 0;
}

static int private_begin(struct device *d, const struct map_entry *e) {
    struct present_table *t = &d->table;
    struct mapping made = {0}, *m;
    made.host_begin = e->begin;
    made.nbytes = e->size;
    if (block_take(d, e->size, &made.device_address)) return -1;
    if (t->private_count == t->private_capacity) {
        t->private_capacity = t->private_capacity ? 2 * t->private_capacity : 8;
        t->privates = realloc(t->privates, (size_t)t->private_capacity * sizeof *t->privates);
    }
    m = &t->privates[t->private_count++];
    *m = made;
    return (e->type & MAP_TO) ? to_device(d, m, e->begin, e->size) : 0;
}

/* The latest private storage of the entry's bytes (constructs nest: the innermost's). */
static struct mapping *private_of(const struct present_table *t, const struct map_entry *e) {
    long i;
    for (i = t->private_count - 1; i >= 0; i--)
        if (t->privates[i].host_begin == e->begin && t->privates[i].nbytes == e->size) return &t->privates[i];
    return 0;
}

static void private_end(struct device *d, const struct map_entry *e) {
    struct present_table *t = &d->table;
    struct mapping *m = private_of(t, e);
    if (!m) return;
    block_give(d, m->device_address, m->nbytes);
    memmove(m, m + 1, (size_t)(t->privates + t->private_count - (m + 1)) * sizeof *m);
    t->private_count--;
}

int table_begin(struct device *d, const struct map_entry *entries, int count, const char *where) {
    struct present_table *t = &d->table;
    char *fresh;
    int i, error, result = check_present(d, entries, count, where);
    if (result) return result;
    fresh = calloc((size_t)(count ? count : 1), 1);
    for (i = 0; i < count && !result; i++) {
        const struct map_entry *e = &entries[i];
        long parent = parent_of(e->type);
        struct mapping *m;
        if (!maps_storage(e)) continue;
        if (private_entry(t, e)) {
            if (private_begin(d, e)) result = -1;
            continue;
        }
        if (parent >= 0) {
            int partial;
            m = lookup(t, e->begin, e->size, &partial);
            if (partial) { result = -2; break; }
            if (m && (e->type & MAP_TO) && ((parent < count && fresh[parent]) || (e->type & MAP_ALWAYS)))
                if (to_device(d, m, e->begin, e->size)) result = -1;
            continue;
        }
        m = lookup_entry(t, e, &error);
        if (error) {                    /* mapped around mappings inside it, or the program's error */
            int taken = take_in(d, e, &m);
            if (taken <= 0) { result = taken < 0 ? -1 : -2; break; }
            m->references++;
            fresh[i] = 1;
            continue;
        }
        if (!m) {
            struct mapping made = {0};
            struct mapping *link = link_mapping(t, e);
            if (link) {
                made.host_begin = link->host_begin;
                made.nbytes = link->nbytes;
                made.device_address = link->device_address;
                made.link = 1;
            } else if (t->in_place) {
                made.host_begin = e->begin;
                made.nbytes = e->size;
                made.device_address = e->begin;
                made.in_place = 1;
                if (d->usm == USM_MANAGED && d->ops->host_alias(d, e->begin, e->size, &made.device_address)) {
                    result = -1;
                    break;
                }
            } else {
                made.host_begin = e->begin;
                made.nbytes = e->size;
                if (block_take(d, e->size, &made.device_address)) { result = -1; break; }
            }
            made.references = 1;
            m = insert(t, &made);
            fresh[i] = 1;
            if ((e->type & MAP_TO) && to_device(d, m, e->begin, e->size)) result = -1;
            continue;
        }
        if (!m->always_present) m->references++;
        if ((e->type & MAP_TO) && (e->type & MAP_ALWAYS) && to_device(d, m, e->begin, e->size)) result = -1;
    }
    for (i = 0; i < count && !result; i++)
        if (entries[i].type & MAP_ATTACH) result = attach(d, entries[i].base, entries[i].begin, entries[i].size);
    free(fresh);
    return result;
}

int table_end(struct device *d, const struct map_entry *entries, int count, const char *where) {
    struct present_table *t = &d->table;
    uintptr_t *released;
    char *last_of;
    int released_count = 0, i, error, result = check_present(d, entries, count, where);
    if (result) return result;
    released = malloc((size_t)(count ? count : 1) * sizeof *released);
    last_of = calloc((size_t)(count ? count : 1), 1);
    for (i = count - 1; i >= 0 && !result; i--) {
        const struct map_entry *e = &entries[i];
        struct mapping *m;
        int last;
        if (!maps_storage(e) || parent_of(e->type) >= 0) continue;
        if (private_entry(t, e)) {
            private_end(d, e);
            continue;
        }
        m = lookup_entry(t, e, &error);
        if (error) { result = -2; break; }
        if (!m || m->references == 0) continue;          /* exit data of an unmapped item */
        if (!m->always_present) m->references = (e->type & MAP_DELETE) ? 0 : m->references - 1;
        last = m->references == 0 && !m->always_present;
        if ((e->type & MAP_FROM) && (last || (e->type & MAP_ALWAYS)) && to_host(d, m, e->begin, e->size))
            result = -1;
        if (last) {
            released[released_count++] = m->host_begin;
            last_of[i] = 1;
        }
    }
    for (i = count - 1; i >= 0 && !result; i--) {
        const struct map_entry *e = &entries[i];
        long parent = parent_of(e->type);
        struct mapping *m;
        int partial;
        if (parent < 0 || !maps_storage(e) || !(e->type & MAP_FROM)) continue;
        m = lookup(t, e->begin, e->size, &partial);
        if (partial) { result = -2; break; }
        if (m && ((parent < count && last_of[parent]) || (e->type & MAP_ALWAYS)) && to_host(d, m, e->begin, e->size))
            result = -1;
    }
    for (i = 0; i < released_count; i++) {
        struct mapping *m = lookup_address(t, released[i], 0);
        if (!m || m->host_begin != released[i] || m->references) continue;   /* released twice */
        if (frees_storage(m) && !result) block_give(d, m->device_address, m->nbytes);
        remove_range(t, released[i]);
    }
    free(released);
    free(last_of);
    return result;
}

/* ---------------------------------------------------------------- strided target update */
struct strided { struct device *d; struct mapping *m; uintptr_t begin; int to; };

static int copy_block(void *context, struct copy_block block) {
    struct strided *s = context;
    const struct device_ops *ops = s->d->ops;
    uintptr_t host = s->begin + (uintptr_t)block.offset;
    long row;
    int two_d = s->to ? ops->to_device_2d != 0 : ops->to_host_2d != 0;
    if (two_d && block.height > 1 && !s->m->attached_count && !s->m->in_place) {   /* one call */
        double start = profile_active() ? profile_now() : 0;
        int failed = s->to ? ops->to_device_2d(s->d, device_of(s->m, host), (const void *)host, block.width,
                                               block.pitch, block.height)
                           : ops->to_host_2d(s->d, (void *)host, device_of(s->m, host), block.width, block.pitch,
                                             block.height);
        if (failed) return -1;
        record_copy(s->d, s->to, host, device_of(s->m, host), block.width * block.height);
        profile_copy(s->d, s->to, block.width * block.height, start);
        return 0;
    }
    for (row = 0; row < block.height; row++) {
        uintptr_t at = host + (uintptr_t)(row * block.pitch);
        if (s->to ? to_device(s->d, s->m, at, block.width) : to_host(s->d, s->m, at, block.width)) return -1;
    }
    return 0;
}

/* A MAP_NON_CONTIG entry (strided_copies.c): its extent must lie in one mapping. */
static int update_strided(struct device *d, const struct map_entry *e) {
    int partial;
    struct strided s;
    s.m = lookup(&d->table, e->begin, e->size, &partial);
    if (partial) return -2;
    if (!s.m || e->size <= 0) return 0;                   /* absent: ignored (2.10.5) */
    s.d = d;
    s.begin = e->begin;
    s.to = (e->type & MAP_TO) != 0;
    return for_each_strided_block((const int64_t *)e->base, copy_block, &s, table_mapping_error,
                                  sizeof table_mapping_error);
}

int table_update(struct device *d, const struct map_entry *entries, int count, const char *where) {
    int i, partial, result = check_present(d, entries, count, where);
    if (result) return result;
    for (i = 0; i < count; i++) {
        const struct map_entry *e = &entries[i];
        struct mapping *m;
        if (!maps_storage(e) || !(e->type & (MAP_TO | MAP_FROM))) continue;
        if (e->type & MAP_NON_CONTIG) {
            int result = update_strided(d, e);
            if (result) return result;
            continue;
        }
        m = lookup(&d->table, e->begin, e->size, &partial);
        if (partial) return -2;
        if (!m) continue;                                 /* absent: ignored (2.10.5) */
        if ((e->type & MAP_TO) && to_device(d, m, e->begin, e->size)) return -1;
        if ((e->type & MAP_FROM) && to_host(d, m, e->begin, e->size)) return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- what the kernel sees */
/* the device address for entry->base; 0 where the storage is not present */
uintptr_t table_translate(struct device *d, const struct map_entry *e) {
    struct mapping *m;
    int error;
    if (private_entry(&d->table, e)) m = private_of(&d->table, e);
    else if (maps_storage(e)) m = lookup_entry(&d->table, e, &error);
    else m = lookup_address(&d->table, e->begin, 1);
    if (m) return device_of(m, e->base);
    /* a pointer with no map whose pointee is not mapped keeps its value (OpenMP 5.1 2.21.7.2:
     * a device address, say, from adjust_args(need_device_ptr) or omp_target_alloc) */
    return e->type & MAP_POINTER_LOOKUP ? e->base : 0;
}

int table_return_device_pointers(struct device *d, const struct map_entry *entries, int count, void **bases) {
    int i;
    for (i = 0; i < count; i++)
        if (entries[i].type & MAP_RETURN_PARAM) {
            struct mapping *m = lookup_address(&d->table, entries[i].begin, 1);
            if (m) bases[i] = (void *)device_of(m, entries[i].base);
        }
    return 0;
}

int table_is_present(struct device *d, uintptr_t address) { return lookup_address(&d->table, address, 0) != 0; }

int table_device_range(struct device *d, uintptr_t address, uintptr_t *begin, uintptr_t *end) {
    long i;
    for (i = 0; i < d->table.count; i++) {
        const struct mapping *m = &d->table.items[i];
        if (m->in_place || m->lent || address < m->device_address
            || address >= m->device_address + (uintptr_t)m->nbytes)
            continue;
        *begin = m->device_address;
        *end = m->device_address + (uintptr_t)m->nbytes;
        return 0;
    }
    return -1;
}

/* Whether a region's begin and end only count references: every entry that maps storage
 * lies in a mapping present already, and none asks for a copy back or a delete at the end
 * (a target task's kernel may then be left running: nothing is copied or freed after it). */
int table_all_present(struct device *d, const struct map_entry *entries, int count) {
    int i, partial;
    for (i = 0; i < count; i++) {
        const struct map_entry *e = &entries[i];
        if (!maps_storage(e)) continue;
        if (private_entry(&d->table, e)) return 0;          /* its copy is given back after the kernel */
        if ((e->type & MAP_DELETE) || ((e->type & MAP_FROM) && (e->type & MAP_ALWAYS))) return 0;
        if (!lookup(&d->table, e->begin, e->size, &partial) || partial) return 0;
    }
    return 1;
}

int table_holds_section(void *device, uintptr_t begin, long size) {
    struct device *d = device;
    int partial;
    return lookup(&d->table, begin, size, &partial) && !partial;
}

/* a declare target global whose storage the module provides: present from now on */
int table_add_global(struct device *d, uintptr_t host, long size, uintptr_t device_address) {
    int partial;
    struct mapping made = {0}, *m;
    if (lookup(&d->table, host, size, &partial)) return partial ? -2 : 0;
    made.host_begin = host;
    made.nbytes = size;
    made.device_address = device_address;
    made.references = 1;
    made.always_present = 1;
    made.in_place = device_address == host;
    m = insert(&d->table, &made);
    return to_device(d, m, host, size);
}

int table_add_link_global(struct device *d, uintptr_t host, long size, uintptr_t device_address) {
    struct present_table *t = &d->table;
    struct mapping made = {0};
    if (t->link_count == t->link_capacity) {
        t->link_capacity = t->link_capacity ? 2 * t->link_capacity : 8;
        t->links = realloc(t->links, (size_t)t->link_capacity * sizeof *t->links);
    }
    made.host_begin = host;
    made.nbytes = size;
    made.device_address = device_address;
    made.references = 1;
    made.link = 1;
    t->links[t->link_count++] = made;
    t->generation++;
    return 0;
}

/* The caller's device memory [begin, begin + size) present for the length of a call (a
 * CuPy array through the Python API): its host address is its device address, so map
 * clauses on it copy, count and free nothing; lent again meanwhile, it is counted. -2 when
 * it overlaps a mapped range (table_mapping_error says which). */
int table_lend(struct device *d, uintptr_t begin, long size) {
    int partial;
    struct mapping *m = lookup(&d->table, begin, size, &partial), made = {0};
    if (m && m->lent && !partial) {
        m->references++;
        return 0;
    }
    if (m) {
        snprintf(table_mapping_error, sizeof table_mapping_error,
                 "device memory [%#" PRIxPTR ", %#" PRIxPTR ") lies in the mapped host range [%#" PRIxPTR
                 ", %#" PRIxPTR ")", begin, begin + (uintptr_t)size, m->host_begin, host_end(m));
        return -2;
    }
    made.host_begin = begin;
    made.nbytes = size;
    made.device_address = begin;
    made.references = 1;
    made.always_present = 1;
    made.in_place = 1;
    made.lent = 1;
    insert(&d->table, &made);
    return 0;
}

/* One loan of the range ended; at the last, it is no longer present. */
int table_end_loan(struct device *d, uintptr_t begin, long size) {
    int partial;
    struct mapping *m = lookup(&d->table, begin, size, &partial);
    if (!m || partial || !m->lent || m->host_begin != begin) return -1;
    if (--m->references == 0) remove_range(&d->table, begin);
    return 0;
}

void table_kernel_ran(struct device *d) {
    long i;
    for (i = 0; i < d->table.count; i++) d->table.items[i].device_newer = 1;
}

/* A target region runs on the host instead of the device (the compiler refused it):
 * before it, the host copies of what a kernel may have written are brought up to date;
 * after it, the device copy of every mapping gets what the host left (it may have
 * written any). Nonzero: the device failed. */
int table_host_region_begin(struct device *d) {
    long i;
    for (i = 0; i < d->table.count; i++) {
        struct mapping *m = &d->table.items[i];
        if (m->device_newer && to_host(d, m, m->host_begin, m->nbytes)) return -1;
    }
    return 0;
}

int table_host_region_end(struct device *d) {
    long i;
    for (i = 0; i < d->table.count; i++) {
        struct mapping *m = &d->table.items[i];
        int result = to_device(d, m, m->host_begin, m->nbytes);
        if (result) return result;
    }
    return 0;
}

/* The device is given up: copy back what a kernel may have written, free, forget. */
void table_evacuate(struct device *d) {
    struct present_table *t = &d->table;
    long i;
    for (i = 0; i < t->count; i++) {
        struct mapping *m = &t->items[i];
        if (m->device_newer && to_host(d, m, m->host_begin, m->nbytes))
            offload_report("warning", "device data for host range [%#" PRIxPTR ", %#" PRIxPTR
                           ") could not be copied back", m->host_begin, host_end(m));
        if (frees_storage(m)) block_give(d, m->device_address, m->nbytes);
        free(m->attached);
    }
    t->count = 0;
    t->generation++;
}

/* ---------------------------------------------------------------- omp_get_mapped_ptr, associate_ptr */
uintptr_t table_device_address(struct device *d, uintptr_t host) {
    struct mapping *m = lookup_address(&d->table, host, 0);
    return m ? device_of(m, host) : 0;
}

int table_associate(struct device *d, uintptr_t host, long size, uintptr_t device_address) {
    int partial;
    struct mapping *m = lookup(&d->table, host, size, &partial), made = {0};
    if (m && !partial && m->associated && device_of(m, host) == device_address) return 0;  /* again: fine */
    if (m) return -2;
    made.host_begin = host;
    made.nbytes = size;
    made.device_address = device_address;
    made.references = 1;
    made.always_present = 1;
    made.associated = 1;
    insert(&d->table, &made);
    return 0;
}

int table_disassociate(struct device *d, uintptr_t host) {
    struct mapping *m = lookup_address(&d->table, host, 0);
    if (!m || !m->associated || m->host_begin != host) return -1;
    remove_range(&d->table, host);
    return 0;
}
