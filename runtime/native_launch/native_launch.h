/* The native launch path shared by the CPU device (runtime/cpu_device/launch.c)
 * and the GPU (cuda_launch.c): __omp2gpu_target without Python for the common
 * cases. Its device-independent half, each file calling only those before it:
 * native_lock.c the lock; present_mirror.c the mirror of the present table;
 * loans.c device memory lent for a Python call; pinned_ranges.c page-locked
 * update ranges; mirror.c the kernel table, planning one launch's arguments and
 * launch shape, updates, the offload log; footprints.c what a launch may touch;
 * block_cache.c keeps freed transient buffers. Each device's native module links
 * its own copy of them all.
 */
#ifndef OMP2GPU_NATIVE_LAUNCH_H
#define OMP2GPU_NATIVE_LAUNCH_H

/* offload/abi.py's map-type bits */
#define MAP_TO 0x1
#define MAP_FROM 0x2
#define MAP_ALWAYS 0x4
#define MAP_DELETE 0x8
#define MAP_TARGET_PARAM 0x20
#define MAP_RETURN_PARAM 0x40
#define MAP_LITERAL 0x100
#define MAP_IS_DEVICE_PTR 0x400
#define MAP_POINTER_LOOKUP 0x800
#define MAP_ATTACH 0x1000
#define MAP_MEMBER_OF_SHIFT 48

#define MAX_KERNELS 4096
#define MAX_ARGS 128
#define MAX_TRANSIENTS 32
#define MAX_LOANS 64

typedef int (*omp2gpu_target_fn)(long device, const char *kernel, int count, void **bases,
                                 void **begins, long *sizes, long *types, int num_teams,
                                 int thread_limit, long trip_count, const char *where);
typedef void (*omp2gpu_data_fn)(long device, int count, void **bases, void **begins, long *sizes,
                                long *types, const char *where);
typedef void (*omp2gpu_set_device_fn)(int device);
typedef void (*omp2gpu_failed_fn)(long device, const char *reason);

struct native_kernel {
    const char *seen;            /* the last name pointer a launch used for it */
    char *name;
    void *handle;                /* CPU: the work-group function; GPU: its CUfunction */
    int param_count;
    char by_value[MAX_ARGS];     /* 1: the parameter is a literal's bytes, 0: a pointer */
    char read_only[MAX_ARGS];    /* 1: a pointer the kernel only reads through */
    int args_only;               /* it writes memory only through its pointer parameters */
    long default_block;          /* threads per block when thread_limit does not say */
    long block_cap;              /* the device's last cap on the block (0: none) */
    int sequential;              /* one group of one thread */
    int one_team;                /* no teams construct: one group, whatever the host asked */
    long team_stack_bytes;       /* per team, a last pointer parameter; -1: none */
};

/* A map entry whose range is not present and is needed only by this launch: device
 * memory for the launch, copied in (TO) and out (FROM), never in the present table. */
struct transient {
    long host;
    long size;
    long type;
    long device;
    int param;                   /* the parameter pointing into it, -1: none */
    long base_offset;            /* bases[i] - begins[i]: where that pointer points */
};

struct launch_plan {
    struct native_kernel *kernel;
    int param_count;             /* the kernel's, plus the team stack if it takes one */
    void *args[MAX_ARGS + 1];    /* each parameter's bytes (GPU kernelParams, CPU args) */
    long slots[MAX_ARGS + 1];    /* the values of pointer parameters */
    struct transient transients[MAX_TRANSIENTS];
    int transient_count;
    long grid;
    long block;
};

/* The device ranges a launch may touch, and whether it may write each (footprints.c). */
struct footprint {
    int count;
    long begin[MAX_ARGS];
    long end[MAX_ARGS];
    char writes[MAX_ARGS];
};

/* One copy of a `target update`: a range wholly inside one present mapping. */
struct update_copy {
    long host;
    long device;
    long size;
    int to_device;               /* 1: `to`, host to device; 0: `from` */
};

/* native_lock.c: the one lock (every file below takes it; it calls none of them) */
void native_lock_start(void);
void native_lock(void);
void native_unlock(void);

/* present_mirror.c: the mirrored present table and its lookups, with the lock held */
void mirror_set(long count, long *begins, long *ends, long *devices, char *plain);
long mirror_find(long begin, long size);
long mirror_begin(long index);
long mirror_device_offset(long index);
int mirror_plain(long index);
int native_touches_mapping(long begin, long size);
int native_holds(long begin, long size);
int native_device_range(long address, long *begin, long *end);

/* mirror.c, for the device halves: planning launches and updates on the files above */
int native_unified(void);
int native_begin(long device, const char *name, int count, void **bases, void **begins, long *sizes,
                 long *types, int num_teams, int thread_limit, long trip_count, struct launch_plan *plan);
void native_place_transient(struct launch_plan *plan, int index, long device_address);
int native_done(struct launch_plan *plan);
int native_slow(long device, const char *kernel, int count, void **bases, void **begins, long *sizes,
                long *types, int num_teams, int thread_limit, long trip_count, const char *where);
int native_fail(const char *reason);
typedef int (*native_copy_fn)(struct update_copy *copy);
void native_update(long device, int count, void **bases, void **begins, long *sizes, long *types,
                   const char *where, native_copy_fn copy);
void native_log_overlap(const char *kernel, const char *other);

/* pinned_ranges.c: page-locked host ranges for update copies; lock 0 on success */
typedef int (*pinned_lock_fn)(long begin, long bytes);
typedef void (*pinned_unlock_fn)(long begin);
void pinned_use(pinned_lock_fn lock, pinned_unlock_fn unlock);
int pinned_inside(long host, long size, long *begin, long *end);
#define PINNED_RANGES 64
int pinned_cuts(long host, long size, long *cuts, int most);
void pinned_forget_unmapped(void);

/* completion_poller.c: detached tasks' events fulfilled when their device event is done */
#define COMPLETION_NOT_READY 600         /* CUDA_ERROR_NOT_READY, what query returns while pending */
typedef int (*completion_query_fn)(void *device_event);
typedef void (*completion_bind_fn)(void);
void completion_use(completion_query_fn query_event, completion_bind_fn bind);
void *completion_spare_event(void);
int completion_watch(void *device_event, void *task_event);

/* run_ahead.c: the kernels of target tasks that run ahead, per thread, waited for where
 * the tasks must be complete; functions of the device: 0 or its error */
typedef int (*run_ahead_event_fn)(void **event);
typedef int (*run_ahead_wait_fn)(void *event);
typedef void (*run_ahead_failed_fn)(int error);
void run_ahead_use(run_ahead_event_fn make, run_ahead_wait_fn wait, run_ahead_failed_fn fail);
void *run_ahead_next_event(void);
void run_ahead_recorded(void);
void __omp2gpu_gpu_run_ahead_wait(void);

/* footprints.c: what a launch may touch, for launches that run at once */
int native_footprint(struct launch_plan *plan, struct footprint *footprint);
int native_footprints_conflict(const struct footprint *first, const struct footprint *second);

/* loans.c: device memory lent for a Python call, present while lent */
int native_lent(long begin, long size, long *start);
int native_touches_loan(long begin, long size);
void native_forget_loans(void);

/* target_tasks.c: a detached target task's completion event, offered to its launch */
void native_task_events_start(void);
void *native_take_task_event(void);
void native_task_event_taken(void);
#define TASK_MAY_RUN_AHEAD 0x1           /* __omp2gpu_target_task_begin's flags */
int native_task_may_run_ahead(void);
void native_fulfil_task_event(void *event);

/* block_cache.c: freed buffers by power-of-two size class, reused by later launches */
typedef long (*block_allocate_fn)(long bytes);
typedef void (*block_free_fn)(long address);
void block_cache_use(block_allocate_fn allocate, block_free_fn release);
long block_take(long bytes);
void block_give(long address, long bytes);
void block_release_all(void);

#endif
