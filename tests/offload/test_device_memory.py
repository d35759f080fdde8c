"""The omp_* device memory routines (offload/device_memory.py) on the in-memory device."""

from __future__ import annotations

from runtime_harness import Entries, addr, ints, make_runtime

from omp2gpu.offload.abi import MapType as M
from omp2gpu.offload.devices.host_memory import HostMemoryDevice


def test_device_memory_routines():
    rt = make_runtime()
    host = ints(1, 2, 3, 4)
    back = ints(0, 0, 0, 0)
    pointer = rt.target_alloc(16, 0)
    assert pointer and rt.target_alloc(0, 0) == 0 and rt.target_alloc(16, 7) == 0
    assert rt.target_memcpy(pointer, addr(host), 16, 0, 0, 0, 1) == 0          # host -> device
    assert rt.target_memcpy(addr(back), pointer, 8, 4, 8, 1, 0) == 0           # device -> host
    assert list(back) == [0, 3, 4, 0]
    other = rt.target_alloc(16, 0)
    assert rt.target_memcpy(other, pointer, 16, 0, 0, 0, 0) == 0               # device -> device
    assert rt.target_memcpy(addr(back), addr(host), 4, 0, 0, 1, 1) == 0        # host -> host
    assert back[0] == 1
    assert rt.target_memcpy(addr(back), other, 4, 0, 0, 1, 3) == -1            # no device 3
    rt.target_free(pointer, 0)
    rt.target_free(other, 0)
    rt.target_free(0, 0)
    assert rt.states[0].device.live_allocations == 0
    a = ints(1)
    rt.data_begin(-1, *Entries((addr(a), addr(a), 4, M.TO)).args())
    assert rt.target_is_present(addr(a), 0) == 1 and rt.target_is_present(addr(back), 0) == 0
    assert rt.target_is_present(addr(back), 1) == 1                            # the initial device


def test_two_devices_memcpy_goes_through_the_host():
    rt = make_runtime(HostMemoryDevice("a"), HostMemoryDevice("b"))
    host, back = ints(7, 8), ints(0, 0)
    on_a, on_b = rt.target_alloc(8, 0), rt.target_alloc(8, 1)
    assert rt.target_memcpy(on_a, addr(host), 8, 0, 0, 0, 2) == 0
    assert rt.target_memcpy(on_b, on_a, 8, 0, 0, 1, 0) == 0
    assert rt.target_memcpy(addr(back), on_b, 8, 0, 0, 2, 1) == 0
    assert list(back) == [7, 8]

