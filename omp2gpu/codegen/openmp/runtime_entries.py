"""The runtime entry points generated code calls, each named once with its signature.

A call site names an entry point by attribute (`DeviceRuntime.kernel_init.call(b, ...)`),
so a misspelt name fails when the module is imported, not when the program links, and
the signature is written once, here. One class per runtime the code is linked with:

- OffloadRuntime: libomp2gpu (runtime/offload/); offload/abi.py, the interface table
  both sides agree on, names them and says what they do.
- DeviceRuntime: the GPU device runtime (runtime/device/), in libomp's __kmpc_* spelling.
- CpuDeviceRuntime: the CPU device's (runtime/cpu_device/).
- HostRuntime: the host's additions to the OpenMP runtime (runtime/host/).
- OmpApi: OpenMP API routines (omp.h) the compiler itself calls; every runtime has them.

The production OpenMP runtime's GOMP_* entry points have their own table (gomp.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from llvmlite import ir

from omp2gpu.codegen.ir_types import I8P, I32, I64, I64P, VOID
from omp2gpu.offload import abi


@dataclass(frozen=True)
class RuntimeFunction:
    name: str
    result: ir.Type
    params: tuple[ir.Type, ...] = ()

    def declare(self, module: ir.Module) -> ir.Function:
        """The function in `module`, declared on first use."""
        existing = module.globals.get(self.name)
        if existing is not None:
            return existing
        return ir.Function(module, ir.FunctionType(self.result, self.params), name=self.name)

    def call(self, builder: ir.IRBuilder, arguments=()) -> ir.Value:
        return builder.call(self.declare(builder.module), list(arguments))


_I8PP, _I32P = I8P.as_pointer(), I32.as_pointer()
# the map-entry arrays: device, count, bases, begins, sizes, map types, where (abi.py)
_DATA_PARAMS = (I64, I32, _I8PP, _I8PP, I64P, I64P, I8P)
# runtime/host/threadprivate.c's __omp2gpu_threadprivate_key: a once-made pthread key
THREADPRIVATE_KEY = ir.LiteralStructType([I32, I32])


class OffloadRuntime:
    target = RuntimeFunction(abi.ENTRY_TARGET, I32, (I64, I8P, I32, _I8PP, _I8PP, I64P, I64P, I32, I32, I64, I8P))
    data_begin = RuntimeFunction(abi.ENTRY_DATA_BEGIN, VOID, _DATA_PARAMS)
    data_end = RuntimeFunction(abi.ENTRY_DATA_END, VOID, _DATA_PARAMS)
    data_update = RuntimeFunction(abi.ENTRY_DATA_UPDATE, VOID, _DATA_PARAMS)
    host_region_begin = RuntimeFunction(abi.ENTRY_HOST_REGION_BEGIN, VOID, (I64, I8P))
    host_region_end = RuntimeFunction(abi.ENTRY_HOST_REGION_END, VOID, (I64, I8P))
    register_global = RuntimeFunction(abi.ENTRY_REGISTER_GLOBAL, VOID, (I8P, I8P, I64))
    register_link_global = RuntimeFunction(abi.ENTRY_REGISTER_LINK_GLOBAL, VOID, (I8P, I8P, I64))
    requires = RuntimeFunction(abi.ENTRY_REQUIRES, VOID, (I64, I8P))
    interop_init = RuntimeFunction(abi.ENTRY_INTEROP_INIT, VOID, (_I8PP, I64, I32, I8P))
    interop_use = RuntimeFunction(abi.ENTRY_INTEROP_USE, VOID, (_I8PP, I8P))
    interop_destroy = RuntimeFunction(abi.ENTRY_INTEROP_DESTROY, VOID, (_I8PP, I8P))
    target_task_begin = RuntimeFunction(abi.ENTRY_TARGET_TASK_BEGIN, VOID, (I8P, I32))
    target_task_end = RuntimeFunction(abi.ENTRY_TARGET_TASK_END, I32)


class DeviceRuntime:
    """runtime/device/team_state.c: the team's state the omp_* queries read."""
    kernel_init = RuntimeFunction("__kmpc_kernel_init", VOID, (I32, I8P))             # spmd, nesting depths
    serialized_parallel = RuntimeFunction("__kmpc_serialized_parallel", VOID)
    end_serialized_parallel = RuntimeFunction("__kmpc_end_serialized_parallel", VOID)
    prepare_parallel = RuntimeFunction("__kmpc_prepare_parallel", VOID, (I32,))       # num_threads asked for
    parallel_start = RuntimeFunction("__kmpc_parallel_start", I32)                    # -> the team's threads
    parallel_end = RuntimeFunction("__kmpc_parallel_end", VOID)
    # trip, chunk, thread, threads -> first, length, stride: in 32 bits (_4) and 64 (_8)
    for_static_init_4 = RuntimeFunction("__kmpc_for_static_init_4", VOID,
                                        (I32, I32, I32, I32, _I32P, _I32P, _I32P))
    for_static_init_8 = RuntimeFunction("__kmpc_for_static_init_8", VOID, (I64, I64, I32, I32, I64P, I64P, I64P))


class CpuDeviceRuntime:
    """runtime/cpu_device/omp_device.c."""
    team = RuntimeFunction("__omp2gpu_cpu_team", _I32P)      # the work-group's team words
    host_parallel_begin = RuntimeFunction("__omp2gpu_host_parallel_begin", VOID)
    host_parallel_end = RuntimeFunction("__omp2gpu_host_parallel_end", VOID)


class HostRuntime:
    error_directive = RuntimeFunction("__omp2gpu_error_directive", VOID, (I8P, I32))   # error_directive.c
    allocator_alignment = RuntimeFunction("__omp2gpu_allocator_alignment", I64, (I64, I64))   # omp_allocators.c
    allocator_record_bytes = RuntimeFunction("__omp2gpu_allocator_record_bytes", I64, (I64,))  # omp_allocators.c
    # threadprivate.c: (original, initial image, size, key) -> the calling thread's copy
    threadprivate = RuntimeFunction("__omp2gpu_threadprivate", I8P, (I8P, I8P, I64, THREADPRIVATE_KEY.as_pointer()))
    device_code = RuntimeFunction("__omp2gpu_device_code", I32, (I32,))    # omp_api.c: abi.DEVICE_CODE_*


class OmpApi:
    aligned_alloc = RuntimeFunction("omp_aligned_alloc", I8P, (I64, I64, I64))
    free = RuntimeFunction("omp_free", VOID, (I8P, I64))
    get_default_device = RuntimeFunction("omp_get_default_device", I32)
    get_mapped_ptr = RuntimeFunction("omp_get_mapped_ptr", I8P, (I8P, I32))      # (pointer, device)
    set_default_device = RuntimeFunction("omp_set_default_device", VOID, (I32,))
