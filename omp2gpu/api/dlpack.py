"""Memory through DLPack (the unversioned "dltensor" capsule every producer gives): on a
CUDA device it is device memory, on the CPU host memory. The capsule stays unconsumed,
so dropping it after the call hands the tensor back to its producer."""

from __future__ import annotations

import ctypes

from omp2gpu.api.element_types import from_dlpack
from omp2gpu.api.memory import ArrayMemory, c_contiguous, element_count

CPU, CUDA, CUDA_HOST, CUDA_MANAGED = 1, 2, 3, 13     # DLDeviceType
_HOST_TYPES = (CPU, CUDA_HOST)
_DEVICE_TYPES = (CUDA, CUDA_MANAGED)
LEGACY_DEFAULT_STREAM = 1     # where the launcher's work runs (see cuda_interface.py)


class DLTensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32),
                ("ndim", ctypes.c_int32), ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("lanes", ctypes.c_uint16), ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)), ("byte_offset", ctypes.c_uint64)]


_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
_capsule_pointer.restype = ctypes.c_void_p


def memory(value) -> ArrayMemory:
    """The memory of a DLPack producer; ValueError for a device it is not on."""
    device_type = value.__dlpack_device__()[0] if hasattr(value, "__dlpack_device__") else CPU
    if device_type not in _HOST_TYPES + _DEVICE_TYPES:
        raise ValueError(f"its DLPack device type {device_type} is neither the CPU nor a CUDA GPU")
    on_device = device_type in _DEVICE_TYPES
    # On the device: the producer orders its work before the launcher's stream.
    capsule = value.__dlpack__(stream=LEGACY_DEFAULT_STREAM) if on_device else value.__dlpack__()
    tensor = DLTensor.from_address(_capsule_pointer(capsule, b"dltensor"))   # DLManagedTensor starts so
    shape = [tensor.shape[i] for i in range(tensor.ndim)]
    element = from_dlpack(tensor.code, tensor.bits, tensor.lanes)
    strides = None if not tensor.strides else [tensor.strides[i] * element.size for i in range(tensor.ndim)]
    count = element_count(shape)

    def release() -> None:
        nonlocal capsule
        capsule = None

    return ArrayMemory((tensor.data or 0) + tensor.byte_offset, count * element.size, element, False,
                       c_contiguous(shape, strides, element.size), on_device=on_device, release=release)
