"""The one interface of every way a target region can run on a device (a scheme).

A scheme is a class: its name (offload/abi.py's spelling, which `--explain`, `report`
and the launcher's KernelInfo use), the device whose module builds it, the launch
facts the host needs before any code exists (team size, a fixed launch shape), why it
cannot take a region, and how it emits one. The chooser (choose.py) asks the classes
registered in schemes.py; the builds (kernels.py for the GPU, cpu_workgroup.py for the
CPU device) call `emit_region` on the scheme a region's plan names; nothing else knows
a scheme by its name.

Within a device's module a scheme still implements the paper's hooks (Section 3.3):
emitting a region is generic codegen of its body with the scheme's hook object.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from contextlib import contextmanager
from dataclasses import dataclass
from typing import ClassVar

from omp2gpu.codegen.openmp.plan.device_refusals import cpu_device_refusal, kernel_refusal
from omp2gpu.diagnostics import CompileError, SourceLocation


class RegionScheme(ABC):
    name: ClassVar[str]                 # offload/abi.py's name for it
    device: ClassVar[str]               # "gpu" or "cpu": which device module builds it
    block_size: ClassVar[int] = 1       # threads per team when the program does not say
    fixed_launch: ClassVar[tuple[int, int] | None] = None   # (teams, threads) whatever the clauses

    @staticmethod
    def ineligibility(construct, facts=None) -> str | None:
        """Why the scheme does not take this target construct, by its shape (None: it
        takes it); `facts`: the region's (region_facts.RegionFacts), where known."""
        return None

    @staticmethod
    def device_refusal(facts) -> str | None:
        """Why the device cannot run the region's code with this scheme, from its facts
        (region_facts.RegionFacts): the region then runs on the host (None: it can)."""
        return None

    @abstractmethod
    def emit_region(self, emitter, plan) -> BuiltKernel:
        """Emit the plan's region into `emitter`'s device module; a region whose facts
        `device_refusal` accepted is always built (accepted_region)."""


class GpuKernelScheme(RegionScheme):
    """A scheme whose region is one NVPTX kernel (device_module.DeviceModuleEmitter)."""

    device = "gpu"
    device_refusal = staticmethod(kernel_refusal)
    hidden_params: ClassVar[tuple[tuple[str, object], ...]] = ()   # (name, IR type) after the captures
    splits_into_states: ClassVar[bool] = False   # its body's blocks are a state machine's (values
                                                 # must not cross them in registers)

    def emit_region(self, emitter, plan) -> BuiltKernel:
        return BuiltKernel(plan, type(self), emitter.emit_kernel(plan, self))

    @abstractmethod
    def emit_kernel_body(self, cg, plan) -> int | None:
        """The kernel's body; the team-stack bytes per team it needs, if any."""


class WorkGroupScheme(RegionScheme):
    """A scheme whose region is one work-group function of the CPU device (cpu_workgroup.py)."""

    device = "cpu"
    device_refusal = staticmethod(cpu_device_refusal)

    def emit_region(self, emitter, plan) -> BuiltKernel:
        emitter.emit_workgroup(plan, self)
        return BuiltKernel(plan, type(self))

    @abstractmethod
    def emit_workgroup_body(self, cg, plan, group, num_groups, threads) -> None:
        """The work-group function's body for group `group` of `num_groups`."""


@dataclass(frozen=True)
class BuiltKernel:
    """What a device build made of a region's plan: the facts only the build knows."""
    plan: object                          # region_plan.RegionPlan
    scheme: type[RegionScheme]
    team_stack_bytes: int | None = None   # control loop: global memory per team for shared variables

    @property
    def kernel_name(self) -> str:
        return self.plan.kernel_name

    @property
    def construct(self):
        return self.plan.construct

    @property
    def captures(self) -> tuple:
        return self.plan.captures

    @property
    def reason(self) -> str:
        return self.plan.reason


@contextmanager
def accepted_region(plan, scheme: type[RegionScheme]):
    """Around a device build's emission of a region `scheme` accepted: its
    `device_refusal(facts)` said it can build the region, so a CompileError here is an
    omission of the facts (region_facts.py, device_refusals.py), an internal error."""
    try:
        yield
    except CompileError as error:
        raise AssertionError(f"internal error: the {scheme.name} scheme accepted the target region at "
                             f"{SourceLocation.of(plan.construct.coord)} ({plan.kernel_name}) but cannot build it: "
                             f"{error.message} (its facts, region_facts.py, do not say so)") from error
