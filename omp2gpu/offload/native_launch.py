"""The native launch path's Python half: the ctypes face of runtime/native_launch/mirror.c
(and loans.c, block_cache.c), which each device's native module links in (the CPU
device's worker pool, cpu_pool.py; the GPU's, devices/cuda_native.py).

After the launcher has made a kernel's first launch (runtime.target, through its
device's `launched`), `enable_after_launch` registers the kernel there and turns the
native path on; from then on the device's data environment (MirroredDataEnvironment)
pushes every change of its present table there, and counts the launches made there as
kernel runs. Off (nothing registered, Python's own path for every launch) when launches
are profiled (OMP2GPU_PROFILE) or reshaped (OMP2GPU_LAUNCH), with OMP_TARGET_OFFLOAD=
DISABLED, and with OMP2GPU_FAST_PATH=0 (measurements).

Device memory lent for a Python call (runtime.lend_device_data) is lent there too
(loans.c), one call per range, without touching the Python table; the data environment
reads the loans back into its table when it next looks there and they have changed.
"""

from __future__ import annotations

import ctypes
import os
from ctypes import c_char_p, c_int, c_long, c_void_p
from dataclasses import dataclass

from omp2gpu.offload import abi
from omp2gpu.offload.data_environment import DataEnvironment, Mapping
from omp2gpu.offload.policy import BLOCKS_PER_MULTIPROCESSOR, DEFAULT_BLOCK_SIZE, DISABLED

_SIGNATURES = {   # mirror.c's functions: name -> (result, arguments)
    "__omp2gpu_native_start": (None, ()),
    "__omp2gpu_native_init": (None, (c_void_p, c_void_p, c_void_p, c_void_p)),
    "__omp2gpu_native_lock": (None, ()),
    "__omp2gpu_native_unlock": (None, ()),
    "__omp2gpu_native_log": (None, (c_char_p, c_char_p)),
    "__omp2gpu_native_reset": (None, ()),
    "__omp2gpu_native_configure": (None, (c_int, c_int, c_int, c_long, c_long, c_int, c_int)),
    "__omp2gpu_native_kernel": (None, (c_char_p, c_void_p, c_char_p, c_long, c_long, c_int, c_long, c_int,
                                       c_int)),
    "__omp2gpu_native_mappings": (None, (c_long, c_void_p, c_void_p, c_void_p, c_void_p)),
    "__omp2gpu_native_launches": (c_long, ()),
    "__omp2gpu_native_updates": (c_long, ()),
    "__omp2gpu_native_pinned": (None, (c_void_p,)),
    "__omp2gpu_native_pinned_cuts": (c_int, (c_long, c_long, c_void_p, c_int)),
    "__omp2gpu_target_task_events": (c_long, ()),
    "__omp2gpu_native_shape": (c_int, (c_char_p, c_int, c_int, c_long, c_void_p)),
    "__omp2gpu_native_release_cache": (None, ()),
    "__omp2gpu_native_lend": (c_int, (c_long, c_long)),
    "__omp2gpu_native_end_loan": (c_int, (c_long, c_long)),
    "__omp2gpu_native_loans": (c_int, (c_int, c_void_p, c_void_p)),
    "__omp2gpu_native_loan_generation": (c_void_p, ()),
}


PINNED_CUTS = 2 * 64          # both ends of each of pinned_ranges.c's PINNED_RANGES


def wanted(environ, *names: str) -> bool:
    """Whether the native path may be used: OMP2GPU_FAST_PATH (and each of `names`, a
    device's own switch) not "0"."""
    return all(environ.get(name, "1").strip() != "0" for name in ("OMP2GPU_FAST_PATH", *names))


class NativeLauncher:
    """One native module's launch path. `address(name)` finds its functions;
    `target_symbol` and `update_symbol` are its versions of __omp2gpu_target and
    __omp2gpu_target_data_update. Made once per module (it makes the module's lock)."""

    def __init__(self, address, target_symbol: str, update_symbol: str):
        self._address = address
        self._functions = {name: ctypes.CFUNCTYPE(result, *arguments)(address(name))
                           for name, (result, arguments) in _SIGNATURES.items()}
        self.entry_points = {abi.ENTRY_TARGET: address(target_symbol),
                             abi.ENTRY_DATA_UPDATE: address(update_symbol),
                             abi.ENTRY_SET_DEFAULT_DEVICE: address("__omp2gpu_native_set_default_device"),
                             abi.ENTRY_TARGET_TASK_BEGIN: address(abi.ENTRY_TARGET_TASK_BEGIN),
                             abi.ENTRY_TARGET_TASK_END: address(abi.ENTRY_TARGET_TASK_END)}
        self._mapping_arrays = ()
        self._log = ()
        self.fallbacks = None                # init()'s entry points, once given
        self._call("__omp2gpu_native_start")
        # Once per call of a C function with device arrays: straight to ctypes.
        self.lend = self._functions["__omp2gpu_native_lend"]          # (begin, bytes) -> 0: lent
        self.end_loan = self._functions["__omp2gpu_native_end_loan"]  # (begin, bytes) -> 0: ended
        self._loan_generation = c_long.from_address(self._call("__omp2gpu_native_loan_generation"))

    def _call(self, name: str, *args):
        return self._functions[name](*args)

    def function(self, name: str, result, *arguments):
        """Another function of the module (the device's half), as a ctypes function."""
        return ctypes.CFUNCTYPE(result, *arguments)(self._address(name))

    def init(self, target_address: int, set_default_device_address: int, failed_address: int,
             update_address: int) -> None:
        """The entry points to fall back on (the launcher's, or the next native module's),
        and the launcher's failure report."""
        self.fallbacks = (target_address, set_default_device_address, failed_address, update_address)
        self._call("__omp2gpu_native_init", *self.fallbacks)

    # the lock the launcher's own path holds too (launcher_lock.py)
    def lock(self) -> None:
        self._call("__omp2gpu_native_lock")

    def unlock(self) -> None:
        self._call("__omp2gpu_native_unlock")

    def reset(self) -> None:
        """Forget every kernel and mapping (a new launcher in this process); native launches stop."""
        self._call("__omp2gpu_native_reset")
        self.log(None, "")

    def stop(self) -> None:
        self._call("__omp2gpu_native_configure", 0, -1, 0, 1, 1, 0, 0)

    def configure(self, device: int, default_device: int, max_block: int, max_grid: int,
                  transients: bool, zero_copy: bool = False) -> None:
        self._call("__omp2gpu_native_configure", 1, device, default_device, max_block, max_grid,
                   int(transients), int(zero_copy))

    def log(self, path: str | None, device_text: str) -> None:
        """OMP2GPU_OFFLOAD_LOG's file (None: no log) and the device as its lines name it."""
        if self._log != (path, device_text):
            self._call("__omp2gpu_native_log", os.fsencode(path) if path else None, device_text.encode())
            self._log = (path, device_text)

    def register(self, name: str, handle: int, info: abi.KernelInfo, block_cap: int = 0,
                 sequential: bool = False) -> None:
        params = "".join("b" if kind == abi.BYTES else "r" if i in info.read_only_params else "p"
                         for i, kind in enumerate(info.params))
        stack = -1 if info.team_stack_bytes is None else info.team_stack_bytes
        self._call("__omp2gpu_native_kernel", name.encode(), handle, params.encode(),
                   info.default_block_size or DEFAULT_BLOCK_SIZE, block_cap, int(sequential), stack,
                   int(info.args_only), int(info.one_team))

    def push(self, mappings: list[Mapping]) -> None:
        """The device's present table (sorted Mapping objects), for the native lookups; the
        loans read back from there (Mapping.native_loan) stay out."""
        mappings = [m for m in mappings if not m.native_loan]
        count = len(mappings)
        arrays = tuple((c_long * max(count, 1))(*values) for values in (
            [m.host_begin for m in mappings], [m.host_end for m in mappings],
            [m.device_address for m in mappings]))
        # `target update` copies a plain mapping natively: not lent device memory (never
        # copied), no attached pointers (the launcher keeps their device values)
        plain = (ctypes.c_byte * max(count, 1))(*[not (m.borrowed or m.attached) for m in mappings])
        arrays += (plain,)
        self._call("__omp2gpu_native_mappings", count, *[ctypes.addressof(a) for a in arrays])
        self._mapping_arrays = arrays            # the native side reads them until the next push

    @property
    def loan_generation(self) -> int:
        """Changes whenever a loan is made or ended (read where loans.c keeps it)."""
        return self._loan_generation.value

    def loans(self) -> list[tuple[int, int]]:
        """The (begin, end) of each range lent there now."""
        capacity = 0
        while True:
            begins, ends = (c_long * max(capacity, 1))(), (c_long * max(capacity, 1))()
            count = self._call("__omp2gpu_native_loans", capacity, ctypes.addressof(begins), ctypes.addressof(ends))
            if count <= capacity:
                return list(zip(begins[:count], ends[:count]))
            capacity = count

    def launches(self) -> int:
        """Launches made natively so far."""
        return self._call("__omp2gpu_native_launches")

    def updates(self) -> int:
        """`target update` constructs made natively so far."""
        return self._call("__omp2gpu_native_updates")

    def pinned(self) -> tuple[int, int, int]:
        """Host ranges of `target update` copies page-locked now, locked so far and refused so
        far (runtime/native_launch/pinned_ranges.c; the GPU's update copies lock them)."""
        counts = (c_long * 3)()
        self._call("__omp2gpu_native_pinned", ctypes.addressof(counts))
        return counts[0], counts[1], counts[2]

    def pinned_cuts(self, host: int, nbytes: int) -> list[int]:
        """The ends of page-locked ranges strictly inside (host, host + nbytes): the driver
        refuses one copy partly in a locked range and partly outside it, so a copy of that
        range is cut there (pinned_ranges.c)."""
        cuts = (c_long * PINNED_CUTS)()
        count = self._call("__omp2gpu_native_pinned_cuts", host, nbytes, ctypes.addressof(cuts), PINNED_CUTS)
        return list(cuts[:count])

    def task_events(self) -> int:
        """Detached target tasks' bodies that offered their completion event so far."""
        return self._call("__omp2gpu_target_task_events")

    def shape(self, name: str, num_teams: int, thread_limit: int, trip_count: int) -> tuple[int, int] | None:
        """(grid, block) a registered kernel gets natively; None if it is not registered."""
        shape = (c_long * 2)()
        if self._call("__omp2gpu_native_shape", name.encode(), num_teams, thread_limit, trip_count, shape):
            return None
        return shape[0], shape[1]

    def release_cache(self) -> None:
        """Every buffer kept for transient mappings back to the device."""
        self._call("__omp2gpu_native_release_cache")


def enable_after_launch(native: NativeLauncher | None, runtime, state, kernel_name: str, info,
                        handle: int, block_cap: int = 0, sequential: bool = False,
                        zero_copy: bool = False) -> bool:
    """After the launcher ran `kernel_name` on `state`'s device: later launches of it may
    be native, unless something asks for the launcher's own path. True when enabled."""
    record = runtime.record
    if (native is None or record.observes_each_launch or runtime.launch_override or runtime.policy == DISABLED
            or not state.usable):
        return False
    device = state.device
    native.register(kernel_name, handle, info, block_cap, sequential)
    native.push(state.data.mappings)
    native.log(record.log_path, repr(device.name))
    # Copies logged one by one, or declare target link storage (mapped into the module's
    # own storage): transient mappings take the launcher's path.
    transients = not record.copy_log_path and not state.data.has_link_storage
    native.configure(state.number, runtime.default_device, device.max_threads_per_block,
                     max(1, device.multiprocessor_count) * BLOCKS_PER_MULTIPROCESSOR,
                     transients, zero_copy)
    return True


@dataclass(slots=True)     # not frozen: made on every call, and a frozen one is made slowly
class NativeLoan:
    """Device memory lent through a native launch path (MirroredDataEnvironment.lend_natively)."""
    native: NativeLauncher
    begin: int
    nbytes: int

    def end(self) -> None:
        self.native.end_loan(self.begin, self.nbytes)


class MirroredDataEnvironment(DataEnvironment):
    """A present table mirrored for a native launch path: every insertion and removal is
    pushed there, and launches made there count as kernel runs here before anything
    reads or copies. `native()` gives the NativeLauncher, None while there is none.
    Ranges lent there (loans.c) are read back into the table, as borrowed mappings, when
    it is next looked at after they changed."""

    def __init__(self, device, native):
        super().__init__(device)
        self._native_source = native
        self._native_launches = 0
        self._loans_seen = None        # the native loans' generation the table holds

    # ----------------------------------------------------------------- loans
    def lend_natively(self, begin: int, nbytes: int) -> NativeLoan | None:
        """The caller's device memory lent to the native launch path, without this table or
        the launcher's lock; None where that path does not take it (there is none, or the
        range touches a mapping or crosses a loan): borrow() decides then."""
        native = self._native_source()
        if native is not None and native.lend(begin, nbytes) == 0:
            return NativeLoan(native, begin, nbytes)
        return None

    def _see_loans(self) -> None:
        """The native loans in this table as borrowed mappings, if they changed (they never
        overlap a mapping of the mirror: loans.c lends no range that touches one)."""
        native = self._native_source()
        if native is None or native.loan_generation == self._loans_seen:
            return
        self._loans_seen = native.loan_generation
        lent = set(native.loans())
        for mapping in [m for m in self._mappings if m.native_loan]:
            if (mapping.host_begin, mapping.host_end) in lent:
                lent.discard((mapping.host_begin, mapping.host_end))
            else:
                self._remove(mapping)
        for begin, end in sorted(lent):
            self._insert(Mapping(begin, end - begin, begin, always_present=True, borrowed=True, native_loan=True))

    def lookup(self, begin: int, size: int) -> Mapping | None:
        self._see_loans()
        return super().lookup(begin, size)

    def lookup_address(self, address: int, one_past_end: bool = False) -> Mapping | None:
        self._see_loans()
        return super().lookup_address(address, one_past_end)

    def __len__(self) -> int:
        self._see_loans()
        return super().__len__()

    @property
    def mappings(self) -> list[Mapping]:
        self._see_loans()
        return list(self._mappings)

    def _sync(self) -> None:
        native = self._native_source()
        if native is not None:
            launches = native.launches()
            if launches != self._native_launches:
                self._native_launches = launches
                self.kernel_ran()

    def _push(self) -> None:
        native = self._native_source()
        if native is not None:
            native.push(self._mappings)

    def _insert(self, mapping: Mapping) -> Mapping:
        result = super()._insert(mapping)
        if not mapping.native_loan:          # a loan is there already
            self._push()
        return result

    def _remove(self, mapping: Mapping) -> None:
        super()._remove(mapping)
        if not mapping.native_loan:
            self._push()

    def _attach(self, slot: int, begin: int, size: int) -> None:
        super()._attach(slot, begin, size)
        self._push()                        # the holder's attached pointers changed

    def begin(self, entries) -> None:
        self._sync()
        super().begin(entries)

    def end(self, entries) -> None:
        self._sync()
        super().end(entries)

    def update(self, entries) -> None:
        self._sync()
        super().update(entries)

    def host_region_begin(self) -> None:
        self._sync()                        # native launches count as kernels run
        super().host_region_begin()

    def evacuate(self) -> list[str]:
        """The device is given up: the native path stops, then the base class copies back."""
        native = self._native_source()
        if native is not None:
            native.stop()
        self._sync()
        lost = super().evacuate()
        self._push()
        return lost
