"""The devices the runtime offloads to: finding them (CUDA devices, then the CPU device,
as OMP2GPU_DEVICES allows) and the state the runtime keeps for each."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from omp2gpu.offload.data_environment import DataEnvironment
from omp2gpu.offload.devices import cuda
from omp2gpu.offload.devices.base import Device, DeviceError
from omp2gpu.offload.devices.cpu import CpuDevice
from omp2gpu.offload.messages import one_line, report
from omp2gpu.offload.policy import device_kinds


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
    (work-groups on this machine's cores, offload/devices/cpu.py), in OMP2GPU_DEVICES'
    order. A kind named twice gives its devices twice, each with a data environment of
    its own (`cpu,cpu`: two devices for the tests of device(n) on a machine with no GPU)."""
    environ = os.environ if environ is None else environ
    devices = []
    for kind in device_kinds(environ):
        if kind == "gpu" and cuda.available():
            for ordinal in range(cuda.device_count()):
                try:
                    devices.append(cuda.CudaDevice(ordinal))
                except DeviceError as error:
                    report("warning", f"CUDA device {ordinal} cannot be used ({one_line(error)})")
        elif kind == "cpu":
            devices.append(CpuDevice(environ))
    return devices


def device_states(devices: list[Device]) -> list[DeviceState]:
    """A fresh state per device, numbered as the device clause numbers them."""
    return [DeviceState(number, device, _data_environment(device)) for number, device in enumerate(devices)]


def _data_environment(device: Device) -> DataEnvironment:
    """The device's own kind of data environment where it has one (the CPU device's
    mirrors its present table for native launches), else the common one."""
    make = getattr(device, "make_data_environment", None)
    return make() if make is not None else DataEnvironment(device)
