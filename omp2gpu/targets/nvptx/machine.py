"""The NVPTX target machine and what a device module needs from it: triple,
data layout, address spaces, and the marking of kernels."""

from __future__ import annotations

from functools import lru_cache

import llvmlite.binding as llvm
from llvmlite import ir

from omp2gpu.targets.nvptx.arch import ptx_features, validate_arch

DEVICE_TRIPLE = "nvptx64-nvidia-cuda"

# NVPTX address spaces (LLVM's NVPTX::AddressSpace).
ADDRESS_SPACES = {"generic": 0, "global": 1, "shared": 3, "constant": 4, "local": 5}
SHARED_ADDRESS_SPACE = ADDRESS_SPACES["shared"]

MAX_THREADS_PER_BLOCK = 1024


@lru_cache(maxsize=None)
def initialise() -> None:
    """Register LLVM's targets once; the NVPTX one is among them."""
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()


@lru_cache(maxsize=None)
def target_machine(arch: str = "sm_90", opt_level: int = 3, ptx: int | None = None) -> llvm.TargetMachine:
    """The NVPTX target machine for `arch`, emitting PTX ISA `ptx` (x10)."""
    initialise()
    target = llvm.Target.from_triple(DEVICE_TRIPLE)
    return target.create_target_machine(cpu=validate_arch(arch), features=ptx_features(arch, ptx),
                                        opt=opt_level)


@lru_cache(maxsize=None)
def data_layout() -> str:
    """The NVPTX64 data layout, as the target machine states it."""
    return str(target_machine().target_data)


def configure_device_module(module) -> None:
    """Give an ir.Module or a ModuleRef the device triple and data layout."""
    module.triple = DEVICE_TRIPLE
    module.data_layout = data_layout()


def new_device_module(name: str, context: ir.Context | None = None) -> ir.Module:
    """An empty llvmlite module for the device."""
    module = ir.Module(name, context=context or ir.global_context)
    configure_device_module(module)
    return module


def mark_kernel(function: ir.Function, max_threads: int | None = None) -> None:
    """Make `function` a kernel (a PTX `.entry`): LLVM 22 wants the ptx_kernel
    calling convention and external linkage. `max_threads` becomes `.maxntid`
    through the legacy `maxntidx` annotation, which LLVM upgrades on parsing to
    the "nvvm.maxntid" attribute (llvmlite.ir cannot write string attributes)."""
    if not isinstance(function.function_type.return_type, ir.VoidType):
        raise ValueError(f"kernel '{function.name}' must return void")
    if function.linkage not in ("", "external"):
        raise ValueError(f"kernel '{function.name}' must have external linkage, not {function.linkage}")
    function.calling_convention = "ptx_kernel"
    if max_threads is not None:
        if not 1 <= max_threads <= MAX_THREADS_PER_BLOCK:
            raise ValueError(f"max_threads must be 1-{MAX_THREADS_PER_BLOCK}, not {max_threads}")
        function.module.add_named_metadata(
            "nvvm.annotations", [function, "maxntidx", ir.Constant(ir.IntType(32), max_threads)])
