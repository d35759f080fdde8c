/* libomp2gpu: the offload runtime of native omp2gpu programs (docs/native-executables.md).
 *
 * The program's host code calls the entry points of omp2gpu/offload/abi.py
 * (entry_points.c); the images it was linked with register themselves before main
 * (images.c: kernel table, the CPU device's work-group functions and globals, the GPU's
 * PTX). One file per concern:
 *   policy.c         OMP_TARGET_OFFLOAD, OMP_DEFAULT_DEVICE, OMP2GPU_DEVICES, OMP2GPU_LAUNCH,
 *                    the launch shape a kernel gets
 *   messages.c       `omp2gpu: warning|error: ...` after the program's own output; the fatal
 *                    exit; a device's message for its last failure
 *   lock.c           the one recursive lock of the entry points and image registration
 *   host_memory.c    the construct's map entries checked against the process's mappings,
 *                    heap blocks and the arrays passed for the call
 *   heap_chunks.c    where a glibc malloc block ends, proven from the heap's chunk headers
 *   argument_arrays.c the arrays the Python API passes for one call, named
 *   python_calls.c   a Python API call's begin and end: device arrays lent, arrays named
 *   present_table.c  one device's present table and every map-clause rule
 *   mappers.c        declare mapper's entries for arrays of structs, made at run time
 *   strided_copies.c a strided target update's section as blocks of rows
 *   device_table.c   the devices (GPUs, then the CPU device), giving one up (host fallback)
 *   images.c         registered images, loaded onto a device at its first use
 *   cpu_device.c     the CPU device: buffers, copies, launches on the worker pool
 *                    (runtime/cpu_device/pool.c)
 *   cuda_device.c    CUDA GPUs through the driver API, loaded with dlopen
 *   entry_points.c   the __omp2gpu_* functions compiled code calls, under one lock
 *   launch_record.c  OMP2GPU_OFFLOAD_LOG, OMP2GPU_COPY_LOG, LIBOMPTARGET_INFO
 *   profile.c        OMP2GPU_PROFILE: the Chrome / Perfetto trace
 *   requirements.c   `#pragma omp requires` of every file, checked to agree
 *   usm_heap.c       a unified_shared_memory file's malloc/free: memory every device reaches
 *   device_memory.c  omp_target_memcpy_async & co, omp_get_mapped_ptr, associate_ptr
 *   interop.c        `#pragma omp interop` objects and the omp_get_interop_* routines
 *   target_tasks.c   `target nowait` tasks' kernels queued on streams (docs/async.md), with
 *   completion_poller.c  their tasks completed when their kernels are,
 *   run_ahead.c      or, outside parallel regions, left running until the thread's next wait,
 *   fused_launches.c the consecutive ones launched as one (the image's fused kernel),
 *   openmp_waits.c   the OpenMP runtime's waits wrapped (-Wl,--wrap) to wait for them too
 *   auto_async.c     OMP2GPU_AUTO_ASYNC: synchronous launches whose footprints do not conflict
 *                    left running beside each other
 * Built by `cc` into libomp2gpu.so / libomp2gpu.a (omp2gpu/targets/native_runtime.py).
 */
#ifndef OMP2GPU_OFFLOAD_H
#define OMP2GPU_OFFLOAD_H

#include <stddef.h>
#include <stdint.h>

/* offload/abi.py's map-type bits */
#define MAP_TO 0x1
#define MAP_FROM 0x2
#define MAP_ALWAYS 0x4
#define MAP_DELETE 0x8
#define MAP_TARGET_PARAM 0x20
#define MAP_RETURN_PARAM 0x40
#define MAP_PRIVATE 0x80         /* firstprivate (with MAP_TO) or private array or struct: storage for this
                                    construct alone, whatever is mapped there (present_table.c's private copies) */
#define MAP_LITERAL 0x100
#define MAP_IMPLICIT 0x200
#define MAP_IS_DEVICE_PTR 0x400
#define MAP_POINTER_LOOKUP 0x800
#define MAP_ATTACH 0x1000
#define MAP_PRESENT 0x2000       /* 5.1: mapped already, or the program's error (labels: abi.py) */
#define MAP_MAPPER 0x1000000      /* declare mapper: begin is a function pushing entries (mappers.c) */
#define MAP_NON_CONTIG 0x2000000  /* target update of a strided section: base is its descriptor */
#define MAP_ALLOCATOR 0x4000000   /* uses_allocators: the host's allocator record, mapped TO; the parameter its
                                     device address by value (size 0, a predefined allocator: base as it is) */
#define MAP_MEMBER_OF_SHIFT 48
#define MAP_NOT_MAPPED (MAP_LITERAL | MAP_IS_DEVICE_PTR | MAP_POINTER_LOOKUP | MAP_ATTACH | MAP_MAPPER)

/* Kernel schemes (offload/abi.py's names), as the image table codes them. */
enum scheme {
    SCHEME_OTHER = 0,
    SCHEME_GPU_COMBINED = 1,
    SCHEME_GPU_CONTROL_LOOP = 2,
    SCHEME_GPU_SERIAL = 3,
    SCHEME_GPU_SPMDIZED = 4,
    SCHEME_CPU_COMBINED = 10,
    SCHEME_CPU_SEQUENTIAL = 11,
    SCHEME_CPU_TEAMS = 12
};
#define CPU_MAX_TEAM 256
/* __omp2gpu_device_kind's answers (offload/abi.py DEVICE_CODE_*) */
#define DEVICE_CODE_HOST 0
#define DEVICE_CODE_CPU 1
#define DEVICE_CODE_GPU 2

/* ---------------------------------------------------------------- the image table
 * What omp2gpu writes into a native program for its target regions
 * (omp2gpu/native_image.py); IMAGE_VERSION changes with this layout. */
#define IMAGE_VERSION 7
typedef void (*work_group_fn)(void **args, long group, long num_groups, int threads);

struct kernel_desc {
    const char *name;
    const char *params;          /* one letter a parameter: p a pointer, b a literal's bytes */
    long default_block;          /* threads per block when thread_limit does not say; 0: none */
    long team_stack_bytes;       /* GPU control loop: per team, a last pointer parameter; -1: none */
    int scheme;                  /* the launch information's scheme (enum scheme) */
    int one_team;                /* no teams construct: one team even under OMP2GPU_LAUNCH */
    int gpu;                     /* 1: the PTX has this kernel */
    int cpu_scheme;              /* the CPU device's scheme for it */
    work_group_fn cpu_function;  /* its work-group function, NULL: none */
    /* the CPU device's own build's launch information (a metadirective may have chosen a
     * region without teams there): its default block and one_team */
    long cpu_default_block;
    long cpu_one_team;
    /* a kernel that writes memory only through its pointer parameters: per parameter 'r'
     * only read, 'w' maybe written (automatic concurrency, auto_async.c); NULL: unknown */
    const char *writes;
    /* per parameter the bytes its launch passes (8 a pointer, a literal's size: a complex
     * double 16); NULL: 8 each. A launcher that forwards the values (remote_device.c) reads it. */
    const unsigned char *param_bytes;
    /* the fused kernel's slot for this kernel (omp2gpu/targets/nvptx/fusion.py): its
     * launches may run fused with others' (fused_launches.c); -1: never */
    int fused_slot;
    /* 1: a grid-stride kernel that folds no reduction across its teams: its default blocks
     * may narrow so that a short loop reaches every multiprocessor (policy.c spread_block) */
    int spreads;
};

struct global_desc {
    const char *name;
    void *cpu_address;           /* the CPU device's copy */
    long size;
};

struct image_desc {
    long version;
    long kernel_count;
    const struct kernel_desc *kernels;
    long cpu_global_count;
    const struct global_desc *cpu_globals;
    const char *ptx;             /* NUL-terminated PTX, NULL: no GPU code */
    const unsigned char *cubin;  /* the PTX assembled for one architecture (--offload-arch), NULL: none */
    long cubin_size;
    long cubin_arch;             /* its compute capability, major * 10 + minor (90: sm_90) */
};

/* ---------------------------------------------------------------- messages.c */
void offload_report(const char *kind, const char *format, ...);
int offload_debug_level(void);
void offload_debug(int level, const char *format, ...);
void offload_fatal(const char *format, ...);   /* returns only where errors are raised */
int offload_error_pending(void);
const char *map_entry_label(const char *where, int index);   /* "'a[0:n]' (line 12)", or "" */

/* ---------------------------------------------------------------- policy.c */
enum policy { POLICY_DEFAULT = 0, POLICY_MANDATORY = 1, POLICY_DISABLED = 2 };
enum policy offload_policy(void);
int default_device_from_environment(void);
int rank_default_device(int gpu_count);
/* OMP2GPU_DEVICES' kinds in order: 'g', 'c', and 'f' (the CPU device where no GPU is) into
 * kinds[], their count */
int device_kinds(char *kinds, int most);
int launch_override(long *teams, long *threads);
long teams_environment(int threads);
/* a kernel's launch information on one device */
struct launch_info { long default_block; int scheme; int one_team; int spreads; };
struct launch_info launch_info_for(const struct kernel_desc *kernel, int cpu_device);
void launch_configuration(struct launch_info info, long max_threads, long multiprocessors,
                          long num_teams, long thread_limit, long trip_count, long *grid, long *block);
/* A kernel's wide-register twin in the PTX is its name with this suffix
 * (omp2gpu/offload/abi.py WIDE_TWIN_SUFFIX, omp2gpu/targets/nvptx/wide_twins.py). */
#define WIDE_TWIN_SUFFIX "__wide"
/* OMP2GPU_WIDE_TWINS=0: never launch a wide-register twin */
int wide_twins_enabled(void);
/* whether a launch of grid x block, its blocks spread over the multiprocessors, leaves
 * each multiprocessor room for its share of them at `registers` a thread */
int wide_twin_fits(long grid, long block, long multiprocessors, int registers);
/* the blocks of `block` threads one multiprocessor's registers hold at `registers` a thread */
long blocks_by_registers(long block, int registers);
/* the blocks of `block` threads that fill the device once over (fused_launches.c) */
struct device;
long device_wave_blocks(const struct device *d, long block);
/* the blocks one multiprocessor runs at once, by its threads and the kernel's registers */
long resident_blocks(const struct device *d, long block, int registers);

/* ---------------------------------------------------------------- host_memory.c */
/* NULL when the entries are good; else the message (static storage), naming `where`.
 * `known_good(context, begin, size)`, where given, says a section needs no check (one
 * inside a mapping of the device: its host memory was checked when it was mapped, and
 * the program keeps it while mapped). */
typedef int (*section_known_good)(void *context, uintptr_t begin, long size);
const char *check_entries(int count, void **bases, void **begins, const int64_t *sizes, const int64_t *types,
                          const char *where, section_known_good known_good, void *context);
/* the same for a construct run on the host: only sections longer than an argument array */
const char *check_argument_entries(int count, void **bases, void **begins, const int64_t *sizes,
                                   const int64_t *types, const char *where);

/* ---------------------------------------------------------------- heap_chunks.c */
/* glibc malloc blocks: the end a pointer's header claims (0: none), and the end once the
 * pointer is proven a live block's start (1), within readable [low, high) */
#define THREAD_HEAP_SPAN ((uintptr_t)64 << 20)    /* glibc's HEAP_MAX_SIZE on 64-bit: a thread arena's heap */
uintptr_t heap_chunk_claimed_end(uintptr_t p, uintptr_t low, uintptr_t high, int main_heap);
int heap_chunk_proven_end(uintptr_t p, uintptr_t low, uintptr_t high, uintptr_t heap_low, uintptr_t heap_high,
                          uintptr_t *end);
/* unified_shared_memory's registrations: the calling thread's stack from `from` up, the
 * executable's static data; 0, or -1 where not known */
int thread_stack(uintptr_t from, uintptr_t *low, uintptr_t *high);
int executable_data(uintptr_t *low, uintptr_t *high);

/* ---------------------------------------------------------------- argument_arrays.c */
int argument_array_add(uintptr_t begin, long size, const char *name, int on_device);
void argument_array_remove(uintptr_t begin, long size);
int argument_array_overrun(uintptr_t begin, long size, const char **name, uintptr_t *array_begin,
                           long *array_size);
int argument_device_array_holds(uintptr_t begin, long size);

/* ---------------------------------------------------------------- devices */
struct device;
struct device_ops {
    const char *kind;                                  /* "gpu" | "cpu" */
    int (*allocate)(struct device *, long bytes, uintptr_t *address);     /* 0: done */
    int (*release)(struct device *, uintptr_t address);
    int (*to_device)(struct device *, uintptr_t dst, const void *src, long bytes);
    int (*to_host)(struct device *, void *dst, uintptr_t src, long bytes);
    int (*device_to_device)(struct device *, uintptr_t dst, uintptr_t src, long bytes);
    /* an image onto the device; *module: its handle (NULL where it has no code for it) */
    int (*load)(struct device *, const struct image_desc *image, void **module);
    int (*global)(struct device *, void *module, const char *name, uintptr_t *address, long *size);
    /* `micros`: where the kernel's own time goes when the run is profiled, else NULL;
     * LAUNCH_RAN_AND_FAILED: the kernel started and failed (it may have written memory) */
    int (*launch)(struct device *, void *module, const struct kernel_desc *kernel, long grid,
                  long block, void **args, int arg_count, double *micros);
    void (*label)(struct device *, char *buffer, size_t size);
    int (*holds)(struct device *, uintptr_t address);       /* the caller's device memory is here */
    int (*wait_stream)(struct device *, void *stream);       /* the caller's queued work is done */
    /* `height` rows of `width` bytes, `pitch` apart on both sides (NULL: row by row) */
    int (*to_device_2d)(struct device *, uintptr_t dst, const void *src, long width, long pitch, long height);
    int (*to_host_2d)(struct device *, void *dst, uintptr_t src, long width, long pitch, long height);
    /* unified_shared_memory (requirements.c): how this device reaches host memory, an
     * enum usm_mode, or -1 (last_error says why it cannot) */
    int (*unify)(struct device *);
    /* USM_MANAGED only: the device's address for host memory [begin, begin + bytes),
     * registered with the driver where it is not yet device-accessible */
    int (*host_alias)(struct device *, uintptr_t begin, long bytes, uintptr_t *alias);
    int (*allocate_managed)(struct device *, long bytes, uintptr_t *address);  /* USM_MANAGED only */
    int (*release_managed)(struct device *, uintptr_t address);
    /* the device reaches host memory [address, address + bytes) without a map */
    int (*accessible)(struct device *, uintptr_t address, long bytes);
    /* interop.c, `interop init(targetsync)`: *stream NULL: a new stream, the device's handle
     * and context; *stream set: its work waited for and the stream destroyed */
    int (*interop_handles)(struct device *, void **stream, void **device_handle, void **context);
    /* Queued launches (target tasks, target_tasks.c; auto_async.c); NULL where every launch
     * has finished when it returns (the CPU device). The kernel goes on one of the device's
     * streams after the `after` events, *done an event after it, *stream the stream's
     * number (1..) for the log. */
    int (*launch_queued)(struct device *, void *module, const struct kernel_desc *kernel, long grid,
                         long block, void **args, int arg_count, void *const *after, int after_count,
                         void **done, int *stream);
    /* from any thread, no lock held: 0 done, 1 running, -1 failed (no message) */
    int (*event_state)(struct device *, void *event);
    int (*event_wait)(struct device *, void *event);         /* 0, or -1 with the message */
    void (*event_release)(struct device *, void *event);     /* done with: kept for reuse */
    /* page-locked host memory the device copies at full speed (the `pinned` allocator trait:
     * pinned_memory.c); NULL where the device has none (the host's then is plain memory) */
    int (*allocate_pinned)(struct device *, long bytes, void **host);
    int (*release_pinned)(struct device *, void *host);
    /* the registers per thread and static shared memory of what a launch of grid x block
     * runs (the kernel, or its wide-register twin), as the device compiled it (the
     * profile's, for `omp2gpu report --run`); NULL where there are none to tell */
    int (*kernel_resources)(struct device *, void *module, const struct kernel_desc *kernel, long grid, long block,
                            int *registers, int *shared_bytes);
    /* Where set, `launch` may return with its kernel still running (CUDA C's copy, launch,
     * copy: a copy to the host or a free in between waits for it and reports its fault);
     * this waits for it, if nothing did: 0, or LAUNCH_RAN_AND_FAILED. Called before the
     * runtime's lock is given up. */
    int (*finish_launch)(struct device *);
};
#define LAUNCH_RAN_AND_FAILED (-3)
/* How a device under unified_shared_memory reaches the host's memory */
enum usm_mode {
    USM_OFF = 0,
    USM_SHARED = 1,      /* it reads host memory as it is: the CPU device; a GPU with HMM/ATS */
    USM_MANAGED = 2      /* a GPU: the USM heap is managed memory; other objects registered */
};

struct mapping;
#define PRESENT_RECENT 64
struct present_table {
    struct mapping *items;       /* sorted by host address, never overlapping */
    long count, capacity;
    struct mapping *links;       /* declare target link globals' module storage */
    long link_count, link_capacity;
    int in_place;                /* the device uses the host's storage (OMP2GPU_CPU_UNIFIED) */
    int unified;                 /* unified_shared_memory: an unmapped pointer is passed as it is */
    long hints[2];               /* recent lookups' answers (present_table.c's before) */
    long recent[PRESENT_RECENT]; /* and each address's last answer, by a hash of it */
    int next_hint;
    unsigned long generation;    /* counts the mappings made and removed (launch_memo.c) */
    struct mapping *privates;    /* MAP_PRIVATE entries' storage, from a construct's table_begin */
    long private_count, private_capacity;   /* to its table_end; not looked up as present */
};

struct device {
    int number;
    char name[256];              /* as the offload log names it: 'cpu', the GPU's name */
    const struct device_ops *ops;
    void *state;                 /* the kind's own */
    long max_threads_per_block;
    long multiprocessors;
    long threads_per_multiprocessor;    /* resident at once; 0 where the device does not say */
    int usable;
    struct present_table table;
    void **modules;              /* per registered image, in order */
    int module_count;
    char *bound_globals;         /* per registered global: bound here */
    int bound_count;
    int globals_looked_up, modules_looked_in;   /* images_bind_globals' last whole pass */
    uintptr_t team_stack;
    long team_stack_bytes;
    char last_error[512];        /* the kind's message for its last failure */
    /* Called (where set) at the top of the device's copies, frees and launches: what the
     * calling thread holds back for the device goes first (fused_launches.c sets it). */
    void (*before_work)(struct device *);
    int usm;                     /* enum usm_mode: unified_shared_memory in effect here */
};

/* the device's hook before a copy, free or launch (struct device's before_work) */
static inline void device_work_begins(struct device *d) {
    if (d->before_work) d->before_work(d);
}

void device_error(struct device *device, const char *format, ...);
int device_count(void);
int devices_found(void);
struct device *device_at(int number);
struct device *select_device(long device);            /* NULL: run on the host */
void device_failed(struct device *device, const char *consequence);
int device_current_default(void);
void device_set_default(int number);
/* the program's requirements given to every device made so far (unified_shared_memory) */
void devices_apply_requirements(void);

int cpu_device_make(struct device *device);
int cuda_device_count(void);
const char *cuda_unavailable_reason(void);
int cuda_device_make(struct device *device, int ordinal);

/* ---------------------------------------------------------------- entry_points.c */
/* a usable device named explicitly (omp_target_* routines); NULL: the host, or none usable */
struct device *memory_device(int device);

/* ---------------------------------------------------------------- present_table.c */
struct map_entry {
    uintptr_t base, begin;
    long size;
    int64_t type;
};
/* block_cache.c: mappings' device storage, small blocks kept for reuse */
int block_take(struct device *d, long bytes, uintptr_t *address);
void block_give(struct device *d, uintptr_t address, long bytes);

int table_begin(struct device *device, const struct map_entry *entries, int count, const char *where);
int table_end(struct device *device, const struct map_entry *entries, int count, const char *where);
int table_update(struct device *device, const struct map_entry *entries, int count, const char *where);
uintptr_t table_translate(struct device *device, const struct map_entry *entry);
int table_return_device_pointers(struct device *device, const struct map_entry *entries, int count,
                                 void **bases);
int table_is_present(struct device *device, uintptr_t address);
/* 1 when a region's entries are all present already and its end copies and frees nothing */
int table_all_present(struct device *device, const struct map_entry *entries, int count);
/* launch_memo.c: a kernel's recent launches whose entries were all present; find gives the
 * table_translate answers (one per entry) of one with this launch's entries while the
 * table's mappings are the same, else NULL */
const uintptr_t *launch_memo_find(const struct device *device, const char *kernel_name,
                                  const struct map_entry *entries, int count);
void launch_memo_keep(struct device *device, const char *kernel_name, const struct map_entry *entries, int count,
                      const uintptr_t *translated, int all_present);   /* -1: not yet asked */
int table_holds_section(void *device, uintptr_t begin, long size);   /* inside one mapping (a section_known_good) */
/* the device range of the mapping holding device address `address` (not a loan, nor the
 * host's own storage): 0, or -1 for none */
int table_device_range(struct device *device, uintptr_t address, uintptr_t *begin, uintptr_t *end);
int table_add_global(struct device *device, uintptr_t host, long size, uintptr_t device_address);
int table_add_link_global(struct device *device, uintptr_t host, long size, uintptr_t device_address);
void table_kernel_ran(struct device *device);
int table_host_region_begin(struct device *device);
int table_host_region_end(struct device *device);
int table_lend(struct device *device, uintptr_t begin, long size);
int table_end_loan(struct device *device, uintptr_t begin, long size);
void table_evacuate(struct device *device);
/* the device address of host address `host`; 0: not present */
uintptr_t table_device_address(struct device *device, uintptr_t host);
/* omp_target_associate_ptr: [host, host + size) present at device_address until
 * disassociated (map clauses count it but never free it); -2: host overlaps a mapping */
int table_associate(struct device *device, uintptr_t host, long size, uintptr_t device_address);
int table_disassociate(struct device *device, uintptr_t host);
/* a map-clause error of the program's (a partly mapped range): fatal, message set here */
extern char table_mapping_error[512];

/* ---------------------------------------------------------------- mappers.c */
struct entry_list { int count, capacity; void **bases, **begins; int64_t *sizes, *types; };
/* 1: `out` holds the entries with every MAP_MAPPER entry's elements' entries appended
 * (free it with entry_list_free); 0: there is no MAP_MAPPER entry */
int expand_mappers(int count, void **bases, void **begins, const int64_t *sizes, const int64_t *types,
                   struct entry_list *out);
void entry_list_free(struct entry_list *list);

/* ---------------------------------------------------------------- strided_copies.c */
struct copy_block { long offset, width, pitch, height; };    /* bytes from the section's begin */
typedef int (*block_function)(void *context, struct copy_block block);
/* each(context, block) for the blocks of a MAP_NON_CONTIG descriptor; its first nonzero
 * result, or -2 with `why` filled for a bad descriptor (a stride that is not positive) */
int for_each_strided_block(const int64_t *descriptor, block_function each, void *context, char *why,
                           size_t why_size);

/* ---------------------------------------------------------------- images.c */
int images_activate(struct device *device);
const struct kernel_desc *images_kernel(const char *name, int *image_index);
int images_bind_globals(struct device *device);
void images_add_global(uintptr_t host, const char *name, long size, int link);

/* ---------------------------------------------------------------- launch_record.c */
/* `stream`: the queued launch's stream number, 0 for a launch waited for */
void record_launch(struct device *device, const char *kernel, long grid, long block, int cpu_scheme, int stream);
void record_fused_launch(struct device *device, const char *kernel, long grid, long block, int parts, int stream);
void record_copy(struct device *device, int to_device, uintptr_t host, uintptr_t device_address, long bytes);
/* LIBOMPTARGET_INFO (any bit): how unified_shared_memory is provided on a device */
void record_unified(struct device *device, const char *how);
void record_overlap(struct device *device, const char *kernel, const char *other);   /* auto_async.c */

/* ---------------------------------------------------------------- profile.c */
int profile_active(void);
double profile_now(void);
void profile_launch(struct device *device, const char *kernel, long grid, long block, double start, double micros,
                    int registers, int shared_bytes);
void profile_copy(struct device *device, int to_device, long bytes, double start);

/* ---------------------------------------------------------------- requirements.c */
/* offload/abi.py's REQUIRES_* bits */
#define REQUIRES_UNIFIED_ADDRESS 0x1
#define REQUIRES_UNIFIED_SHARED_MEMORY 0x2
/* a file's requirements (its constructor): fatal when they differ from another file's */
void requirements_register(long flags, const char *where);
long requirements_flags(void);
/* a construct at `where` in a file that did not say the program's requirements: fatal */
void requirements_check_construct(const char *where);
/* ---------------------------------------------------------------- target tasks (docs/async.md) */
#define TASK_MAY_RUN_AHEAD 0x1           /* __omp2gpu_target_task_begin's flag: no `depend` clause */
/* the host OpenMP runtime's (libgomp, or another with its interface), which every native
 * link names; omp_fulfill_event's omp_event_handle_t is a uintptr_t */
int omp_get_level(void);
void omp_fulfill_event(uintptr_t event);
/* target_tasks.c: a region's launch, queued when its target task allows (0, or -1 failed) */
int task_event_offered(void);
/* a launch's grid and block; fused_*: its shape in a fused launch, where the other parts'
 * blocks fill the device (no narrower blocks spread over it, policy.c's spread_block: a
 * batch's parts share one block size) */
struct launch_shape { long grid, block, fused_grid, fused_block; };
int task_launch(struct device *device, void *module, const struct kernel_desc *kernel,
                const struct launch_shape *shape, void **args, int arg_count, double *micros, int all_present,
                int *stream);
/* auto_async.c: synchronous launches left running where nothing can tell (OMP2GPU_AUTO_ASYNC=1) */
#define FOOTPRINT_RANGES 32
#define AUTO_ASYNC_SLOTS 16              /* launches left running at once */
struct footprint {               /* the device ranges a launch may touch */
    int count;
    uintptr_t begin[FOOTPRINT_RANGES], end[FOOTPRINT_RANGES];
    char writes[FOOTPRINT_RANGES];
};
int auto_async_enabled(void);
int footprint_of(struct device *device, const struct kernel_desc *kernel, void **args, int arg_count,
                 struct footprint *footprint);                   /* 0 known, -1 unknown */
int footprints_conflict(const struct footprint *first, const struct footprint *second);
/* 0 left running, -1 failed, 1 not taken (to be launched and waited for) */
int auto_async_launch(struct device *device, void *module, const struct kernel_desc *kernel, long grid,
                      long block, void **args, int arg_count, int *stream);
int auto_async_in_flight(struct device *device, void **events, int most);   /* their events */
/* completion_poller.c: fulfil `task_event` once `done` is; 0 watched, -1 cannot be */
int completion_watch(struct device *device, void *done, void *task_event);
/* run_ahead.c: the calling thread's kernels that run ahead */
int run_ahead_launch(struct device *device, void *module, const struct kernel_desc *kernel, long grid, long block,
                     void **args, int arg_count, int *stream);    /* a kernel left running: 0, or -1 */
void run_ahead_wait(void);               /* every one of the thread's finished */
/* what the thread holds back, launched before its kernels are waited for (at each wait, at
 * exit, and with thread_ends 1 when the thread ends): fused_launches.c registers it */
void run_ahead_hold_launches(void (*launch_held)(int thread_ends));
int run_ahead_idle(void);                /* none of the thread's still running (finished ones let go) */
int run_ahead_ready(void);               /* the thread has a ring (its end waits): 0, or -1 */
/* fused_launches.c: run-ahead launches made one (docs/async.md, "Fused launches") */
#define FUSED_KERNEL "__omp_offloading_fused_launch"    /* omp2gpu/targets/nvptx/fusion.py */
#define FUSED_PTX_TAG "// omp2gpu-fused "               /* a fused body's kernel and slot, in the PTX's header */
enum { FUSE_OFF, FUSE_ADAPTIVE, FUSE_AT_WAITS };
int fusion_policy(void);                              /* policy.c: OMP2GPU_FUSE_LAUNCHES */
#define FUSED_MAX_PARTS 32                             /* fusion.py MAX_PARTS */
#define STREAM_FUSED (-1)                /* task_launch's *stream: the launch joined the thread's batch */
/* 0 joined the calling thread's batch, 1 not taken, -1 the batch it could not join failed */
int fused_launches_add(struct device *device, void *module, const struct kernel_desc *kernel, long grid, long block,
                       void **args, int arg_count);

/* ---------------------------------------------------------------- lock.c */
void offload_lock(void);
void offload_unlock(void);

#endif
