"""The CPU device: target regions as work-groups on the host's cores.

A device of its own, numbered after the GPUs: mapped data is copied into
device-owned buffers and back exactly as on a GPU (as LLVM's host offload
plugin does), so a program sees the same data semantics everywhere. Its code
is the program's CpuImage (cpu_driver.py): work-group functions JIT-compiled
with MCJIT in this process, launched on the worker pool (cpu_pool.py), whose
threads stay alive between launches and never take the GIL.

    OMP2GPU_CPU_UNIFIED=1    zero-copy: the device uses the host's storage
                             (no buffers, no copies); not the default
    OMP2GPU_CPU_SCHEDULE, OMP_NUM_THREADS, OMP2GPU_CPU_SPIN: see cpu_pool.py

Launch shape: the launcher's (grid, block) are (work-groups, work-items per
group); its default for combined regions, up to BLOCKS_PER_MULTIPROCESSOR
groups per worker, gives the many work-groups per worker the PoCL paper found
best. Sequential regions run as one group of one work-item.
"""

from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass, field

import llvmlite.binding as llvm

from omp2gpu.offload.abi import CPU_MAX_TEAM, CPU_SEQUENTIAL, CPU_TEAMS, POINTER
from omp2gpu.offload.data_environment import DataEnvironment, Mapping
from omp2gpu.offload.devices import cpu_pool
from omp2gpu.offload.devices.base import Device, DeviceError
from omp2gpu.offload.messages import report
from omp2gpu.offload.native_launch import MirroredDataEnvironment, enable_after_launch, wanted

ALIGNMENT = 64                   # a cache line; also what AVX-512 loads like
HUGE_PAGE = 2 << 20              # buffers this large are 2 MiB-aligned and asked to be huge pages
MADV_HUGEPAGE = 14
CACHE_BYTES = 1 << 30            # freed buffers kept for reuse (OMP2GPU_CPU_CACHE_BYTES)
CACHE_MIN = 64 << 10             # smaller ones go straight back to the C library
PARALLEL_COPY = 4 << 20          # copies this large are split over the workers
MAX_THREADS_PER_GROUP = 4096     # PoCL's largest automatic work-group

_live_engines: list = []
_libc = ctypes.CDLL(None)
_aligned_alloc = _libc.aligned_alloc
_aligned_alloc.restype = ctypes.c_void_p
_aligned_alloc.argtypes = [ctypes.c_size_t, ctypes.c_size_t]
_free = _libc.free
_free.restype = None
_free.argtypes = [ctypes.c_void_p]
_madvise = _libc.madvise
_madvise.restype = ctypes.c_int
_madvise.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]


def _flag(environ, name: str) -> bool:
    return environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


@dataclass
class CpuModule:
    engine: object
    image: object
    globals: dict = field(default_factory=dict)


@dataclass
class CpuFunction:
    name: str
    address: int
    scheme: str
    module: CpuModule


class CpuDevice(Device):
    kind = "cpu"
    runs_cpu_images = True          # the launcher hands it an image's CpuImage, not its PTX

    def __init__(self, environ=None):
        environ = os.environ if environ is None else environ
        self.name = "cpu"
        self.workers = cpu_pool.worker_count(environ)
        self.multiprocessor_count = self.workers
        self.max_threads_per_block = MAX_THREADS_PER_GROUP
        self.compute_capability = (0, 0)
        self.unified = _flag(environ, "OMP2GPU_CPU_UNIFIED")
        try:
            self.schedule = cpu_pool.parse_schedule(environ.get("OMP2GPU_CPU_SCHEDULE"))
        except ValueError as error:
            report("warning", f"OMP2GPU_CPU_SCHEDULE: {error}; using {cpu_pool.Schedule()}")
            self.schedule = cpu_pool.Schedule()
        self._environ = environ
        self._allocations: dict[int, int] = {}      # address -> rounded size, in use
        self._cache: dict[int, list[int]] = {}      # rounded size -> freed buffers to reuse
        self._cached_bytes = 0
        try:
            self.cache_limit = int(environ.get("OMP2GPU_CPU_CACHE_BYTES", CACHE_BYTES))
        except ValueError:
            self.cache_limit = CACHE_BYTES
        self._modules: list[CpuModule] = []
        if cpu_pool.started():           # a new launcher in this process: forget the old one's kernels
            cpu_pool.pool().native.reset()

    @property
    def label(self) -> str:
        return f"CPU device ({self.workers} workers)"

    def make_data_environment(self) -> DataEnvironment:
        return CpuDataEnvironment(self)

    @property
    def pool(self) -> cpu_pool.Pool:
        return cpu_pool.pool(self._environ)

    # ----------------------------------------------------------------- memory
    def allocate(self, nbytes: int) -> int:
        """A buffer aligned for vector loads; large ones on huge pages (fewer page faults on
        first touch). Freed buffers of the same rounded size are reused, as GPU runtimes'
        caching allocators do: a region run again finds its buffers already faulted in."""
        if nbytes <= 0:
            raise DeviceError("allocate: size must be positive")
        alignment = HUGE_PAGE if nbytes >= HUGE_PAGE else ALIGNMENT
        rounded = (nbytes + alignment - 1) // alignment * alignment
        reusable = self._cache.get(rounded)
        if reusable:
            address = reusable.pop()
            self._cached_bytes -= rounded
        else:
            address = _aligned_alloc(alignment, rounded)
            if not address and self._cache:
                self.release_cache()
                address = _aligned_alloc(alignment, rounded)
            if not address:
                raise DeviceError(f"allocate: out of memory for {nbytes} bytes")
            if alignment == HUGE_PAGE:
                _madvise(address, rounded, MADV_HUGEPAGE)
        self._allocations[address] = rounded
        return address

    def free(self, address: int) -> None:
        rounded = self._allocations.pop(address, None)
        if rounded is None:
            if self.unified:
                return                   # the host's own storage, mapped in place
            raise DeviceError(f"free of {address:#x}, which is not an allocation")
        if CACHE_MIN <= rounded and self._cached_bytes + rounded <= self.cache_limit:
            self._cache.setdefault(rounded, []).append(address)
            self._cached_bytes += rounded
        else:
            _free(address)

    def holds(self, address: int) -> bool:
        """Whether `address` lies in one of this device's allocations in use (omp_target_alloc
        memory, lent through the Python API as a device array)."""
        return any(start <= address < start + size for start, size in self._allocations.items())

    def release_cache(self) -> None:
        """Give every cached buffer back to the C library."""
        for addresses in self._cache.values():
            for address in addresses:
                _free(address)
        self._cache.clear()
        self._cached_bytes = 0

    def _copy(self, dst: int, src: int, nbytes: int) -> None:
        if nbytes >= PARALLEL_COPY and cpu_pool.started():
            self.pool.copy(dst, src, nbytes)
        else:
            ctypes.memmove(dst, src, nbytes)

    def copy_to_device(self, dst_address: int, host_pointer: int, nbytes: int) -> None:
        if nbytes > 0 and dst_address != host_pointer:
            with self.observed_copy("to-device", host_pointer, dst_address, nbytes):
                self._copy(dst_address, host_pointer, nbytes)

    def copy_to_host(self, host_pointer: int, src_address: int, nbytes: int) -> None:
        if nbytes > 0 and src_address != host_pointer:
            with self.observed_copy("to-host", host_pointer, src_address, nbytes):
                self._copy(host_pointer, src_address, nbytes)

    def copy_device_to_device(self, dst_address: int, src_address: int, nbytes: int) -> None:
        if nbytes > 0 and dst_address != src_address:
            self._copy(dst_address, src_address, nbytes)

    @property
    def live_allocations(self) -> int:
        return len(self._allocations)

    # ----------------------------------------------------------------- code
    def load_module(self, image) -> CpuModule:
        """JIT-compile a CpuImage's work-group functions in this process."""
        if image is None or not hasattr(image, "module"):
            raise DeviceError("no CPU code for this program's target regions")
        pool = self.pool                 # its symbols first: the kernels call into it
        engine, module = image.engine()      # a DeviceError when it cannot be compiled
        engine.run_static_constructors()
        _live_engines.append(engine)     # as the host's: code may outlive the launcher
        del pool
        loaded = CpuModule(engine, image)
        target_data = llvm.create_target_data(module.data_layout)
        for variable in module.global_variables:
            if not variable.is_declaration and variable.linkage == llvm.Linkage.external:
                loaded.globals[variable.name] = target_data.get_abi_size(variable.global_value_type)
        self._modules.append(loaded)
        return loaded

    def get_function(self, module: CpuModule, name: str) -> CpuFunction:
        scheme = module.image.kernels.get(name) if module is not None else None
        if scheme is None:
            raise DeviceError(f"no work-group function for kernel '{name}'")
        address = module.engine.get_function_address(name)
        if not address:
            raise DeviceError(f"work-group function '{name}' is not in the JIT-compiled module")
        return CpuFunction(name, address, scheme, module)

    def get_global(self, module: CpuModule, name: str) -> tuple[int, int]:
        if module is None or name not in module.globals:
            raise DeviceError(f"no global named '{name}' in the module")
        address = module.engine.get_global_value_address(name)
        if not address:
            raise DeviceError(f"global '{name}' has no address")
        return address, module.globals[name]

    def launch_shape(self, function: CpuFunction, grid: int, block: int) -> tuple[int, int]:
        if function.scheme == CPU_SEQUENTIAL:
            return 1, 1
        if function.scheme == CPU_TEAMS:
            block = min(block, CPU_MAX_TEAM)
        return max(1, grid), max(1, block)

    def launch(self, function: CpuFunction, grid: int, block: int, params: list,
               shared_bytes: int = 0) -> None:
        grid, block = self.launch_shape(function, grid, block)
        storage = [ctypes.c_void_p(int(value)) if kind == POINTER
                   else ctypes.create_string_buffer(bytes(value), max(len(value), 1))
                   for kind, value in params]
        args = (ctypes.c_void_p * max(len(storage), 1))(*[ctypes.addressof(s) for s in storage])
        self.pool.run(function.address, args, grid, block, self.schedule)

    def synchronize(self) -> None:
        """Launches run to completion before launch() returns."""

    def function_attributes(self, function: CpuFunction) -> dict:
        return {"scheme": function.scheme, "workers": self.workers, "schedule": str(self.schedule)}

    # ----------------------------------------------------------------- the native launch path
    def launched(self, runtime, state, kernel_name: str, info, function: CpuFunction) -> None:
        """After the launcher ran a kernel here: later launches of it may skip Python
        (runtime/cpu_device/launch.c), unless native_launch.enable_after_launch says no."""
        if not self.fast_path or state.number != runtime.default_device:
            return
        pool = self.pool
        pool.schedule_native(self.schedule.code, self.schedule.chunk)
        if enable_after_launch(pool.native, runtime, state, kernel_name, info, function.address,
                               block_cap=CPU_MAX_TEAM if function.scheme == CPU_TEAMS else 0,
                               sequential=function.scheme == CPU_SEQUENTIAL, zero_copy=self.unified):
            pool.served_device = self

    @property
    def fast_path(self) -> bool:
        """OMP2GPU_CPU_FAST_PATH=0 (or OMP2GPU_FAST_PATH=0) keeps every launch in the
        launcher (measurements)."""
        return wanted(self._environ, "OMP2GPU_CPU_FAST_PATH")


def _native_serving(device: CpuDevice):
    """The native launch path's launcher if it serves `device`: only that device's present
    table may be mirrored there."""
    if not cpu_pool.started():
        return None
    pool = cpu_pool.pool(device._environ)
    return pool.native if pool.served_device is device else None


class CpuDataEnvironment(MirroredDataEnvironment):
    """The CPU device's present table, mirrored for its native launch path (launch.c).

    With OMP2GPU_CPU_UNIFIED (zero-copy) a mapped range is its own device storage:
    reference counts, presence and `declare target` globals (module storage) work as
    usual; copies between a range and itself are skipped by the device."""

    def __init__(self, device: CpuDevice):
        super().__init__(device, lambda: _native_serving(device))

    def begin(self, entries) -> None:
        if self.device.unified:
            for entry in entries:
                if entry.maps_storage and self.lookup_entry(entry) is None:
                    # counted by the base class's begin, which now finds it present
                    self._insert(Mapping(entry.begin, entry.size, entry.begin, references=0))
        super().begin(entries)
