"""The CUDA device on a real GPU (skipped without one): memory round trips, a
hand-written PTX module, its kernel and global, the JIT error log, and a target
region through the runtime."""

from __future__ import annotations

import ctypes

import pytest

from omp2gpu.offload import runtime
from omp2gpu.offload.abi import KernelInfo
from omp2gpu.offload.abi import MapType as M
from omp2gpu.offload.devices import DeviceError, cuda

pytestmark = pytest.mark.gpu

# add_one(int *a, int n): a[i] += 1 for i < n;  bump(): counter += 1 (counter starts at 7).
PTX = r"""
.version 8.0
.target sm_70
.address_size 64

.visible .global .align 4 .u32 counter = 7;

.visible .entry add_one(
    .param .u64 add_one_a,
    .param .u32 add_one_n
)
{
    .reg .pred  %p<2>;
    .reg .b32   %r<8>;
    .reg .b64   %rd<5>;

    ld.param.u64        %rd1, [add_one_a];
    ld.param.u32        %r1, [add_one_n];
    mov.u32             %r2, %ctaid.x;
    mov.u32             %r3, %ntid.x;
    mov.u32             %r4, %tid.x;
    mad.lo.s32          %r5, %r2, %r3, %r4;
    setp.ge.s32         %p1, %r5, %r1;
    @%p1 bra            DONE;
    cvta.to.global.u64  %rd2, %rd1;
    mul.wide.s32        %rd3, %r5, 4;
    add.s64             %rd4, %rd2, %rd3;
    ld.global.u32       %r6, [%rd4];
    add.s32             %r7, %r6, 1;
    st.global.u32       [%rd4], %r7;
DONE:
    ret;
}

.visible .entry bump()
{
    .reg .b32   %r<3>;

    ld.global.u32       %r1, [counter];
    add.s32             %r2, %r1, 1;
    st.global.u32       [counter], %r2;
    ret;
}
"""


@pytest.fixture(scope="module")
def device():
    return cuda.CudaDevice(0)


def test_properties(device):
    assert device.name
    assert device.multiprocessor_count > 0
    assert device.max_threads_per_block >= 256
    assert device.compute_capability >= (7, 0)


def test_memory_round_trip(device):
    host = (ctypes.c_int * 1000)(*range(1000))
    back = (ctypes.c_int * 1000)()
    first, second = device.allocate(4000), device.allocate(4000)
    try:
        device.copy_to_device(first, ctypes.addressof(host), 4000)
        device.copy_device_to_device(second, first, 4000)
        device.copy_to_host(ctypes.addressof(back), second, 4000)
        assert list(back) == list(range(1000))
    finally:
        device.free(first)
        device.free(second)


def test_launch_a_ptx_kernel(device):
    module = device.load_module(PTX)
    kernel = device.get_function(module, "add_one")
    n = 1000
    host = (ctypes.c_int * n)(*range(n))
    address = device.allocate(4 * n)
    try:
        device.copy_to_device(address, ctypes.addressof(host), 4 * n)
        device.launch(kernel, grid=(n + 127) // 128, block=128,
                      params=[("pointer", address), ("bytes", n.to_bytes(4, "little"))])
        device.synchronize()
        device.copy_to_host(ctypes.addressof(host), address, 4 * n)
    finally:
        device.free(address)
    assert list(host) == [i + 1 for i in range(n)]


def test_module_globals(device):
    module = device.load_module(PTX)
    address, size = device.get_global(module, "counter")
    assert size == 4
    device.launch(device.get_function(module, "bump"), 1, 1, [])
    device.synchronize()
    value = ctypes.c_uint32()
    device.copy_to_host(ctypes.addressof(value), address, 4)
    assert value.value == 8


def test_errors_name_the_call(device):
    with pytest.raises(DeviceError, match="cuModuleGetFunction: CUDA_ERROR_NOT_FOUND"):
        device.get_function(device.load_module(PTX), "no_such_kernel")
    with pytest.raises(DeviceError) as error:
        device.load_module(".version 8.0\n.target sm_70\n.address_size 64\n"
                           ".visible .entry broken() { bogus.instruction; }\n")
    assert "cuModuleLoadDataEx" in str(error.value)
    assert "\n" in str(error.value)                       # the JIT's error log follows


def test_target_region_through_the_runtime():
    rt = runtime.reset(environ={})
    assert rt.num_devices() >= 1
    rt.register_image(PTX, {"add_one": KernelInfo("add_one", ["pointer", "bytes"], 128)})
    a, n = (ctypes.c_int * 300)(*range(300)), ctypes.c_int(300)
    bases = [ctypes.addressof(a), ctypes.addressof(n)]
    sizes = [ctypes.sizeof(a), 4]
    types = [int(M.TO | M.FROM | M.TARGET_PARAM), int(M.LITERAL | M.TARGET_PARAM)]
    assert rt.target(-1, "add_one", 2, bases, bases, sizes, types, 0, 0, 300) == 0
    assert list(a) == [i + 1 for i in range(300)]
    assert len(rt.states[0].data) == 0


def test_each_use_makes_the_devices_context_current(device):
    """Whatever was made current on this thread since (another GPU's context, as when
    several devices are made one after another on one thread; here none) is replaced
    before the device is used: its memory and kernels live in its own context."""
    device.free(device.allocate(256))                    # bound on this thread once already
    cuda._call("cuCtxSetCurrent", cuda._driver().CUcontext(0))
    address = device.allocate(256)
    assert cuda._handle(cuda._call("cuCtxGetCurrent")) == cuda._handle(device._context)
    device.free(address)
