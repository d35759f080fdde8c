"""CUDA devices through cuda-python's driver bindings.

cuda-python is optional (the `gpu` extra), so nothing here is imported until a
function runs, and `available()` answers False rather than raising when the
package, the driver library or a GPU is missing. Each device uses its primary
context. Every CUresult is checked: a failure raises DeviceError naming the
call and the driver's error name and text.
"""

from __future__ import annotations

import ctypes
import threading

from omp2gpu.offload.abi import POINTER
from omp2gpu.offload.devices import cuda_native
from omp2gpu.offload.devices.base import Device, DeviceError
from omp2gpu.offload.native_launch import MirroredDataEnvironment, enable_after_launch

JIT_LOG_BYTES = 16384
_cu = None
_initialised = False
_init_lock = threading.Lock()


def _driver():
    """The driver bindings: cuda.bindings.driver (cuda-python >= 12.6), else the older cuda.cuda."""
    global _cu
    if _cu is None:
        try:
            from cuda.bindings import driver  # lazy: cuda-python is optional (the gpu extra)
        except ImportError:
            from cuda import cuda as driver  # lazy: cuda-python is optional (the gpu extra)
        _cu = driver
    return _cu


def _error_text(error) -> str:
    cu = _driver()
    try:
        _, name = cu.cuGetErrorName(error)
        _, text = cu.cuGetErrorString(error)
        return f"{_decode(name)}: {_decode(text)}"
    except Exception:
        return str(error)


def _decode(value) -> str:
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).split(b"\0", 1)[0].decode("utf-8", "replace")
    return str(value)


def _call(name: str, *args):
    """Call driver function `name`; its results without the CUresult (one value, a tuple, or None)."""
    cu = _driver()
    result = getattr(cu, name)(*args)
    error, values = result[0], result[1:]
    if error != cu.CUresult.CUDA_SUCCESS:
        raise DeviceError(f"{name}: {_error_text(error)}")
    if not values:
        return None
    return values[0] if len(values) == 1 else values


def _initialise() -> None:
    global _initialised
    with _init_lock:
        if not _initialised:
            _call("cuInit", 0)
            _initialised = True


def device_count() -> int:
    _initialise()
    return int(_call("cuDeviceGetCount"))


def available() -> bool:
    """Whether cuda-python, the driver and at least one GPU are there. Never raises."""
    try:
        return device_count() > 0
    except Exception:
        return False


class CudaDevice(Device):
    def __init__(self, ordinal: int = 0):
        _initialise()
        cu = _driver()
        self.ordinal = ordinal
        self._ordinal_attribute = cu.CUpointer_attribute.CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL
        self._device = _call("cuDeviceGet", ordinal)
        self._context = _call("cuDevicePrimaryCtxRetain", self._device)
        self._context_handle = _handle(self._context)
        self._make_current()
        cuda_native.forget_devices()     # a new launcher in this process: forget the old one's kernels
        self.name = _decode(_call("cuDeviceGetName", 256, self._device))
        attribute = cu.CUdevice_attribute
        self.multiprocessor_count = self._attribute(attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)
        self.max_threads_per_block = self._attribute(attribute.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK)
        self.compute_capability = (
            self._attribute(attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR),
            self._attribute(attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR))

    @property
    def label(self) -> str:
        return f"GPU {self.ordinal} ({self.name})"

    def track(self) -> str:
        return "stream 0 (default)"           # every copy and launch here goes to stream 0

    def _attribute(self, attribute) -> int:
        return int(_call("cuDeviceGetAttribute", attribute, self._device))

    def _make_current(self) -> None:
        """A context is current per thread: make ours current on the calling thread unless it
        is already (another device, or the native path, may have made its own current)."""
        if _handle(_call("cuCtxGetCurrent")) != self._context_handle:
            _call("cuCtxSetCurrent", self._context)

    @staticmethod
    def _pointer(address: int):
        return _driver().CUdeviceptr(address)

    # ----------------------------------------------------------------- memory
    def allocate(self, nbytes: int) -> int:
        self._make_current()
        try:
            return int(_call("cuMemAlloc", nbytes))
        except DeviceError:
            native = self._native()
            if native is None:
                raise
            native.release_cache()              # the native path's kept buffers, then again
            return int(_call("cuMemAlloc", nbytes))

    def free(self, address: int) -> None:
        self._make_current()
        native = self._native()
        if native is not None and native.asynchronous_launches():
            _call("cuCtxSynchronize")           # no range freed under a kernel still in flight
        _call("cuMemFree", self._pointer(address))

    def _host_pieces(self, host_pointer: int, nbytes: int):
        """(offset, bytes) pieces of a host range, cut where the native path page-locked a
        range for its update copies: the driver refuses one copy partly in such a range
        and partly outside it (runtime/native_launch/pinned_ranges.c)."""
        native = self._native()
        cuts = native.pinned_cuts(host_pointer, nbytes) if native is not None else []
        ends = [host_pointer, *cuts, host_pointer + nbytes]
        return [(start - host_pointer, end - start) for start, end in zip(ends, ends[1:])]

    def copy_to_device(self, dst_address: int, host_pointer: int, nbytes: int) -> None:
        if nbytes > 0:
            self._make_current()
            with self.observed_copy("to-device", host_pointer, dst_address, nbytes):
                for offset, piece in self._host_pieces(host_pointer, nbytes):
                    _call("cuMemcpyHtoD", self._pointer(dst_address + offset), host_pointer + offset, piece)

    def copy_to_host(self, host_pointer: int, src_address: int, nbytes: int) -> None:
        if nbytes > 0:
            self._make_current()
            with self.observed_copy("to-host", host_pointer, src_address, nbytes):
                for offset, piece in self._host_pieces(host_pointer, nbytes):
                    _call("cuMemcpyDtoH", host_pointer + offset, self._pointer(src_address + offset), piece)

    def copy_device_to_device(self, dst_address: int, src_address: int, nbytes: int) -> None:
        if nbytes > 0:
            self._make_current()
            _call("cuMemcpyDtoD", self._pointer(dst_address), self._pointer(src_address), nbytes)

    def holds(self, address: int) -> bool:
        """Memory the driver places on this GPU (unified addressing tells a pointer's device:
        its allocations, managed memory there, host memory mapped for it); memory the driver
        does not know, ordinary host memory, is not. Asked through the native launch path
        once it serves this device (each call of a C function with a CuPy array asks)."""
        attribute = self._ordinal_attribute
        native = self._native()
        if native is not None:
            return native.device_of(address, int(attribute)) == self.ordinal
        self._make_current()
        try:
            ordinal = _call("cuPointerGetAttribute", attribute, self._pointer(address))
        except DeviceError:
            return False
        return int(ordinal) == self.ordinal

    def wait_for_stream(self, stream: int) -> None:
        """Natively, once that path serves this device: only a non-blocking stream is waited
        for (the legacy default stream, where the launcher works, waits for blocking ones)."""
        native = self._native()
        if native is not None:
            error = native.wait_for_stream(stream)
            if error:
                raise DeviceError(f"cuStreamSynchronize: {_error_text(_driver().CUresult(error))}")
            return
        self._make_current()
        _call("cuStreamSynchronize", _driver().CUstream(stream))

    # ----------------------------------------------------------------- code
    def load_module(self, ptx_text: str):
        """JIT the PTX for this GPU; on failure the DeviceError carries the JIT's error log."""
        self._make_current()
        cu = _driver()
        image = ptx_text.encode() + b"\0"
        log = bytearray(JIT_LOG_BYTES)
        options = [cu.CUjit_option.CU_JIT_ERROR_LOG_BUFFER,
                   cu.CUjit_option.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES]
        try:
            return _call("cuModuleLoadDataEx", image, len(options), options, [log, JIT_LOG_BYTES])
        except TypeError:
            return _call("cuModuleLoadData", image)      # bindings that take no log buffer
        except DeviceError as error:
            jit_log = _decode(log).strip()
            raise DeviceError(f"{error}\n{jit_log}" if jit_log else str(error)) from None

    def get_function(self, module, name: str):
        self._make_current()
        return _call("cuModuleGetFunction", module, name.encode())

    def get_global(self, module, name: str) -> tuple[int, int]:
        self._make_current()
        address, size = _call("cuModuleGetGlobal", module, name.encode())
        return int(address), int(size)

    @staticmethod
    def _kernel_params(params: list):
        """kernelParams: an array of void*, each pointing at one argument's bytes
        (returned with the storage it points into, which must outlive the launch)."""
        storage = [ctypes.c_uint64(int(value)) if kind == POINTER
                   else ctypes.create_string_buffer(bytes(value), max(len(value), 1))
                   for kind, value in params]
        pointers = (ctypes.c_void_p * max(len(storage), 1))(*[ctypes.addressof(s) for s in storage])
        return pointers, storage

    def launch(self, function, grid: int, block: int, params: list, shared_bytes: int = 0) -> None:
        self._make_current()
        pointers, _storage = self._kernel_params(params)
        _call("cuLaunchKernel", function, grid, 1, 1, block, 1, 1, shared_bytes, 0,
              ctypes.addressof(pointers), 0)

    def timed_launch(self, function, grid: int, block: int, params: list) -> float:
        """The kernel's own time from CUDA events recorded around the launch; the
        arguments are ready before the start event, so little host time falls inside."""
        self._make_current()
        pointers, _storage = self._kernel_params(params)
        start, stop = _call("cuEventCreate", 0), _call("cuEventCreate", 0)
        try:
            _call("cuEventRecord", start, 0)
            _call("cuLaunchKernel", function, grid, 1, 1, block, 1, 1, 0, 0, ctypes.addressof(pointers), 0)
            _call("cuEventRecord", stop, 0)
            _call("cuEventSynchronize", stop)
            return float(_call("cuEventElapsedTime", start, stop)) * 1e3
        finally:
            _call("cuEventDestroy", start)
            _call("cuEventDestroy", stop)

    def function_attributes(self, function) -> dict:
        attribute = _driver().CUfunction_attribute
        read = lambda which: int(_call("cuFuncGetAttribute", which, function))  # noqa: E731
        return {"registers": read(attribute.CU_FUNC_ATTRIBUTE_NUM_REGS),
                "shared_bytes": read(attribute.CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES),
                "local_bytes": read(attribute.CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)}

    def synchronize(self) -> None:
        self._make_current()
        _call("cuCtxSynchronize")

    # ----------------------------------------------------------------- the native launch path
    def make_data_environment(self) -> MirroredDataEnvironment:
        return MirroredDataEnvironment(self, self._native)

    def _native(self) -> cuda_native.GpuLauncher | None:
        """The native launch path's module serving this device, if any."""
        return cuda_native.serving(self)

    def launched(self, runtime, state, kernel_name: str, info, function) -> None:
        """After the launcher ran a kernel here: later launches of it may skip Python
        (cuda_native.py), once the path was started (the default device is a GPU); each
        GPU gets its own native module, chained after the others."""
        native, claimed = cuda_native.claim(self)
        if native is None:
            return
        if claimed:
            native.use_context(_handle(self._context))
        native.team_stack(*state.team_stack)
        enable_after_launch(native, runtime, state, kernel_name, info, _handle(function))


def _handle(value) -> int:
    """A driver handle (CUcontext, CUfunction) as the address it wraps."""
    try:
        return int(value)
    except TypeError:
        return int(value.getPtr())
