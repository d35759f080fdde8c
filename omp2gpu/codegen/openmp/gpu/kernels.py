"""Target regions -> the device module: one kernel per region whose scheme runs on
the GPU, the functions those kernels call, and the device runtime linked in later."""

from __future__ import annotations

from dataclasses import dataclass, field

from omp2gpu.codegen.openmp.atomics.constructs import emit_atomic
from omp2gpu.codegen.openmp.gpu.device_module import (
    DeviceModuleEmitter,
    may_be_fused,
)
from omp2gpu.codegen.openmp.host.scheme import HostOpenMP
from omp2gpu.codegen.openmp.plan.inlined_callees import functions_holding
from omp2gpu.codegen.openmp.plan.region_shape import nested_constructs
from omp2gpu.codegen.openmp.plan.scheme_interface import BuiltKernel, accepted_region
from omp2gpu.codegen.openmp.runtime_entries import DeviceRuntime
from omp2gpu.diagnostics import CompileError, SourceLocation
from omp2gpu.offload.abi import BYTES, GPU_COMBINED, GPU_SPMDIZED, KernelInfo
from omp2gpu.sema.captures import free_identifiers
from omp2gpu.sema.loop_construct import loop_lowering_remarks
from omp2gpu.sema.metadirectives import metadirective_remarks
from omp2gpu.sema.openmp_context import DEVICES

# omp_* queries whose answers a fused launch's part would not get right (fusion.py)
GRID_QUERIES = frozenset({"omp_get_team_num", "omp_get_num_teams"})


@dataclass
class DeviceBuild:
    module: object                                  # llvmlite ir.Module for nvptx64
    kernels: list[BuiltKernel] = field(default_factory=list)
    remarks: list[str] = field(default_factory=list)
    variables: tuple = ()                           # the declare target variables it defines


class DeviceOpenMP(HostOpenMP):
    """Constructs met inside kernels and device functions: atomics are real atomics;
    the rest are what a region run by one thread, or one iteration of a grid-stride loop, may hold."""

    atomic_syncscope = "device"

    device_name = "gpu"

    def emit_atomic(self, cg, construct) -> None:
        emit_atomic(cg, construct)

    def emit_error(self, cg, construct) -> None:
        """No stderr on the GPU: a region holding an `error` directive at(execution) runs on the host."""
        raise CompileError("'#pragma omp error' at(execution) is not supported inside a GPU target region",
                           construct.coord)

    # A parallel region in a function called from a kernel (and not expanded in it,
    # inlined_callees.py) runs serialised in the calling thread, as the paper's Section 3.3
    # does for a callee that may be in another translation unit; the runtime keeps the
    # thread's nesting depth for the omp_* queries.
    nesting_calls = {"parallel": (DeviceRuntime.serialized_parallel, DeviceRuntime.end_serialized_parallel)}


def build_device_module(host_emitter, offload) -> DeviceBuild:
    """A kernel for every target region whose plan names a GPU scheme."""
    device = DeviceModuleEmitter(host_emitter, DeviceOpenMP(), offload.declare_target_globals)
    device.inlined_callees = offload.inlined_callees
    device.host_only_functions = frozenset(offload.host_only_functions)
    device.critical_callees = functions_holding(host_emitter.function_definitions, "critical")
    build = DeviceBuild(device.module)
    for plan in offload.regions:
        build.remarks.append(_build_region(device, build, plan))
        build.remarks += loop_lowering_remarks(plan.construct)    # how each `loop` was lowered
        build.remarks += metadirective_remarks(plan.construct, DEVICES["gpu"])   # what each became
    build.remarks += device.export_declare_target(offload, with_functions=offload.separate_compilation)
    build.variables = device.declare_target_variables()
    device.finish_debug_info()
    return build


def _build_region(device, build: DeviceBuild, plan) -> str:
    """The region's kernel, added to the build; returns the remark saying what it became.
    Its plan's scheme accepted it from its facts, so the build cannot refuse it."""
    where = SourceLocation.of(plan.construct.coord)
    if plan.gpu is None:
        return f"{where}: remark: target region {plan.reason}"
    device_plan = plan.for_device("gpu")
    with accepted_region(plan, plan.gpu):
        built = plan.gpu().emit_region(device, device_plan)
        device.emit_pending_functions()
    build.kernels.append(built)
    return (f"{where}: remark: target region -> kernel {plan.kernel_name}: "
            f"{plan.gpu.name} scheme ({plan.reason}){_fusion_remark(device_plan)}")


def _fusion_remark(device_plan) -> str:
    """What --explain says of a region whose launches may be fused (docs/async.md): the
    link step decides, from what its code reaches; a query the region names is known now."""
    if not may_be_fused(device_plan, device_plan.gpu):
        return ""
    asked = sorted(GRID_QUERIES.intersection(free_identifiers(device_plan.construct)))
    if asked:
        return f"; its launches are not fused with others': it asks {' and '.join(asked)}"
    return ("; its launches may run fused with the target tasks' beside it, unless a function it calls "
            "asks the team number or the number of teams (docs/async.md)")


def kernel_table(build) -> dict[str, KernelInfo]:
    """The launcher's kernel table for a device build (a DeviceBuild or the CPU device's
    CpuBuild): from each region's plan and what the build made of it."""
    return {kernel.kernel_name: KernelInfo(name=kernel.kernel_name,
                                           params=[c.runtime_kind for c in kernel.captures],
                                           param_bytes=tuple(c.ctype.size if c.runtime_kind == BYTES else 8
                                                             for c in kernel.captures),
                                           default_block_size=kernel.scheme.block_size,
                                           scheme=kernel.scheme.name, team_stack_bytes=kernel.team_stack_bytes,
                                           one_team=kernel.plan.one_team, spreads=_spreads(kernel))
            for kernel in build.kernels}


def _spreads(kernel) -> bool:
    """A grid-stride GPU kernel that folds no reduction across its teams: the launcher may
    give a short loop narrower blocks, more of them (KernelInfo.spreads)."""
    if kernel.scheme.name not in (GPU_COMBINED, GPU_SPMDIZED):
        return False
    return not any(clause.name == "reduction" for construct in nested_constructs(kernel.plan.construct)
                   for clause in construct.directive.clauses)


def describe_regions(build: DeviceBuild) -> str:
    """One remark per target region: its kernel and scheme, or why it runs on the host."""
    return "\n".join(build.remarks)
