/* OMP_ALLOCATOR (OpenMP 5.1 6.21), read once at start-up: a predefined allocator's name
 * (`omp_high_bw_mem_alloc`), or a memory space with traits,
 * `omp_high_bw_mem_space:pinned=true,alignment=128` (keys and values as omp.h spells them
 * without `omp_atk_` / `omp_atv_`; alignment and pool_size numbers, fb_data a predefined
 * allocator). The host runtime's def-allocator-var starts there
 * (runtime/host/omp_allocators.c asks __omp2gpu_env_allocator). A value that is not
 * OpenMP's is a warning at start-up that says what is wrong, and omp_default_mem_alloc is
 * used, as LLVM's runtime does.
 *
 * gcc 12's libgomp, which the program also links, knows only the predefined names and calls
 * the 5.1 form invalid; an executable hides such a value from it (a .preinit_array
 * function runs before any shared library's initialisers) and gives it back to the
 * program's environment after them (a shared library, loaded after libgomp, cannot). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "../include/omp.h"
#include "offload.h"

#define MAX_TRAITS 16

static const char *const allocators[] = {"omp_default_mem_alloc", "omp_large_cap_mem_alloc", "omp_const_mem_alloc",
                                         "omp_high_bw_mem_alloc", "omp_low_lat_mem_alloc", "omp_cgroup_mem_alloc",
                                         "omp_pteam_mem_alloc", "omp_thread_mem_alloc", 0};
static const char *const spaces[] = {"omp_default_mem_space", "omp_large_cap_mem_space", "omp_const_mem_space",
                                     "omp_high_bw_mem_space", "omp_low_lat_mem_space", 0};
/* omp.h's omp_atk_* in order (1..8), and the values each key takes (0: a number, or for
 * fb_data an allocator's name) */
static const char *const keys[] = {"sync_hint", "alignment", "access", "pool_size", "fallback", "fb_data",
                                   "pinned", "partition", 0};
static const struct { const char *name; omp_uintptr_t value; int key; } values[] = {
    {"contended", omp_atv_contended, omp_atk_sync_hint}, {"uncontended", omp_atv_uncontended, omp_atk_sync_hint},
    {"serialized", omp_atv_serialized, omp_atk_sync_hint}, {"sequential", omp_atv_sequential, omp_atk_sync_hint},
    {"private", omp_atv_private, omp_atk_sync_hint},
    {"all", omp_atv_all, omp_atk_access}, {"cgroup", omp_atv_cgroup, omp_atk_access},
    {"pteam", omp_atv_pteam, omp_atk_access}, {"thread", omp_atv_thread, omp_atk_access},
    {"default_mem_fb", omp_atv_default_mem_fb, omp_atk_fallback}, {"null_fb", omp_atv_null_fb, omp_atk_fallback},
    {"abort_fb", omp_atv_abort_fb, omp_atk_fallback}, {"allocator_fb", omp_atv_allocator_fb, omp_atk_fallback},
    {"true", omp_atv_true, omp_atk_pinned}, {"false", omp_atv_false, omp_atk_pinned},
    {"environment", omp_atv_environment, omp_atk_partition}, {"nearest", omp_atv_nearest, omp_atk_partition},
    {"blocked", omp_atv_blocked, omp_atk_partition}, {"interleaved", omp_atv_interleaved, omp_atk_partition},
};

static struct {
    int state;                      /* -1 unset or bad, 0 a memory space with traits, else a predefined allocator */
    omp_memspace_handle_t memspace;
    omp_alloctrait_t traits[MAX_TRAITS];
    int ntraits;
} parsed = {-1};

static int named(const char *const *names, const char *text, size_t length) {
    int i;
    for (i = 0; names[i]; i++)
        if (strlen(names[i]) == length && strncmp(names[i], text, length) == 0) return i;
    return -1;
}

/* One `key=value`; NULL, or why it is not OpenMP's. */
static const char *take_trait(const char *text, size_t length, char *why, size_t why_size) {
    const char *equals = memchr(text, '=', length);
    const char *value = equals ? equals + 1 : 0;
    size_t value_length = equals ? length - (size_t)(value - text) : 0;
    int key = equals ? named(keys, text, (size_t)(equals - text)) + 1 : 0;
    omp_alloctrait_t *trait = &parsed.traits[parsed.ntraits];
    size_t i;
    if (!equals || !key) {
        snprintf(why, why_size, "'%.*s' is not a trait (sync_hint, alignment, access, pool_size, fallback, "
                 "fb_data, pinned or partition, then '=' and its value)", (int)(equals ? equals - text : (long)length),
                 text);
        return why;
    }
    if (parsed.ntraits == MAX_TRAITS) return "more than 16 traits";
    trait->key = (omp_alloctrait_key_t)key;
    if (key == omp_atk_alignment || key == omp_atk_pool_size) {
        char number[32], *end;
        unsigned long n;
        size_t copied = value_length < sizeof number ? value_length : sizeof number - 1;
        memcpy(number, value, copied);
        number[copied] = 0;
        n = strtoul(number, &end, 10);
        if (copied != value_length || number[0] < '0' || number[0] > '9' || *end || !n
            || (key == omp_atk_alignment && (n & (n - 1)))) {
            snprintf(why, why_size, "%s=%.*s: %s", keys[key - 1], (int)value_length, value,
                     key == omp_atk_alignment ? "an alignment is a power of two" : "a pool size is a positive number");
            return why;
        }
        trait->value = n;
    } else if (key == omp_atk_fb_data) {
        int allocator = named(allocators, value, value_length);
        if (allocator < 0) {
            snprintf(why, why_size, "fb_data=%.*s: not a predefined allocator", (int)value_length, value);
            return why;
        }
        trait->value = (omp_uintptr_t)(allocator + 1);
    } else {
        for (i = 0; i < sizeof values / sizeof values[0]; i++)
            if (values[i].key == key && strlen(values[i].name) == value_length
                && strncmp(values[i].name, value, value_length) == 0) break;
        if (i == sizeof values / sizeof values[0] && !(value_length == 7 && strncmp(value, "default", 7) == 0)) {
            snprintf(why, why_size, "%s cannot be '%.*s'", keys[key - 1], (int)value_length, value);
            return why;
        }
        trait->value = i < sizeof values / sizeof values[0] ? values[i].value : (omp_uintptr_t)omp_atv_default;
    }
    parsed.ntraits++;
    return 0;
}

/* NULL, or why the value is not OpenMP's */
static const char *parse(const char *text, char *why, size_t why_size) {
    const char *colon = strchr(text, ':'), *item;
    size_t head = colon ? (size_t)(colon - text) : strlen(text);
    int allocator = named(allocators, text, head), space = named(spaces, text, head), i;
    if (!colon && allocator >= 0) {
        parsed.state = allocator + 1;
        return 0;
    }
    if (space < 0) {
        snprintf(why, why_size, "'%.*s' is not a predefined allocator or memory space", (int)head, text);
        return why;
    }
    parsed.memspace = (omp_memspace_handle_t)space;
    for (item = colon ? colon + 1 : 0; item && *item;) {
        const char *comma = strchr(item, ',');
        size_t length = comma ? (size_t)(comma - item) : strlen(item);
        const char *bad = take_trait(item, length, why, why_size);
        if (bad) return bad;
        item = comma ? comma + 1 : 0;
    }
    for (i = 0; i < parsed.ntraits; i++)
        if (parsed.traits[i].key == omp_atk_fallback && parsed.traits[i].value == omp_atv_allocator_fb) {
            int j;
            for (j = 0; j < parsed.ntraits && parsed.traits[j].key != omp_atk_fb_data; j++) {}
            if (j == parsed.ntraits) return "fallback=allocator_fb needs fb_data=<a predefined allocator>";
        }
    parsed.state = 0;
    return 0;
}

/* The environment's OMP_ALLOCATOR entry while it is hidden from the host OpenMP runtime:
 * its slot holds a stand-in until read_environment gives it back. */
static char **hidden_slot, *hidden_entry;
static char stand_in[] = "OMP2GPU_HIDDEN_OMP_ALLOCATOR=1";

/* Before any shared library's initialiser, when the C library has not yet set `environ`
 * up: the entry is found in the array the process starts with, which becomes `environ`. */
static void hide_from_host_runtime(int argc, char **argv, char **envp) {
    static const char name[] = "OMP_ALLOCATOR=";
    (void)argc, (void)argv;
    for (; envp && *envp; envp++) {
        const char *value = *envp + sizeof name - 1;
        if (strncmp(*envp, name, sizeof name - 1) != 0) continue;
        if (named(allocators, value, strlen(value)) >= 0) return;       /* every runtime knows these */
        hidden_slot = envp;
        hidden_entry = *envp;
        *envp = stand_in;
        return;
    }
}
#ifndef OMP2GPU_SHARED_LIBRARY      /* an executable's: a shared library has no .preinit_array */
__attribute__((section(".preinit_array"), used)) static void (*const hide_at_start)(int, char **, char **) =
    hide_from_host_runtime;
#endif

__attribute__((constructor)) static void read_environment(void) {
    char why[256];
    const char *value, *bad;
    if (hidden_slot && *hidden_slot == stand_in) *hidden_slot = hidden_entry;
    value = getenv("OMP_ALLOCATOR");
    if (!value || !value[0]) return;
    bad = parse(value, why, sizeof why);
    if (bad) {
        parsed.state = -1;
        parsed.ntraits = 0;
        offload_report("warning", "OMP_ALLOCATOR='%s' is not OpenMP's (%s): omp_default_mem_alloc is used; the "
                       "forms are a predefined allocator (omp_high_bw_mem_alloc) or a memory space with traits "
                       "(omp_high_bw_mem_space:pinned=true,alignment=128)", value, bad);
    }
}

/* OMP_ALLOCATOR as read at start: a predefined allocator's handle (1..8); 0 with the memory
 * space and traits (at most 16) to make one from; -1 when unset or not OpenMP's. */
int __omp2gpu_env_allocator(omp_memspace_handle_t *memspace, omp_alloctrait_t *traits, int *ntraits) {
    if (parsed.state != 0) return parsed.state;
    *memspace = parsed.memspace;
    memcpy(traits, parsed.traits, (size_t)parsed.ntraits * sizeof *traits);
    *ntraits = parsed.ntraits;
    return 0;
}
