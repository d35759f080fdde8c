"""The scheme registry: every scheme, registered once (scheme_interface.RegionScheme).

Adding a scheme is a module with its class, a line here, and the chooser's rule for it
(choose.py); the builds, the launcher's kernel table, `--explain` and `report` read the
scheme from a region's plan.
"""

from __future__ import annotations

from omp2gpu.codegen.openmp.cpu.teams import CpuTeams
from omp2gpu.codegen.openmp.cpu.workgroup import CpuCombined, CpuSequential
from omp2gpu.codegen.openmp.gpu.combined import CombinedConstruct
from omp2gpu.codegen.openmp.gpu.control_loop.guarded import SpmdizedControlLoop
from omp2gpu.codegen.openmp.gpu.control_loop.scheme import ControlLoop
from omp2gpu.codegen.openmp.gpu.serial import SerialKernel

GPU_SCHEMES = (CombinedConstruct, ControlLoop, SpmdizedControlLoop, SerialKernel)
CPU_SCHEMES = (CpuCombined, CpuTeams, CpuSequential)

AUTO = "auto"           # `--scheme auto`: the chooser decides each region
HOST = "host"           # `--scheme host`: every region runs on the host
REQUESTS = (AUTO, *(scheme.name for scheme in GPU_SCHEMES), HOST)    # what --scheme takes

__all__ = ["AUTO", "CPU_SCHEMES", "GPU_SCHEMES", "HOST", "REQUESTS", "CombinedConstruct", "ControlLoop",
           "CpuCombined", "CpuSequential", "CpuTeams", "SerialKernel", "SpmdizedControlLoop"]
