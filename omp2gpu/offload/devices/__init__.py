"""Devices behind one small interface (base.Device): CUDA (cuda.py, imported
lazily because cuda-python is optional) and an in-memory device (host_memory.py)."""

from omp2gpu.offload.abi import BYTES, POINTER
from omp2gpu.offload.devices.base import Device, DeviceError

__all__ = ["BYTES", "POINTER", "Device", "DeviceError"]
