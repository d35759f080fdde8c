"""The one interface the launcher needs from a device.

Everything above this layer (present table, launches, fallback) is device
independent, so it is tested with the in-memory device of host_memory.py;
cuda.py is the only module that talks to a driver. Device addresses are plain
ints; host addresses are ints too (process addresses), so copies take no
Python buffers.
"""

from __future__ import annotations

import abc
import threading
import time
from contextlib import nullcontext

from omp2gpu import trace_events
from omp2gpu.offload import launch_info


class DeviceError(RuntimeError):
    """The device or its driver refused an operation (the message says which, and why)."""


class Device(abc.ABC):
    """A device that can hold memory, load a PTX module and launch its kernels."""

    name: str = "device"
    multiprocessor_count: int = 1
    max_threads_per_block: int = 1024
    compute_capability: tuple[int, int] = (0, 0)

    # ----------------------------------------------------------------- memory
    @abc.abstractmethod
    def allocate(self, nbytes: int) -> int:
        """Device address of `nbytes` (> 0) fresh bytes."""

    @abc.abstractmethod
    def free(self, address: int) -> None:
        """Release memory that `allocate` returned."""

    @abc.abstractmethod
    def copy_to_device(self, dst_address: int, host_pointer: int, nbytes: int) -> None: ...

    @abc.abstractmethod
    def copy_to_host(self, host_pointer: int, src_address: int, nbytes: int) -> None: ...

    @abc.abstractmethod
    def copy_device_to_device(self, dst_address: int, src_address: int, nbytes: int) -> None: ...

    # ----------------------------------------------------------------- code
    @abc.abstractmethod
    def load_module(self, ptx_text: str) -> object:
        """A handle for the loaded module; DeviceError carries the JIT log on failure."""

    @abc.abstractmethod
    def get_function(self, module: object, name: str) -> object: ...

    @abc.abstractmethod
    def get_global(self, module: object, name: str) -> tuple[int, int]:
        """(device address, size in bytes) of a global the module defines."""

    @abc.abstractmethod
    def launch(self, function: object, grid: int, block: int,
               params: list[tuple[str, object]], shared_bytes: int = 0) -> None:
        """Start `function` on a 1-D grid; params are (POINTER, int) or (BYTES, bytes)
        in the kernel's parameter order. Errors may only show at synchronize()."""

    @abc.abstractmethod
    def synchronize(self) -> None:
        """Wait for everything launched; raises DeviceError for a failed kernel."""

    def timed_launch(self, function: object, grid: int, block: int,
                     params: list[tuple[str, object]]) -> float:
        """launch + synchronize; the kernel's time in microseconds (here: wall clock)."""
        start = time.perf_counter()
        self.launch(function, grid, block, params)
        self.synchronize()
        return (time.perf_counter() - start) * 1e6

    def holds(self, address: int) -> bool:
        """Whether `address` is memory of this device that its kernels can use as it is (a
        CuPy array's pointer, passed through the Python API)."""
        return False

    def wait_for_stream(self, stream: int) -> None:
        """Make later work on this device wait for what stream handle `stream` has queued
        (the stream of a caller's device array). A device without streams has nothing to wait for."""
        return None

    def function_attributes(self, function: object) -> dict:
        """Resources of a loaded kernel (registers, shared_bytes, local_bytes), where known."""
        return {}

    # ----------------------------------------------------------------- what the profile and LIBOMPTARGET_INFO name
    @property
    def label(self) -> str:
        """The device as the profile's trace and LIBOMPTARGET_INFO lines name it."""
        return f"device {self.name}"

    def track(self) -> str:
        """The trace track of what is queued here now: a GPU's stream; a device without
        streams runs copies and kernels on the thread that asked, so that thread."""
        return f"host thread {threading.get_native_id()}"

    def observed_copy(self, direction: str, host_address: int, device_address: int, nbytes: int):
        """Around one copy between the host and here ('to-device' or 'to-host'): its span in
        the profile and its LIBOMPTARGET_INFO line (bit 0x20), when either is asked for
        (neither for the runtime's own copies: launch_info.runtime_copies)."""
        if launch_info.copy_is_the_runtimes_own():
            return nullcontext()
        if launch_info.wanted(launch_info.DATA_TRANSFER):
            launch_info.data_transfer(self.label, direction, host_address, device_address, nbytes)
        trace = trace_events.active()
        if trace is None:
            return nullcontext()
        return trace.span(f"copy {direction}", "copy", process=self.label, track=self.track(),
                          args={"bytes": nbytes})

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
