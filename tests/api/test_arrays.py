"""The memory of array arguments: the buffer protocol (host), __cuda_array_interface__
(device; faked here, the real ones run in test_gpu_arrays.py), DLPack, in that order."""

from __future__ import annotations

import array
import ctypes

import numpy as np
import pytest
from api_harness import FakeDeviceArray

from omp2gpu.api import buffers, cuda_interface, dlpack
from omp2gpu.api.arrays import array_memory
from omp2gpu.api.element_types import Element
from omp2gpu.api.memory import c_contiguous


def test_a_numpy_array_is_host_memory_at_its_data_pointer():
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    memory = array_memory(a)
    assert (memory.address, memory.nbytes, memory.element) == (a.ctypes.data, 48, Element("int", 4))
    assert memory.c_contiguous and not memory.readonly and not memory.on_device
    memory.release()


def test_buffers_tell_read_only_and_layout():
    memory = buffers.memory(b"abc")
    assert memory.readonly and memory.element == Element("uint", 1) and memory.nbytes == 3
    memory.release()
    strided = buffers.memory(np.zeros((4, 4))[:, 1])
    assert not strided.c_contiguous
    strided.release()
    fortran = buffers.memory(np.zeros((2, 3), order="F"))
    assert not fortran.c_contiguous
    fortran.release()
    assert buffers.memory(42) is None


def test_a_held_buffer_is_locked_until_released():
    data = bytearray(8)
    memory = buffers.memory(data)
    with pytest.raises(BufferError):
        data.extend(b"x")
    memory.release()
    data.extend(b"x")


def test_array_module_arrays():
    memory = array_memory(array.array("d", [1.0, 2.0]))
    assert memory.element == Element("float", 8) and memory.nbytes == 16
    memory.release()


def test_c_contiguity_from_strides():
    assert c_contiguous((3, 4), None, 8)
    assert c_contiguous((3, 4), (32, 8), 8)
    assert not c_contiguous((3, 4), (8, 24), 8)
    assert c_contiguous((1, 4), (999, 8), 8)               # an extent of 1 takes any stride


def test_the_cuda_array_interface_is_device_memory():
    memory = array_memory(FakeDeviceArray(shape=(2, 3), typestr="<f8"))
    assert (memory.address, memory.nbytes, memory.element) == (0x7F0000000000, 48, Element("float", 8))
    assert memory.on_device and memory.c_contiguous and memory.stream is None


def test_streams_other_than_the_launchers_are_waited_for():
    assert cuda_interface.memory(FakeDeviceArray(stream=0x1234).__cuda_array_interface__).stream == 0x1234
    for ordered in (None, 1, 2):          # the legacy and the per-thread default streams
        assert cuda_interface.memory(FakeDeviceArray(stream=ordered).__cuda_array_interface__).stream is None


def test_device_layout_and_masks():
    transposed = FakeDeviceArray(shape=(3, 4), typestr="<f4", strides=(4, 12))
    assert not array_memory(transposed).c_contiguous
    masked = FakeDeviceArray().__cuda_array_interface__
    masked["mask"] = object()
    with pytest.raises(ValueError, match="masked"):
        cuda_interface.memory(masked)


def test_dlpack_on_the_cpu_is_host_memory():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)[:, ::2]
    memory = dlpack.memory(a)
    assert (memory.address, memory.element, memory.on_device) == (a.ctypes.data, Element("float", 4), False)
    assert not memory.c_contiguous and memory.nbytes == 16
    memory.release()


class DLPackOnly:
    """An array that speaks DLPack alone (as JAX's do), here over a NumPy array."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


def test_dlpack_is_asked_last():
    a = np.arange(5, dtype=np.int64)
    memory = array_memory(DLPackOnly(a))
    assert memory.address == a.ctypes.data and memory.element == Element("int", 8) and memory.nbytes == 40
    memory.release()


def test_dlpack_on_another_device_is_refused():
    class OnAnAccelerator(DLPackOnly):
        def __dlpack_device__(self):
            return (14, 0)                                  # oneAPI
    with pytest.raises(ValueError, match="neither the CPU nor a CUDA GPU"):
        array_memory(OnAnAccelerator(np.zeros(1)))


def test_non_arrays_have_no_memory_and_ctypes_arrays_have():
    assert array_memory([1, 2]) is None and array_memory(3.0) is None
    memory = array_memory((ctypes.c_int * 2)(1, 2))
    assert memory.element == Element("int", 4) and memory.nbytes == 8
    memory.release()
