"""The present table and the map-type rules (OpenMP 4.5 2.15.5), on the in-memory device."""

from __future__ import annotations

import ctypes

import pytest

from omp2gpu.offload.abi import MapType as M
from omp2gpu.offload.abi import member_of
from omp2gpu.offload.data_environment import DataEnvironment, MapEntry, MappingError, read_entries
from omp2gpu.offload.devices.host_memory import HostMemoryDevice

INT = ctypes.sizeof(ctypes.c_int)


def ints(*values):
    return (ctypes.c_int * len(values))(*values)


def addr(array, index=0):
    return ctypes.addressof(array) + index * ctypes.sizeof(array._type_)


def whole(array, bits) -> MapEntry:
    """map(bits: array): base and begin are the array's address."""
    return MapEntry(addr(array), addr(array), ctypes.sizeof(array), M(bits))


def section(array, lower, length, bits) -> MapEntry:
    """map(bits: p[lower:length]) with p pointing at array[0]."""
    return MapEntry(addr(array), addr(array, lower), length * INT, M(bits))


def device_ints(device, address, count):
    return list((ctypes.c_int * count).from_address(address))


def write_device(address, values):
    ctypes.memmove(address, ints(*values), len(values) * INT)


@pytest.fixture
def env():
    return DataEnvironment(HostMemoryDevice())


# ----------------------------------------------------------------- begin / end
def test_tofrom_allocates_copies_to_then_back_and_frees(env):
    a = ints(1, 2, 3)
    entries = [whole(a, M.TO | M.FROM)]
    env.begin(entries)
    mapping = env.lookup(addr(a), ctypes.sizeof(a))
    assert mapping.references == 1 and env.device.copies["to_device"] == 1
    assert device_ints(env.device, mapping.device_address, 3) == [1, 2, 3]
    write_device(mapping.device_address, [7, 8, 9])
    env.end(entries)
    assert list(a) == [7, 8, 9]
    assert len(env) == 0 and env.device.live_allocations == 0


def test_to_does_not_copy_back_and_from_does_not_copy_in(env):
    a, b = ints(1, 2), ints(5, 6)
    entries = [whole(a, M.TO), whole(b, M.FROM)]
    env.begin(entries)
    assert env.device.copies["to_device"] == 1
    b_dev = env.lookup(addr(b), 8).device_address
    write_device(env.lookup(addr(a), 8).device_address, [0, 0])
    write_device(b_dev, [3, 4])
    env.end(entries)
    assert list(a) == [1, 2] and list(b) == [3, 4]
    assert env.device.copies["to_host"] == 1


def test_alloc_copies_nothing(env):
    a = ints(1, 2)
    env.begin([whole(a, M.NONE)])
    env.end([whole(a, M.NONE)])
    assert sum(env.device.copies.values()) == 0 and env.device.live_allocations == 0


def test_reference_count_nested_regions(env):
    a = ints(1, 2, 3, 4)
    outer, inner = [whole(a, M.TO | M.FROM)], [whole(a, M.TO | M.FROM)]
    env.begin(outer)
    env.begin(inner)                      # present: no second allocation, no copy
    mapping = env.lookup(addr(a), 16)
    assert mapping.references == 2 and env.device.copies["to_device"] == 1
    write_device(mapping.device_address, [9, 9, 9, 9])
    env.end(inner)                        # not the last reference: no copy back
    assert list(a) == [1, 2, 3, 4] and mapping.references == 1 and len(env) == 1
    env.end(outer)
    assert list(a) == [9, 9, 9, 9] and len(env) == 0


def test_always_copies_whatever_the_count(env):
    a = ints(1, 2)
    env.begin([whole(a, M.TO)])
    a[0] = 10
    env.begin([whole(a, M.TO)])           # present, no ALWAYS: the device keeps 1
    mapping = env.lookup(addr(a), 8)
    assert device_ints(env.device, mapping.device_address, 2) == [1, 2]
    env.begin([whole(a, M.TO | M.ALWAYS)])
    assert device_ints(env.device, mapping.device_address, 2) == [10, 2]
    write_device(mapping.device_address, [20, 21])
    env.end([whole(a, M.FROM | M.ALWAYS)])  # count 3 -> 2, copied anyway
    assert list(a) == [20, 21] and mapping.references == 2


def test_delete_forces_the_count_to_zero(env):
    a = ints(1, 2)
    env.begin([whole(a, M.TO)])
    env.begin([whole(a, M.TO)])
    env.end([whole(a, M.DELETE)])
    assert len(env) == 0 and env.device.live_allocations == 0
    assert env.device.copies["to_host"] == 0


def test_release_counts_down_without_copying(env):
    a = ints(1, 2)
    env.begin([whole(a, M.TO | M.FROM)])
    env.end([whole(a, M.NONE)])            # map(release:)
    assert len(env) == 0 and env.device.copies["to_host"] == 0


def test_end_of_an_unmapped_item_is_ignored(env):
    a = ints(1)
    env.end([whole(a, M.FROM)])
    env.end([whole(a, M.DELETE)])
    assert sum(env.device.copies.values()) == 0


def test_entries_sharing_a_mapping_in_one_list_free_it_once(env):
    a = ints(1, 2, 3, 4)
    env.begin([whole(a, M.TO)])
    parts = [section(a, 0, 2, M.FROM), section(a, 2, 2, M.FROM)]
    env.begin(parts)                      # both find the enclosing mapping: count 3
    env.end([whole(a, M.NONE)])           # count 2
    mapping = env.lookup(addr(a), 16)
    write_device(mapping.device_address, [5, 6, 7, 8])
    env.end(parts)                        # 2 -> 1 -> 0: the last one copies its part back
    assert len(env) == 0 and env.device.live_allocations == 0
    assert list(a)[:2] == [5, 6]


# ----------------------------------------------------------------- sections and lookups
def test_section_of_a_mapped_array_uses_the_enclosing_mapping(env):
    a = ints(*range(10))
    env.begin([whole(a, M.TO)])
    mapping = env.lookup(addr(a), 40)
    part = section(a, 2, 3, M.TO | M.FROM)
    env.begin([part])
    assert mapping.references == 2 and env.device.live_allocations == 1
    assert env.translate(part) == mapping.device_address   # the pointer still points at a[0]
    assert env.lookup(addr(a, 4), INT) is mapping


def test_partially_mapped_sections_are_an_error(env):
    a = ints(*range(10))
    env.begin([section(a, 0, 5, M.TO)])
    with pytest.raises(MappingError, match="partially mapped"):
        env.begin([section(a, 3, 5, M.TO)])
    with pytest.raises(MappingError, match="partially mapped"):
        env.begin([whole(a, M.TO)])                        # extends an existing mapping
    env.begin([section(a, 5, 5, M.TO)])                    # adjacent: fine
    assert len(env) == 2


def test_an_implicit_map_sticking_out_of_a_mapping_is_present_in_it(env):
    """The OpenMP Examples' array_sections.4: target data maps a[2:5], the target region
    uses a whole (an implicit tofrom map): present in a[2:5]'s mapping, not extended."""
    a = ints(*range(10))
    data = section(a, 2, 5, M.TO | M.FROM)
    env.begin([data])
    mapping = env.lookup(addr(a, 2), 5 * INT)
    implicit = whole(a, M.TO | M.FROM | M.IMPLICIT | M.TARGET_PARAM)
    env.begin([implicit])
    assert mapping.references == 2 and len(env) == 1 and env.device.copies["to_device"] == 1
    assert env.translate(implicit) == mapping.device_address - 2 * INT    # a[2] is a[2]'s copy
    write_device(mapping.device_address, [20, 30])
    env.end([implicit])
    assert mapping.references == 1 and list(a)[2:4] == [2, 3]    # still mapped: nothing copied
    env.end([data])
    assert list(a) == [0, 1, 20, 30, 4, 5, 6, 7, 8, 9] and len(env) == 0


def test_an_explicit_map_sticking_out_of_a_mapping_is_still_an_error(env):
    a = ints(*range(10))
    env.begin([section(a, 2, 5, M.TO)])
    with pytest.raises(MappingError, match="partially mapped"):
        env.begin([whole(a, M.TO | M.FROM | M.TARGET_PARAM)])


def test_new_section_kernel_pointer_is_offset_back_to_the_base(env):
    a = ints(*range(10))
    part = section(a, 4, 3, M.TO | M.TARGET_PARAM)
    env.begin([part])
    mapping = env.lookup(addr(a, 4), 3 * INT)
    assert mapping.host_begin == addr(a, 4) and mapping.nbytes == 12
    kind, value = env.kernel_argument(part)
    assert kind == "pointer" and value == mapping.device_address - 4 * INT
    assert device_ints(env.device, value + 4 * INT, 3) == [4, 5, 6]


def test_pointer_lookup(env):
    a, other = ints(*range(8)), ints(1)
    env.begin([whole(a, M.TO)])
    device_a = env.lookup(addr(a), 32).device_address

    def lookup(pointer):
        return env.kernel_argument(MapEntry(pointer, pointer, 0, M.POINTER_LOOKUP | M.TARGET_PARAM))

    assert lookup(addr(a, 3)) == ("pointer", device_a + 3 * INT)
    assert lookup(addr(a, 8)) == ("pointer", device_a + 8 * INT)   # one past the end
    assert lookup(addr(other)) == ("pointer", 0)
    assert lookup(0) == ("pointer", 0)
    env.end([MapEntry(addr(a, 3), addr(a, 3), 0, M.POINTER_LOOKUP)])  # touches no count
    assert env.lookup(addr(a), 32).references == 1


def test_is_device_ptr_and_literal(env):
    value = ctypes.c_double(2.5)
    literal = MapEntry(ctypes.addressof(value), ctypes.addressof(value), 8, M.LITERAL | M.TARGET_PARAM)
    device_ptr = MapEntry(0x1234, 0x1234, 0, M.IS_DEVICE_PTR | M.TARGET_PARAM)
    env.begin([literal, device_ptr])
    assert len(env) == 0
    assert env.kernel_argument(literal) == ("bytes", bytes(value))
    assert env.kernel_argument(device_ptr) == ("pointer", 0x1234)


def test_zero_length_sections_only_look_up(env):
    a = ints(1, 2, 3)
    empty = section(a, 1, 0, M.TO | M.FROM | M.TARGET_PARAM)
    env.begin([empty])
    assert len(env) == 0 and env.kernel_argument(empty) == ("pointer", 0)
    env.begin([whole(a, M.TO)])
    env.begin([empty])
    mapping = env.lookup(addr(a), 12)
    assert mapping.references == 1
    assert env.kernel_argument(empty) == ("pointer", mapping.device_address)
    env.end([empty])
    assert mapping.references == 1


def test_use_device_ptr_writes_the_device_address_back(env):
    a, unmapped = ints(1, 2, 3), ints(4)
    env.begin([whole(a, M.TO)])
    device_a = env.lookup(addr(a), 12).device_address
    bases = [addr(a, 1), addr(unmapped)]
    entries = [MapEntry(bases[0], bases[0], 0, M.RETURN_PARAM),
               MapEntry(bases[1], bases[1], 0, M.RETURN_PARAM)]
    env.begin(entries)
    env.return_device_pointers(entries, bases)
    assert bases == [device_a + INT, addr(unmapped)]
    assert env.lookup(addr(a), 12).references == 1


# ----------------------------------------------------------------- update
def test_update_copies_present_items_and_ignores_absent_ones(env):
    a, absent = ints(1, 2, 3, 4), ints(5)
    env.begin([whole(a, M.NONE)])
    mapping = env.lookup(addr(a), 16)
    env.update([whole(a, M.TO), whole(absent, M.TO), whole(absent, M.FROM)])
    assert device_ints(env.device, mapping.device_address, 4) == [1, 2, 3, 4]
    assert env.device.copies["to_device"] == 1 and env.device.copies["to_host"] == 0
    write_device(mapping.device_address, [9, 9, 9, 9])
    env.update([section(a, 1, 2, M.FROM)])
    assert list(a) == [1, 9, 9, 4]


# ----------------------------------------------------------------- declare target globals
def test_declare_target_global_is_always_present(env):
    g = ints(3, 4)
    storage = env.device.allocate(8)
    env.add_global(addr(g), 8, storage)
    assert device_ints(env.device, storage, 2) == [3, 4]       # initialised from the host
    entries = [whole(g, M.TO | M.FROM)]
    env.begin(entries)
    env.end(entries)
    env.end([whole(g, M.DELETE)])
    assert len(env) == 1 and env.device.copies["to_host"] == 0
    write_device(storage, [5, 6])
    env.end([whole(g, M.FROM | M.ALWAYS)])
    assert list(g) == [5, 6]
    env.update([whole(g, M.FROM)])
    assert env.device.live_allocations == 1                    # the module's storage is never freed


# ----------------------------------------------------------------- giving the device up
def test_evacuate_copies_back_what_kernels_may_have_written(env):
    written, fresh = ints(1, 2), ints(3, 4)
    env.begin([whole(written, M.TO)])
    env.kernel_ran()
    env.begin([whole(fresh, M.TO)])                            # mapped after the kernel
    write_device(env.lookup(addr(written), 8).device_address, [7, 8])
    write_device(env.lookup(addr(fresh), 8).device_address, [0, 0])
    assert env.evacuate() == []
    assert list(written) == [7, 8] and list(fresh) == [3, 4]
    assert len(env) == 0 and env.device.live_allocations == 0


def test_copy_back_of_the_whole_range_clears_device_newer(env):
    a = ints(1, 2)
    env.begin([whole(a, M.TO)])
    env.kernel_ran()
    env.update([whole(a, M.FROM)])
    a[0] = 42                                                  # the host changes it afterwards
    env.evacuate()
    assert list(a) == [42, 2]


def test_evacuate_reports_ranges_it_could_not_save(env):
    a = ints(1, 2)
    env.begin([whole(a, M.TO)])
    env.kernel_ran()
    env.device.fail.add("to_host")
    lost = env.evacuate()
    assert len(lost) == 1 and "injected" in lost[0] and len(env) == 0


# ----------------------------------------------------------------- a region the host runs instead
def test_host_region_sees_the_device_data_and_leaves_its_own(env):
    written, untouched = ints(1, 2), ints(3, 4)
    env.begin([whole(untouched, M.TO)])
    env.begin([whole(written, M.TO)])
    env.kernel_ran()
    write_device(env.lookup(addr(written), 8).device_address, [7, 8])
    env.update([whole(untouched, M.FROM)])     # seen since the kernel: not copied again
    before = env.device.copies["to_host"]
    env.host_region_begin()
    assert list(written) == [7, 8] and env.device.copies["to_host"] == before + 1
    written[1], untouched[0] = 80, 30           # the region writes through any pointer
    env.host_region_end()
    assert device_ints(env.device, env.lookup(addr(written), 8).device_address, 2) == [7, 80]
    assert device_ints(env.device, env.lookup(addr(untouched), 8).device_address, 2) == [30, 4]
    env.host_region_begin()                     # no kernel since: nothing to copy back
    assert env.device.copies["to_host"] == before + 1


# ----------------------------------------------------------------- reading the C arrays
def test_read_entries_from_c_arrays():
    bases = (ctypes.c_void_p * 2)(0x1000, None)
    begins = (ctypes.c_void_p * 2)(0x1008, None)
    sizes = (ctypes.c_int64 * 2)(16, 0)
    types = (ctypes.c_int64 * 2)(int(M.TO | M.TARGET_PARAM), int(M.POINTER_LOOKUP))
    entries = read_entries(2, bases, begins, sizes, types)
    assert entries[0] == MapEntry(0x1000, 0x1008, 16, M.TO | M.TARGET_PARAM)
    assert entries[1] == MapEntry(0, 0, 0, M.POINTER_LOOKUP)
    assert entries[0].maps_storage and not entries[1].maps_storage


# ----------------------------------------------------------------- declare target link globals
def test_link_global_is_mapped_by_map_clauses_only(env):
    g = ints(1, 2)
    storage = env.device.allocate(8)
    env.add_link_global(addr(g), 8, storage)
    assert len(env) == 0 and not env.is_present(addr(g))      # not mapped until a clause maps it
    assert env.device.copies["to_device"] == 0
    entries = [whole(g, M.TO | M.FROM)]
    env.begin(entries)
    assert env.lookup(addr(g), 8).device_address == storage  # the module's storage, not a new one
    assert device_ints(env.device, storage, 2) == [1, 2]
    write_device(storage, [5, 6])
    env.end(entries)
    assert list(g) == [5, 6] and len(env) == 0
    assert env.device.live_allocations == 1                    # the module's storage is kept


def test_link_global_sees_the_host_value_of_each_new_mapping(env):
    """A later map(to:) copies again (the defect: the device kept the first value)."""
    g = ints(1, 2)
    storage = env.device.allocate(8)
    env.add_link_global(addr(g), 8, storage)
    env.begin([whole(g, M.TO)])
    env.end([whole(g, M.TO)])
    g[0], g[1] = 30, 40
    env.begin([section(g, 1, 1, M.TO)])
    assert device_ints(env.device, storage, 2)[1] == 40
    env.update([whole(g, M.TO)])                                # present: update copies
    assert device_ints(env.device, storage, 2) == [30, 40]
    env.end([section(g, 1, 1, M.TO)])
    g[0] = 50
    env.update([whole(g, M.TO)])                                # absent again: ignored (2.10.5)
    assert device_ints(env.device, storage, 2) == [30, 40]


# ----------------------------------------------------------------- struct members and attach
class Holder(ctypes.Structure):
    """struct { int n; int *a; int x; }"""
    _fields_ = [("n", ctypes.c_int), ("a", ctypes.POINTER(ctypes.c_int)), ("x", ctypes.c_int)]


def member(holder, name, bits, parent=0) -> MapEntry:
    offset = getattr(Holder, name).offset
    size = getattr(Holder, name).size
    return MapEntry(addr_of(holder) + offset, addr_of(holder) + offset, size,
                    M(int(bits) | member_of(parent)))


def addr_of(obj):
    return ctypes.addressof(obj)


def struct_entries(holder, data, bits_n, bits_data):
    """map(bits_n: s.n, s.x) map(bits_data: s.a[0:len(data)]) as the compiler lays them out."""
    base = addr_of(holder)
    extent = Holder.x.offset + Holder.x.size - Holder.n.offset
    slot = base + Holder.a.offset
    return [MapEntry(base, base, extent, M.TARGET_PARAM),
            member(holder, "n", bits_n), member(holder, "x", bits_n),
            MapEntry(addr(data), addr(data), ctypes.sizeof(data), M(bits_data)),
            MapEntry(slot, addr(data), ctypes.sizeof(data), M.ATTACH)]


def test_members_are_copied_with_their_struct_and_the_pointer_is_attached(env):
    data = ints(1, 2, 3)
    holder = Holder(3, ctypes.cast(data, ctypes.POINTER(ctypes.c_int)), 7)
    entries = struct_entries(holder, data, M.TO | M.FROM, M.TO)
    env.begin(entries)
    struct = env.lookup(addr_of(holder), 4)
    pointee = env.lookup(addr(data), 12)
    device = Holder.from_address(struct.device_address)
    assert (device.n, device.x) == (3, 7)
    assert ctypes.addressof(device.a.contents) == pointee.device_address     # attached
    assert struct.references == 1 and len(env) == 2
    device.x = 70
    env.end(entries)
    assert holder.x == 70                                     # the member came back
    assert ctypes.addressof(holder.a.contents) == addr(data)   # the host pointer is the host's
    assert len(env) == 0 and env.device.live_allocations == 0


def test_members_of_a_present_struct_are_counted_not_copied(env):
    data = ints(1, 2)
    holder = Holder(2, ctypes.cast(data, ctypes.POINTER(ctypes.c_int)), 5)
    outer = struct_entries(holder, data, M.TO | M.FROM, M.TO)
    env.begin(outer)
    holder.x = 50                                             # host-only change
    inner = struct_entries(holder, data, M.TO | M.FROM, M.TO)
    env.begin(inner)
    struct = env.lookup(addr_of(holder), 4)
    assert struct.references == 2 and Holder.from_address(struct.device_address).x == 5
    env.end(inner)
    assert holder.x == 50 and len(env) == 2                   # not released: not copied back
    env.end(outer)
    assert holder.x == 5 and len(env) == 0


def test_copies_of_a_whole_struct_keep_attached_pointers(env):
    """map(tofrom: s) map(to: s.a[0:n]); target update to(s) re-attaches, from(s) keeps the host's."""
    data = ints(4, 5)
    holder = Holder(2, ctypes.cast(data, ctypes.POINTER(ctypes.c_int)), 1)
    whole_struct = MapEntry(addr_of(holder), addr_of(holder), ctypes.sizeof(holder),
                            M.TO | M.FROM | M.TARGET_PARAM)
    slot = addr_of(holder) + Holder.a.offset
    entries = [whole_struct, MapEntry(addr(data), addr(data), 8, M.TO),
               MapEntry(slot, addr(data), 8, M.ATTACH)]
    env.begin(entries)
    struct = env.lookup(addr_of(holder), ctypes.sizeof(holder))
    pointee = env.lookup(addr(data), 8).device_address
    device = Holder.from_address(struct.device_address)
    env.update([MapEntry(addr_of(holder), addr_of(holder), ctypes.sizeof(holder), M.TO)])
    assert ctypes.addressof(device.a.contents) == pointee                  # attached again
    device.n = 9
    env.update([MapEntry(addr_of(holder), addr_of(holder), ctypes.sizeof(holder), M.FROM)])
    assert holder.n == 9 and ctypes.addressof(holder.a.contents) == addr(data)
    env.end(entries)
    assert ctypes.addressof(holder.a.contents) == addr(data) and len(env) == 0


# ----------------------------------------------------------------- the caller's device memory
def test_borrowed_memory_is_present_and_never_copied_counted_or_freed(env):
    """A CuPy array lent for a call: its host address is its device address."""
    device_memory = env.device.allocate(3 * INT)
    write_device(device_memory, [1, 2, 3])
    mapping = env.borrow(device_memory, 3 * INT)
    entry = MapEntry(device_memory, device_memory, 3 * INT, M.TO | M.FROM | M.ALWAYS | M.TARGET_PARAM)
    env.begin([entry])
    assert env.translate(entry) == device_memory and mapping.references == 1
    env.update([MapEntry(device_memory, device_memory + INT, INT, M.TO)])
    env.end([entry])
    env.end([MapEntry(device_memory, device_memory, 3 * INT, M.FROM | M.DELETE)])
    assert sum(env.device.copies.values()) == 0 and env.is_present(device_memory)
    env.give_back(mapping)
    assert not env.is_present(device_memory)
    assert env.device.live_allocations == 1                    # the caller's, still there


def test_borrowing_again_counts_and_overlaps_are_refused(env):
    device_memory = env.device.allocate(4 * INT)
    first = env.borrow(device_memory, 4 * INT)
    assert env.borrow(device_memory + INT, INT) is first and first.references == 2
    env.give_back(first)
    assert env.is_present(device_memory)
    env.give_back(first)
    assert len(env) == 0
    a = ints(1, 2)
    env.begin([whole(a, M.TO)])
    with pytest.raises(MappingError, match="lies in the mapped host range"):
        env.borrow(addr(a), INT)


def test_evacuating_leaves_borrowed_memory_alone(env):
    device_memory = env.device.allocate(INT)
    mapping = env.borrow(device_memory, INT)
    env.kernel_ran()
    assert env.evacuate() == [] and sum(env.device.copies.values()) == 0
    env.give_back(mapping)                                      # after evacuate: nothing to drop
    assert env.device.live_allocations == 1


def test_the_copy_observer_hears_of_every_copy(env):
    heard = []
    env.copy_observer = lambda direction, nbytes: heard.append((direction, nbytes))
    a = ints(1, 2, 3)
    env.begin([whole(a, M.TO | M.FROM)])
    env.end([whole(a, M.TO | M.FROM)])
    assert heard == [("to-device", 3 * INT), ("to-host", 3 * INT)]
