"""A target region with no parallelism inside, run by one GPU thread.

That is exactly OpenMP's semantics for such a region (its initial thread runs
it), so the body is emitted as on the host: the region's own data-sharing
clauses in a DataEnvironment, nested atomic/critical/master/single as plain code.
"""

from __future__ import annotations

from omp2gpu.codegen.openmp.data_sharing import DataEnvironment
from omp2gpu.codegen.openmp.device_module import kernel_init

SERIAL_LAUNCH = (1, 1)            # (teams, threads)


class SerialKernel:
    name = "serial"

    def emit_kernel_body(self, cg, region) -> None:
        kernel_init(cg, spmd=False)
        with DataEnvironment(cg, region.directive):
            cg.stmt(region.construct.body)
