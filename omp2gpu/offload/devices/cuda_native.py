"""The GPU's native launch path (runtime/native_launch/cuda_launch.c on mirror.c),
JIT-compiled by the driver (provide_runtime) and started when a CUDA device is the
default device (device_driver.prepare_offload binds its __omp2gpu_target). It opens the
CUDA driver library itself; the context and the kernels' CUfunction handles come from
CudaDevice (cuda.py), which registers a kernel after the launcher's first launch of it
(CudaDevice.launched).

One native module serves one GPU (its statics hold one context, one mirror of one
present table, one lock). Several GPUs get a module each, made when a device first
launches, and chained: each module's fall-back entry points (__omp2gpu_target,
__omp2gpu_target_data_update, __omp2gpu_set_default_device) are the next module's, the
last one's the launcher's in Python. So a launch on any GPU skips Python, and launches on
different GPUs from different host threads hold different locks."""

from __future__ import annotations

import ctypes
import os
import threading

from omp2gpu.offload import abi
from omp2gpu.offload.devices.base import DeviceError
from omp2gpu.offload.launcher_lock import LAUNCHER_LOCK
from omp2gpu.offload.native_launch import NativeLauncher

# Detached target tasks' kernels on streams (docs/async.md): "1" on, "0" waited for as any
# launch. On since its GPU run (H100, 2026-11-26: docs/async.md, "Status").
NOWAIT_STREAMS_DEFAULT = "1"
# Automatic concurrency of synchronous launches with known footprints (docs/async.md):
# "1" on, "0" off. Off until GPU runs have shown it safe and worth it.
AUTO_ASYNC_DEFAULT = "0"
# How a detached task's event is fulfilled once its kernel is done (docs/async.md):
# "hostfunc" (cuLaunchHostFunc after the kernel) or "poll" (completion_poller.c's thread).
NOWAIT_COMPLETION_DEFAULT = "poll"
# Target tasks with no `depend` met outside parallel regions run ahead (run_ahead.c,
# docs/async.md): "1" on, "0" their launches detach as inside a parallel region, and the
# OpenMP runtime, which runs such a task at once, waits for its kernel.
NOWAIT_RUN_AHEAD_DEFAULT = "1"
# The GOMP entry points after which the calling thread's tasks are complete: the
# program's calls go to run_ahead.c's wrappers, which wait for its run-ahead kernels first.
RUN_AHEAD_WAITS = abi.RUN_AHEAD_WAITS

_lock = threading.Lock()
_runtime_loader = None
_chain: list = []                 # every module in fall-back order; the first is bound to the JIT
MAX_MODULES = 16


class GpuLauncher(NativeLauncher):
    def __init__(self, engine):
        self.engine = engine                  # its code lives as long as the engine
        self.device = None                    # the CudaDevice it serves (CudaDevice.launched)
        super().__init__(engine.get_function_address, "__omp2gpu_gpu_target", "__omp2gpu_gpu_update")
        if self.function("__omp2gpu_gpu_load", ctypes.c_int)() != 0:
            raise DeviceError("the CUDA driver's entry points were not found for the native launch path")
        self.use_context = self.function("__omp2gpu_gpu_context", None, ctypes.c_void_p)
        self._team_stack = self.function("__omp2gpu_gpu_team_stack", None, ctypes.c_long, ctypes.c_long)
        self.asynchronous_launches = self.function("__omp2gpu_gpu_asynchronous_launches", ctypes.c_long)
        self.nowait_streams = self.function("__omp2gpu_gpu_nowait_streams", None, ctypes.c_int)
        self._event_counts = self.function("__omp2gpu_gpu_event_counts", None, ctypes.c_void_p)
        # (address, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL) -> the GPU's ordinal, -1: not a GPU's
        self.device_of = self.function("__omp2gpu_gpu_device_of", ctypes.c_int, ctypes.c_long, ctypes.c_int)
        # (a stream handle) -> 0, or a CUresult: the launcher's later work waits for it
        self.wait_for_stream = self.function("__omp2gpu_gpu_wait_for_stream", ctypes.c_int, ctypes.c_void_p)
        self.nowait_streams(int(os.environ.get("OMP2GPU_NOWAIT_STREAMS", NOWAIT_STREAMS_DEFAULT).strip() == "1"))
        self.auto_async = self.function("__omp2gpu_gpu_auto_async", None, ctypes.c_int)
        # launches automatic concurrency left running beside another one so far
        self.overlapped_pairs = self.function("__omp2gpu_gpu_overlapped_pairs", ctypes.c_long)
        self.auto_async(int(os.environ.get("OMP2GPU_AUTO_ASYNC", AUTO_ASYNC_DEFAULT).strip() == "1"))
        self.nowait_completion = self.function("__omp2gpu_gpu_nowait_completion", None, ctypes.c_int)
        completion = os.environ.get("OMP2GPU_NOWAIT_COMPLETION", NOWAIT_COMPLETION_DEFAULT).strip()
        self.nowait_completion(int(completion == "poll"))
        self.function("__omp2gpu_gpu_nowait_run_ahead", None, ctypes.c_int)(
            int(os.environ.get("OMP2GPU_NOWAIT_RUN_AHEAD", NOWAIT_RUN_AHEAD_DEFAULT).strip() == "1"))
        # kernels of target tasks left running ahead so far (all threads)
        self.run_ahead_launches = self.function("__omp2gpu_gpu_run_ahead_launches", ctypes.c_long)
        self.run_ahead_wait_address = engine.get_function_address("__omp2gpu_gpu_run_ahead_wait")
        # the calling thread's run-ahead kernels on every GPU, finished
        self.wait_run_ahead = ctypes.CFUNCTYPE(None)(self.run_ahead_wait_address)
        self._run_ahead_next = self.function("__omp2gpu_gpu_run_ahead_next", None, ctypes.c_void_p)
        self.entry_points.update({name: engine.get_function_address(f"__omp2gpu_run_ahead_{name}")
                                  for name in RUN_AHEAD_WAITS})

    def event_counts(self) -> dict[str, int]:
        """Target tasks' events offered to native launches, and why they were not enqueued."""
        counts = (ctypes.c_long * 4)()
        self._event_counts(ctypes.addressof(counts))
        return dict(zip(("offered", "declined_transients", "declined_team_stack", "no_stream"), counts))

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
    return _chain[0] if _chain else None


def wait_run_ahead() -> None:
    """main returned (the end of the program's implicit parallel region): the kernels of
    its target tasks still running ahead finish, a fault among them reported."""
    if _chain:
        _chain[0].wait_run_ahead()


def start() -> GpuLauncher:
    """The process's native GPU launch path, made on first use; DeviceError when it
    cannot be (no compiled code was provided, or the driver lacks an entry point)."""
    with _lock:
        if not _chain:
            _chain.append(_make())
        return _chain[0]


def _make() -> GpuLauncher:
    if _runtime_loader is None:
        raise DeviceError("the native GPU launch path was not compiled (the driver provides it)")
    return GpuLauncher(_runtime_loader())


def _link(last: GpuLauncher, new: GpuLauncher) -> None:
    """`new` at the chain's end: it falls back on what `last` fell back on (the launcher),
    `last` on `new`; the launcher's calls hold `new`'s lock too from now on."""
    new.init(*last.fallbacks)
    LAUNCHER_LOCK.add_native(new)
    last.init(new.entry_points[abi.ENTRY_TARGET], new.entry_points[abi.ENTRY_SET_DEFAULT_DEVICE],
              last.fallbacks[2], new.entry_points[abi.ENTRY_DATA_UPDATE])
    last._run_ahead_next(new.run_ahead_wait_address)      # a thread's waits reach every GPU


def relink() -> None:
    """After the first module was bound to the launcher again (a new program in this
    process): the chain's links and locks as they were made."""
    with _lock:
        for last, new in zip(_chain, _chain[1:]):
            _link(last, new)


def serving(device) -> GpuLauncher | None:
    """The module serving `device` (a CudaDevice), None if none does."""
    return next((native for native in _chain if native.device is device), None)


def forget_devices() -> None:
    """A new launcher in this process: every module forgets its kernels and its device."""
    for native in _chain:
        native.reset()
        native.device = None


def claim(device) -> tuple[GpuLauncher | None, bool]:
    """The module for `device` once the path was started: the one serving it, else a free
    one, else a new one put at the chain's end. (module, whether it was just given
    `device`); (None, False) when the path was not started, or no module could be made."""
    with _lock:
        native = serving(device)
        if native is not None or not _chain:
            return native, False
        native = next((free for free in _chain if free.device is None), None)
        if native is None:
            if len(_chain) >= MAX_MODULES or _chain[-1].fallbacks is None:   # not bound to the launcher
                return None, False
            try:
                native = _make()
            except DeviceError:
                return None, False
            _link(_chain[-1], native)
            _chain.append(native)
        native.device = device
        return native, True
