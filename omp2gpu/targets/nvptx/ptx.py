"""Device module -> PTX: link libdevice, verify, optimise with the new pass
manager, emit PTX with the NVPTX target machine. `DeviceCode` keeps every
stage's artifact (optimised IR, PTX, and on demand the cubin and kernel
resources from ptxas), each computed once."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import llvmlite.binding as llvm

from omp2gpu.targets.llvm_options import barriers_kept_whole, partial_unrolling
from omp2gpu.targets.nvptx.libdevice import link_libdevice
from omp2gpu.targets.nvptx.machine import configure_device_module, initialise, target_machine
from omp2gpu.targets.nvptx.ptxas import KernelResources, assemble, resource_usage


def as_module_ref(module) -> llvm.ModuleRef:
    """A ModuleRef with the device triple and data layout, from an
    ir.Module, IR text, or a ModuleRef (changed in place)."""
    initialise()
    ref = module if isinstance(module, llvm.ModuleRef) else llvm.parse_assembly(str(module))
    configure_device_module(ref)
    return ref


def verify(module: llvm.ModuleRef) -> None:
    """RuntimeError with LLVM's message if the device IR is malformed."""
    try:
        module.verify()
    except RuntimeError as err:
        raise RuntimeError(f"device LLVM IR verification failed: {err}") from None


def optimise(module, arch: str = "sm_90", opt_level: int = 3) -> llvm.ModuleRef:
    """Link libdevice if needed, verify, and run LLVM's -O`opt_level` module
    pipeline for the NVPTX target machine (its pass-builder callbacks add
    NVVMReflect, which resolves libdevice's __nvvm_reflect queries)."""
    if not 0 <= opt_level <= 3:
        raise ValueError(f"optimisation level must be 0-3, not {opt_level}")
    ref = as_module_ref(module)
    verify(ref)
    partial_unrolling(True)             # as NVPTX chooses, whatever a host -O2 module set before
    barriers_kept_whole()               # no copy of a barrier into divergent predecessors
    machine = target_machine(arch, opt_level)
    builder = llvm.create_pass_builder(machine, llvm.create_pipeline_tuning_options(speed_level=opt_level))
    if link_libdevice(ref):
        # Drop the unused libdevice functions now: -O0's pipeline keeps them.
        cleanup = llvm.create_new_module_pass_manager()
        cleanup.add_global_dead_code_eliminate_pass()
        cleanup.run(ref, builder)
        verify(ref)
    builder.getModulePassManager().run(ref, builder)
    return ref


def emit_ptx(module: llvm.ModuleRef, arch: str = "sm_90", opt_level: int = 3) -> str:
    """PTX text for an optimised device module."""
    return target_machine(arch, opt_level).emit_assembly(module)


@dataclass
class DeviceCode:
    """One device module compiled for one architecture."""
    arch: str
    optimised_ir: str
    ptx: str

    @cached_property
    def cubin(self) -> bytes:
        return assemble(self.ptx, self.arch)

    @cached_property
    def resources(self) -> dict[str, KernelResources]:
        """Kernel (PTX name) -> registers, spills, shared/local/constant memory."""
        return resource_usage(self.ptx, self.arch)


def compile_device(module, arch: str = "sm_90", opt_level: int = 3) -> DeviceCode:
    """Optimise `module` (ir.Module, IR text or ModuleRef) and emit PTX."""
    ref = optimise(module, arch, opt_level)
    return DeviceCode(arch, str(ref), emit_ptx(ref, arch, opt_level))


def compile_to_ptx(module, arch: str = "sm_90", opt_level: int = 3) -> str:
    """PTX for `module`; `compile_device` keeps the optimised IR as well."""
    return compile_device(module, arch, opt_level).ptx
