"""The compiled images the driver registers, and getting them onto a device: each
image loads once per device, in registration order, before that device's first map
clause; declare target globals are bound then to the storage of the first loaded
module that defines them; kernels are found by name across images. The runtime
(runtime.py) holds the lock around all of it."""

from __future__ import annotations

import ctypes
from dataclasses import dataclass

from omp2gpu.offload import launch_info
from omp2gpu.offload.abi import DEVICE_NUMBER_GLOBAL, KernelInfo
from omp2gpu.offload.device_states import DeviceState
from omp2gpu.offload.devices.base import Device, DeviceError


@dataclass
class Image:
    ptx: str | None                       # None: no GPU code (no GPU, or its compilation failed)
    kernels: dict[str, KernelInfo]
    cpu: object = None                    # the CPU device's code (cpu_driver.CpuImage), or None

    def code_for(self, device: Device):
        return self.cpu if getattr(device, "runs_cpu_images", False) else self.ptx

    def info_for(self, device: Device, name: str) -> KernelInfo:
        """The kernel's launch information on `device`: the CPU device's build has its own."""
        own = getattr(self.cpu, "infos", {}) if getattr(device, "runs_cpu_images", False) else {}
        return own.get(name) or self.kernels[name]


def _tell_device_number(state: DeviceState, module) -> None:
    """omp_get_device_num in the module's code answers this device's number."""
    if module is None:
        return
    try:
        address, size = state.device.get_global(module, DEVICE_NUMBER_GLOBAL)
    except DeviceError:
        return                                   # a module without the device runtime's
    number = ctypes.c_int(state.number)
    with launch_info.runtime_copies():
        state.device.copy_to_device(address, ctypes.addressof(number), min(size, ctypes.sizeof(number)))


class LaunchError(Exception):
    """The launch cannot be made as asked (a compiler/launcher mismatch)."""


class ImageRegistry:
    def __init__(self):
        self.images: list[Image] = []
        self.kernels: dict[str, tuple[int, KernelInfo]] = {}    # name -> (image index, info)
        self.globals: dict[str, tuple[int, int, bool]] = {}     # name -> (host address, size, link)

    def add_image(self, ptx: str | None, kernels: dict[str, KernelInfo], cpu=None) -> None:
        index = len(self.images)
        self.images.append(Image(ptx, dict(kernels), cpu))
        for name, info in kernels.items():
            self.kernels[name] = (index, info)

    def add_global(self, host_address: int, name: str, size: int, link: bool) -> None:
        """A declare target global (`link`: declare target link, mapped by map clauses only)."""
        self.globals[name] = (host_address, size, link)

    def activate(self, state: DeviceState) -> None:
        """Load images not yet on the device and map declare target globals, before any
        map clause, so that mapping a global finds the module's storage."""
        while len(state.modules) < len(self.images):
            code = self.images[len(state.modules)].code_for(state.device)
            state.modules.append(None if code is None else state.device.load_module(code))
            _tell_device_number(state, state.modules[-1])
        self.bind_globals(state)

    def bind_globals(self, state: DeviceState) -> None:
        for name, (host_address, size, link) in self.globals.items():
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

    def function(self, state: DeviceState, kernel_name: str) -> tuple[KernelInfo, object]:
        """The kernel's launch information and its function handle on the device."""
        found = self.kernels.get(kernel_name)
        if found is None:
            raise LaunchError(f"no device code for kernel '{kernel_name}'")
        index, _ = found
        info = self.images[index].info_for(state.device, kernel_name)
        if kernel_name not in state.functions:
            if state.modules[index] is None:
                raise LaunchError(f"no code for kernel '{kernel_name}' on device {state.number}")
            state.functions[kernel_name] = state.device.get_function(state.modules[index], kernel_name)
        return info, state.functions[kernel_name]
