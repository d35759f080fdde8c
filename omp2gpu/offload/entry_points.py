"""The C entry points of offload/abi.py as ctypes callbacks, bound for the JIT.

`install()` registers each callback's address under its C name with
llvmlite.binding.add_symbol, so MCJIT'd host code calls straight into
offload.runtime. The callbacks live in this module for the whole process
(the JIT'd code keeps their addresses). An exception must never cross back
into C: ctypes would print a traceback and return garbage, so each callback
reports one line and returns a failure value instead.
"""

from __future__ import annotations

import ctypes
from ctypes import POINTER, c_char_p, c_int, c_int32, c_int64, c_long, c_size_t, c_void_p

import llvmlite.binding as llvm

from omp2gpu.offload import abi, runtime
from omp2gpu.offload.launcher_lock import LAUNCHER_LOCK

VOID_PP = POINTER(c_void_p)
INT64_P = POINTER(c_int64)
_DATA_ARGS = (c_int64, c_int32, VOID_PP, VOID_PP, INT64_P, INT64_P, c_char_p)

# name -> (C prototype, value returned when the Python side raised)
_PROTOTYPES = {
    abi.ENTRY_TARGET: (ctypes.CFUNCTYPE(c_int, c_int64, c_char_p, c_int32, VOID_PP, VOID_PP, INT64_P,
                                        INT64_P, c_int32, c_int32, c_int64, c_char_p), 1),
    abi.ENTRY_DATA_BEGIN: (ctypes.CFUNCTYPE(None, *_DATA_ARGS), None),
    abi.ENTRY_DATA_END: (ctypes.CFUNCTYPE(None, *_DATA_ARGS), None),
    abi.ENTRY_DATA_UPDATE: (ctypes.CFUNCTYPE(None, *_DATA_ARGS), None),
    abi.ENTRY_HOST_REGION_BEGIN: (ctypes.CFUNCTYPE(None, c_int64, c_char_p), None),
    abi.ENTRY_HOST_REGION_END: (ctypes.CFUNCTYPE(None, c_int64, c_char_p), None),
    abi.ENTRY_REGISTER_GLOBAL: (ctypes.CFUNCTYPE(None, c_void_p, c_char_p, c_int64), None),
    abi.ENTRY_REGISTER_LINK_GLOBAL: (ctypes.CFUNCTYPE(None, c_void_p, c_char_p, c_int64), None),
    abi.ENTRY_NUM_DEVICES: (ctypes.CFUNCTYPE(c_int), 0),
    abi.ENTRY_SET_DEFAULT_DEVICE: (ctypes.CFUNCTYPE(None, c_int), None),
    abi.ENTRY_TARGET_ALLOC: (ctypes.CFUNCTYPE(c_void_p, c_size_t, c_int), None),
    abi.ENTRY_TARGET_FREE: (ctypes.CFUNCTYPE(None, c_void_p, c_int), None),
    abi.ENTRY_TARGET_IS_PRESENT: (ctypes.CFUNCTYPE(c_int, c_void_p, c_int), 0),
    abi.ENTRY_TARGET_MEMCPY: (ctypes.CFUNCTYPE(c_int, c_void_p, c_void_p, c_size_t, c_size_t, c_size_t,
                                               c_int, c_int), -1),
    abi.ENTRY_DEVICE_NAME: (ctypes.CFUNCTYPE(c_int, c_int, c_void_p, c_size_t), -1),
    abi.ENTRY_DEVICE_KIND: (ctypes.CFUNCTYPE(c_int, c_int), -1),
    abi.ENTRY_TARGET_TASK_BEGIN: (ctypes.CFUNCTYPE(None, c_void_p, c_int), None),
    abi.ENTRY_TARGET_TASK_END: (ctypes.CFUNCTYPE(c_int), 0),
}


def _text(pointer: bytes | None) -> str:
    return (pointer or b"").decode("utf-8", "replace")


def _target(device, kernel, count, bases, begins, sizes, types, num_teams, thread_limit, trip_count,
            where):
    return runtime.target(device, _text(kernel), count, bases, begins, sizes, types,
                          num_teams, thread_limit, trip_count, _text(where))


def _data(operation):
    def call(device, count, bases, begins, sizes, types, where):
        operation(device, count, bases, begins, sizes, types, _text(where))
    return call


def _register_global(host_address, name, size):
    runtime.register_global(host_address or 0, _text(name), size)


def _register_link_global(host_address, name, size):
    runtime.register_link_global(host_address or 0, _text(name), size)


def _target_alloc(size, device):
    return runtime.target_alloc(size, device) or None


def _target_free(device_pointer, device):
    runtime.target_free(device_pointer or 0, device)


def _target_is_present(host_pointer, device):
    return runtime.target_is_present(host_pointer or 0, device)


def _target_memcpy(dst, src, length, dst_offset, src_offset, dst_device, src_device):
    return runtime.target_memcpy(dst or 0, src or 0, length, dst_offset, src_offset,
                                 dst_device, src_device)


def _device_name(device, buffer, size):
    """The device's label ("GPU 0 (NVIDIA H100 80GB HBM3)", "CPU device (16 workers)") into
    `buffer`, cut to `size` bytes with its NUL; its full length as snprintf's, -1 for no
    such device."""
    states = runtime.runtime().states
    if not 0 <= device < len(states):
        return -1
    name = states[device].device.label.encode()
    if buffer and size > 0:
        kept = min(len(name), size - 1)
        ctypes.memmove(buffer, name, kept)
        ctypes.memset(buffer + kept, 0, 1)
    return len(name)


def _device_kind(device):
    states = runtime.runtime().states
    if not 0 <= device < len(states):
        return -1
    return abi.DEVICE_CODE_CPU if getattr(states[device].device, "kind", "gpu") == "cpu" else abi.DEVICE_CODE_GPU


_IMPLEMENTATIONS = {
    abi.ENTRY_TARGET: _target,
    abi.ENTRY_DATA_BEGIN: _data(lambda *args: runtime.data_begin(*args)),
    abi.ENTRY_DATA_END: _data(lambda *args: runtime.data_end(*args)),
    abi.ENTRY_DATA_UPDATE: _data(lambda *args: runtime.data_update(*args)),
    abi.ENTRY_HOST_REGION_BEGIN: lambda device, where: runtime.host_region(device, True, _text(where)),
    abi.ENTRY_HOST_REGION_END: lambda device, where: runtime.host_region(device, False, _text(where)),
    abi.ENTRY_REGISTER_GLOBAL: _register_global,
    abi.ENTRY_REGISTER_LINK_GLOBAL: _register_link_global,
    abi.ENTRY_NUM_DEVICES: lambda: runtime.num_devices(),
    abi.ENTRY_SET_DEFAULT_DEVICE: lambda device: runtime.set_default_device(device),
    abi.ENTRY_TARGET_ALLOC: _target_alloc,
    abi.ENTRY_TARGET_FREE: _target_free,
    abi.ENTRY_TARGET_IS_PRESENT: _target_is_present,
    abi.ENTRY_TARGET_MEMCPY: _target_memcpy,
    abi.ENTRY_DEVICE_NAME: _device_name,
    abi.ENTRY_DEVICE_KIND: _device_kind,
    # the launcher's own launches finish before they return: no event is ever taken
    abi.ENTRY_TARGET_TASK_BEGIN: lambda event, flags: None,
    abi.ENTRY_TARGET_TASK_END: lambda: 0,
}


def _shielded(name: str, implementation, failure):
    """implementation, one call at a time, with any exception turned into a one-line
    error and `failure`."""
    def call(*args):
        try:
            with LAUNCHER_LOCK:
                return implementation(*args)
        except Exception as error:
            reason = f"{name}: internal error in the offload runtime: {type(error).__name__}: {error}"
            runtime.report("error", reason)
            try:
                runtime.runtime().fail_all(reason)   # the host copy is all that can be trusted now
            except Exception:
                pass
            return failure
    return call


# The callbacks, made once: their addresses must stay valid while JIT'd code may call them.
CALLBACKS = {name: prototype(_shielded(name, _IMPLEMENTATIONS[name], failure))
             for name, (prototype, failure) in _PROTOTYPES.items()}


def address(name: str) -> int:
    """The C function pointer of one entry point."""
    return ctypes.cast(CALLBACKS[name], c_void_p).value


def install(binding=llvm) -> None:
    """Make every entry point resolvable by the JIT (llvmlite.binding by default)."""
    for name in CALLBACKS:
        binding.add_symbol(name, address(name))


def _native_failed(device, reason):
    runtime.runtime().native_launch_failed(device, _text(reason))


# What a native launch path calls when the device failed under it (the region then
# runs on the host): the launcher gives the device up, as for its own launches.
NATIVE_FAILED = ctypes.CFUNCTYPE(None, c_long, c_char_p)(
    _shielded("native launch", _native_failed, None))


def install_fast_path(native, binding=llvm) -> None:
    """Bind __omp2gpu_target, __omp2gpu_target_data_update and __omp2gpu_set_default_device
    to a native launch path's versions (native_launch.NativeLauncher: the CPU device's or the GPU's), which fall
    back on ours; our lock holds its mutex from now on."""
    native.init(address(abi.ENTRY_TARGET), address(abi.ENTRY_SET_DEFAULT_DEVICE),
                ctypes.cast(NATIVE_FAILED, c_void_p).value, address(abi.ENTRY_DATA_UPDATE))
    LAUNCHER_LOCK.use_native(native)
    for name, entry in native.entry_points.items():
        binding.add_symbol(name, entry)
