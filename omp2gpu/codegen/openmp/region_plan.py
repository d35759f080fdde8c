"""One target region's plan: everything decided about it, once, before any of its code
is emitted, and never changed after (issue 13).

Host codegen makes the plan where it meets the region (`plan_region`: the captures
from the host function's scope, then the chooser, which reads the region's facts made
before codegen, region_facts.py) and emits the launch from it; the GPU build, the CPU
device's build, the launcher's kernel table (device_driver), `--explain` and `report`
read it. Whether the GPU can run the region's code is the facts' to say; what only a
build can know (the team-stack bytes, registers) is the build's result
(scheme_interface.BuiltKernel), never written back here. Planning writes nothing into
the tree.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from omp2gpu.codegen.openmp.choose import choose
from omp2gpu.codegen.openmp.data.target_regions import Capture, region_captures
from omp2gpu.codegen.openmp.plan.launch_shape import runs_as_one_team
from omp2gpu.codegen.openmp.plan.scheme_interface import RegionScheme
from omp2gpu.codegen.openmp.schemes import AUTO
from omp2gpu.sema.metadirectives import specialized
from omp2gpu.sema.openmp_context import DEVICES


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
    facts: object = None                    # region_facts.RegionFacts of the construct the GPU compiles
    cpu_facts: object = None                # and of the CPU device's: what each build's schemes read

    def for_device(self, device: str) -> RegionPlan:
        """The plan as `device`'s build reads it: the construct that device compiles."""
        facts = self.cpu_facts if device == "cpu" else self.facts
        construct = dict(self.device_constructs).get(device)
        if construct is None:
            return replace(self, facts=facts) if facts is not self.facts else self
        return replace(self, construct=construct, one_team=runs_as_one_team(construct), device_constructs=(),
                       facts=facts)

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
    facts: object = None                    # region_facts.UnitFacts: every region's, made before codegen


def plan_region(cg, construct, kernel_name: str, inputs: PlanningInputs,
                declare_target_names=frozenset()) -> RegionPlan:
    """`declare_target_names`: the globals the device has its own copies of (not captured)."""
    captures = region_captures(cg, construct, declare_target_names)     # every device's
    on_gpu, on_cpu = (specialized(construct, DEVICES[device]) for device in ("gpu", "cpu"))
    on_gpu_facts, on_cpu_facts = (inputs.facts.of(version) if inputs.facts is not None else None
                                  for version in (on_gpu, on_cpu))
    choice = choose(on_gpu, inputs.request, inputs.callees, on_cpu, on_gpu_facts)
    devices = tuple((name, version) for name, version in (("gpu", on_gpu), ("cpu", on_cpu))
                    if version is not construct)
    return RegionPlan(kernel_name, construct, cg.function.name, cg.scope, captures, choice.gpu, choice.reason,
                      choice.cpu, runs_as_one_team(on_gpu), devices, on_gpu_facts, on_cpu_facts)
