"""The omp_* device memory routines (OpenMP 4.5 3.5): omp_target_alloc, _free,
_is_present and _memcpy. They name their devices explicitly, the host being device
number num_devices, and report failure by their result rather than falling back.
Mixed into OffloadRuntime (runtime.py), whose lock, policy and device states they use."""

from __future__ import annotations

import ctypes

from omp2gpu.offload.device_states import DeviceState
from omp2gpu.offload.devices.base import DeviceError
from omp2gpu.offload.policy import DISABLED


class DeviceMemoryRoutines:
    def _memory_state(self, device: int) -> DeviceState | None:
        """A usable device for the device-memory routines (which name devices explicitly)."""
        if self.policy == DISABLED or not 0 <= device < self.num_devices():
            return None
        state = self.states[device]
        return state if state.usable else None

    def target_alloc(self, size: int, device: int) -> int:
        """A device address, 0 (NULL) on failure or for size 0."""
        with self._lock:
            state = self._memory_state(device)
            if state is None or size <= 0:
                return 0
            try:
                return state.device.allocate(size)
            except DeviceError:
                return 0

    def target_free(self, device_pointer: int, device: int) -> None:
        with self._lock:
            state = self._memory_state(device)
            if state is not None and device_pointer:
                try:
                    state.device.free(device_pointer)
                except DeviceError:
                    pass                        # freeing what was not allocated: undefined, ignored

    def target_is_present(self, host_pointer: int, device: int) -> int:
        with self._lock:
            if device == self.num_devices():
                return 1                        # the initial device holds everything
            state = self._memory_state(device)
            return int(state is not None and state.data.is_present(host_pointer))

    def target_memcpy(self, dst: int, src: int, length: int, dst_offset: int, src_offset: int,
                      dst_device: int, src_device: int) -> int:
        """0 on success, nonzero on failure (an unusable device, a driver error)."""
        with self._lock:
            host = self.num_devices()
            dst_state = None if dst_device == host else self._memory_state(dst_device)
            src_state = None if src_device == host else self._memory_state(src_device)
            if (dst_device != host and dst_state is None) or (src_device != host and src_state is None):
                return -1
            if length <= 0:
                return 0
            to, frm = dst + dst_offset, src + src_offset
            try:
                if dst_state is None and src_state is None:
                    ctypes.memmove(to, frm, length)
                elif src_state is None:
                    dst_state.device.copy_to_device(to, frm, length)
                elif dst_state is None:
                    src_state.device.copy_to_host(to, frm, length)
                elif dst_state is src_state:
                    dst_state.device.copy_device_to_device(to, frm, length)
                else:                            # two devices: through a host buffer
                    staging = ctypes.create_string_buffer(length)
                    src_state.device.copy_to_host(ctypes.addressof(staging), frm, length)
                    dst_state.device.copy_to_device(to, ctypes.addressof(staging), length)
            except DeviceError:
                return -1
            return 0
