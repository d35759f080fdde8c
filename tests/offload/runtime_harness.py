"""What the runtime's tests share: a kernel written in Python on the in-memory device
(add_one), a runtime made around it, and the map entries compiled host code passes."""

from __future__ import annotations

import ctypes

from omp2gpu.offload import runtime
from omp2gpu.offload.abi import KernelInfo
from omp2gpu.offload.abi import MapType as M
from omp2gpu.offload.devices.host_memory import HostMemoryDevice

INT = ctypes.sizeof(ctypes.c_int)


def ints(*values):
    return (ctypes.c_int * len(values))(*values)


def addr(obj, index=0):
    """The address of a ctypes object, or of element `index` of a ctypes array."""
    return ctypes.addressof(obj) + (index * ctypes.sizeof(obj._type_) if index else 0)


class Entries:
    """The four arrays the compiled host code passes, as Python lists."""

    def __init__(self, *entries):
        self.bases = [e[0] for e in entries]
        self.begins = [e[1] for e in entries]
        self.sizes = [e[2] for e in entries]
        self.types = [int(e[3]) for e in entries]

    def args(self):
        return len(self.bases), self.bases, self.begins, self.sizes, self.types


def mapped(array, bits):
    return addr(array), addr(array), ctypes.sizeof(array), bits | M.TARGET_PARAM


def literal(value):
    return addr(value), addr(value), ctypes.sizeof(value), M.LITERAL | M.TARGET_PARAM


def add_one(grid, block, params):
    """The test kernel: int *a, int n -> a[i] += 1."""
    (_, pointer), (_, n) = params
    count = int.from_bytes(n, "little", signed=True)
    array = (ctypes.c_int * count).from_address(pointer)
    for i in range(count):
        array[i] += 1


ADD_ONE = KernelInfo("add_one", ["pointer", "bytes"], default_block_size=64, scheme="combined")


def make_runtime(*devices, environ=None, kernels=True):
    devices = devices or (HostMemoryDevice(),)
    for device in devices:
        device.kernels["add_one"] = add_one
    rt = runtime.reset(list(devices), environ or {})
    if kernels:
        rt.register_image("// ptx", {"add_one": ADD_ONE})
    return rt


def launch_add_one(rt, a, device=-1, num_teams=0, thread_limit=0):
    n = ctypes.c_int(len(a))
    entries = Entries(mapped(a, M.TO | M.FROM), literal(n))
    return rt.target(device, "add_one", *entries.args(), num_teams, thread_limit, len(a))

