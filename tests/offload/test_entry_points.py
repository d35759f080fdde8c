"""The launcher's C entry points (offload/entry_points.py) not covered with the runtime's
tests: the device name behind omp2gpu_get_device_name."""

from __future__ import annotations

import ctypes

from runtime_harness import make_runtime

from omp2gpu.offload import abi, entry_points

device_name = entry_points.CALLBACKS[abi.ENTRY_DEVICE_NAME]


def test_the_device_name_is_its_label_cut_to_the_buffer_as_snprintf_does():
    make_runtime()
    buffer = ctypes.create_string_buffer(64)
    length = device_name(0, ctypes.addressof(buffer), 64)
    assert buffer.value == b"device host-memory" and length == len(buffer.value)
    small = ctypes.create_string_buffer(b"\xff" * 8)
    assert device_name(0, ctypes.addressof(small), 7) == length
    assert small.raw[:7] == b"device\0"                     # 6 characters and the NUL
    assert device_name(0, None, 0) == length                # the length alone


def test_no_such_device_is_minus_one():
    make_runtime()
    buffer = ctypes.create_string_buffer(16)
    assert device_name(1, ctypes.addressof(buffer), 16) == -1
    assert device_name(-3, ctypes.addressof(buffer), 16) == -1
