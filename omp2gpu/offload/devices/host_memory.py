"""A device whose memory is ordinary host memory (ctypes buffers).

Device addresses are real process addresses, so copies are memmoves and a
"kernel" written in Python can read and write its pointer parameters with
ctypes. Tests use it to check the launcher without a GPU: it counts copies,
records launches, checks that every device address lies in an allocation, and
can be told to fail any operation (to exercise the host fallback). A CPU
device can build on it later.
"""

from __future__ import annotations

import ctypes
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from omp2gpu.offload.devices.base import Device, DeviceError

# A kernel: called with (grid, block, params) where params are as given to launch().
Kernel = Callable[[int, int, list], None]


@dataclass
class Launch:
    kernel: str
    grid: int
    block: int
    params: list
    shared_bytes: int


@dataclass
class HostModule:
    ptx: str
    globals: dict[str, tuple[int, int]] = field(default_factory=dict)   # name -> (address, size)


@dataclass
class HostFunction:
    name: str
    kernel: Kernel


class HostMemoryDevice(Device):
    def __init__(self, name: str = "host-memory", multiprocessor_count: int = 4,
                 max_threads_per_block: int = 1024, compute_capability=(0, 0)):
        self.name = name
        self.multiprocessor_count = multiprocessor_count
        self.max_threads_per_block = max_threads_per_block
        self.compute_capability = compute_capability
        self.kernels: dict[str, Kernel] = {}          # what get_function finds, by name
        self.module_globals: dict[str, int] = {}      # name -> size: globals every module defines
        self.fail: set[str] = set()                   # operation names that raise DeviceError
        self.copies: Counter = Counter()              # "to_device" / "to_host" / "device_to_device"
        self.bytes_copied: Counter = Counter()
        self.launches: list[Launch] = []
        self.modules: list[HostModule] = []
        self._buffers: dict[int, ctypes.Array] = {}

    # ----------------------------------------------------------------- checks
    def _maybe_fail(self, operation: str) -> None:
        if operation in self.fail:
            raise DeviceError(f"{operation} failed (injected by the test)")

    def _check_range(self, address: int, nbytes: int) -> None:
        for start, buffer in self._buffers.items():
            if start <= address and address + nbytes <= start + len(buffer):
                return
        raise DeviceError(f"invalid device address range [{address:#x}, +{nbytes})")

    def holds(self, address: int) -> bool:
        return any(start <= address < start + len(buffer) for start, buffer in self._buffers.items())

    @property
    def live_allocations(self) -> int:
        """Allocations not yet freed (module globals included)."""
        return len(self._buffers)

    # ----------------------------------------------------------------- memory
    def allocate(self, nbytes: int) -> int:
        self._maybe_fail("allocate")
        if nbytes <= 0:
            raise DeviceError("allocate: size must be positive")
        buffer = ctypes.create_string_buffer(nbytes)
        address = ctypes.addressof(buffer)
        self._buffers[address] = buffer
        return address

    def free(self, address: int) -> None:
        self._maybe_fail("free")
        if self._buffers.pop(address, None) is None:
            raise DeviceError(f"free of {address:#x}, which is not an allocation")

    def _copy(self, kind: str, dst: int, src: int, nbytes: int) -> None:
        self._maybe_fail(kind)
        self.copies[kind] += 1
        self.bytes_copied[kind] += nbytes
        ctypes.memmove(dst, src, nbytes)

    def copy_to_device(self, dst_address: int, host_pointer: int, nbytes: int) -> None:
        self._check_range(dst_address, nbytes)
        self._copy("to_device", dst_address, host_pointer, nbytes)

    def copy_to_host(self, host_pointer: int, src_address: int, nbytes: int) -> None:
        self._check_range(src_address, nbytes)
        self._copy("to_host", host_pointer, src_address, nbytes)

    def copy_device_to_device(self, dst_address: int, src_address: int, nbytes: int) -> None:
        self._check_range(dst_address, nbytes)
        self._check_range(src_address, nbytes)
        self._copy("device_to_device", dst_address, src_address, nbytes)

    # ----------------------------------------------------------------- code
    def load_module(self, ptx_text: str) -> HostModule:
        self._maybe_fail("load_module")
        module = HostModule(ptx_text)
        for name, size in self.module_globals.items():
            module.globals[name] = (self.allocate(size), size)
        self.modules.append(module)
        return module

    def get_function(self, module: HostModule, name: str) -> HostFunction:
        self._maybe_fail("get_function")
        if name not in self.kernels:
            raise DeviceError(f"no kernel named '{name}' in the module")
        return HostFunction(name, self.kernels[name])

    def get_global(self, module: HostModule, name: str) -> tuple[int, int]:
        if name not in module.globals:
            raise DeviceError(f"no global named '{name}' in the module")
        return module.globals[name]

    def launch(self, function: HostFunction, grid: int, block: int,
               params: list, shared_bytes: int = 0) -> None:
        self.launches.append(Launch(function.name, grid, block, list(params), shared_bytes))
        self._maybe_fail("launch")
        function.kernel(grid, block, list(params))

    def synchronize(self) -> None:
        self._maybe_fail("synchronize")
