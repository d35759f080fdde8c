/* The entry points compiled host code calls (omp2gpu/offload/abi.py lists them), each
 * under one recursive lock: map entries in, a device chosen (device_table.c), the map
 * clauses (present_table.c), the launch. A bad map is the program's error: the message
 * names the construct ("file:line:col") and the program ends with status 1; a device
 * that fails is given up and the region runs on the host (__omp2gpu_target returns
 * nonzero, and the compiled host code runs its fallback). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "offload.h"
#include "remote.h"      /* remote_peer_copy: server to server */

#define MAX_PARAMS 1024
#define ENTRIES_ON_STACK 64       /* a construct's map entries read without malloc */

static struct map_entry *read_entries(int count, void **bases, void **begins, const int64_t *sizes,
                                      const int64_t *types, struct map_entry *small) {
    struct map_entry *entries = count <= ENTRIES_ON_STACK ? small : malloc((size_t)count * sizeof *entries);
    int i;
    for (i = 0; i < count; i++) {
        entries[i].base = (uintptr_t)bases[i];
        entries[i].begin = (uintptr_t)begins[i];
        entries[i].size = (long)sizes[i];
        entries[i].type = types[i];
    }
    return entries;
}

/* A nonzero result of the present table: the program's map error ends the run; a device
 * failure gives the device up. Returns whether the device failed. */
static int settle(struct device *d, int result, const char *where, const char *consequence) {
    if (result == -2) {
        if (where && where[0]) offload_fatal("%s: %s", where, table_mapping_error);
        else offload_fatal("%s", table_mapping_error);
        return 1;
    }
    if (result) device_failed(d, consequence);
    return result != 0;
}

/* 0 when the construct's entries are good for device `d` (NULL: the host, where only the
 * caller's argument arrays bound them); else the error (fatal, or raised later) */
static int bad_entries(struct device *d, int count, void **bases, void **begins, const int64_t *sizes,
                       const int64_t *types, const char *where) {
    const char *bad = d ? check_entries(count, bases, begins, sizes, types, where, table_holds_section, d)
                        : check_argument_entries(count, bases, begins, sizes, types, where);
    if (bad) offload_fatal("%s", bad);
    return bad != 0;
}

/* unified_shared_memory on a GPU of USM_MANAGED: the calling thread's stack in use, from
 * here up, registered, so that a region reaches stack objects through any pointer */
static int register_stack(struct device *d) {
    uintptr_t low, high, alias;
    if (thread_stack((uintptr_t)&alias, &low, &high)) return 0;   /* unknown: mapped objects only */
    return d->ops->host_alias(d, low, (long)(high - low), &alias);
}

static int target(int64_t device, const char *kernel_name, int32_t count, void **bases, void **begins,
                  int64_t *sizes, int64_t *types, int32_t num_teams, int32_t thread_limit,
                  int64_t trip_count, const char *where);

/* A kernel that failed after it started, with host memory used in place, may have written
 * some of it: the host must not run the region again. */
static int kernel_outcome(struct device *d, int launched, const char *where) {
    if (launched == LAUNCH_RAN_AND_FAILED && d->table.in_place)
        offload_fatal("%s: the region's kernel failed on device %d (%s); with host memory used in place "
                      "(unified_shared_memory) it may have written some of it, so the host does not run "
                      "the region again", where, d->number, d->last_error);
    return launched;
}

/* A declare mapper's MAP_MAPPER entries are made into the entries they stand for
 * (mappers.c) before anything else: the construct then runs on the expanded arrays. */
int __omp2gpu_target(int64_t device, const char *kernel_name, int32_t count, void **bases, void **begins,
                     int64_t *sizes, int64_t *types, int32_t num_teams, int32_t thread_limit,
                     int64_t trip_count, const char *where) {
    struct entry_list list;
    int result;
    if (!expand_mappers(count, bases, begins, sizes, types, &list))
        return target(device, kernel_name, count, bases, begins, sizes, types, num_teams, thread_limit,
                      trip_count, where);
    result = target(device, kernel_name, list.count, list.bases, list.begins, list.sizes, list.types, num_teams,
                    thread_limit, trip_count, where);
    entry_list_free(&list);
    return result;
}

static int target(int64_t device, const char *kernel_name, int32_t count, void **bases, void **begins,
                  int64_t *sizes, int64_t *types, int32_t num_teams, int32_t thread_limit,
                  int64_t trip_count, const char *where) {
    static const char *fallback = "running the region on the host";
    struct map_entry small[ENTRIES_ON_STACK], *entries = 0;
    const struct kernel_desc *kernel;
    struct device *d;
    uintptr_t slots[MAX_PARAMS + 1], translated[ENTRIES_ON_STACK];
    const uintptr_t *remembered = 0;      /* the table's answers for these entries (launch_memo.c) */
    void *args[MAX_PARAMS + 1];
    int image, i, params = 0, failed, all_present = 0, stream = 0, present_known = 0;
    long grid, block, fused_grid, fused_block;
    offload_lock();
    requirements_check_construct(where);
    d = select_device(device);
    if (d && d->usable && count <= ENTRIES_ON_STACK) {
        entries = read_entries(count, bases, begins, sizes, types, small);
        remembered = launch_memo_find(d, kernel_name, entries, count);
    }
    if (!remembered) {
        if (bad_entries(d, count, bases, begins, sizes, types, where) || !d) {
            offload_unlock();
            return !offload_error_pending();      /* an error kept for the caller: not on the host either */
        }
        if (d->usm == USM_MANAGED) settle(d, register_stack(d), where, fallback);   /* its objects reachable */
        if (!d->usable) {
            offload_unlock();
            return 1;
        }
        if (!entries) entries = read_entries(count, bases, begins, sizes, types, small);
    }
    failed = settle(d, images_activate(d), where, fallback);
    kernel = failed ? 0 : images_kernel(kernel_name, &image);
    if (!failed && !kernel) {
        device_error(d, "no device code for kernel '%s'", kernel_name);
        failed = settle(d, -1, where, fallback);
    }
    if (!failed && (task_event_offered() || auto_async_enabled())) {     /* may the kernel be left running */
        all_present = remembered ? 1 : table_all_present(d, entries, count);
        present_known = 1;
    }
    if (!failed && !remembered) failed = settle(d, table_begin(d, entries, count, where), where, fallback);
    for (i = 0; i < count && !failed; i++) {
        if (i < ENTRIES_ON_STACK) translated[i] = 0;
        if (!(entries[i].type & MAP_TARGET_PARAM)) continue;
        if (params >= MAX_PARAMS) break;
        if (entries[i].type & MAP_LITERAL) {
            args[params] = entries[i].size ? begins[i] : (void *)&slots[params];
        } else {
            int as_is = (entries[i].type & MAP_IS_DEVICE_PTR)        /* or a predefined allocator */
                        || ((entries[i].type & MAP_ALLOCATOR) && entries[i].size == 0);
            slots[params] = as_is ? entries[i].base : remembered ? remembered[i] : table_translate(d, &entries[i]);
            if (i < ENTRIES_ON_STACK) translated[i] = slots[params];
            args[params] = &slots[params];
        }
        params++;
    }
    if (!failed && params != (int)strlen(kernel->params)) {
        device_error(d, "kernel %s takes %d parameters but the host passed %d", kernel_name,
                     (int)strlen(kernel->params), params);
        failed = settle(d, -1, where, fallback);
    }
    if (!failed) {
        int gpu = strcmp(d->ops->kind, "gpu") == 0;
        struct launch_info info = launch_info_for(kernel, !gpu);
        launch_configuration(info, d->max_threads_per_block, d->multiprocessors, num_teams, thread_limit,
                             trip_count, &grid, &block);
        fused_grid = grid;
        fused_block = block;
        if (info.spreads) {     /* fused, other kernels' blocks fill the device: no spread blocks */
            info.spreads = 0;
            launch_configuration(info, d->max_threads_per_block, d->multiprocessors, num_teams, thread_limit,
                                 trip_count, &fused_grid, &fused_block);
        }
        if (gpu && kernel->team_stack_bytes >= 0) {
            long bytes = grid * kernel->team_stack_bytes;       /* the control loop's team stacks */
            if (bytes > d->team_stack_bytes) {
                if (d->team_stack) d->ops->release(d, d->team_stack);
                d->team_stack = 0;
                d->team_stack_bytes = 0;
                if (d->ops->allocate(d, bytes, &d->team_stack)) failed = settle(d, -1, where, fallback);
                else d->team_stack_bytes = bytes;
            }
            slots[params] = bytes ? d->team_stack : 0;
            args[params] = &slots[params];
            params++;
        }
    }
    if (!failed) {
        double micros = 0, start = profile_active() ? profile_now() : 0;
        struct launch_shape shape = {grid, block, fused_grid, fused_block};
        int launched = task_launch(d, d->modules[image], kernel, &shape, args, params,
                                   profile_active() ? &micros : 0, all_present, &stream);
        failed = settle(d, kernel_outcome(d, launched, where), where, fallback);
        if (!failed && profile_active()) {
            int registers = -1, shared_bytes = -1;
            if (d->ops->kernel_resources)
                d->ops->kernel_resources(d, d->modules[image], kernel, grid, block, &registers, &shared_bytes);
            profile_launch(d, kernel_name, grid, block, start, micros, registers, shared_bytes);
        }
    }
    if (!failed) {
        record_launch(d, kernel_name, grid, block, kernel->cpu_scheme, stream);
        table_kernel_ran(d);
        if (!remembered) {
            failed = settle(d, table_end(d, entries, count, where), where, fallback);
            if (!failed && count <= ENTRIES_ON_STACK)
                launch_memo_keep(d, kernel_name, entries, count, translated, present_known ? all_present : -1);
        }
    }
    if (!failed && d->ops->finish_launch)         /* no copy back waited for the kernel */
        failed = settle(d, kernel_outcome(d, d->ops->finish_launch(d), where), where, fallback);
    if (entries != small) free(entries);
    offload_unlock();
    return failed && !offload_error_pending();
}

typedef int (*data_operation)(struct device *, const struct map_entry *, int, const char *);

static void data_on(int64_t device, int32_t count, void **bases, void **begins, int64_t *sizes, int64_t *types,
                    const char *where, data_operation operation, int returns_pointers);
/* After an error kept for the caller (the Python API raises it when the call returns), no
 * construct maps anything more, but a data construct's end still releases what its begin
 * mapped before the error, so that the present table keeps nothing of the failed call: the
 * device for such an end, or NULL for an end whose begin came after the error (counted). */
static int skipped_begins;

static struct device *device_after_error(int64_t device, data_operation operation) {
    struct device *d;
    if (operation != table_end) {
        if (operation == table_begin) skipped_begins++;
        return 0;
    }
    if (skipped_begins > 0) {
        skipped_begins--;
        return 0;
    }
    d = device_at(device == -1 ? device_current_default() : (int)device);
    return d && d->usable ? d : 0;
}

static void data(int64_t device, int32_t count, void **bases, void **begins, int64_t *sizes, int64_t *types,
                 const char *where, data_operation operation, int returns_pointers) {
    struct entry_list list;
    if (!expand_mappers(count, bases, begins, sizes, types, &list)) {
        data_on(device, count, bases, begins, sizes, types, where, operation, returns_pointers);
        return;
    }
    data_on(device, list.count, list.bases, list.begins, list.sizes, list.types, where, operation, returns_pointers);
    memcpy(bases, list.bases, (size_t)count * sizeof *bases);        /* use_device_ptr's device addresses */
    entry_list_free(&list);
}

static void data_on(int64_t device, int32_t count, void **bases, void **begins, int64_t *sizes, int64_t *types,
                    const char *where, data_operation operation, int returns_pointers) {
    static const char *consequence = "running target regions on the host from now on";
    struct map_entry small[ENTRIES_ON_STACK], *entries;
    struct device *d;
    offload_lock();
    requirements_check_construct(where);
    if (offload_error_pending()) {
        d = device_after_error(device, operation);
    } else {
        skipped_begins = 0;
        d = select_device(device);
    }
    if (!bad_entries(d, count, bases, begins, sizes, types, where) && d) {
        entries = read_entries(count, bases, begins, sizes, types, small);
        if (!settle(d, images_activate(d), where, consequence)
            && !settle(d, operation(d, entries, count, where), where, consequence) && returns_pointers)
            table_return_device_pointers(d, entries, count, bases);
        if (entries != small) free(entries);
    }
    if (operation == table_begin && offload_error_pending() && !skipped_begins)
        skipped_begins = 1;          /* this begin failed: its end releases nothing */
    offload_unlock();
}

void __omp2gpu_target_data_begin(int64_t device, int32_t count, void **bases, void **begins, int64_t *sizes,
                                 int64_t *types, const char *where) {
    data(device, count, bases, begins, sizes, types, where, table_begin, 1);
}

void __omp2gpu_target_data_end(int64_t device, int32_t count, void **bases, void **begins, int64_t *sizes,
                               int64_t *types, const char *where) {
    data(device, count, bases, begins, sizes, types, where, table_end, 0);
}

void __omp2gpu_target_data_update(int64_t device, int32_t count, void **bases, void **begins, int64_t *sizes,
                                  int64_t *types, const char *where) {
    data(device, count, bases, begins, sizes, types, where, table_update, 0);
}

/* Around a target region the compiler could not build for the device, which the host
 * runs instead (omp2gpu/offload/abi.py's ENTRY_HOST_REGION_*): the region reads and
 * leaves the device data environment's values. Quietly nothing without a usable device
 * (the region runs on the host anyway, MANDATORY or not) or with nothing mapped. */
static void host_region(int64_t device, const char *where, int begin) {
    struct device *d;
    offload_lock();
    d = offload_error_pending() ? 0 : device_at(device == -1 ? device_current_default() : (int)device);
    if (d && d->usable && d->table.count)
        settle(d, begin ? table_host_region_begin(d) : table_host_region_end(d), where,
               "running target regions on the host from now on");
    offload_unlock();
}

void __omp2gpu_host_region_begin(int64_t device, const char *where) { host_region(device, where, 1); }

void __omp2gpu_host_region_end(int64_t device, const char *where) { host_region(device, where, 0); }

/* `#pragma omp requires` of a file (sema/requires.py), from its constructor */
void __omp2gpu_requires(int64_t flags, const char *where) {
    offload_lock();
    requirements_register((long)flags, where);
    devices_apply_requirements();
    offload_unlock();
}

/* declare target globals: present for the whole run on every device that loads a module
 * defining them (bound now on devices already in use, else at their first use) */
static void register_global(void *host, const char *name, int64_t size, int link) {
    int n, i;
    offload_lock();
    images_add_global((uintptr_t)host, name, (long)size, link);
    n = device_count();
    for (i = 0; i < n; i++) {
        struct device *d = device_at(i);
        if (d->usable && d->module_count)
            settle(d, images_bind_globals(d), "", "running target regions on the host from now on");
    }
    offload_unlock();
}

void __omp2gpu_register_global(void *host, const char *name, int64_t size) {
    register_global(host, name, size, 0);
}

void __omp2gpu_register_link_global(void *host, const char *name, int64_t size) {
    register_global(host, name, size, 1);
}

int __omp2gpu_num_devices(void) {
    int n;
    offload_lock();
    n = device_count();
    offload_unlock();
    return n;
}

void __omp2gpu_set_default_device(int device) {
    offload_lock();
    device_set_default(device);
    offload_unlock();
}

/* ---------------------------------------------------------------- omp_target_* (4.5 3.5) */
/* a usable device named explicitly; NULL for the host, an unusable or unknown one */
struct device *memory_device(int device) {
    struct device *d;
    if (offload_policy() == POLICY_DISABLED) return 0;
    d = device_at(device);
    return d && d->usable ? d : 0;
}

void *__omp2gpu_target_alloc(size_t size, int device) {
    struct device *d;
    uintptr_t address = 0;
    offload_lock();
    d = memory_device(device);
    /* under unified_shared_memory the host reads and writes it too (OpenMP 5.0 2.5.1):
     * a GPU's managed memory (device memory is not host-accessible, with HMM neither) */
    if (d && size > 0 && (d->usm != USM_OFF && d->ops->allocate_managed
                              ? d->ops->allocate_managed(d, (long)size, &address)
                              : d->ops->allocate(d, (long)size, &address)))
        address = 0;
    offload_unlock();
    return (void *)address;
}

void __omp2gpu_target_free(void *pointer, int device) {
    struct device *d;
    offload_lock();
    d = memory_device(device);
    if (d && pointer) d->ops->release(d, (uintptr_t)pointer);  /* not an allocation: undefined, ignored */
    offload_unlock();
}

int __omp2gpu_target_is_present(void *pointer, int device) {
    struct device *d;
    int present;
    offload_lock();
    if (device == device_count()) present = 1;           /* the initial device holds everything */
    else {
        d = memory_device(device);
        present = d && images_activate(d) == 0 && table_is_present(d, (uintptr_t)pointer);
    }
    offload_unlock();
    return present;
}

int __omp2gpu_target_memcpy(void *dst, void *src, size_t length, size_t dst_offset, size_t src_offset,
                            int dst_device, int src_device) {
    struct device *to, *from;
    int host, result = 0, peer;
    uintptr_t target, source;
    offload_lock();
    host = device_count();
    to = dst_device == host ? 0 : memory_device(dst_device);
    from = src_device == host ? 0 : memory_device(src_device);
    if ((dst_device != host && !to) || (src_device != host && !from)) result = -1;
    else if (length > 0) {
        target = (uintptr_t)dst + dst_offset;
        source = (uintptr_t)src + src_offset;
        if (!to && !from) memmove((void *)target, (void *)source, length);
        else if (!from) result = to->ops->to_device(to, target, (void *)source, (long)length);
        else if (!to) result = from->ops->to_host(from, (void *)target, source, (long)length);
        else if (to == from) result = to->ops->device_to_device(to, target, source, (long)length);
        else if ((peer = remote_peer_copy(to, target, from, source, (long)length)) != 1) result = peer;
        else {                                  /* two devices: through a host buffer */
            void *staging = malloc(length);
            result = !staging || from->ops->to_host(from, staging, source, (long)length)
                     || to->ops->to_device(to, target, staging, (long)length);
            free(staging);
        }
        if (result) result = -1;
    }
    offload_unlock();
    return result;
}

/* `name` into buffer, cut to `size`; its whole length */
static int give_name(const char *name, char *buffer, size_t size) {
    size_t length = strlen(name), kept;
    if (buffer && size > 0) {
        kept = length < size - 1 ? length : size - 1;
        memcpy(buffer, name, kept);
        buffer[kept] = 0;
    }
    return (int)length;
}

int __omp2gpu_device_name(int device, char *buffer, size_t size) {
    char name[300];
    struct device *d;
    offload_lock();
    d = device_at(device);
    if (!d) {
        offload_unlock();
        return -1;
    }
    d->ops->label(d, name, sizeof name);
    offload_unlock();
    return give_name(name, buffer, size);
}

/* Where target regions run now, for the Python API's omp2gpu.target_device(): the default
 * device's name ("cpu", the GPU's), or with `described` its label ("CPU device (16
 * workers)", "GPU 0 (...)"), cut to `size`; its length, or -1 when they run on the host
 * (offloading disabled, no such device, or it is not usable). */
int __omp2gpu_default_device_name(int described, char *buffer, size_t size) {
    char name[300];
    struct device *d;
    offload_lock();
    d = offload_policy() == POLICY_DISABLED ? 0 : device_at(device_current_default());
    if (!d || !d->usable) {
        offload_unlock();
        return -1;
    }
    if (described) d->ops->label(d, name, sizeof name);
    else snprintf(name, sizeof name, "%s", d->name);
    offload_unlock();
    return give_name(name, buffer, size);
}

/* The device whose memory holds `address`, for MPI staging (runtime/mpi/device_buffers.c
 * asks before an MPI that cannot read device memory is given a buffer): its number, or -1
 * for memory no device holds; *host_readable: whether host code reads it in place (the CPU
 * device's memory is the host's). Devices are not looked for here: their memory was given
 * out after they were found, and a program that never offloads starts no GPU at its first
 * MPI call. */
int __omp2gpu_device_memory(const void *address, int *host_readable) {
    int i, n, found = -1;
    offload_lock();
    n = devices_found();
    for (i = 0; i < n && found < 0; i++) {
        struct device *d = device_at(i);
        if (d->usable && d->ops->holds(d, (uintptr_t)address)) {
            found = i;
            *host_readable = strcmp(d->ops->kind, "cpu") == 0;
        }
    }
    offload_unlock();
    return found;
}

/* What a device is, for a metadirective's target_device selector decided at run time:
 * DEVICE_CODE_CPU or DEVICE_CODE_GPU (offload/abi.py), -1 for no such device. */
int __omp2gpu_device_kind(int device) {
    struct device *d;
    int kind;
    offload_lock();
    d = device_at(device);
    kind = !d ? -1 : strcmp(d->ops->kind, "cpu") == 0 ? DEVICE_CODE_CPU : DEVICE_CODE_GPU;
    offload_unlock();
    return kind;
}
