"""The devices the runtime finds and the state it keeps for each (offload/device_states.py)."""

from __future__ import annotations

from omp2gpu.offload import device_states as states
from omp2gpu.offload.data_environment import DataEnvironment
from omp2gpu.offload.devices.base import DeviceError
from omp2gpu.offload.devices.cpu import CpuDataEnvironment, CpuDevice
from omp2gpu.offload.devices.host_memory import HostMemoryDevice


def test_states_are_numbered_and_a_device_may_bring_its_own_data_environment():
    host_memory, cpu = HostMemoryDevice(), CpuDevice({})
    first, second = states.device_states([host_memory, cpu])
    assert (first.number, first.device, second.number, second.device) == (0, host_memory, 1, cpu)
    assert type(first.data) is DataEnvironment and isinstance(second.data, CpuDataEnvironment)
    assert first.usable and not first.modules


def test_the_team_stack_grows_on_demand_and_is_kept():
    (state,) = states.device_states([HostMemoryDevice()])
    assert state.team_stack_address(0) == 0 and state.device.live_allocations == 0
    small = state.team_stack_address(256)
    assert small and state.team_stack_address(128) == small       # big enough: the same memory
    large = state.team_stack_address(1024)
    assert state.team_stack == (large, 1024)
    assert state.device.live_allocations == 1                        # the smaller one was freed


def test_omp2gpu_devices_picks_the_kinds_looked_for(monkeypatch):
    monkeypatch.setattr(states.cuda, "available", lambda: False)
    (cpu,) = states.discover_devices({})                             # no CUDA: the CPU device
    assert isinstance(cpu, CpuDevice)
    assert states.discover_devices({"OMP2GPU_DEVICES": "gpu"}) == []
    monkeypatch.setattr(states.cuda, "available", lambda: True)
    monkeypatch.setattr(states.cuda, "device_count", lambda: 2)
    monkeypatch.setattr(states.cuda, "CudaDevice", lambda ordinal: f"gpu {ordinal}")
    assert states.discover_devices({"OMP2GPU_DEVICES": "gpu"}) == ["gpu 0", "gpu 1"]


def test_a_cuda_device_that_cannot_start_is_left_out_with_a_warning(monkeypatch, capsys):
    def refuse(ordinal):
        raise DeviceError("out of memory")
    monkeypatch.setattr(states.cuda, "available", lambda: True)
    monkeypatch.setattr(states.cuda, "device_count", lambda: 1)
    monkeypatch.setattr(states.cuda, "CudaDevice", refuse)
    assert states.discover_devices({"OMP2GPU_DEVICES": "gpu"}) == []
    assert capsys.readouterr().err == "omp2gpu: warning: CUDA device 0 cannot be used (out of memory)\n"
