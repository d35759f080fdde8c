/* omp2gpu <omp.h>: the OpenMP 4.5 runtime API (section 3 of the spec).
 * The lock types have libgomp's sizes and alignments (4 bytes; 16 bytes
 * aligned to 8) so that one int suffices for a device spin lock. */
#ifndef __OMP2GPU_OMP_H
#define __OMP2GPU_OMP_H

#ifndef __OMP2GPU_SIZE_T
#define __OMP2GPU_SIZE_T
typedef unsigned long size_t;
#endif

typedef struct omp_lock_t { unsigned int _x; } omp_lock_t;
typedef struct omp_nest_lock_t { void *_x[2]; } omp_nest_lock_t;

typedef enum omp_sched_t {
    omp_sched_static = 1,
    omp_sched_dynamic = 2,
    omp_sched_guided = 3,
    omp_sched_auto = 4
} omp_sched_t;

typedef enum omp_proc_bind_t {
    omp_proc_bind_false = 0,
    omp_proc_bind_true = 1,
    omp_proc_bind_master = 2,
    omp_proc_bind_close = 3,
    omp_proc_bind_spread = 4
} omp_proc_bind_t;

typedef enum omp_lock_hint_t {
    omp_lock_hint_none = 0,
    omp_lock_hint_uncontended = 1,
    omp_lock_hint_contended = 2,
    omp_lock_hint_nonspeculative = 4,
    omp_lock_hint_speculative = 8
} omp_lock_hint_t;

/* OpenMP 5.0 synchronization hints (the lock hints' values), for `atomic hint(...)`
   and omp_init_lock_with_hint. */
typedef enum omp_sync_hint_t {
    omp_sync_hint_none = 0,
    omp_sync_hint_uncontended = 1,
    omp_sync_hint_contended = 2,
    omp_sync_hint_nonspeculative = 4,
    omp_sync_hint_speculative = 8
} omp_sync_hint_t;

/* Execution environment routines. */
void omp_set_num_threads(int num_threads);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_thread_num(void);
int omp_get_num_procs(void);
int omp_in_parallel(void);
void omp_set_dynamic(int dynamic_threads);
int omp_get_dynamic(void);
int omp_get_cancellation(void);
void omp_set_nested(int nested);
int omp_get_nested(void);
void omp_set_schedule(omp_sched_t kind, int chunk_size);
void omp_get_schedule(omp_sched_t *kind, int *chunk_size);
int omp_get_thread_limit(void);
void omp_set_max_active_levels(int max_levels);
int omp_get_max_active_levels(void);
int omp_get_level(void);
int omp_get_ancestor_thread_num(int level);
int omp_get_team_size(int level);
int omp_get_active_level(void);
int omp_in_final(void);
omp_proc_bind_t omp_get_proc_bind(void);
int omp_get_num_places(void);
int omp_get_place_num_procs(int place_num);
void omp_get_place_proc_ids(int place_num, int *ids);
int omp_get_place_num(void);
int omp_get_partition_num_places(void);
void omp_get_partition_place_nums(int *place_nums);
void omp_set_default_device(int device_num);
int omp_get_default_device(void);
int omp_get_num_devices(void);
int omp_get_num_teams(void);
int omp_get_team_num(void);
int omp_is_initial_device(void);
int omp_get_initial_device(void);
int omp_get_max_task_priority(void);

/* OpenMP 5.0/5.1 execution-environment routines: device numbers, teams ICVs, the
 * affinity format, the environment display, pausing resources (issue 26). On the
 * host these are the OpenMP runtime's (libgomp 12, libiomp5) but for
 * omp_get_device_num and omp_pause_resource, which know omp2gpu's devices
 * (runtime/host/omp_api.c); inside target regions runtime/device/omp_settings.c. */
typedef enum omp_pause_resource_t {
    omp_pause_soft = 1,
    omp_pause_hard = 2
} omp_pause_resource_t;
int omp_get_device_num(void);
int omp_get_supported_active_levels(void);
void omp_display_env(int verbose);
void omp_set_affinity_format(const char *format);
size_t omp_get_affinity_format(char *buffer, size_t size);
void omp_display_affinity(const char *format);
size_t omp_capture_affinity(char *buffer, size_t size, const char *format);
int omp_pause_resource(omp_pause_resource_t kind, int device_num);
int omp_pause_resource_all(omp_pause_resource_t kind);
void omp_set_num_teams(int num_teams);
int omp_get_max_teams(void);
void omp_set_teams_thread_limit(int thread_limit);
int omp_get_teams_thread_limit(void);

/* omp2gpu's own, not OpenMP's (guard a call with #ifdef __OMP2GPU__): the name of device
 * device_num, "GPU 0 (NVIDIA H100 80GB HBM3)", "CPU device (16 workers)", or "host" for
 * the initial device, into buffer (cut to size bytes, NUL included); returns the name's
 * length, as snprintf does, or -1 for no such device. Host code only. */
int omp2gpu_get_device_name(int device_num, char *buffer, size_t size);

/* Lock routines. */
void omp_init_lock(omp_lock_t *lock);
void omp_init_lock_with_hint(omp_lock_t *lock, omp_lock_hint_t hint);
void omp_destroy_lock(omp_lock_t *lock);
void omp_set_lock(omp_lock_t *lock);
void omp_unset_lock(omp_lock_t *lock);
int omp_test_lock(omp_lock_t *lock);
void omp_init_nest_lock(omp_nest_lock_t *lock);
void omp_init_nest_lock_with_hint(omp_nest_lock_t *lock, omp_lock_hint_t hint);
void omp_destroy_nest_lock(omp_nest_lock_t *lock);
void omp_set_nest_lock(omp_nest_lock_t *lock);
void omp_unset_nest_lock(omp_nest_lock_t *lock);
int omp_test_nest_lock(omp_nest_lock_t *lock);

/* Timing routines. */
double omp_get_wtime(void);
double omp_get_wtick(void);

/* Device memory routines. */
void *omp_target_alloc(size_t size, int device_num);
void omp_target_free(void *device_ptr, int device_num);
int omp_target_is_present(const void *ptr, int device_num);
int omp_target_memcpy(void *dst, const void *src, size_t length, size_t dst_offset,
                      size_t src_offset, int dst_device_num, int src_device_num);
int omp_target_memcpy_rect(void *dst, const void *src, size_t element_size, int num_dims,
                           const size_t *volume, const size_t *dst_offsets,
                           const size_t *src_offsets, const size_t *dst_dimensions,
                           const size_t *src_dimensions, int dst_device_num,
                           int src_device_num);
int omp_target_associate_ptr(const void *host_ptr, const void *device_ptr, size_t size,
                             size_t device_offset, int device_num);
int omp_target_disassociate_ptr(const void *ptr, int device_num);
/* OpenMP 5.1: the device address a host address is mapped to (NULL: not mapped; the
 * pointer itself on the host and under unified_shared_memory), and whether a target
 * region on the device may use host memory without a map (docs/unified-memory.md). */
void *omp_get_mapped_ptr(const void *ptr, int device_num);
int omp_target_is_accessible(const void *ptr, size_t size, int device_num);
/* Clang's extensions (guard with #ifdef __OMP2GPU__ for other compilers than Clang):
 * memory of device_num (_device: omp_target_alloc's) or memory both the host and the
 * device reach (_host, _shared: a GPU's managed memory, the CPU device's buffers); freed
 * by omp_target_free. */
void *llvm_omp_target_alloc_device(size_t size, int device_num);
void *llvm_omp_target_alloc_host(size_t size, int device_num);
void *llvm_omp_target_alloc_shared(size_t size, int device_num);

/* OpenMP 5.0 tasking: depend objects (the depobj construct) and detached tasks'
 * events, with libgomp's sizes (docs/tasks-5x.md). */
typedef struct omp_depend_t { void *_addr; long _kind; } omp_depend_t;
typedef unsigned long omp_event_handle_t;
void omp_fulfill_event(omp_event_handle_t event);

/* OpenMP 5.1 asynchronous copies: a task that waits for the depend objects' dependences
 * (as `target nowait depend(depobj: ...)`); 0 once it is made. */
int omp_target_memcpy_async(void *dst, const void *src, size_t length, size_t dst_offset,
                            size_t src_offset, int dst_device_num, int src_device_num,
                            int depobj_count, omp_depend_t *depobj_list);
int omp_target_memcpy_rect_async(void *dst, const void *src, size_t element_size, int num_dims,
                                 const size_t *volume, const size_t *dst_offsets,
                                 const size_t *src_offsets, const size_t *dst_dimensions,
                                 const size_t *src_dimensions, int dst_device_num,
                                 int src_device_num, int depobj_count, omp_depend_t *depobj_list);

/* OpenMP 5.1 interoperability (`#pragma omp interop`, docs/unified-memory.md): on a GPU
 * the CUDA stream of `init(targetsync: ...)` (ordered with target regions), the device's
 * ordinal and its primary context; on the CPU device and the host no foreign runtime, so
 * those properties have no value (omp_irc_no_value). */
typedef void *omp_interop_t;
#define omp_interop_none ((omp_interop_t)0)
typedef long omp_intptr_t;
typedef enum omp_interop_property_t {
    omp_ipr_fr_id = -1,
    omp_ipr_fr_name = -2,
    omp_ipr_vendor = -3,
    omp_ipr_vendor_name = -4,
    omp_ipr_device_num = -5,
    omp_ipr_platform = -6,
    omp_ipr_device = -7,
    omp_ipr_device_context = -8,
    omp_ipr_targetsync = -9,
    omp_ipr_first = -9
} omp_interop_property_t;
typedef enum omp_interop_rc_t {
    omp_irc_no_value = 1,
    omp_irc_success = 0,
    omp_irc_empty = -1,
    omp_irc_out_of_range = -2,
    omp_irc_type_int = -3,
    omp_irc_type_ptr = -4,
    omp_irc_type_str = -5,
    omp_irc_other = -6
} omp_interop_rc_t;
typedef enum omp_interop_fr_t {
    omp_ifr_cuda = 1,
    omp_ifr_cuda_driver = 2,
    omp_ifr_opencl = 3,
    omp_ifr_sycl = 4,
    omp_ifr_hip = 5,
    omp_ifr_level_zero = 6,
    omp_ifr_last = 7
} omp_interop_fr_t;
int omp_get_num_interop_properties(const omp_interop_t interop);
omp_intptr_t omp_get_interop_int(const omp_interop_t interop, omp_interop_property_t property_id,
                                 int *ret_code);
void *omp_get_interop_ptr(const omp_interop_t interop, omp_interop_property_t property_id, int *ret_code);
const char *omp_get_interop_str(const omp_interop_t interop, omp_interop_property_t property_id,
                                int *ret_code);
const char *omp_get_interop_name(const omp_interop_t interop, omp_interop_property_t property_id);
const char *omp_get_interop_type_desc(const omp_interop_t interop, omp_interop_property_t property_id);
const char *omp_get_interop_rc_desc(const omp_interop_t interop, omp_interop_rc_t ret_code);

/* OpenMP 5.0/5.1 memory management (issue 28): memory spaces, allocators and their
 * traits, with libgomp's and LLVM's values. Host code's routines are runtime/host/
 * omp_allocators.c (not the OpenMP runtime's), a device's the same file compiled for it;
 * docs/allocators.md says what each memory space is where. */
typedef unsigned long omp_uintptr_t;
typedef enum omp_memspace_handle_t {
    omp_default_mem_space = 0,
    omp_large_cap_mem_space = 1,
    omp_const_mem_space = 2,
    omp_high_bw_mem_space = 3,
    omp_low_lat_mem_space = 4,
    llvm_omp_target_host_mem_space = 100,   /* Clang's: the default device's memory the host */
    llvm_omp_target_shared_mem_space = 101, /* reaches too (host, shared) or its own (device); */
    llvm_omp_target_device_mem_space = 102, /* runtime/host/target_memory_spaces.c */
    __omp_memspace_handle_t_max__ = 0xffffffffffffffffUL
} omp_memspace_handle_t;
typedef enum omp_allocator_handle_t {
    omp_null_allocator = 0,
    omp_default_mem_alloc = 1,
    omp_large_cap_mem_alloc = 2,
    omp_const_mem_alloc = 3,
    omp_high_bw_mem_alloc = 4,
    omp_low_lat_mem_alloc = 5,
    omp_cgroup_mem_alloc = 6,
    omp_pteam_mem_alloc = 7,
    omp_thread_mem_alloc = 8,
    llvm_omp_target_host_mem_alloc = 100,
    llvm_omp_target_shared_mem_alloc = 101,
    llvm_omp_target_device_mem_alloc = 102,
    __omp_allocator_handle_t_max__ = 0xffffffffffffffffUL
} omp_allocator_handle_t;
typedef enum omp_alloctrait_key_t {
    omp_atk_sync_hint = 1,
    omp_atk_alignment = 2,
    omp_atk_access = 3,
    omp_atk_pool_size = 4,
    omp_atk_fallback = 5,
    omp_atk_fb_data = 6,
    omp_atk_pinned = 7,
    omp_atk_partition = 8
} omp_alloctrait_key_t;
typedef enum omp_alloctrait_value_t {
    omp_atv_default = -1,
    omp_atv_false = 0,
    omp_atv_true = 1,
    omp_atv_contended = 3,
    omp_atv_uncontended = 4,
    omp_atv_serialized = 5,
    omp_atv_sequential = omp_atv_serialized,        /* 5.0's name */
    omp_atv_private = 6,
    omp_atv_all = 7,
    omp_atv_thread = 8,
    omp_atv_pteam = 9,
    omp_atv_cgroup = 10,
    omp_atv_default_mem_fb = 11,
    omp_atv_null_fb = 12,
    omp_atv_abort_fb = 13,
    omp_atv_allocator_fb = 14,
    omp_atv_environment = 15,
    omp_atv_nearest = 16,
    omp_atv_blocked = 17,
    omp_atv_interleaved = 18
} omp_alloctrait_value_t;
typedef struct omp_alloctrait_t {
    omp_alloctrait_key_t key;
    omp_uintptr_t value;
} omp_alloctrait_t;
omp_allocator_handle_t omp_init_allocator(omp_memspace_handle_t memspace, int ntraits,
                                          const omp_alloctrait_t traits[]);
void omp_destroy_allocator(omp_allocator_handle_t allocator);
void omp_set_default_allocator(omp_allocator_handle_t allocator);
omp_allocator_handle_t omp_get_default_allocator(void);
void *omp_alloc(size_t size, omp_allocator_handle_t allocator);
void *omp_aligned_alloc(size_t alignment, size_t size, omp_allocator_handle_t allocator);
void *omp_calloc(size_t nmemb, size_t size, omp_allocator_handle_t allocator);
void *omp_aligned_calloc(size_t alignment, size_t nmemb, size_t size,
                         omp_allocator_handle_t allocator);
void *omp_realloc(void *ptr, size_t size, omp_allocator_handle_t allocator,
                  omp_allocator_handle_t free_allocator);
void omp_free(void *ptr, omp_allocator_handle_t allocator);

#endif
