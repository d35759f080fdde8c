"""The chooser: the one place where a target region's schemes are decided, once per
region, before any of its code is emitted, with the reason (as Clang's
supportsSPMDExecutionMode does); `omp2gpu compile --explain` prints it.

On the GPU, under `--scheme auto`:
- the combined construct (gpu_combined.py) when the region has its shape
  (region_shape.combined_ineligibility), or is one team's parallel worksharing loop
  (`target parallel for`: a league of one team of it);
- serial (gpu_serial.py) when it has no parallelism: one GPU thread runs it, which is
  OpenMP's semantics for such a region (its initial thread);
- the control loop without its state machine (control_loop/guarded.py) for a region
  with sequential code around parallel regions that lie on its straight path
  (plan/spmdization.py: Clang's SPMDization);
- the control loop (paper Section 3) for anything else, and for a region that calls a
  function whose OpenMP constructs the kernel must take in as its own
  (inlined_callees.py);
- the host when the region's facts (region_facts.py) say the chosen scheme cannot
  build its code (its `device_refusal`: long double, a taskloop in the control loop...),
  decided here, before any code exists.
`--scheme NAME` asks for one scheme for every region (`host`: none runs on the GPU).
On the CPU device: the best eligible work-group scheme, then the sequential one, which
runs anything (the CPU build takes the first that compiles).
"""

from __future__ import annotations

from dataclasses import dataclass

from omp2gpu.codegen.openmp.gpu.device_module import uses_openmp_api
from omp2gpu.codegen.openmp.plan.device_refusals import REVERSE_OFFLOAD
from omp2gpu.codegen.openmp.plan.inlined_callees import calls_any
from omp2gpu.codegen.openmp.plan.region_shape import combined_shape, num_threads_read_at_launch
from omp2gpu.codegen.openmp.plan.scheme_interface import RegionScheme
from omp2gpu.codegen.openmp.schemes import (
    AUTO,
    HOST,
    CombinedConstruct,
    ControlLoop,
    CpuCombined,
    CpuSequential,
    CpuTeams,
    SerialKernel,
    SpmdizedControlLoop,
)


@dataclass(frozen=True)
class Choice:
    gpu: type[RegionScheme] | None              # None: the region runs on the host, no launch
    reason: str
    cpu: tuple[type[RegionScheme], ...] = ()    # the CPU device's, best first


def choose(construct, request: str = AUTO, callees=frozenset(), cpu_construct=None, facts=None) -> Choice:
    """The schemes of one target construct. `callees`: the translation unit's functions
    whose constructs a kernel takes in (inlined_callees.kernel_constructs_callees);
    `cpu_construct`: the construct as the CPU device compiles it, where it differs
    (a metadirective in it chose otherwise there); `facts`: the region's
    (region_facts.RegionFacts), which say what the chosen scheme cannot build."""
    if facts is not None and facts.reverse_offload:          # whatever --scheme asks
        return Choice(None, f"runs on the host: {REVERSE_OFFLOAD}")
    gpu, reason = _gpu_scheme(construct, request, callees, facts)
    why_not = gpu.device_refusal(facts) if gpu is not None and facts is not None else None
    if why_not is not None:
        return Choice(None, f"runs on the host: {why_not}")
    return Choice(gpu, reason, _cpu_schemes(cpu_construct or construct) if gpu is not None else ())


def _gpu_scheme(construct, request: str, callees, facts) -> tuple[type[RegionScheme] | None, str]:
    if request == HOST:
        return None, "runs on the host: --scheme host"
    if request == ControlLoop.name:
        return ControlLoop, "control loop (--scheme control-loop)"
    why_not_combined = CombinedConstruct.ineligibility(construct, facts)
    if request == SpmdizedControlLoop.name:
        chosen = _team_master_scheme(construct, "--scheme spmdized")
    elif request in (AUTO, CombinedConstruct.name) and why_not_combined is None:
        shape = combined_shape(construct, gpu=True)
        prelude = " (the region's declarations run in every thread)" if shape.prelude else ""
        calls = "the team state set up for the omp_* calls its loop may make" if uses_openmp_api(shape.loop) \
            else "no runtime calls"
        host_read = any(num_threads_read_at_launch(directive, facts) for directive in shape.directives)
        team_size = "; its num_threads evaluated by the host at the launch" if host_read else ""
        chosen = CombinedConstruct, f"combined construct: SPMD grid-stride loop, {calls}{prelude}{team_size}"
    elif request in (AUTO, SerialKernel.name) and SerialKernel.ineligibility(construct) is None:
        chosen = SerialKernel, "no parallel construct inside: one GPU thread runs the region"
    elif request == SerialKernel.name:
        return None, "runs on the host: it has parallel constructs, which --scheme serial cannot run"
    else:
        chosen = _team_master_scheme(construct, why_not_combined or "it contains parallel constructs")
    # A callee's constructs run as the kernel's own only in the control loop, which runs
    # them with the team, rather than in one thread or in each iteration of the loop.
    called = calls_any(construct.body, callees) if request in (AUTO, SpmdizedControlLoop.name) else None
    if called is not None:
        return ControlLoop, f"control loop: it calls '{called}', whose OpenMP constructs run as the kernel's own"
    return chosen


def _team_master_scheme(construct, why_not_combined: str) -> tuple[type[RegionScheme], str]:
    """A region with sequential code around its parallel regions: SPMDized where they lie
    on its straight path, else the control loop's state machine."""
    why_not = SpmdizedControlLoop.ineligibility(construct)
    if why_not is None:
        return SpmdizedControlLoop, (f"SPMDized control loop: the team master runs the sequential code in guards, "
                                     f"a barrier before and after each parallel region (not combined: "
                                     f"{why_not_combined})")
    return ControlLoop, f"control loop: {why_not_combined}; not SPMDized: {why_not}"


def _cpu_schemes(construct) -> tuple[type[RegionScheme], ...]:
    best = next((scheme for scheme in (CpuCombined, CpuTeams) if scheme.ineligibility(construct) is None), None)
    return (best, CpuSequential) if best is not None else (CpuSequential,)

