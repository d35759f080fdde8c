"""Compiled images on a device (offload/images.py): loading once per device, finding
kernels, binding declare target globals; on the in-memory device."""

from __future__ import annotations

import ctypes

import pytest
from runtime_harness import INT, Entries, addr, ints, launch_add_one, make_runtime

from omp2gpu.offload.abi import KernelInfo
from omp2gpu.offload.abi import MapType as M
from omp2gpu.offload.device_states import device_states
from omp2gpu.offload.devices.host_memory import HostMemoryDevice
from omp2gpu.offload.images import Image, ImageRegistry, LaunchError


def _kernel(grid, block, params):
    pass


def _state(device=None):
    device = device or HostMemoryDevice()
    device.kernels.update(first=_kernel, second=_kernel)
    (state,) = device_states([device])
    return state


def _registry():
    registry = ImageRegistry()
    registry.add_image("// first", {"first": KernelInfo("first", [])})
    registry.add_image(None, {"second": KernelInfo("second", [])})     # no GPU code
    return registry


def test_each_image_loads_once_per_device_in_order():
    registry, state = _registry(), _state()
    registry.activate(state)
    registry.activate(state)
    assert [module.ptx for module in state.device.modules] == ["// first"]
    assert state.modules == [state.device.modules[0], None]
    registry.add_image("// third", {})
    registry.activate(state)
    assert [module.ptx for module in state.device.modules] == ["// first", "// third"]


def test_kernels_are_found_by_name_and_their_functions_kept():
    registry, state = _registry(), _state()
    registry.activate(state)
    info, function = registry.function(state, "first")
    assert info.name == "first" and function.name == "first"
    assert registry.function(state, "first")[1] is function


@pytest.mark.parametrize("kernel, message", [
    ("missing", "no device code for kernel 'missing'"),
    ("second", "no code for kernel 'second' on device 0"),
])
def test_a_kernel_without_code_on_the_device_is_a_launch_error(kernel, message):
    registry, state = _registry(), _state()
    registry.activate(state)
    with pytest.raises(LaunchError, match=message):
        registry.function(state, kernel)


def test_a_device_that_runs_cpu_images_gets_the_cpu_code():
    class CpuLike(HostMemoryDevice):
        runs_cpu_images = True
    image = Image("// ptx", {}, cpu="cpu image")
    assert image.code_for(HostMemoryDevice()) == "// ptx"
    assert image.code_for(CpuLike()) == "cpu image"


def test_globals_are_bound_to_the_first_module_that_defines_them_once():
    device = HostMemoryDevice()
    device.module_globals["counter"] = 4
    registry, state = _registry(), _state(device)
    registry.add_image("// again", {})                     # defines counter too
    counter = ctypes.c_int(0)
    registry.add_global(addr(counter), "counter", 4, link=False)
    registry.add_global(addr(counter), "absent", 4, link=False)
    registry.activate(state)
    first_storage, _ = device.modules[0].globals["counter"]
    assert state.bound_globals == {"counter"}
    assert state.data.lookup(addr(counter), 4).device_address == first_storage
    registry.activate(state)                               # bound already: not again
    assert state.bound_globals == {"counter"}


# ----------------------------------------------------------------- through the runtime
def test_declare_target_globals_are_bound_when_the_image_loads():
    device = HostMemoryDevice()
    device.module_globals["counter"] = 4
    rt = make_runtime(device)
    counter = ctypes.c_int(41)
    rt.register_global(addr(counter), "counter", 4)
    rt.register_global(addr(ctypes.c_int(0)), "unused_by_kernels", 4)   # not in the module
    storage, _ = device.modules[0].globals["counter"] if device.modules else (None, None)
    assert storage is None                                # nothing loaded before the first use
    entries = Entries((addr(counter), addr(counter), 4, M.TO))
    rt.data_update(-1, *entries.args())                   # activates the device: present now
    storage, size = device.modules[0].globals["counter"]
    assert size == 4 and ctypes.c_int.from_address(storage).value == 41
    ctypes.c_int.from_address(storage).value = 42
    rt.data_update(-1, 1, entries.bases, entries.begins, entries.sizes, [int(M.FROM)])
    assert counter.value == 42


def test_declare_target_link_global_gets_each_launch_map():
    """A kernel sees what the latest map clause mapped into a link global's module storage,
    not what the first launch copied (the launcher path every device shares)."""
    device = HostMemoryDevice()
    device.module_globals["table"] = 3 * INT
    rt = make_runtime(device)
    table = ints(1, 2, 3)
    rt.register_global(addr(table), "table", 3 * INT, link=True)
    assert launch_add_one(rt, table) == 0
    storage, _ = device.modules[0].globals["table"]
    assert list(table) == [2, 3, 4] and device.launches[-1].params[0][1] == storage
    table[0] = 100
    assert launch_add_one(rt, table) == 0
    assert list(table) == [101, 4, 5]
    assert len(rt.states[0].data) == 0                    # unmapped after each region


def test_a_loaded_module_is_told_its_device_number():
    """omp_get_device_num in device code reads the runtime's int the launcher writes."""
    from omp2gpu.offload.abi import DEVICE_NUMBER_GLOBAL
    first, second = HostMemoryDevice(), HostMemoryDevice()
    for device in (first, second):
        device.module_globals[DEVICE_NUMBER_GLOBAL] = 4
    states = device_states([first, second])
    registry = _registry()
    for state in states:
        registry.activate(state)
    numbers = [ctypes.c_int.from_address(state.device.get_global(state.modules[0], DEVICE_NUMBER_GLOBAL)[0]).value
               for state in states]
    assert numbers == [0, 1]


def test_the_cpu_device_reads_its_own_builds_launch_information():
    """A region whose metadirective chose differently on the CPU device (no teams there)
    has its own KernelInfo in the CPU image."""
    from types import SimpleNamespace
    gpu_info, cpu_info = KernelInfo("k", [], one_team=False), KernelInfo("k", [], one_team=True)
    image = Image("// ptx", {"k": gpu_info}, cpu=SimpleNamespace(infos={"k": cpu_info}))
    assert image.info_for(HostMemoryDevice(), "k") is gpu_info
    cpu_device = HostMemoryDevice()
    cpu_device.runs_cpu_images = True
    assert image.info_for(cpu_device, "k") is cpu_info
