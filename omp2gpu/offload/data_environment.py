"""The device data environment of one device (OpenMP 4.5 2.15.5, 2.10).

A present table maps host address ranges to device storage with a reference
count. A list item is found by any range inside a mapped one, so an array
section of a larger mapped array uses the enclosing storage; one that sticks
out of a mapping is a user error (MappingError), as in libomptarget and
libgomp. `declare target` globals are mapped for the whole run
(always_present): map clauses neither count nor free them. `declare target
link` globals have module storage too, but are present only while a map
clause maps them: mapping one copies into that storage as into a fresh
allocation (2.14.7), and releasing it never frees the module's storage.
Borrowed ranges are device memory the caller owns (a CuPy array passed through
the Python API): present while lent, their host address is their device
address, so map clauses on them neither count, copy nor free anything.

The operations take the map-entry lists of offload/abi.py as MapEntry objects.
"""

from __future__ import annotations

import bisect
import ctypes
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from omp2gpu.offload.abi import BYTES, POINTER, MapType, parent_index

if TYPE_CHECKING:     # annotations only: devices/ builds on this module
    from omp2gpu.offload.devices.base import Device

# Entries that pass a value instead of mapping storage.
_NOT_MAPPED = MapType.LITERAL | MapType.IS_DEVICE_PTR | MapType.POINTER_LOOKUP | MapType.ATTACH
POINTER_BYTES = ctypes.sizeof(ctypes.c_void_p)


class MappingError(Exception):
    """A map clause the program may not write (e.g. a partially mapped section)."""


@dataclass
class MapEntry:
    """One argument of a launcher call: bases[i], begins[i], sizes[i], types[i]."""
    base: int
    begin: int
    size: int
    type: MapType

    @property
    def maps_storage(self) -> bool:
        """Whether the entry allocates / counts storage; zero-length sections only look up."""
        return self.size > 0 and not self.type & _NOT_MAPPED


def read_entries(count: int, bases, begins, sizes, types) -> list[MapEntry]:
    """MapEntry objects from the four C arrays (ctypes pointers or Python lists; NULL reads as 0)."""
    return [MapEntry(int(bases[i] or 0), int(begins[i] or 0), int(sizes[i]), MapType(int(types[i])))
            for i in range(count)]


@dataclass
class Mapping:
    host_begin: int
    nbytes: int
    device_address: int
    references: int = 1
    always_present: bool = False   # declare target: mapped until the program ends
    link: bool = False             # declare target link: module storage, mapped by map clauses
    borrowed: bool = False         # the caller's device memory (borrow): never copied
    native_loan: bool = False      # borrowed through a native launch path (read back from it)
    device_newer: bool = False     # a kernel ran since the host last copied the whole range back
    # Attached pointers inside the range: host address of the pointer -> (begin, size) of
    # the pointee section, whose device address the device copy holds instead.
    attached: dict = field(default_factory=dict)

    @property
    def host_end(self) -> int:
        return self.host_begin + self.nbytes

    @property
    def frees_storage(self) -> bool:
        """Whether unmapping frees the device storage (not a module's own global)."""
        return not (self.always_present or self.link or self.borrowed)

    def device_address_of(self, host_address: int) -> int:
        """The device address corresponding to host_address (which may lie outside the
        range: a pointer to p[lo:len] still points at p[0])."""
        return self.device_address + (host_address - self.host_begin)

    def __str__(self) -> str:
        return f"[{self.host_begin:#x}, {self.host_end:#x})"


class DataEnvironment:
    def __init__(self, device: Device):
        self.device = device
        self._starts: list[int] = []          # host_begin of each mapping, sorted
        self._mappings: list[Mapping] = []    # in the same order; ranges never overlap
        self._link_storage: list[Mapping] = []   # declare target link globals, mapped or not
        # Told of each copy a map clause makes: ("to-device" | "to-host", bytes) (the copy log).
        self.copy_observer: Callable[[str, int], None] | None = None

    def __len__(self) -> int:
        return len(self._mappings)

    @property
    def mappings(self) -> list[Mapping]:
        return list(self._mappings)

    @property
    def has_link_storage(self) -> bool:
        """Whether declare target link globals have module storage here (mapping one maps
        that storage, not fresh memory)."""
        return bool(self._link_storage)

    # ----------------------------------------------------------------- the present table
    def lookup(self, begin: int, size: int) -> Mapping | None:
        """The mapping holding [begin, begin + size), None if no byte of it is mapped."""
        if size <= 0:
            return self.lookup_address(begin)
        end = begin + size
        index = max(bisect.bisect_right(self._starts, begin) - 1, 0)
        while index < len(self._mappings) and self._starts[index] < end:
            mapping = self._mappings[index]
            index += 1
            if mapping.host_end <= begin:
                continue
            if mapping.host_begin <= begin and end <= mapping.host_end:
                return mapping
            raise MappingError(f"host range [{begin:#x}, {end:#x}) is partially mapped: it "
                               f"overlaps the mapped range {mapping} without lying inside it "
                               "(OpenMP 4.5 2.15.5)")
        return None

    def lookup_entry(self, entry: MapEntry) -> Mapping | None:
        """The mapping holding a map entry's storage. An implicitly mapped array or struct
        that sticks out of a mapping (`target data map(A[0:4])`, then A used whole in a
        target region) is present in that mapping, as in libomptarget, and never extends
        it: the OpenMP Examples' array_sections.3 and .4 are valid programs. An explicit
        map clause that sticks out is the program's error (MappingError)."""
        try:
            return self.lookup(entry.begin, entry.size)
        except MappingError:
            if not entry.type & MapType.IMPLICIT:
                raise
            return self._first_overlapping(entry.begin, entry.begin + entry.size)

    def _first_overlapping(self, begin: int, end: int) -> Mapping | None:
        index = max(bisect.bisect_right(self._starts, begin) - 1, 0)
        for mapping in self._mappings[index:]:
            if mapping.host_begin >= end:
                break
            if mapping.host_end > begin:
                return mapping
        return None

    def lookup_address(self, address: int, one_past_end: bool = False) -> Mapping | None:
        """The mapping containing address; with one_past_end also one ending exactly there
        (a pointer just past a mapped array, which C allows)."""
        index = bisect.bisect_right(self._starts, address) - 1
        if index < 0:
            return None
        mapping = self._mappings[index]
        if address < mapping.host_end or (one_past_end and address == mapping.host_end):
            return mapping
        return None

    def is_present(self, host_address: int) -> bool:
        return self.lookup_address(host_address) is not None

    def _insert(self, mapping: Mapping) -> Mapping:
        index = bisect.bisect_right(self._starts, mapping.host_begin)
        self._starts.insert(index, mapping.host_begin)
        self._mappings.insert(index, mapping)
        return mapping

    def _remove(self, mapping: Mapping) -> None:
        index = self._mappings.index(mapping)
        del self._starts[index]
        del self._mappings[index]

    # ----------------------------------------------------------------- copies
    def _to_device(self, mapping: Mapping, begin: int, size: int) -> None:
        if mapping.borrowed:
            return                                # its host address is its device address
        if self.copy_observer is not None:
            self.copy_observer("to-device", size)
        self.device.copy_to_device(mapping.device_address_of(begin), begin, size)
        for slot in _slots_within(mapping, begin, size):        # the copy put host pointers there
            self._attach(slot, *mapping.attached[slot])

    def _to_host(self, mapping: Mapping, begin: int, size: int) -> None:
        if mapping.borrowed:
            return
        if self.copy_observer is not None:
            self.copy_observer("to-host", size)
        # Attached pointers hold device addresses on the device: the host keeps its own.
        kept = {slot: ctypes.c_void_p.from_address(slot).value for slot in _slots_within(mapping, begin, size)}
        self.device.copy_to_host(begin, mapping.device_address_of(begin), size)
        for slot, value in kept.items():
            ctypes.c_void_p.from_address(slot).value = value
        if begin == mapping.host_begin and size == mapping.nbytes:
            mapping.device_newer = False

    def _attach(self, slot: int, begin: int, size: int) -> None:
        """Make the device copy of the host pointer at `slot` point at the device copy of its
        pointee (the section [begin, begin + size) it designates), where both are mapped."""
        holder = self.lookup(slot, POINTER_BYTES)
        if holder is None:
            return
        pointee = self.lookup(begin, size) if size > 0 else self.lookup_address(begin, one_past_end=True)
        if pointee is None:
            holder.attached.pop(slot, None)       # nothing to point at: the host value stays
            return
        value = ctypes.c_void_p(pointee.device_address_of(ctypes.c_void_p.from_address(slot).value or 0))
        self.device.copy_to_device(holder.device_address_of(slot), ctypes.addressof(value), POINTER_BYTES)
        holder.attached[slot] = (begin, size)

    # ----------------------------------------------------------------- map clauses
    def begin(self, entries: list[MapEntry]) -> None:
        """Entry to a data region / target region: map what is absent (copying TO), count
        what is present (copying only with ALWAYS). Struct members are copied when their
        struct is newly mapped; attached pointers are set last, when all is mapped."""
        fresh = set()                                 # entries this call mapped anew
        for index, entry in enumerate(entries):
            if not entry.maps_storage:
                continue
            parent = parent_index(entry.type)
            if parent is not None:
                mapping = self.lookup(entry.begin, entry.size)
                if mapping is not None and entry.type & MapType.TO and (
                        parent in fresh or entry.type & MapType.ALWAYS):
                    self._to_device(mapping, entry.begin, entry.size)
                continue
            mapping = self.lookup_entry(entry)
            if mapping is None:
                mapping = self._insert(self._link_mapping(entry) or Mapping(
                    entry.begin, entry.size, self.device.allocate(entry.size)))
                fresh.add(index)
                if entry.type & MapType.TO:
                    self._to_device(mapping, entry.begin, entry.size)
                continue
            if not mapping.always_present:
                mapping.references += 1
            if entry.type & MapType.TO and entry.type & MapType.ALWAYS:
                self._to_device(mapping, entry.begin, entry.size)
        for entry in entries:
            if entry.type & MapType.ATTACH:
                self._attach(entry.base, entry.begin, entry.size)

    def end(self, entries: list[MapEntry]) -> None:
        """Exit: count down (DELETE: to zero), copy FROM at zero or with ALWAYS, free at
        zero. In reverse order, freeing last, as several entries may share a mapping.
        Struct members are copied back when their struct's count reaches zero."""
        released = []
        last_of = set()                               # entries whose mapping this call releases
        for index in reversed(range(len(entries))):
            entry = entries[index]
            if not entry.maps_storage or parent_index(entry.type) is not None:
                continue
            mapping = self.lookup_entry(entry)
            if mapping is None or mapping.references == 0:
                continue                      # not present (exit data of an unmapped item)
            if not mapping.always_present:
                mapping.references = 0 if entry.type & MapType.DELETE else mapping.references - 1
            last = mapping.references == 0 and not mapping.always_present
            if entry.type & MapType.FROM and (last or entry.type & MapType.ALWAYS):
                self._to_host(mapping, entry.begin, entry.size)
            if last:
                released.append(mapping)
                last_of.add(index)
        for entry in reversed(entries):
            parent = parent_index(entry.type)
            if parent is None or not entry.maps_storage or not entry.type & MapType.FROM:
                continue
            mapping = self.lookup(entry.begin, entry.size)
            if mapping is not None and (parent in last_of or entry.type & MapType.ALWAYS):
                self._to_host(mapping, entry.begin, entry.size)
        for mapping in released:
            self._remove(mapping)
            if mapping.frees_storage:
                self.device.free(mapping.device_address)

    def update(self, entries: list[MapEntry]) -> None:
        """target update: copy present items; absent ones are ignored (2.10.5)."""
        for entry in entries:
            if not entry.maps_storage or not entry.type & (MapType.TO | MapType.FROM):
                continue
            mapping = self.lookup(entry.begin, entry.size)
            if mapping is None:
                continue
            if entry.type & MapType.TO:
                self._to_device(mapping, entry.begin, entry.size)
            if entry.type & MapType.FROM:
                self._to_host(mapping, entry.begin, entry.size)

    def add_global(self, host_begin: int, nbytes: int, device_address: int) -> Mapping:
        """A declare target global whose device storage the module provides: present from
        now on, initialised from the host."""
        existing = self.lookup(host_begin, nbytes)
        if existing is not None:
            return existing
        mapping = self._insert(Mapping(host_begin, nbytes, device_address, references=1,
                                       always_present=True))
        self._to_device(mapping, host_begin, nbytes)
        return mapping

    def borrow(self, begin: int, nbytes: int) -> Mapping:
        """The caller's device memory [begin, begin + nbytes) present until give_back (lent
        again by another caller meanwhile: counted). A partial overlap with a mapped range
        is a MappingError."""
        existing = self.lookup(begin, nbytes)
        if existing is None:
            return self._insert(Mapping(begin, nbytes, begin, always_present=True, borrowed=True))
        if not existing.borrowed:
            raise MappingError(f"device memory [{begin:#x}, {begin + nbytes:#x}) lies in the mapped "
                               f"host range {existing}")
        existing.references += 1
        return existing

    def lend_natively(self, begin: int, nbytes: int):
        """The caller's device memory lent to a native launch path without this table (a
        loan with end()), where there is one that takes it; None: borrow() it here."""
        return None

    def give_back(self, mapping: Mapping) -> None:
        """End one borrow of `mapping`; at the last, it is no longer present."""
        mapping.references -= 1
        if mapping.references == 0 and mapping in self._mappings:   # evacuate may have dropped it
            self._remove(mapping)

    def add_link_global(self, host_begin: int, nbytes: int, device_address: int) -> None:
        """A declare target link global: its module storage, used once a map clause maps it."""
        self._link_storage.append(Mapping(host_begin, nbytes, device_address, references=1, link=True))

    def _link_mapping(self, entry: MapEntry) -> Mapping | None:
        """A fresh mapping onto the module storage of the link global holding the entry."""
        for link in self._link_storage:
            if link.host_begin <= entry.begin and entry.begin + entry.size <= link.host_end:
                return Mapping(link.host_begin, link.nbytes, link.device_address, link=True)
        return None

    # ----------------------------------------------------------------- what the kernel sees
    def translate(self, entry: MapEntry) -> int:
        """The device address corresponding to entry.base; 0 (NULL) where the storage is
        not present (an unmapped pointer, a zero-length section of nothing mapped)."""
        if entry.maps_storage:
            mapping = self.lookup_entry(entry)
        else:
            mapping = self.lookup_address(entry.begin, one_past_end=True)
        return 0 if mapping is None else mapping.device_address_of(entry.base)

    def kernel_argument(self, entry: MapEntry) -> tuple[str, object]:
        """(kind, value) of the kernel parameter for a TARGET_PARAM entry."""
        if entry.type & MapType.LITERAL:
            return BYTES, ctypes.string_at(entry.begin, entry.size) if entry.size else b""
        if entry.type & MapType.IS_DEVICE_PTR:
            return POINTER, entry.base
        return POINTER, self.translate(entry)

    def return_device_pointers(self, entries: list[MapEntry], bases) -> None:
        """use_device_ptr (RETURN_PARAM): write each present pointee's device address
        into bases[i]; an absent one keeps its host address."""
        for index, entry in enumerate(entries):
            if entry.type & MapType.RETURN_PARAM:
                mapping = self.lookup_address(entry.begin, one_past_end=True)
                if mapping is not None:
                    bases[index] = mapping.device_address_of(entry.base)

    # ----------------------------------------------------------------- regions run on the host
    def host_region_begin(self) -> None:
        """A target region runs on the host instead (its device build was refused): the
        host copy of every mapping a kernel may have written since the host saw it is
        brought up to date, as evacuate() does."""
        for mapping in self._mappings:
            if mapping.device_newer:
                self._to_host(mapping, mapping.host_begin, mapping.nbytes)

    def host_region_end(self) -> None:
        """After it: the device copy of every mapping gets what the host region left (it
        may have written any of them)."""
        for mapping in self._mappings:
            self._to_device(mapping, mapping.host_begin, mapping.nbytes)

    # ----------------------------------------------------------------- kernels and failures
    def kernel_ran(self) -> None:
        """Any mapping may now hold data the host has not seen."""
        for mapping in self._mappings:
            mapping.device_newer = True

    def evacuate(self) -> list[str]:
        """The device is being given up: copy back every mapping a kernel may have
        written since the host last saw it, free the rest, and forget them all.
        Returns one message per range whose data could not be saved."""
        lost = []
        for mapping in self._mappings:
            if mapping.device_newer:
                try:
                    self._to_host(mapping, mapping.host_begin, mapping.nbytes)
                except Exception as error:      # a broken context: report, keep going
                    lost.append(f"{mapping}: {error}")
            if mapping.frees_storage:
                try:
                    self.device.free(mapping.device_address)
                except Exception:
                    pass
        self._starts.clear()
        self._mappings.clear()
        return lost


def _slots_within(mapping: Mapping, begin: int, size: int) -> list[int]:
    """The attached pointers of `mapping` lying wholly in [begin, begin + size)."""
    return [slot for slot in mapping.attached if begin <= slot and slot + POINTER_BYTES <= begin + size]
