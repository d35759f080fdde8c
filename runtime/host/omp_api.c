/* The OpenMP API on the initial device (the host), OpenMP 4.5 section 3.
 *
 * Target regions that run on the host are executed by one team of one thread
 * (OpenMP allows this), so the thread-related ICVs are simple; the host scheme
 * calls the __omp2gpu_host_* entry points around parallel and teams regions so
 * that omp_get_level and the team queries answer correctly.
 * Compiled by omp2gpu itself and linked into every host module.
 */
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static int nesting_level;         /* parallel regions entered, active or not */
static int in_teams;              /* inside a teams region */
static int default_device = -1;   /* default-device-var; -1: not yet read from the environment */
static int dynamic_adjustment;
static int nested_parallelism;
static int max_active_levels = 2147483647;
static int nthreads_var = -1;      /* nthreads-var; -1: not yet read from OMP_NUM_THREADS */
static omp_sched_t schedule_kind = omp_sched_static;
static int schedule_chunk;

/* ---------------------------------------------------------------- scheme entry points */
void __omp2gpu_host_parallel_begin(void) { nesting_level++; }
void __omp2gpu_host_parallel_end(void) { nesting_level--; }
void __omp2gpu_host_teams_begin(void) { in_teams++; }
void __omp2gpu_host_teams_end(void) { in_teams--; }

/* ---------------------------------------------------------------- threads and teams */
void omp_set_num_threads(int num_threads) {
    if (num_threads > 0) nthreads_var = num_threads;
}
int omp_get_num_threads(void) { return 1; }
/* The ICV a parallel region would request; this implementation's teams have one thread. */
int omp_get_max_threads(void) {
    if (nthreads_var < 0) {
        const char *text = getenv("OMP_NUM_THREADS");
        nthreads_var = text && atoi(text) > 0 ? atoi(text) : 1;
    }
    return nthreads_var;
}
int omp_get_thread_num(void) { return 0; }
int omp_get_num_procs(void) {
    long count = sysconf(_SC_NPROCESSORS_ONLN);
    return count > 0 ? (int)count : 1;
}
/* A team of one thread is an inactive parallel region: active-levels-var stays 0. */
int omp_in_parallel(void) { return 0; }
void omp_set_dynamic(int dynamic_threads) { dynamic_adjustment = dynamic_threads != 0; }
int omp_get_dynamic(void) { return dynamic_adjustment; }
int omp_get_cancellation(void) { return 0; }
void omp_set_nested(int nested) { nested_parallelism = nested != 0; }
int omp_get_nested(void) { return nested_parallelism; }
void omp_set_schedule(omp_sched_t kind, int chunk_size) {
    schedule_kind = kind;
    schedule_chunk = chunk_size;
}
void omp_get_schedule(omp_sched_t *kind, int *chunk_size) {
    *kind = schedule_kind;
    *chunk_size = schedule_chunk;
}
int omp_get_thread_limit(void) { return 2147483647; }
void omp_set_max_active_levels(int max_levels) {
    if (max_levels >= 0) max_active_levels = max_levels;
}
int omp_get_max_active_levels(void) { return max_active_levels; }
int omp_get_level(void) { return nesting_level; }
int omp_get_ancestor_thread_num(int level) {
    return level >= 0 && level <= nesting_level ? 0 : -1;
}
int omp_get_team_size(int level) {
    return level >= 0 && level <= nesting_level ? 1 : -1;
}
int omp_get_active_level(void) { return 0; }
int omp_in_final(void) { return 0; }
omp_proc_bind_t omp_get_proc_bind(void) { return omp_proc_bind_false; }
int omp_get_num_places(void) { return 0; }
int omp_get_place_num_procs(int place_num) { (void)place_num; return 0; }
void omp_get_place_proc_ids(int place_num, int *ids) { (void)place_num; (void)ids; }
int omp_get_place_num(void) { return -1; }
int omp_get_partition_num_places(void) { return 0; }
void omp_get_partition_place_nums(int *place_nums) { (void)place_nums; }
int omp_get_num_teams(void) { return 1; }
int omp_get_team_num(void) { return 0; }
int omp_get_max_task_priority(void) { return 0; }

/* ---------------------------------------------------------------- devices */
/* The offload launcher (omp2gpu/offload/abi.py) knows the devices and their memory. */
int __omp2gpu_num_devices(void);
void __omp2gpu_set_default_device(int device);
void *__omp2gpu_target_alloc(size_t size, int device);
void __omp2gpu_target_free(void *device_pointer, int device);
int __omp2gpu_target_is_present(void *host_pointer, int device);
int __omp2gpu_target_memcpy(void *dst, void *src, size_t length, size_t dst_offset,
                            size_t src_offset, int dst_device, int src_device);

int omp_get_num_devices(void) { return __omp2gpu_num_devices(); }
int omp_get_initial_device(void) { return omp_get_num_devices(); }
int omp_is_initial_device(void) { return 1; }
void omp_set_default_device(int device_num) {
    default_device = device_num;
    __omp2gpu_set_default_device(device_num);
}
int omp_get_default_device(void) {
    if (default_device < 0) {
        const char *text = getenv("OMP_DEFAULT_DEVICE");
        default_device = text ? atoi(text) : 0;
        if (default_device < 0) default_device = 0;
    }
    return default_device;
}

static int is_host(int device_num) { return device_num == omp_get_initial_device(); }

void *omp_target_alloc(size_t size, int device_num) {
    return is_host(device_num) ? malloc(size) : __omp2gpu_target_alloc(size, device_num);
}
void omp_target_free(void *device_ptr, int device_num) {
    if (is_host(device_num)) free(device_ptr);
    else __omp2gpu_target_free(device_ptr, device_num);
}
int omp_target_is_present(void *ptr, int device_num) {
    return is_host(device_num) || __omp2gpu_target_is_present(ptr, device_num);
}
int omp_target_memcpy(void *dst, void *src, size_t length, size_t dst_offset,
                      size_t src_offset, int dst_device_num, int src_device_num) {
    if (!is_host(dst_device_num) || !is_host(src_device_num))
        return __omp2gpu_target_memcpy(dst, src, length, dst_offset, src_offset,
                                       dst_device_num, src_device_num);
    memcpy((char *)dst + dst_offset, (char *)src + src_offset, length);
    return 0;
}
/* Copies a num_dims-dimensional sub-volume, one dimension per recursion level. */
static void copy_rect(char *dst, const char *src, size_t element_size, int num_dims,
                      const size_t *volume, const size_t *dst_offsets, const size_t *src_offsets,
                      const size_t *dst_dimensions, const size_t *src_dimensions) {
    size_t dst_stride = element_size, src_stride = element_size, i;
    int d;
    for (d = 1; d < num_dims; d++) {
        dst_stride *= dst_dimensions[d];
        src_stride *= src_dimensions[d];
    }
    dst += dst_offsets[0] * dst_stride;
    src += src_offsets[0] * src_stride;
    if (num_dims == 1) {
        memcpy(dst, src, volume[0] * element_size);
        return;
    }
    for (i = 0; i < volume[0]; i++)
        copy_rect(dst + i * dst_stride, src + i * src_stride, element_size, num_dims - 1,
                  volume + 1, dst_offsets + 1, src_offsets + 1, dst_dimensions + 1, src_dimensions + 1);
}
int omp_target_memcpy_rect(void *dst, void *src, size_t element_size, int num_dims,
                           const size_t *volume, const size_t *dst_offsets,
                           const size_t *src_offsets, const size_t *dst_dimensions,
                           const size_t *src_dimensions, int dst_device_num, int src_device_num) {
    if (dst == NULL && src == NULL) return 3;     /* the number of dimensions supported */
    if (!is_host(dst_device_num) || !is_host(src_device_num) || num_dims < 1) return -1;
    copy_rect((char *)dst, (const char *)src, element_size, num_dims, volume, dst_offsets,
              src_offsets, dst_dimensions, src_dimensions);
    return 0;
}
int omp_target_associate_ptr(void *host_ptr, void *device_ptr, size_t size,
                             size_t device_offset, int device_num) {
    (void)host_ptr; (void)device_ptr; (void)size; (void)device_offset; (void)device_num;
    return -1;                       /* no device memory to associate with */
}
int omp_target_disassociate_ptr(void *ptr, int device_num) {
    (void)ptr; (void)device_num;
    return -1;
}

/* ---------------------------------------------------------------- locks (one thread) */
void omp_init_lock(omp_lock_t *lock) { lock->_x = 0; }
void omp_init_lock_with_hint(omp_lock_t *lock, omp_lock_hint_t hint) { (void)hint; lock->_x = 0; }
void omp_destroy_lock(omp_lock_t *lock) { lock->_x = 0; }
void omp_set_lock(omp_lock_t *lock) { lock->_x = 1; }
void omp_unset_lock(omp_lock_t *lock) { lock->_x = 0; }
int omp_test_lock(omp_lock_t *lock) {
    if (lock->_x) return 0;
    lock->_x = 1;
    return 1;
}
void omp_init_nest_lock(omp_nest_lock_t *lock) { lock->_x[0] = 0; lock->_x[1] = 0; }
void omp_init_nest_lock_with_hint(omp_nest_lock_t *lock, omp_lock_hint_t hint) {
    (void)hint;
    omp_init_nest_lock(lock);
}
void omp_destroy_nest_lock(omp_nest_lock_t *lock) { omp_init_nest_lock(lock); }
void omp_set_nest_lock(omp_nest_lock_t *lock) { lock->_x[0] = (char *)lock->_x[0] + 1; }
void omp_unset_nest_lock(omp_nest_lock_t *lock) { lock->_x[0] = (char *)lock->_x[0] - 1; }
int omp_test_nest_lock(omp_nest_lock_t *lock) {
    omp_set_nest_lock(lock);
    return (int)((char *)lock->_x[0] - (char *)0);
}

/* ---------------------------------------------------------------- timing */
double omp_get_wtime(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}
double omp_get_wtick(void) { return 1e-9; }
