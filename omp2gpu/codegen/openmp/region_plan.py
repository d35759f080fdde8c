"""One target region's plan: everything decided about it, once, before any of its code
is emitted, and never changed after (issue 13).

Host codegen makes the plan where it meets the region (`plan_region`: the captures
from the host function's scope, then the chooser) and emits the launch from it; the
GPU build, the CPU device's build, the launcher's kernel table (device_driver),
`--explain` and `report` read it. What only a build can know (whether the GPU can run
the region's code at all, the team-stack bytes, registers) is the build's result
(scheme_interface.BuiltKernel, kernels.DeviceBuild.refused), never written back here.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from omp2gpu.codegen.openmp.choose import choose
from omp2gpu.codegen.openmp.launch_shape import runs_as_one_team
from omp2gpu.codegen.openmp.region_shape import combined_shape
from omp2gpu.codegen.openmp.scheme_interface import RegionScheme
from omp2gpu.codegen.openmp.schemes import AUTO
from omp2gpu.codegen.openmp.target_regions import Capture, region_captures
from omp2gpu.sema.metadirectives import specialized
from omp2gpu.sema.openmp_context import DEVICES
from omp2gpu.sema.reduction_items import arrays_as_sections


@dataclass(frozen=True)
class RegionPlan:
    kernel_name: str
    construct: object                       # the OmpConstruct
    function_name: str                      # the host function holding it
    scope: object                           # the host scope at the construct (types, typedefs, tags)
    captures: tuple[Capture, ...]           # one kernel parameter and one map entry each
    gpu: type[RegionScheme] | None          # None: the region runs on the host, no launch
    reason: str                             # why, as --explain prints it
    cpu: tuple[type[RegionScheme], ...]     # the CPU device's schemes, best first
    one_team: bool                          # no teams construct: one team, even under OMP2GPU_LAUNCH
    # The construct as each device ("gpu", "cpu") compiles it, where that differs from
    # `construct`: its metadirectives resolved for the device (sema/metadirectives.py).
    device_constructs: tuple = ()

    def for_device(self, device: str) -> RegionPlan:
        """The plan as `device`'s build reads it: the construct that device compiles."""
        construct = dict(self.device_constructs).get(device)
        if construct is None:
            return self
        return replace(self, construct=construct, one_team=runs_as_one_team(construct), device_constructs=())

    @property
    def directive(self):
        return self.construct.directive

    @property
    def launched(self) -> bool:
        """Whether the host launches the region on a device (else it runs it itself)."""
        return self.gpu is not None


@dataclass(frozen=True)
class PlanningInputs:
    """What the chooser needs beyond the region itself, the same for a whole file."""
    request: str = AUTO                     # --scheme
    callees: frozenset | dict = frozenset() # functions whose constructs a kernel takes in
    refused: dict = field(default_factory=dict)   # kernel name -> why the GPU build refused it


def plan_region(cg, construct, kernel_name: str, inputs: PlanningInputs,
                declare_target_names=frozenset()) -> RegionPlan:
    """`declare_target_names`: the globals the device has its own copies of (not captured)."""
    captures = region_captures(cg, construct, declare_target_names)     # every device's
    on_gpu, on_cpu = (specialized(construct, DEVICES[device]) for device in ("gpu", "cpu"))
    for version in {id(c): c for c in (on_gpu, on_cpu)}.values():
        shape = combined_shape(version)
        for directive in shape.directives if shape is not None else ():
            arrays_as_sections(cg.scope, directive)     # the chooser sees whole arrays as sections
    choice = choose(on_gpu, inputs.request, inputs.callees, inputs.refused.get(kernel_name), on_cpu)
    devices = tuple((name, version) for name, version in (("gpu", on_gpu), ("cpu", on_cpu))
                    if version is not construct)
    return RegionPlan(kernel_name, construct, cg.function.name, cg.scope, captures, choice.gpu, choice.reason,
                      choice.cpu, runs_as_one_team(on_gpu), devices)
