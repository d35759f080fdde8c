"""The process-wide offload runtime: what the entry points of offload/abi.py do.

It finds the devices (CUDA, when the driver and a GPU are there), reads
OMP_TARGET_OFFLOAD and OMP_DEFAULT_DEVICE, keeps the compiled images the
driver registers, and runs target regions: map (data_environment), build the
kernel parameters, launch, unmap. Whatever goes wrong on a device turns into
the host fallback (the compiled host code runs the region itself when
`target` returns nonzero): the device's data is copied back first, and the
device is not used again, so the host copy is the only copy from then on.

Module-level functions act on one OffloadRuntime made on first use; tests make
their own with `reset(devices=[...], environ={...})`.
"""

from __future__ import annotations

import ctypes
import os
import threading
from dataclasses import dataclass, field

from omp2gpu.offload.abi import POINTER, KernelInfo, MapType
from omp2gpu.offload.data_environment import DataEnvironment, MappingError, read_entries
from omp2gpu.offload.devices import (
    cuda,
)
from omp2gpu.offload.devices.base import Device, DeviceError
from omp2gpu.offload.devices.cpu import CpuDevice
from omp2gpu.offload.launch_record import LaunchRecord
from omp2gpu.offload.map_checks import check_entries
from omp2gpu.offload.messages import fatal, one_line, report
from omp2gpu.offload.policy import (  # noqa: F401 (re-exported)
    BLOCKS_PER_MULTIPROCESSOR,
    DEFAULT_BLOCK_SIZE,
    DISABLED,
    MANDATORY,
    default_device_number,
    device_kinds,
    launch_configuration,
    launch_override,
    offload_policy,
)


@dataclass
class Image:
    ptx: str | None                       # None: no GPU code (no GPU, or its compilation failed)
    kernels: dict[str, KernelInfo]
    cpu: object = None                    # the CPU device's code (cpu_driver.CpuImage), or None

    def code_for(self, device: Device):
        return self.cpu if getattr(device, "runs_cpu_images", False) else self.ptx


class LaunchError(Exception):
    """The launch cannot be made as asked (a compiler/launcher mismatch)."""


@dataclass
class DeviceState:
    """One device as the runtime uses it."""
    number: int
    device: Device
    data: DataEnvironment
    usable: bool = True
    modules: list = field(default_factory=list)         # module handle per loaded image, in order
    functions: dict = field(default_factory=dict)       # kernel name -> function handle
    bound_globals: set = field(default_factory=set)
    team_stack: tuple[int, int] = (0, 0)                # (address, bytes), grown on demand

    def team_stack_address(self, nbytes: int) -> int:
        """Device memory for the team stacks of one launch, kept for the next ones."""
        address, size = self.team_stack
        if nbytes > size:
            if address:
                self.device.free(address)
                self.team_stack = (0, 0)
            self.team_stack = (self.device.allocate(nbytes), nbytes)
        return self.team_stack[0] if nbytes else 0


def discover_devices(environ=None) -> list[Device]:
    """The CUDA devices, if the driver and cuda-python are there, then the CPU device
    (work-groups on this machine's cores, offload/devices/cpu.py)."""
    environ = os.environ if environ is None else environ
    devices = []
    kinds = device_kinds(environ)
    if "gpu" in kinds:
        if cuda.available():
            for ordinal in range(cuda.device_count()):
                try:
                    devices.append(cuda.CudaDevice(ordinal))
                except DeviceError as error:
                    report("warning", f"CUDA device {ordinal} cannot be used ({one_line(error)})")
    if "cpu" in kinds:
        devices.append(CpuDevice(environ))
    return devices


def _data_environment(device: Device) -> DataEnvironment:
    """The device's own kind of data environment where it has one (the CPU device's
    mirrors its present table for native launches), else the common one."""
    make = getattr(device, "make_data_environment", None)
    return make() if make is not None else DataEnvironment(device)


# ----------------------------------------------------------------- the runtime
class OffloadRuntime:
    def __init__(self, devices: list[Device] | None = None, environ=None):
        environ = os.environ if environ is None else environ
        self.policy = offload_policy(environ)
        self.default_device = default_device_number(environ)
        self._given_devices = devices
        self._environ = environ
        self._states: list[DeviceState] | None = None
        self._images: list[Image] = []
        self._kernels: dict[str, tuple[int, KernelInfo]] = {}    # name -> (image index, info)
        self._globals: dict[str, tuple[int, int, bool]] = {}     # name -> (host address, size, link)
        self._lock = threading.RLock()
        self.record = LaunchRecord(environ)
        self.launch_override = launch_override(environ)

    # ----------------------------------------------------------------- devices
    @property
    def states(self) -> list[DeviceState]:
        if self._states is None:
            if self.policy == DISABLED:
                devices = []
            elif self._given_devices is not None:
                devices = list(self._given_devices)
            else:
                devices = discover_devices(self._environ)
            self._states = [DeviceState(n, d, _data_environment(d)) for n, d in enumerate(devices)]
        return self._states

    def num_devices(self) -> int:
        return len(self.states)

    def has_devices(self) -> bool:
        return self.num_devices() > 0

    def _select(self, device: int) -> DeviceState | None:
        """The state for a device clause's value; None: run on the host (the initial
        device, offload disabled, or no usable device without MANDATORY)."""
        if self.policy == DISABLED:
            return None
        states = self.states
        if device == -1:
            if not states:
                return self._unavailable("no device is available")
            device = self.default_device
        if device == len(states):
            return None                                  # the initial device, asked for
        if not 0 <= device < len(states):
            return self._unavailable(f"device {device} is not available")
        state = states[device]
        return state if state.usable else self._unavailable(f"device {device} is not available")

    def _unavailable(self, why: str) -> None:
        if self.policy == MANDATORY:
            fatal(f"OMP_TARGET_OFFLOAD=MANDATORY but {why}")
        return None

    def _device_failed(self, state: DeviceState, error: Exception, consequence: str) -> None:
        reason = one_line(error)
        if self.policy == MANDATORY:
            fatal(f"offload to device {state.number} failed ({reason}) and OMP_TARGET_OFFLOAD=MANDATORY")
        report("warning", f"offload to device {state.number} failed ({reason}); {consequence}")
        for lost in state.data.evacuate():
            report("warning", f"device data for host range {lost} could not be copied back")
        state.usable = False

    def _guarded(self, state: DeviceState, work, consequence: str) -> bool:
        """Run work(); a device failure falls back to the host, a user error ends the run."""
        try:
            work()
            return True
        except MappingError as error:
            fatal(str(error))
        except Exception as error:              # anything at all: never lose the program's data
            self._device_failed(state, error, consequence)
        return False

    # ----------------------------------------------------------------- images and globals
    def register_image(self, ptx: str | None, kernels: dict[str, KernelInfo], cpu=None) -> None:
        with self._lock:
            index = len(self._images)
            self._images.append(Image(ptx, dict(kernels), cpu))
            for name, info in kernels.items():
                self._kernels[name] = (index, info)

    def register_global(self, host_address: int, name: str, size: int, link: bool = False) -> None:
        """A declare target global (`link`: declare target link, mapped by map clauses only)."""
        with self._lock:
            self._globals[name] = (host_address, size, link)
            for state in self._states or ():
                if state.usable and state.modules:
                    self._guarded(state, lambda: self._bind_globals(state),  # noqa: B023 (called at once)
                                  "running target regions on the host from now on")

    def _activate(self, state: DeviceState) -> None:
        """Load images not yet on the device and map declare target globals, before any
        map clause, so that mapping a global finds the module's storage."""
        while len(state.modules) < len(self._images):
            code = self._images[len(state.modules)].code_for(state.device)
            state.modules.append(None if code is None else state.device.load_module(code))
        self._bind_globals(state)

    def _bind_globals(self, state: DeviceState) -> None:
        for name, (host_address, size, link) in self._globals.items():
            if name in state.bound_globals:
                continue
            for module in state.modules:
                if module is None:
                    continue
                try:
                    address, device_size = state.device.get_global(module, name)
                except DeviceError:
                    continue                     # not in this module (or no kernel uses it)
                bind = state.data.add_link_global if link else state.data.add_global
                bind(host_address, min(size, device_size), address)
                state.bound_globals.add(name)
                break

    def _function(self, state: DeviceState, kernel_name: str):
        found = self._kernels.get(kernel_name)
        if found is None:
            raise LaunchError(f"no device code for kernel '{kernel_name}'")
        index, info = found
        if kernel_name not in state.functions:
            if state.modules[index] is None:
                raise LaunchError(f"no code for kernel '{kernel_name}' on device {state.number}")
            state.functions[kernel_name] = state.device.get_function(state.modules[index], kernel_name)
        return info, state.functions[kernel_name]

    # ----------------------------------------------------------------- target regions
    def target(self, device: int, kernel_name: str, count: int, bases, begins, sizes, types,
               num_teams: int, thread_limit: int, trip_count: int, where: str = "") -> int:
        """0 when the kernel ran on the device; nonzero: the caller runs the region on the host.
        `where`: the construct's "file:line:col", named when its map entries are bad."""
        with self._lock:
            state = self._select(device)
            if state is None:
                return 1
            entries = read_entries(count, bases, begins, sizes, types)

            def run():
                check_entries(entries, where)
                self._activate(state)
                info, function = self._function(state, kernel_name)
                state.data.begin(entries)
                params = [state.data.kernel_argument(e) for e in entries if e.type & MapType.TARGET_PARAM]
                _check_params(info, params)
                grid, block = launch_configuration(info, state.device, num_teams, thread_limit, trip_count,
                                                   self.launch_override)
                if not getattr(state.device, "runs_cpu_images", False):
                    params += team_stack_param(info, grid, state.team_stack_address)
                if self.record.timing:
                    micros = state.device.timed_launch(function, grid, block, params)
                else:
                    state.device.launch(function, grid, block, params)
                    state.device.synchronize()
                    micros = None
                self.record.launched(state.device, function, kernel_name, grid, block, micros)
                state.data.kernel_ran()
                state.data.end(entries)
                launched = getattr(state.device, "launched", None)   # the CPU device's native path
                if launched is not None:
                    launched(self, state, kernel_name, info, function)

            ran = self._guarded(state, run, "running the region on the host")
            return 0 if ran else 1

    # ----------------------------------------------------------------- data constructs
    def _data(self, device: int, count: int, bases, begins, sizes, types, operation,
              where: str = "") -> None:
        with self._lock:
            state = self._select(device)
            if state is None:
                return
            entries = read_entries(count, bases, begins, sizes, types)

            def run():
                check_entries(entries, where)
                self._activate(state)
                operation(state.data, entries)

            self._guarded(state, run, "running target regions on the host from now on")

    def data_begin(self, device: int, count: int, bases, begins, sizes, types, where: str = "") -> None:
        def begin(data, entries):
            data.begin(entries)
            data.return_device_pointers(entries, bases)
        self._data(device, count, bases, begins, sizes, types, begin, where)

    def data_end(self, device: int, count: int, bases, begins, sizes, types, where: str = "") -> None:
        self._data(device, count, bases, begins, sizes, types, lambda data, e: data.end(e), where)

    def data_update(self, device: int, count: int, bases, begins, sizes, types, where: str = "") -> None:
        self._data(device, count, bases, begins, sizes, types, lambda data, e: data.update(e), where)

    # ----------------------------------------------------------------- omp_* device memory routines
    def _memory_state(self, device: int) -> DeviceState | None:
        """A usable device for the device-memory routines (which name devices explicitly)."""
        if self.policy == DISABLED or not 0 <= device < self.num_devices():
            return None
        state = self.states[device]
        return state if state.usable else None

    def target_alloc(self, size: int, device: int) -> int:
        """A device address, 0 (NULL) on failure or for size 0."""
        with self._lock:
            state = self._memory_state(device)
            if state is None or size <= 0:
                return 0
            try:
                return state.device.allocate(size)
            except DeviceError:
                return 0

    def target_free(self, device_pointer: int, device: int) -> None:
        with self._lock:
            state = self._memory_state(device)
            if state is not None and device_pointer:
                try:
                    state.device.free(device_pointer)
                except DeviceError:
                    pass                        # freeing what was not allocated: undefined, ignored

    def target_is_present(self, host_pointer: int, device: int) -> int:
        with self._lock:
            if device == self.num_devices():
                return 1                        # the initial device holds everything
            state = self._memory_state(device)
            return int(state is not None and state.data.is_present(host_pointer))

    def target_memcpy(self, dst: int, src: int, length: int, dst_offset: int, src_offset: int,
                      dst_device: int, src_device: int) -> int:
        """0 on success, nonzero on failure (an unusable device, a driver error)."""
        with self._lock:
            host = self.num_devices()
            dst_state = None if dst_device == host else self._memory_state(dst_device)
            src_state = None if src_device == host else self._memory_state(src_device)
            if (dst_device != host and dst_state is None) or (src_device != host and src_state is None):
                return -1
            if length <= 0:
                return 0
            to, frm = dst + dst_offset, src + src_offset
            try:
                if dst_state is None and src_state is None:
                    ctypes.memmove(to, frm, length)
                elif src_state is None:
                    dst_state.device.copy_to_device(to, frm, length)
                elif dst_state is None:
                    src_state.device.copy_to_host(to, frm, length)
                elif dst_state is src_state:
                    dst_state.device.copy_device_to_device(to, frm, length)
                else:                            # two devices: through a host buffer
                    staging = ctypes.create_string_buffer(length)
                    src_state.device.copy_to_host(ctypes.addressof(staging), frm, length)
                    dst_state.device.copy_to_device(to, ctypes.addressof(staging), length)
            except DeviceError:
                return -1
            return 0

    def fail_all(self, reason: str) -> None:
        """An internal error left the launcher's state in doubt: give up every device."""
        with self._lock:
            for state in self._states or ():
                if state.usable:
                    self._device_failed(state, RuntimeError(reason),
                                        "running target regions on the host from now on")


def team_stack_param(info: KernelInfo, grid: int, address_for) -> list:
    """The GPU control loop's hidden last parameter, if the kernel takes one: device memory
    for `grid` team frames, from address_for(bytes) (which returns 0 for 0 bytes)."""
    if info.team_stack_bytes is None:
        return []
    return [(POINTER, address_for(grid * info.team_stack_bytes))]


def _check_params(info: KernelInfo, params: list[tuple[str, object]]) -> None:
    kinds = [kind for kind, _ in params]
    if kinds != list(info.params):
        raise LaunchError(f"kernel {info.name} takes parameters ({', '.join(info.params)}) but the host "
                          f"passed ({', '.join(kinds)})")


# ----------------------------------------------------------------- the process-wide runtime
_runtime: OffloadRuntime | None = None
_runtime_lock = threading.Lock()


def runtime() -> OffloadRuntime:
    global _runtime
    with _runtime_lock:
        if _runtime is None:
            _runtime = OffloadRuntime()
        return _runtime


def reset(devices: list[Device] | None = None, environ=None) -> OffloadRuntime:
    """A fresh process-wide runtime (tests: with given devices and environment)."""
    global _runtime
    with _runtime_lock:
        _runtime = OffloadRuntime(devices, environ)
        return _runtime


def register_image(ptx: str | None, kernels: dict[str, KernelInfo], cpu=None) -> None:
    runtime().register_image(ptx, kernels, cpu)


def register_global(host_address: int, name: str, size: int) -> None:
    runtime().register_global(host_address, name, size)


def register_link_global(host_address: int, name: str, size: int) -> None:
    runtime().register_global(host_address, name, size, link=True)


def num_devices() -> int:
    return runtime().num_devices()


def set_default_device(device: int) -> None:
    """omp_set_default_device: default-device-var for regions without a device clause."""
    runtime().default_device = device


def has_devices() -> bool:
    return runtime().has_devices()


def target(device, kernel_name, count, bases, begins, sizes, types, num_teams, thread_limit,
           trip_count, where: str = "") -> int:
    return runtime().target(device, kernel_name, count, bases, begins, sizes, types,
                            num_teams, thread_limit, trip_count, where)


def data_begin(device, count, bases, begins, sizes, types, where: str = "") -> None:
    runtime().data_begin(device, count, bases, begins, sizes, types, where)


def data_end(device, count, bases, begins, sizes, types, where: str = "") -> None:
    runtime().data_end(device, count, bases, begins, sizes, types, where)


def data_update(device, count, bases, begins, sizes, types, where: str = "") -> None:
    runtime().data_update(device, count, bases, begins, sizes, types, where)


def target_alloc(size: int, device: int) -> int:
    return runtime().target_alloc(size, device)


def target_free(device_pointer: int, device: int) -> None:
    runtime().target_free(device_pointer, device)


def target_is_present(host_pointer: int, device: int) -> int:
    return runtime().target_is_present(host_pointer, device)


def target_memcpy(dst, src, length, dst_offset, src_offset, dst_device, src_device) -> int:
    return runtime().target_memcpy(dst, src, length, dst_offset, src_offset, dst_device, src_device)
