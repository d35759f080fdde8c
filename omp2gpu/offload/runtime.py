"""The process-wide offload runtime: what the entry points of offload/abi.py do.

It finds the devices (device_states.py), reads OMP_TARGET_OFFLOAD and
OMP_DEFAULT_DEVICE, keeps the compiled images the driver registers (images.py),
and runs target regions: map (data_environment), build the kernel parameters,
launch, unmap. Whatever goes wrong on a device turns into the host fallback (the
compiled host code runs the region itself when `target` returns nonzero): the
device's data is copied back first, and the device is not used again, so the host
copy is the only copy from then on. The omp_* device memory routines are
device_memory.py's. `lend_device_data` lends the launcher a caller's device arrays (the
Python API's CuPy arguments) for the length of a call.

Module-level functions act on one OffloadRuntime made on first use; tests make
their own with `reset(devices=[...], environ={...})`.
"""

from __future__ import annotations

import os
import threading

from omp2gpu.offload.abi import POINTER, KernelInfo, MapType
from omp2gpu.offload.data_environment import Mapping, MappingError, read_entries
from omp2gpu.offload.device_memory import DeviceMemoryRoutines
from omp2gpu.offload.device_states import DeviceState, device_states, discover_devices
from omp2gpu.offload.devices.base import Device, DeviceError
from omp2gpu.offload.images import ImageRegistry, LaunchError
from omp2gpu.offload.launch_record import LaunchRecord
from omp2gpu.offload.launcher_lock import LAUNCHER_LOCK
from omp2gpu.offload.map_checks import check_entries, naming_construct
from omp2gpu.offload.messages import fatal, one_line, report
from omp2gpu.offload.policy import (
    DISABLED,
    MANDATORY,
    default_device_number,
    launch_configuration,
    launch_override,
    offload_policy,
    rank_default_device,
)


class OffloadRuntime(DeviceMemoryRoutines):
    def __init__(self, devices: list[Device] | None = None, environ=None):
        environ = os.environ if environ is None else environ
        self.policy = offload_policy(environ)
        self.default_device = default_device_number(environ)
        self._given_devices = devices
        self._environ = environ
        self._states: list[DeviceState] | None = None
        self.images = ImageRegistry()
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
            self._states = device_states(devices)
            self._spread_ranks_over_gpus(devices)
            if self.record.copy_log_path:
                for state in self._states:
                    state.data.copy_observer = self.record.copy_observer(state.device)
        return self._states

    def _spread_ranks_over_gpus(self, devices: list[Device]) -> None:
        """Under MPI, each rank of a node takes its own GPU; the program's
        omp_get_default_device (runtime/host/omp_api.c reads OMP_DEFAULT_DEVICE) agrees."""
        choice = rank_default_device(self._environ, sum(getattr(d, "kind", "gpu") == "gpu" for d in devices))
        if choice is not None:
            self.default_device = choice
            self._environ["OMP_DEFAULT_DEVICE"] = str(choice)

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
            self.images.add_image(ptx, kernels, cpu)

    def register_global(self, host_address: int, name: str, size: int, link: bool = False) -> None:
        """A declare target global (`link`: declare target link, mapped by map clauses only)."""
        with self._lock:
            self.images.add_global(host_address, name, size, link)
            for state in self._states or ():
                if state.usable and state.modules:
                    self._guarded(state, lambda: self.images.bind_globals(state),  # noqa: B023 (called at once)
                                  "running target regions on the host from now on")

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
                self.images.activate(state)
                info, function = self.images.function(state, kernel_name)
                with naming_construct(where):
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
                with naming_construct(where):
                    state.data.end(entries)
                launched = getattr(state.device, "launched", None)   # the CPU device's native path
                if launched is not None:
                    launched(self, state, kernel_name, info, function)

            ran = self._guarded(state, run, "running the region on the host")
            return 0 if ran else 1

    # ----------------------------------------------------------------- the caller's device data
    def lend_device_data(self, ranges: list[tuple[int, int]], streams=()) -> tuple:
        """The caller's device memory, (address, bytes) ranges, present on the default device
        until end_loan(the result): its host address is its device address, so map clauses
        on it copy nothing and kernels get the pointer itself. Work queued on `streams`
        (handles) is waited for first. LookupError names a range the default device does not
        hold; MappingError, one that overlaps a mapped host range.

        Once a native launch path serves the device, a range is lent there (one call, its
        own mutex only, taken with no lock of ours held, as the launcher's entry points take
        it before ours); else, or for a range inside or across a mapping, the data
        environment borrows it under the launcher's lock."""
        with self._lock:                 # the device's own tables (the CPU device's allocations)
            state = self._select_holder(ranges)
            for stream in streams:
                state.device.wait_for_stream(stream)
        lent = []
        try:
            for begin, nbytes in _merged(ranges):
                loan = state.data.lend_natively(begin, nbytes)
                if loan is None:
                    with LAUNCHER_LOCK, self._lock:
                        loan = state.data.borrow(begin, nbytes)
                lent.append(loan)
        except MappingError:
            self.end_loan((state, lent))
            raise
        return state, lent

    def end_loan(self, loan: tuple) -> None:
        state, lent = loan
        for item in lent:
            if isinstance(item, Mapping):
                with LAUNCHER_LOCK, self._lock:
                    state.data.give_back(item)
            else:
                item.end()

    def _select_holder(self, ranges: list[tuple[int, int]]) -> DeviceState:
        """The default device, if it is usable and holds every range."""
        number = self.default_device
        if self.policy == DISABLED:
            why = "offloading is disabled"
        elif not 0 <= number < len(self.states):
            why = "target regions run on the host"
        elif not self.states[number].usable:
            why = f"device {number} is not usable"
        else:
            state = self.states[number]
            for begin, _ in ranges:
                if not state.device.holds(begin):
                    raise LookupError(f"memory at {begin:#x} is not on device {number} "
                                      f"({state.device.name}), where target regions run")
            return state
        raise LookupError(f"device memory cannot be used here: {why}")

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
                self.images.activate(state)
                with naming_construct(where):
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

    def host_region(self, device: int, begin: bool, where: str = "") -> None:
        """Around a region the host runs for a device that could not (abi.py's
        ENTRY_HOST_REGION_*): with `begin`, the device's data the host has not seen is
        copied back; after the region, every mapping is copied to the device. Nothing
        happens without a usable device or with nothing mapped on it."""
        with self._lock:
            state = self._mapping_state(device)
            if state is None or not len(state.data):
                return

            def run():
                if begin:
                    state.device.synchronize()      # launches in flight (the native path's too)
                    state.data.host_region_begin()
                else:
                    state.data.host_region_end()
            self._guarded(state, run, f"running target regions on the host from now on ({where})")

    def _mapping_state(self, device: int) -> DeviceState | None:
        """The usable device a device clause's value names, quietly (a region that runs on
        the host anyway is no reason to end the run under MANDATORY); else None."""
        if self.policy == DISABLED:
            return None
        states = self.states
        number = self.default_device if device == -1 else device
        if 0 <= number < len(states) and states[number].usable:
            return states[number]
        return None

    def native_launch_failed(self, device: int, reason: str) -> None:
        """A native launch (native_launch.py) met a device error on `device`: give the device
        up, as target() does; the caller runs the region on the host."""
        with self._lock:
            states = self._states or []
            if 0 <= device < len(states) and states[device].usable:
                self._device_failed(states[device], DeviceError(reason), "running the region on the host")

    def fail_all(self, reason: str) -> None:
        """An internal error left the launcher's state in doubt: give up every device."""
        with self._lock:
            for state in self._states or ():
                if state.usable:
                    self._device_failed(state, RuntimeError(reason),
                                        "running target regions on the host from now on")


def _merged(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The ranges a loan lends: one as it is, several joined (joined_ranges)."""
    return ranges if len(ranges) == 1 else joined_ranges(ranges)


def joined_ranges(ranges: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """(begin, bytes) ranges with the overlapping ones joined (one array passed twice, or
    two views of one array); an empty range counts as one byte."""
    joined: list[list[int]] = []
    for begin, nbytes in sorted(ranges):
        end = begin + max(nbytes, 1)
        if joined and begin <= joined[-1][1]:
            joined[-1][1] = max(joined[-1][1], end)
        else:
            joined.append([begin, end])
    return [(begin, end - begin) for begin, end in joined]


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
    made = _runtime
    if made is not None:         # once made, read without the lock (each Python call reads it)
        return made
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


def host_region(device, begin: bool, where: str = "") -> None:
    runtime().host_region(device, begin, where)


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
