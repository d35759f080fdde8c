"""Target regions -> the device module: one kernel per region whose scheme runs on
the GPU, the functions those kernels call, and the device runtime linked in later."""

from __future__ import annotations

from dataclasses import dataclass, field

from llvmlite import ir

from omp2gpu.codegen.openmp.choose import reconsider_for_callees
from omp2gpu.codegen.openmp.device_module import (
    DeviceModuleEmitter,
    call_device_runtime,
)
from omp2gpu.codegen.openmp.gpu_atomics import emit_atomic
from omp2gpu.codegen.openmp.gpu_combined import CombinedConstruct
from omp2gpu.codegen.openmp.gpu_control_loop import ControlLoop
from omp2gpu.codegen.openmp.gpu_serial import SerialKernel
from omp2gpu.codegen.openmp.host import HostOpenMP
from omp2gpu.codegen.openmp.inlined_callees import (
    functions_holding,
    kernel_constructs_callees,
)
from omp2gpu.diagnostics import CompileError, SourceLocation
from omp2gpu.offload.abi import COMBINED_BLOCK_SIZE, CONTROL_LOOP_BLOCK_SIZE

SCHEMES = {"combined": CombinedConstruct, "serial": SerialKernel, "control-loop": ControlLoop}


@dataclass
class DeviceBuild:
    module: object                                  # llvmlite ir.Module for nvptx64
    kernels: list = field(default_factory=list)     # TargetRegions that have a kernel
    remarks: list[str] = field(default_factory=list)
    # Regions host codegen launched but no GPU scheme could build: kernel name -> why.
    # The driver translates the file again with these on the host (no launch of a
    # kernel that does not exist).
    demoted: dict[str, str] = field(default_factory=dict)


class DeviceOpenMP(HostOpenMP):
    """Constructs met inside kernels and device functions: atomics are real atomics;
    the rest are what a region run by one thread, or one iteration of a grid-stride loop, may hold."""

    def emit_atomic(self, cg, construct) -> None:
        emit_atomic(cg, construct)

    # A parallel region in a function called from a kernel (and not expanded in it,
    # inlined_callees.py) runs serialised in the calling thread, as the paper's Section 3.3
    # does for a callee that may be in another translation unit; the runtime keeps the
    # thread's nesting depth for the omp_* queries.
    SERIALISED = {"__omp2gpu_host_parallel_begin": "__kmpc_serialized_parallel",
                  "__omp2gpu_host_parallel_end": "__kmpc_end_serialized_parallel"}

    def _runtime_call(self, cg, name: str) -> None:
        if name in self.SERIALISED:
            call_device_runtime(cg, self.SERIALISED[name], ir.VoidType(), [])


def build_device_module(host_emitter, offload) -> DeviceBuild:
    device = DeviceModuleEmitter(host_emitter, DeviceOpenMP(), offload.declare_target_globals)
    device.inlined_callees = kernel_constructs_callees(host_emitter.function_definitions,
                                                       host_emitter.translation_unit)
    device.critical_callees = functions_holding(host_emitter.function_definitions, "critical")
    build = DeviceBuild(device.module)
    for region in offload.regions:
        reconsider_for_callees(region, device.inlined_callees, offload.scheme_request)
        where = SourceLocation.of(region.construct.coord)
        if region.scheme not in SCHEMES:
            build.remarks.append(f"{where}: remark: target region {region.reason}")
            continue
        module_globals = set(device.module.globals)
        device_symbols = set(device.file_scope.names)
        try:
            device.emit_kernel(region, SCHEMES[region.scheme]())
            device.emit_pending_functions()
        except CompileError as error:
            # A region the device cannot run still runs: on the host, said once.
            # What its kernel started (functions half emitted, globals) goes.
            device.forget_since(module_globals, device_symbols)
            region.scheme, region.reason = "host", f"runs on the host: {error.message}"
            build.remarks.append(f"{where}: remark: target region {region.reason}")
            build.demoted[region.kernel_name] = region.reason
            continue
        build.kernels.append(region)
        build.remarks.append(f"{where}: remark: target region -> kernel {region.kernel_name}: "
                             f"{region.scheme} scheme ({region.reason})")
    if offload.separate_compilation:
        build.remarks += device.export_declare_target(offload)
    return build


def default_block_size(region) -> int:
    return {"serial": 1, "control-loop": CONTROL_LOOP_BLOCK_SIZE}.get(region.scheme, COMBINED_BLOCK_SIZE)


def describe_regions(build: DeviceBuild) -> str:
    """One remark per target region: its kernel and scheme, or why it runs on the host."""
    return "\n".join(build.remarks)
