"""The GPU's native launch path (runtime/native_launch/cuda_launch.c on mirror.c),
JIT-compiled once per process by the driver (provide_runtime) and started when a CUDA
device is the default device (device_driver.prepare_offload binds its
__omp2gpu_target). It opens the CUDA driver library itself; the context and the
kernels' CUfunction handles come from CudaDevice (cuda.py), which registers a kernel
after the launcher's first launch of it (CudaDevice.launched)."""

from __future__ import annotations

import ctypes
import os
import threading

from omp2gpu.offload.devices.base import DeviceError
from omp2gpu.offload.native_launch import NativeLauncher

# Detached target tasks' kernels on streams (docs/async.md): "1" on, "0" waited for as any
# launch. Off by default until a GPU run has checked it (docs/async.md, "Status").
NOWAIT_STREAMS_DEFAULT = "0"

_lock = threading.Lock()
_runtime_loader = None
_launcher: NativeLauncher | None = None


class GpuLauncher(NativeLauncher):
    def __init__(self, engine):
        self.engine = engine                  # its code lives as long as the engine
        self.device = None                    # the CudaDevice it serves (CudaDevice.launched)
        super().__init__(engine.get_function_address, "__omp2gpu_gpu_target")
        if self.function("__omp2gpu_gpu_load", ctypes.c_int)() != 0:
            raise DeviceError("the CUDA driver's entry points were not found for the native launch path")
        self.use_context = self.function("__omp2gpu_gpu_context", None, ctypes.c_void_p)
        self._team_stack = self.function("__omp2gpu_gpu_team_stack", None, ctypes.c_long, ctypes.c_long)
        self.asynchronous_launches = self.function("__omp2gpu_gpu_asynchronous_launches", ctypes.c_long)
        self.nowait_streams = self.function("__omp2gpu_gpu_nowait_streams", None, ctypes.c_int)
        # (address, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL) -> the GPU's ordinal, -1: not a GPU's
        self.device_of = self.function("__omp2gpu_gpu_device_of", ctypes.c_int, ctypes.c_long, ctypes.c_int)
        # (a stream handle) -> 0, or a CUresult: the launcher's later work waits for it
        self.wait_for_stream = self.function("__omp2gpu_gpu_wait_for_stream", ctypes.c_int, ctypes.c_void_p)
        self.nowait_streams(int(os.environ.get("OMP2GPU_NOWAIT_STREAMS", NOWAIT_STREAMS_DEFAULT).strip() == "1"))

    def team_stack(self, address: int, nbytes: int) -> None:
        """The launcher's team stack for control-loop kernels (DeviceState.team_stack)."""
        self._team_stack(address, nbytes)


def provide_runtime(loader) -> None:
    """How to get the native code: loader() returns a JIT engine for it. The driver,
    which compiles C, hands it over; the launcher compiles nothing itself."""
    global _runtime_loader
    _runtime_loader = loader


def launcher() -> GpuLauncher | None:
    """The started native path, None before start()."""
    return _launcher


def start() -> GpuLauncher:
    """The process's native GPU launch path, made on first use; DeviceError when it
    cannot be (no compiled code was provided, or the driver lacks an entry point)."""
    global _launcher
    with _lock:
        if _launcher is None:
            if _runtime_loader is None:
                raise DeviceError("the native GPU launch path was not compiled (the driver provides it)")
            _launcher = GpuLauncher(_runtime_loader())
        return _launcher
