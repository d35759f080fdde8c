"""The CPU device's worker pool (runtime/cpu_device/pool.c), JIT-compiled once
per process (by the driver: provide_runtime), and the choices that shape it.

    OMP2GPU_CPU_SCHEDULE=policy[,chunk]   static | dynamic | guided | steal
                                          (default steal: static blocks, then
                                          work stealing; `omp2gpu run --cpu-schedule`)
    OMP_NUM_THREADS                       workers (the first value of a list),
                                          else the cores this process may use
    OMP2GPU_CPU_SPIN                      pause-loop iterations a worker spins
                                          after a launch before it sleeps

The pool's functions are called through ctypes function pointers, which
release the GIL, so the launching thread and the workers run native code in
parallel; workers never touch Python.
"""

from __future__ import annotations

import ctypes
import os
import threading
from dataclasses import dataclass

import llvmlite.binding as llvm

from omp2gpu.offload.devices.base import DeviceError
from omp2gpu.offload.native_launch import NativeLauncher

POLICIES = {"static": 0, "dynamic": 1, "guided": 2, "steal": 3}
DEFAULT_POLICY = "steal"
DEFAULT_SPIN = 20000
MAX_WORKERS = 256

WG_FUNCTION = ctypes.CFUNCTYPE(None, ctypes.POINTER(ctypes.c_void_p), ctypes.c_long, ctypes.c_long,
                               ctypes.c_int)
_RUN = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_long, ctypes.c_int,
                        ctypes.c_int, ctypes.c_long)
_START = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int, ctypes.c_long)
_GROUPS_RUN = ctypes.CFUNCTYPE(ctypes.c_long, ctypes.c_int)
_WORKERS = ctypes.CFUNCTYPE(ctypes.c_int)
_SCHEDULE = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_long)
_COPY = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_long, ctypes.c_long)
COPY_PIECE = 1 << 20          # bytes per worker at least, for a copy to be split


@dataclass(frozen=True)
class Schedule:
    policy: str = DEFAULT_POLICY
    chunk: int = 0              # work-groups per grab; 0: the policy's default

    @property
    def code(self) -> int:
        return POLICIES[self.policy]

    def __str__(self) -> str:
        return f"{self.policy},{self.chunk}" if self.chunk else self.policy


def parse_schedule(text: str | None) -> Schedule:
    """`policy[,chunk]`; ValueError names what is wrong."""
    if text is None or not text.strip():
        return Schedule()
    policy, _, chunk = text.strip().lower().partition(",")
    policy = policy.strip()
    if policy == "work-stealing":
        policy = "steal"
    if policy not in POLICIES:
        raise ValueError(f"unknown CPU schedule policy '{policy}' (choose from "
                         f"{', '.join(POLICIES)})")
    try:
        size = int(chunk) if chunk.strip() else 0
    except ValueError:
        raise ValueError(f"the CPU schedule's chunk must be an integer, not '{chunk}'") from None
    if size < 0:
        raise ValueError("the CPU schedule's chunk must not be negative")
    return Schedule(policy, size)


def worker_count(environ=None) -> int:
    """OMP_NUM_THREADS (its first value), else the cores this process may run on."""
    environ = os.environ if environ is None else environ
    text = environ.get("OMP_NUM_THREADS", "").split(",")[0].strip()
    try:
        if int(text) > 0:
            return min(int(text), MAX_WORKERS)
    except ValueError:
        pass
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS))


class Pool:
    """The JIT-compiled pool: start once, then run launches."""

    def __init__(self, engine, workers: int, spin: int):
        self.engine = engine
        address = engine.get_function_address
        self.addresses = {name: address(name) for name in (
            "__omp2gpu_cpu_run", "__omp2gpu_cpu_pool_start", "__omp2gpu_cpu_team",
            "__omp2gpu_cpu_workers", "__omp2gpu_cpu_groups_run", "__omp2gpu_cpu_copy",
            "__omp2gpu_cpu_schedule")}
        self._run = _RUN(self.addresses["__omp2gpu_cpu_run"])
        self._groups_run = _GROUPS_RUN(self.addresses["__omp2gpu_cpu_groups_run"])
        self._copy = _COPY(self.addresses["__omp2gpu_cpu_copy"])
        self.schedule_native = _SCHEDULE(self.addresses["__omp2gpu_cpu_schedule"])
        # the native launch path (runtime/cpu_device/launch.c on runtime/native_launch/)
        self.native = NativeLauncher(address, "__omp2gpu_cpu_target", "__omp2gpu_cpu_update")
        # The CpuDevice the native path serves (one: the default device; with several CPU
        # devices the others' launches and present tables stay in the launcher).
        self.served_device = None
        if _START(self.addresses["__omp2gpu_cpu_pool_start"])(workers, spin) != 0:
            raise OSError("the CPU device's worker threads could not be started")
        self.workers = _WORKERS(self.addresses["__omp2gpu_cpu_workers"])()

    def run(self, entry_address: int, args, num_groups: int, threads: int, schedule: Schedule) -> None:
        """All work-groups of one launch; returns when they have run (the GIL is free meanwhile)."""
        self._run(entry_address, args, num_groups, threads, schedule.code, schedule.chunk)

    def copy(self, dst: int, src: int, nbytes: int) -> None:
        """memcpy, split over the workers when it is large (the GIL is free meanwhile)."""
        self._copy(dst, src, nbytes, COPY_PIECE)

    def groups_run(self) -> list[int]:
        """Work-groups each worker ran in the last launch."""
        return [self._groups_run(w) for w in range(self.workers)]


_lock = threading.Lock()
_runtime_loader = None


def provide_runtime(loader) -> None:
    """How to get the pool's native code (runtime/cpu_device/pool.c and launch.c compiled
    for this CPU): loader() returns a JIT engine for it. The driver, which compiles C,
    hands it over before the first launch; the launcher compiles nothing itself."""
    global _runtime_loader
    _runtime_loader = loader


_pool: Pool | None = None


def started() -> bool:
    return _pool is not None


def pool(environ=None) -> Pool:
    """The process's pool, made on first use (its size and spin then stay)."""
    global _pool
    with _lock:
        if _pool is None:
            environ = os.environ if environ is None else environ
            try:
                spin = int(environ.get("OMP2GPU_CPU_SPIN", DEFAULT_SPIN))
            except ValueError:
                spin = DEFAULT_SPIN
            if _runtime_loader is None:
                raise DeviceError("the CPU device's runtime was not compiled (the driver provides it)")
            _pool = Pool(_runtime_loader(), worker_count(environ), spin)
            for name in ("__omp2gpu_cpu_team", "__omp2gpu_cpu_workers"):
                llvm.add_symbol(name, _pool.addresses[name])
        return _pool
