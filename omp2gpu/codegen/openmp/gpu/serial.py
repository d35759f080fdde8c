"""A target region with no parallelism inside, run by one GPU thread.

That is exactly OpenMP's semantics for such a region (its initial thread runs
it), so the body is emitted as on the host: the region's own data-sharing
clauses in a DataEnvironment, nested atomic/critical/master/single as plain code.
"""

from __future__ import annotations

from omp2gpu.codegen.openmp.data.data_sharing import DataEnvironment
from omp2gpu.codegen.openmp.gpu.device_module import kernel_init
from omp2gpu.codegen.openmp.plan.region_shape import has_parallelism
from omp2gpu.codegen.openmp.plan.scheme_interface import GpuKernelScheme
from omp2gpu.offload.abi import GPU_SERIAL


class SerialKernel(GpuKernelScheme):
    name = GPU_SERIAL
    fixed_launch = (1, 1)             # (teams, threads): the region's initial thread

    @staticmethod
    def ineligibility(construct, facts=None) -> str | None:
        return "it has parallel constructs" if has_parallelism(construct) else None

    def emit_kernel_body(self, cg, region) -> None:
        kernel_init(cg, spmd=False)
        with DataEnvironment(cg, region.directive):
            cg.stmt(region.construct.body)
