/* The native launch path's device-independent half (see native_launch.h).
 *
 * The launcher (omp2gpu/offload/runtime.py) makes the first launch of every
 * kernel, with all the mapping logic; the Python side then registers the kernel
 * here and keeps a mirror of the device's present table here (updated on every
 * change, under the lock below). A later launch whose map entries are literals,
 * device pointers, pointer lookups, ranges already present without
 * `always`/`delete` (the reference count would go up and down again and nothing
 * be copied, OpenMP 4.5 2.15.5), or transient ranges (present nowhere, not
 * overlapping anything mapped: mapped for this launch alone) is planned here
 * and made by the device's half; device memory lent for a Python call (loans.c)
 * is present too. Anything else takes the launcher's own path,
 * which gives the same results, only slower.
 *
 * The lock (native_lock.c): one recursive mutex that the Python launcher also
 * holds for each of its calls (omp2gpu/offload/launcher_lock.py), so a native
 * launch never sees a present table being changed, and a range is never freed
 * under it. The mirrored table itself and its lookups are present_mirror.c's, which
 * loans.c and pinned_ranges.c read too: this file calls them, they never call it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "native_launch.h"

static struct native_kernel kernels[MAX_KERNELS];
static int kernel_count;
static omp2gpu_target_fn slow_target;
static omp2gpu_set_device_fn slow_set_device;
static omp2gpu_data_fn slow_update;
static omp2gpu_failed_fn report_failure;
static int enabled;
static int this_device = -1;
static int default_device;
static long max_block = 1;
static long max_grid = 1;
static int transients_allowed;
static int unified;
static long launches;
static long updates;
static FILE *log_file;
static char log_device[256];

/* Once, when the module is loaded: the lock (native_lock.c), the task events. */
void __omp2gpu_native_start(void) {
    native_lock_start();
    native_task_events_start();
}

/* Before the first native launch: the launcher's entry points to fall back on. */
void __omp2gpu_native_init(omp2gpu_target_fn target, omp2gpu_set_device_fn set_device,
                           omp2gpu_failed_fn failed, omp2gpu_data_fn update) {
    slow_target = target;
    slow_update = update;
    slow_set_device = set_device;
    report_failure = failed;
}

/* OMP2GPU_OFFLOAD_LOG: appended to line by line, as the launcher does (NULL: none);
 * `device` is the device's name as the launcher writes it ('cpu'). */
void __omp2gpu_native_log(const char *path, const char *device) {
    native_lock();
    if (log_file) fclose(log_file);
    log_file = path ? fopen(path, "a") : (FILE *)0;
    snprintf(log_device, sizeof log_device, "%s", device ? device : "");
    native_unlock();
}

void __omp2gpu_native_reset(void) {
    int i;
    native_lock();
    enabled = 0;
    for (i = 0; i < kernel_count; i++) free(kernels[i].name);
    kernel_count = 0;
    mirror_set(0, (long *)0, (long *)0, (long *)0, (char *)0);
    native_forget_loans();
    native_unlock();
}

/* on: launches may go native; device: the device number served here; the launch-shape
 * limits; transients: whether unmapped ranges may be mapped for one launch here (not
 * while copies are logged, or where declare target link storage exists); zero_copy:
 * the device uses host memory as it is (the CPU device's OMP2GPU_CPU_UNIFIED). */
void __omp2gpu_native_configure(int on, int device, int default_device_var, long block_limit,
                                long grid_limit, int transients, int zero_copy) {
    native_lock();
    this_device = device;
    default_device = default_device_var;
    max_block = block_limit > 0 ? block_limit : 1;
    max_grid = grid_limit > 0 ? grid_limit : 1;
    transients_allowed = transients;
    unified = zero_copy;
    enabled = on;
    native_unlock();
}

/* params: one letter per parameter, 'p' (pointer) or 'b' (a literal's bytes). */
/* `params`: one letter a parameter, b a literal's bytes, p a pointer, r a pointer the
 * kernel only reads; `args_only`: it writes only through its pointer parameters. */
void __omp2gpu_native_kernel(const char *name, void *handle, const char *params, long default_block,
                             long block_cap, int sequential, long team_stack_bytes, int args_only,
                             int one_team) {
    int i, n = (int)strlen(params);
    if (n > MAX_ARGS) return;
    native_lock();
    for (i = 0; i < kernel_count; i++)
        if (strcmp(kernels[i].name, name) == 0) break;
    if (i == kernel_count && i < MAX_KERNELS) {
        kernels[i].name = (char *)malloc(strlen(name) + 1);
        if (kernels[i].name) {
            strcpy(kernels[i].name, name);
            kernels[i].seen = (const char *)0;
            kernel_count++;
        }
    }
    if (i < kernel_count) {
        kernels[i].handle = handle;
        kernels[i].param_count = n;
        for (n = 0; n < kernels[i].param_count; n++) {
            kernels[i].by_value[n] = params[n] == 'b';
            kernels[i].read_only[n] = params[n] == 'r';
        }
        kernels[i].args_only = args_only;
        kernels[i].default_block = default_block > 0 ? default_block : 1;
        kernels[i].block_cap = block_cap;
        kernels[i].sequential = sequential;
        kernels[i].one_team = one_team;
        kernels[i].team_stack_bytes = team_stack_bytes;
    }
    native_unlock();
}

/* The present table, sorted by host address; the arrays belong to the Python side
 * (present_mirror.c keeps them); pages locked for ranges no longer mapped are let go. */
void __omp2gpu_native_mappings(long count, long *begins, long *ends, long *devices, char *plain) {
    native_lock();
    mirror_set(count, begins, ends, devices, plain);
    pinned_forget_unmapped();
    native_unlock();
}

long __omp2gpu_native_launches(void) { return launches; }
long __omp2gpu_native_updates(void) { return updates; }

void __omp2gpu_native_set_default_device(int device) {
    default_device = device;
    slow_set_device(device);
}

static int native_wants(long device) {
    return enabled && (device == -1 ? default_device : device) == this_device;
}

int native_unified(void) { return unified; }

static struct native_kernel *native_find_kernel(const char *name) {
    int i;
    for (i = 0; i < kernel_count; i++)
        if (kernels[i].seen == name) return &kernels[i];
    for (i = 0; i < kernel_count; i++)
        if (strcmp(kernels[i].name, name) == 0) {
            kernels[i].seen = name;
            return &kernels[i];
        }
    return (struct native_kernel *)0;
}

/* Whether [begin, begin + size) is present, in a mapping or a loan (loans.c), and then
 * its device address less its host address; of two holding a pointer (one ending where
 * the other begins), the later, as the launcher's lookup. */
static int find_present(long begin, long size, long *device_offset) {
    long found = mirror_find(begin, size), loan_start;
    if (native_lent(begin, size, &loan_start) && (found < 0 || loan_start > mirror_begin(found))) {
        *device_offset = 0;              /* lent device memory: its own address */
        return 1;
    }
    if (found < 0) return 0;
    *device_offset = mirror_device_offset(found);
    return 1;
}

static int touches_transient(struct launch_plan *plan, long begin, long size) {
    int t;
    for (t = 0; t < plan->transient_count; t++) {
        struct transient *other = &plan->transients[t];
        if (other->host < begin + size && begin < other->host + other->size) return 1;
    }
    return 0;
}

/* The launcher's launch_configuration (offload/policy.py), then the device's cap. */
static void launch_shape(struct native_kernel *kernel, int num_teams, int thread_limit,
                         long trip_count, struct launch_plan *plan) {
    long block = thread_limit > 0 ? thread_limit : kernel->default_block;
    long grid;
    if (block > max_block) block = max_block;
    if (block < 1) block = 1;
    if (num_teams > 0) {
        grid = num_teams;
    } else {
        grid = trip_count > 0 ? (trip_count + block - 1) / block : 0;
        if (grid > max_grid) grid = max_grid;
        if (grid < 1) grid = 1;
    }
    if (kernel->one_team) grid = 1;
    if (kernel->sequential) grid = block = 1;
    if (kernel->block_cap > 0 && block > kernel->block_cap) block = kernel->block_cap;
    plan->grid = grid;
    plan->block = block;
}

/* One map entry of a launch; 0 when it can be served here. */
static int plan_entry(struct launch_plan *plan, int *param, void *base, void *begin_pointer, long size,
                      long type) {
    struct native_kernel *kernel = plan->kernel;
    long begin = (long)begin_pointer, device_offset = 0, *slot = (long *)0;
    int index = -1, present;
    if ((type & (MAP_ALWAYS | MAP_DELETE | MAP_RETURN_PARAM | MAP_ATTACH)) || (type >> MAP_MEMBER_OF_SHIFT))
        return -1;
    if (size < 0) return -1;                 /* the launcher reports the bad section */
    if (type & MAP_TARGET_PARAM) {
        index = (*param)++;
        if (index >= kernel->param_count || kernel->by_value[index] != ((type & MAP_LITERAL) != 0))
            return -1;                       /* the launcher names the mismatch */
        if (type & MAP_LITERAL) {
            plan->args[index] = begin_pointer;   /* the bytes, read at the launch */
            return 0;
        }
        slot = &plan->slots[index];
        plan->args[index] = slot;
    }
    if (type & MAP_LITERAL) return 0;
    if (type & MAP_IS_DEVICE_PTR) {
        if (slot) *slot = (long)base;
        return 0;
    }
    present = find_present(begin, (type & MAP_POINTER_LOOKUP) ? 0 : size, &device_offset);
    if (present || (type & MAP_POINTER_LOOKUP) || size == 0) {   /* present, or NULL */
        if (slot) *slot = present ? (long)base + device_offset : 0;
        return 0;
    }
    if (!transients_allowed || plan->transient_count == MAX_TRANSIENTS || native_touches_mapping(begin, size)
            || native_touches_loan(begin, size) || touches_transient(plan, begin, size))
        return -1;
    plan->transients[plan->transient_count].host = begin;
    plan->transients[plan->transient_count].size = size;
    plan->transients[plan->transient_count].type = type;
    plan->transients[plan->transient_count].device = 0;
    plan->transients[plan->transient_count].param = index;
    plan->transients[plan->transient_count].base_offset = (long)base - begin;
    plan->transient_count++;
    return 0;
}

/* The launch's parameters and shape, with the lock held; 0 when it can be made here
 * (the transients still to be given device memory: native_place_transient). */
static int native_plan(struct native_kernel *kernel, int count, void **bases, void **begins, long *sizes,
                       long *types, int num_teams, int thread_limit, long trip_count,
                       struct launch_plan *plan) {
    int i, param = 0;
    plan->kernel = kernel;
    plan->transient_count = 0;
    if (count > MAX_ARGS) return -1;
    for (i = 0; i < count; i++)
        if (plan_entry(plan, &param, bases[i], begins[i], sizes[i], types[i]) != 0) return -1;
    if (param != kernel->param_count) return -1;
    plan->param_count = param;
    launch_shape(kernel, num_teams, thread_limit, trip_count, plan);
    return 0;
}

void native_place_transient(struct launch_plan *plan, int index, long device_address) {
    struct transient *transient = &plan->transients[index];
    transient->device = device_address;
    if (transient->param >= 0) plan->slots[transient->param] = device_address + transient->base_offset;
}

/* The start of a native launch: the planned launch of a registered kernel, with the
 * lock held (0), or -1 with the lock free: the launcher's path (native_slow). */
int native_begin(long device, const char *name, int count, void **bases, void **begins, long *sizes,
                 long *types, int num_teams, int thread_limit, long trip_count, struct launch_plan *plan) {
    struct native_kernel *kernel;
    if (!native_wants(device)) return -1;
    native_lock();
    kernel = native_find_kernel(name);
    if (kernel && native_plan(kernel, count, bases, begins, sizes, types, num_teams, thread_limit,
                              trip_count, plan) == 0)
        return 0;
    native_unlock();
    return -1;
}

/* Automatic concurrency left `kernel` running beside `other` (docs/async.md). */
void native_log_overlap(const char *kernel, const char *other) {
    if (!log_file) return;
    fprintf(log_file, "%s device=%s overlaps %s\n", kernel, log_device, other);
    fflush(log_file);
}

/* The end of a native launch made: counted (the Python side marks its mappings as
 * written by a kernel), logged, the lock let go; 0, what __omp2gpu_target returns. */
int native_done(struct launch_plan *plan) {
    launches++;
    if (log_file) {
        fprintf(log_file, "%s device=%s grid=%ld block=%ld\n", plan->kernel->name, log_device, plan->grid,
                plan->block);
        fflush(log_file);
    }
    native_unlock();
    return 0;
}

int native_slow(long device, const char *kernel, int count, void **bases, void **begins, long *sizes,
                long *types, int num_teams, int thread_limit, long trip_count, const char *where) {
    return slow_target(device, kernel, count, bases, begins, sizes, types, num_teams, thread_limit,
                       trip_count, where);
}

/* A device error during a native launch, with the lock held: no more native launches;
 * the launcher gives the device up (its data copied back) and the caller runs the region
 * on the host (returns 1). */
int native_fail(const char *reason) {
    long device = this_device;
    enabled = 0;
    native_unlock();
    report_failure(device, reason);
    return 1;
}

/* A `target update`'s copies, with the lock held (0), or -1 with the lock free: the
 * launcher's path. Each motion item wholly inside a present mapping is copied; one
 * present nowhere is skipped (OpenMP 4.5 2.10.5); anything else (a negative length, a
 * range partly mapped, lent device memory, attached pointers inside, copies being
 * logged) is the launcher's to do or to report. */
static int update_plan(long device, int count, void **begins, long *sizes, long *types,
                       struct update_copy *copies, int *copy_count) {
    int i, n = 0;
    if (!native_wants(device) || count > MAX_ARGS) return -1;
    native_lock();
    if (!transients_allowed) goto slow;      /* copies logged one by one, link storage */
    for (i = 0; i < count; i++) {
        long begin = (long)begins[i], size = sizes[i], found;
        if (types[i] & ~(long)(MAP_TO | MAP_FROM) || size < 0) goto slow;
        if (size == 0 || !(types[i] & (MAP_TO | MAP_FROM))) continue;
        found = mirror_find(begin, size);
        if (found < 0) {
            if (native_touches_mapping(begin, size)) goto slow;
            continue;                        /* absent, or lent device memory: nothing to copy */
        }
        if (!mirror_plain(found)) goto slow;
        copies[n].host = begin;
        copies[n].device = begin + mirror_device_offset(found);
        copies[n].size = size;
        copies[n].to_device = (types[i] & MAP_TO) != 0;
        n++;
    }
    *copy_count = n;
    updates++;
    return 0;
slow:
    native_unlock();
    return -1;
}

/* A device half's __omp2gpu_target_data_update: its `copy` makes each copy (nonzero: it
 * failed, and native_fail let the lock go). */
void native_update(long device, int count, void **bases, void **begins, long *sizes, long *types,
                   const char *where, native_copy_fn copy) {
    struct update_copy copies[MAX_ARGS];
    int n, c;
    if (update_plan(device, count, begins, sizes, types, copies, &n) != 0) {
        slow_update(device, count, bases, begins, sizes, types, where);
        return;
    }
    for (c = 0; c < n; c++)
        if (copy(&copies[c])) return;
    native_unlock();
}

/* For tests: the launch shape a registered kernel gets; 0 when it is registered. */
int __omp2gpu_native_shape(const char *name, int num_teams, int thread_limit, long trip_count,
                           long *shape) {
    struct launch_plan plan;
    struct native_kernel *kernel;
    native_lock();
    kernel = native_find_kernel(name);
    if (kernel) {
        launch_shape(kernel, num_teams, thread_limit, trip_count, &plan);
        shape[0] = plan.grid;
        shape[1] = plan.block;
    }
    native_unlock();
    return kernel ? 0 : -1;
}
