/* The CPU device's native launch path: __omp2gpu_target without Python.
 *
 * The launcher (omp2gpu/offload/runtime.py) does the first launch of every
 * kernel, with all the mapping logic; after that the Python side registers the
 * kernel here (cpu_fast_path.py) and keeps a copy of the device's present
 * table here, and a later launch whose map entries need no allocation and no
 * copy -- literals, device pointers, ranges already present without
 * `always`/`delete` (the reference count goes up and down again, and nothing is
 * copied, OpenMP 4.5 2.15.5) -- goes straight to the worker pool. Anything else
 * (a range not present, a copy to make, another device) takes the launcher's
 * own path, which gives the same results, only slower. OMP2GPU_OFFLOAD_LOG's
 * line per launch is written here too, in the launcher's format.
 * Bound to __omp2gpu_target in the JIT when the CPU device is present.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int (*omp2gpu_target_fn)(long device, const char *kernel, int count, void **bases,
                                 void **begins, long *sizes, long *types, int num_teams,
                                 int thread_limit, long trip_count, const char *where);
typedef void (*omp2gpu_set_device_fn)(int device);
typedef void (*omp2gpu_wg_fn)(void **args, long group, long num_groups, int threads);

void __omp2gpu_cpu_run(omp2gpu_wg_fn fn, void **args, long num_groups, int threads_per_group,
                       int policy, long chunk);

/* offload/abi.py's map-type bits */
#define ALWAYS 0x4
#define DELETE 0x8
#define TARGET_PARAM 0x20
#define RETURN_PARAM 0x40
#define LITERAL 0x100
#define IS_DEVICE_PTR 0x400
#define POINTER_LOOKUP 0x800

#define MAX_KERNELS 4096
#define MAX_ARGS 128

struct kernel {
    const char *seen;            /* the last name pointer a launch used for it */
    char *name;
    omp2gpu_wg_fn entry;
    int sequential;
    int block;
};

static struct kernel kernels[MAX_KERNELS];
static int kernel_count;
static omp2gpu_target_fn slow_target;
static omp2gpu_set_device_fn slow_set_device;
static int enabled;
static int cpu_device = -1;
static int default_device;
static int max_threads = 1;
static long max_groups = 1;
static int policy;
static long chunk;
static long launches;
static long mapping_count;
static long *mapping_begin;
static long *mapping_end;
static long *mapping_device;
static FILE *log_file;
/* The present table may change (the launcher, another host thread) while a launch reads it. */
static pthread_mutex_t mappings_lock = PTHREAD_MUTEX_INITIALIZER;

void __omp2gpu_cpu_fast_callbacks(omp2gpu_target_fn target, omp2gpu_set_device_fn set_device) {
    slow_target = target;
    slow_set_device = set_device;
}

/* OMP2GPU_OFFLOAD_LOG: appended to line by line, as the launcher does (NULL: none). */
void __omp2gpu_cpu_fast_log(const char *path) {
    if (log_file) fclose(log_file);
    log_file = path ? fopen(path, "a") : (FILE *)0;
}

void __omp2gpu_cpu_fast_reset(void) {
    int i;
    enabled = 0;
    for (i = 0; i < kernel_count; i++) free(kernels[i].name);
    kernel_count = 0;
    mapping_count = 0;
}

void __omp2gpu_cpu_fast_configure(int on, int device, int default_device_var, int threads_limit,
                                  long groups_limit, int schedule_policy, long schedule_chunk) {
    cpu_device = device;
    default_device = default_device_var;
    max_threads = threads_limit > 0 ? threads_limit : 1;
    max_groups = groups_limit > 0 ? groups_limit : 1;
    policy = schedule_policy;
    chunk = schedule_chunk;
    enabled = on;
}

void __omp2gpu_cpu_fast_kernel(const char *name, omp2gpu_wg_fn entry, int sequential, int block) {
    int i;
    for (i = 0; i < kernel_count; i++)
        if (strcmp(kernels[i].name, name) == 0) break;
    if (i == MAX_KERNELS) return;
    if (i == kernel_count) {
        kernels[i].name = (char *)malloc(strlen(name) + 1);
        if (!kernels[i].name) return;
        strcpy(kernels[i].name, name);
        kernels[i].seen = (const char *)0;
        kernel_count++;
    }
    kernels[i].entry = entry;
    kernels[i].sequential = sequential;
    kernels[i].block = block > 0 ? block : 1;
}

/* The present table, sorted by host address; the arrays belong to the Python side. */
void __omp2gpu_cpu_fast_mappings(long count, long *begins, long *ends, long *devices) {
    pthread_mutex_lock(&mappings_lock);
    mapping_begin = begins;
    mapping_end = ends;
    mapping_device = devices;
    mapping_count = count;
    pthread_mutex_unlock(&mappings_lock);
}

long __omp2gpu_cpu_fast_launches(void) { return launches; }

static struct kernel *find_kernel(const char *name) {
    int i;
    for (i = 0; i < kernel_count; i++)
        if (kernels[i].seen == name) return &kernels[i];
    for (i = 0; i < kernel_count; i++)
        if (strcmp(kernels[i].name, name) == 0) {
            kernels[i].seen = name;
            return &kernels[i];
        }
    return (struct kernel *)0;
}

/* The mapping holding [begin, begin + size) (size 0: holding begin, or ending there). */
static long find_mapping(long begin, long size) {
    long low = 0, high = mapping_count;
    while (low < high) {                 /* the first mapping starting after begin */
        long middle = (low + high) / 2;
        if (mapping_begin[middle] <= begin) low = middle + 1;
        else high = middle;
    }
    if (low == 0) return -1;
    low--;
    if (size > 0) return begin + size <= mapping_end[low] ? low : -1;
    return begin <= mapping_end[low] ? low : -1;
}

int __omp2gpu_cpu_target(long device, const char *name, int count, void **bases, void **begins,
                         long *sizes, long *types, int num_teams, int thread_limit, long trip_count,
                         const char *where) {
    void *args[MAX_ARGS];
    long slots[MAX_ARGS];
    struct kernel *kernel;
    long grid, block, i;
    if (!enabled || count > MAX_ARGS) goto slow;
    if ((device == -1 ? default_device : device) != cpu_device) goto slow;
    kernel = find_kernel(name);
    if (!kernel) goto slow;
    pthread_mutex_lock(&mappings_lock);
    for (i = 0; i < count; i++) {
        long type = types[i], found;
        if ((type & (ALWAYS | DELETE | RETURN_PARAM)) || !(type & TARGET_PARAM)) goto slow_locked;
        if (sizes[i] < 0) goto slow_locked;     /* the launcher reports the bad section */
        if (type & LITERAL) {
            args[i] = begins[i];         /* the parameter's bytes, read at the launch */
            continue;
        }
        if (type & IS_DEVICE_PTR) {
            slots[i] = (long)bases[i];
        } else {
            found = find_mapping((long)begins[i], (type & POINTER_LOOKUP) ? 0 : sizes[i]);
            if (found < 0) goto slow_locked;   /* to map now (or NULL): the launcher decides */
            slots[i] = mapping_device[found] + ((long)bases[i] - mapping_begin[found]);
        }
        args[i] = &slots[i];
    }
    pthread_mutex_unlock(&mappings_lock);
    if (kernel->sequential) {
        grid = 1;
        block = 1;
    } else {
        block = thread_limit > 0 ? thread_limit : kernel->block;
        if (block > max_threads) block = max_threads;
        if (block < 1) block = 1;
        if (num_teams > 0) {
            grid = num_teams;
        } else {
            grid = trip_count > 0 ? (trip_count + block - 1) / block : 0;
            if (grid > max_groups) grid = max_groups;
            if (grid < 1) grid = 1;
        }
    }
    __omp2gpu_cpu_run(kernel->entry, args, grid, (int)block, policy, chunk);
    launches++;
    if (log_file) {
        fprintf(log_file, "%s device='cpu' grid=%ld block=%ld\n", kernel->name, grid, block);
        fflush(log_file);
    }
    return 0;
slow_locked:
    pthread_mutex_unlock(&mappings_lock);
slow:
    return slow_target(device, name, count, bases, begins, sizes, types, num_teams, thread_limit,
                       trip_count, where);
}

void __omp2gpu_cpu_set_default_device(int device) {
    default_device = device;
    slow_set_device(device);
}
