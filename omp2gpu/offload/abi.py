"""The contract between compiled host code and the offload runtime, libomp2gpu
(runtime/offload/): the one table of its interface.

Host code built by the offload scheme calls these C entry points, which libomp2gpu
defines (tests/native/test_runtime_interface.py checks it does, and that offload.h's
constants are these); the map-type bits say what to do with each argument. Modelled
on libomptarget's __tgt_target_* interface.

    int  __omp2gpu_target(int64_t device, const char *kernel, int32_t count,
                          void **bases, void **begins, int64_t *sizes, int64_t *types,
                          int32_t num_teams, int32_t thread_limit, int64_t trip_count,
                          const char *where);
         -> 0 when the kernel ran on the device; nonzero: the caller runs the host fallback
    void __omp2gpu_target_data_begin (int64_t device, int32_t count, void **bases,
                                      void **begins, int64_t *sizes, int64_t *types,
                                      const char *where);
    void __omp2gpu_target_data_end   (same arguments)
    void __omp2gpu_target_data_update(same arguments)
    void __omp2gpu_host_region_begin(int64_t device, const char *where)
    void __omp2gpu_host_region_end  (int64_t device, const char *where)
         -> around a target region the device build refused, which the host runs instead:
            begin copies back to the host every mapping of the device that a kernel may
            have written since the host last saw it; end copies every mapping of the
            device from the host. The region then reads and leaves the device data
            environment's values, as on the device. Nothing happens when nothing is mapped.
    void __omp2gpu_register_global(void *host_address, const char *name, int64_t size)
         -> a `declare target` global: present for the whole run, initialised from the host
    void __omp2gpu_register_link_global(void *host_address, const char *name, int64_t size)
         -> a `declare target link` global: its device storage is used while a map clause maps it

    int   __omp2gpu_num_devices(void)
    void  __omp2gpu_set_default_device(int device)      (omp_set_default_device)
    void *__omp2gpu_target_alloc(size_t size, int device)          (NULL on failure)
    void  __omp2gpu_target_free(void *device_pointer, int device)
    int   __omp2gpu_target_is_present(void *host_pointer, int device)
    int   __omp2gpu_target_memcpy(void *dst, void *src, size_t length, size_t dst_offset,
                                  size_t src_offset, int dst_device, int src_device)
         -> the omp_* device-memory routines of runtime/host forward to these for
            device numbers other than the initial device's.
    int   __omp2gpu_device_name(int device, char *buffer, size_t size)
         -> omp2gpu_get_device_name (omp.h) for a device: its name, cut to `size`, and
            its length, or -1 for no such device

`device` is -1 for "no device clause" (use default-device-var). `where` is the
construct's "file:line:col" (runtime/offload/host_memory.c names it when a map entry is
bad: a negative length, a section past its heap block or off the host's memory; that is fatal, exit
status 1, whenever a device is used (MANDATORY, or DEFAULT with a device), as
libomptarget's failed mapping is; with no device nothing is mapped).
After `where`'s NUL come the entries' labels, each NUL-terminated, ended by an empty one:
one per entry, the list item as the program wrote it and its line ("'a[0:n]' (line 12)"),
for the runtime's messages about an entry ("... is not present on device", a section past
its allocation); entries a mapper adds at run time have none.
For each argument i: `bases[i]` is the variable's value as the kernel sees it
(the pointer for `p[lo:len]`, the address for an object), `begins[i]` the first
byte mapped, `sizes[i]` the byte count. The kernel parameter for a mapped
argument is the device address corresponding to bases[i].

Struct members (`map(to: s.x, s.p[0:n])`, as Clang lays them out): the struct's
entry covers the members' extent and maps nothing by itself; each member is an
entry MEMBER_OF it (counted with it, copied when it is newly mapped or released);
a pointer member's pointee is an entry of its own, followed by an ATTACH entry
(bases[i]: the host address of the pointer; begins[i], sizes[i]: the pointee's
section) that makes the device copy of the pointer point at the device copy of
the pointee. Copies back to the host never overwrite an attached pointer.

The kernels themselves: the compiler describes each to the runtime with a
KernelInfo (parameter kinds, default block size, scheme, team-stack bytes); the
scheme names and sizes below are the ones both sides must agree on, so codegen
imports them from here (native_image.py writes them into the image's kernel table).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class MapType(enum.IntFlag):
    NONE = 0x0
    TO = 0x1                # copy host -> device on entry (when newly allocated, or ALWAYS)
    FROM = 0x2              # copy device -> host on exit (when the reference count drops to 0, or ALWAYS)
    ALWAYS = 0x4            # copy whatever the reference count says
    DELETE = 0x8            # map(delete:): force the reference count to zero
    TARGET_PARAM = 0x20     # this entry is a kernel parameter (in order)
    RETURN_PARAM = 0x40     # use_device_ptr: write the device address back into bases[i]
    PRIVATE = 0x80          # firstprivate (with TO) or private array or struct: device storage of its own for
                            # the construct, whatever is mapped at that address, the host's bytes copied there
                            # with TO; given back after, never copied back
    LITERAL = 0x100         # by-value scalar: pass the sizes[i] bytes at begins[i] as the parameter
    IMPLICIT = 0x200        # not named in a clause (implicit map)
    IS_DEVICE_PTR = 0x400   # pass bases[i] through unchanged
    POINTER_LOOKUP = 0x800  # a pointer with no map: pass the device address of its pointee if present, else NULL
    ATTACH = 0x1000         # point the device copy of the pointer at bases[i] to its mapped pointee
    PRESENT = 0x2000        # 5.1 `present` modifier: mapped already, else the program's error
    # OpenMP 5.0, the native runtime only (runtime/offload/mappers.c, strided_copies.c):
    MAPPER = 0x1000000      # declare mapper over an array of structs: bases[i] its first element, begins[i]
                            # a function void f(void *list, push, void *first, int64 count, int64 type)
                            # calling push(list, base, begin, size, type) per entry, sizes[i] the count
    NON_CONTIG = 0x2000000  # target update of a strided section: bases[i] its descriptor (int64:
                            # dims, element bytes, then count and byte stride per dimension, outermost first)
    ALLOCATOR = 0x4000000   # uses_allocators(a(traits)): bases[i] = begins[i] the allocator's record made on the
                            # host, sizes[i] its bytes, mapped TO for the construct; the parameter is the device
                            # copy's address, by value (sizes[i] 0, a predefined allocator: bases[i] as it is)


# __omp2gpu_target's trip_count for a loop the host cannot count: its bounds call an
# OpenMP routine, whose answer is the device's (codegen/openmp/plan/launch_shape.py
# _countable_on_host): as large as a count can be, so the
# launcher (runtime/offload/policy.c launch_configuration) gives it the most teams it gives
# any loop, whose grid-stride or distribute code takes whatever iterations there are
TRIP_COUNT_UNKNOWN = (1 << 63) - 1

MEMBER_OF_SHIFT = 48        # bits 48..63: 1 + the index of the struct entry this entry is a member of


def member_of(parent_index: int) -> int:
    """The type bits saying "a member of the struct entry at parent_index"."""
    return (parent_index + 1) << MEMBER_OF_SHIFT


def parent_index(map_type: int) -> int | None:
    """The struct entry a member entry belongs to, None for an entry of its own."""
    parent = int(map_type) >> MEMBER_OF_SHIFT
    return parent - 1 if parent else None


ENTRY_TARGET = "__omp2gpu_target"
ENTRY_DATA_BEGIN = "__omp2gpu_target_data_begin"
ENTRY_DATA_END = "__omp2gpu_target_data_end"
ENTRY_DATA_UPDATE = "__omp2gpu_target_data_update"
ENTRY_REGISTER_GLOBAL = "__omp2gpu_register_global"
ENTRY_HOST_REGION_BEGIN = "__omp2gpu_host_region_begin"
ENTRY_HOST_REGION_END = "__omp2gpu_host_region_end"
ENTRY_REGISTER_LINK_GLOBAL = "__omp2gpu_register_link_global"
# The device image as a shared object for remote servers (remote_image.py, docs/remote.md),
# from a constructor of the native link: void __omp2gpu_register_remote_code(const void *, int64_t)
ENTRY_REGISTER_REMOTE_CODE = "__omp2gpu_register_remote_code"

# `#pragma omp requires` (sema/requires.py), from a constructor of each file that says it
# (native programs only: libomp2gpu): void __omp2gpu_requires(int64_t flags, const char *where)
# flags: REQUIRES_* bits; where: the first such directive's "file:line:col". Every file must
# agree (else a located error); unified_shared_memory makes every device use host memory in place.
ENTRY_REQUIRES = "__omp2gpu_requires"
REQUIRES_UNIFIED_ADDRESS, REQUIRES_UNIFIED_SHARED_MEMORY = 0x1, 0x2
# A unified_shared_memory file's heap functions are these (runtime/offload/usm_heap.c):
# memory every device can reach, chosen at run time (docs/unified-memory.md).
USM_HEAP_PREFIX = "__omp2gpu_usm_"

ENTRY_NUM_DEVICES = "__omp2gpu_num_devices"
ENTRY_SET_DEFAULT_DEVICE = "__omp2gpu_set_default_device"
ENTRY_TARGET_ALLOC = "__omp2gpu_target_alloc"
ENTRY_TARGET_FREE = "__omp2gpu_target_free"
ENTRY_TARGET_IS_PRESENT = "__omp2gpu_target_is_present"
ENTRY_TARGET_MEMCPY = "__omp2gpu_target_memcpy"
ENTRY_DEVICE_NAME = "__omp2gpu_device_name"      # omp2gpu_get_device_name (runtime/host/omp_api.c)
# OpenMP 5.1 device-memory routines of runtime/host/omp_api.c (native programs only:
# runtime/offload/device_memory.c): void *__omp2gpu_mapped_ptr(void *, int device),
# int __omp2gpu_target_is_accessible(const void *, size_t, int device),
# int __omp2gpu_associate_ptr(void *host, void *device_ptr, size_t, size_t offset, int device),
# int __omp2gpu_disassociate_ptr(void *host, int device),
# void *__omp2gpu_target_alloc_kind(size_t, int device, int kind) (llvm_omp_target_alloc_*)
ENTRY_MAPPED_PTR = "__omp2gpu_mapped_ptr"
ENTRY_TARGET_IS_ACCESSIBLE = "__omp2gpu_target_is_accessible"
ENTRY_ASSOCIATE_PTR = "__omp2gpu_associate_ptr"
ENTRY_DISASSOCIATE_PTR = "__omp2gpu_disassociate_ptr"
ENTRY_TARGET_ALLOC_KIND = "__omp2gpu_target_alloc_kind"
# `#pragma omp interop` (codegen/openmp/host/interop.py; native programs only: runtime/offload/interop.c):
#   void __omp2gpu_interop_init(omp_interop_t *obj, int64_t device, int32_t targetsync, const char *where)
#   void __omp2gpu_interop_use(omp_interop_t *obj, const char *where)
#   void __omp2gpu_interop_destroy(omp_interop_t *obj, const char *where)   (obj = omp_interop_none)
ENTRY_INTEROP_INIT = "__omp2gpu_interop_init"
ENTRY_INTEROP_USE = "__omp2gpu_interop_use"
ENTRY_INTEROP_DESTROY = "__omp2gpu_interop_destroy"
# What a device is, for a metadirective's target_device selector decided at run time
# (runtime/host/omp_api.c's __omp2gpu_device_code): int __omp2gpu_device_kind(int device)
# -> DEVICE_CODE_CPU or DEVICE_CODE_GPU, -1 for no such device.
ENTRY_DEVICE_KIND = "__omp2gpu_device_kind"
# OMP_ALLOCATOR as libomp2gpu read it at start-up (runtime/offload/env_allocator.c), called by
# the host runtime's def-allocator-var (runtime/host/omp_allocators.c):
#   int __omp2gpu_env_allocator(omp_memspace_handle_t *, omp_alloctrait_t traits[16], int *ntraits)
#   -> a predefined allocator's handle; 0: make one from the memory space and traits; -1: none
ENTRY_ENV_ALLOCATOR = "__omp2gpu_env_allocator"
# The `pinned` allocator trait's page-locked host memory (runtime/offload/pinned_memory.c),
# called by runtime/host/omp_allocators.c: void *__omp2gpu_pinned_alloc(size_t, int *device)
# (NULL: the default device has none, plain memory then), void __omp2gpu_pinned_free(void *, int device)
ENTRY_PINNED_ALLOC = "__omp2gpu_pinned_alloc"
ENTRY_PINNED_FREE = "__omp2gpu_pinned_free"
DEVICE_CODE_HOST, DEVICE_CODE_CPU, DEVICE_CODE_GPU = 0, 1, 2
# a detached target task's completion event, offered to its launch (docs/async.md):
#   void __omp2gpu_target_task_begin(void *event, int flags); int __omp2gpu_target_task_end(void)
#   (1: the launch took the event and fulfils it when its GPU work is done); flags:
#   TASK_MAY_RUN_AHEAD for a task with no `depend` clause (runtime/offload/run_ahead.c)
ENTRY_TARGET_TASK_BEGIN = "__omp2gpu_target_task_begin"
ENTRY_TARGET_TASK_END = "__omp2gpu_target_task_end"
TASK_MAY_RUN_AHEAD = 0x1
# The OpenMP runtime's entry points after which the calling thread's tasks are complete:
# a native program's calls to each NAME go to libomp2gpu's __wrap_NAME
# (runtime/offload/openmp_waits.c; linked with -Wl,--wrap=NAME), which also waits for the
# thread's target tasks whose kernels run ahead (docs/async.md).
RUN_AHEAD_WAITS = ("GOMP_taskwait", "GOMP_taskgroup_end", "GOMP_barrier", "GOMP_barrier_cancel",
                   "GOMP_loop_end", "GOMP_loop_end_cancel", "GOMP_sections_end", "GOMP_sections_end_cancel",
                   "GOMP_single_copy_end", "GOMP_taskloop", "GOMP_taskloop_ull", "GOMP_parallel")

# Called by runtime/mpi/device_buffers.c (MPI staging, linked into native programs that call
# MPI), not by compiled code: int __omp2gpu_device_memory(const void *address, int *host_readable)
# -> the device whose memory holds address, -1 for none; *host_readable: 1 for the CPU device's.
STAGING_DEVICE_MEMORY = "__omp2gpu_device_memory"

DEFAULT_DEVICE = -1
# The device runtime's int that omp_get_device_num reads (runtime/device/omp_settings.c):
# the runtime writes the device's number there when it loads a module onto it.
DEVICE_NUMBER_GLOBAL = "__omp2gpu_device_num"


# --- kernels ------------------------------------------------------------------------

POINTER = "pointer"   # a kernel parameter that is an 8-byte device address
BYTES = "bytes"       # a kernel parameter passed by value: its raw little-endian bytes
PARAM_KINDS = (POINTER, BYTES)

# GPU schemes (codegen/openmp/schemes.py registers their classes under these names).
GPU_COMBINED = "combined"             # the SPMD grid-stride loop
GPU_CONTROL_LOOP = "control-loop"     # the team master's state machine; takes the team stack
GPU_SERIAL = "serial"                 # one thread runs it: OMP2GPU_LAUNCH does not reshape it
GPU_SPMDIZED = "spmdized"             # the control loop without its state machine: master code guarded
COMBINED_BLOCK_SIZE = 512             # combined kernels' threads per block (best on sm_90 in bench/vadd)
CONTROL_LOOP_BLOCK_SIZE = 128         # control-loop kernels' team size
# A kernel's wide-register twin in the PTX (targets/nvptx/wide_twins.py), which the runtime
# launches where the grid is too small for registers to cost occupancy (runtime/offload/offload.h)
WIDE_TWIN_SUFFIX = "__wide"

# CPU work-group functions: each scheme's launch shape differs.
CPU_COMBINED = "cpu-combined"         # work-items of a grid-stride loop
CPU_SEQUENTIAL = "cpu-sequential"     # one group of one work-item
CPU_TEAMS = "cpu-teams"               # a team per group, at most CPU_MAX_TEAM work-items
CPU_MAX_TEAM = 256


@dataclass
class KernelInfo:
    """What the compiler tells the runtime about one kernel."""
    name: str
    params: list[str]                     # "pointer" / "bytes", one per TARGET_PARAM entry, in order
    default_block_size: int | None = None  # threads per block when thread_limit does not say
    scheme: str = ""                      # the codegen scheme (for reports)
    # GPU control-loop kernels take one more pointer, the team stack: grid x this many
    # bytes of device memory (0: a null pointer will do). None: no such parameter.
    team_stack_bytes: int | None = None
    one_team: bool = False                # no teams construct: one team, even under OMP2GPU_LAUNCH
    # From the optimised GPU code (device_driver.with_effects): the kernel writes memory only
    # through its pointer parameters, and these parameters (indexes) it only reads.
    args_only: bool = False
    read_only_params: tuple[int, ...] = ()
    # The bytes each parameter passes: 8 a pointer, a literal its size (a complex double 16);
    # a launcher that forwards the values (a remote device) reads them. () unknown: 8 each.
    param_bytes: tuple[int, ...] = ()
    # From the GPU code's header (device_driver.with_effects): the fused kernel's slot for
    # this kernel's body (targets/nvptx/fusion.py); -1: its launches are never fused.
    fused_slot: int = -1
    # A grid-stride kernel folding no reduction across teams: the launcher may narrow its
    # default blocks to spread a short loop over every multiprocessor (policy.c spread_block).
    spreads: bool = False

    def __post_init__(self):
        for kind in self.params:
            if kind not in PARAM_KINDS:
                raise ValueError(f"kernel {self.name}: parameter kind {kind!r} is not one of {PARAM_KINDS}")
