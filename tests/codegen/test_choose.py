"""choose.py: the one chooser, every scheme's eligibility, and what it decides for the
GPU and the CPU device together."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from target_constructs import target_construct

from omp2gpu.codegen.openmp.choose import choose
from omp2gpu.codegen.openmp.schemes import (
    REQUESTS,
    CombinedConstruct,
    ControlLoop,
    CpuCombined,
    CpuSequential,
    CpuTeams,
    SerialKernel,
    SpmdizedControlLoop,
)
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct

LOOP = "for (int i = 0; i < n; i++) a[i] = i;"


def _target(pragmas: str, body: str = LOOP) -> OmpConstruct:
    return target_construct(pragmas, body, "int n, double *a")


COMBINED = "#pragma omp target teams distribute parallel for"


@pytest.mark.parametrize("pragmas, body, gpu, cpu", [
    (COMBINED, LOOP, CombinedConstruct, (CpuCombined, CpuSequential)),
    ("#pragma omp target", "a[0] = 1;", SerialKernel, (CpuSequential,)),
    # one team's worksharing loop: the GPU's combined scheme with one team, as Clang makes it
    # SPMD; the CPU device spreads the team over its workers
    ("#pragma omp target parallel for", LOOP, CombinedConstruct, (CpuTeams, CpuSequential)),
    ("#pragma omp target parallel for schedule(dynamic)", LOOP, SpmdizedControlLoop, (CpuTeams, CpuSequential)),
    ("#pragma omp target\n#pragma omp parallel for", LOOP, CombinedConstruct, (CpuTeams, CpuSequential)),
    ("#pragma omp target parallel", "{\nint k = 2;\n#pragma omp for\n" + LOOP + "\n}", CombinedConstruct,
     (CpuTeams, CpuSequential)),
    # serial code beside the loop (not a read-only declaration): the control loop's team,
    # SPMDized (the team master's code guarded, no state machine)
    ("#pragma omp target parallel", "{\na[0] = 1;\n#pragma omp for\n" + LOOP + "\n}", SpmdizedControlLoop,
     (CpuTeams, CpuSequential)),
    ("#pragma omp target parallel", "{\n#pragma omp for\n" + LOOP + "\n#pragma omp barrier\n}",
     SpmdizedControlLoop, (CpuTeams, CpuSequential)),
    (COMBINED + " schedule(dynamic)", LOOP, SpmdizedControlLoop, (CpuCombined, CpuSequential)),
    # dist_schedule's chunks dealt round-robin: the combined kernel's loop over its team's
    # chunks on the GPU; the CPU device's teams scheme deals them to its groups
    (COMBINED + " dist_schedule(static, n / 4)", LOOP, CombinedConstruct, (CpuTeams, CpuSequential)),
    ("#pragma omp target teams\n#pragma omp distribute parallel for dist_schedule(static, 8)", LOOP,
     CombinedConstruct, (CpuTeams, CpuSequential)),
    # a teams region's only `parallel for`: each team runs the whole loop, SPMD on the GPU;
    # with a statement before it, the team master runs that in a guard of the SPMDized kernel
    ("#pragma omp target teams\n#pragma omp parallel for", LOOP, CombinedConstruct, (CpuTeams, CpuSequential)),
    ("#pragma omp target teams", "{\nint k = 2;\n#pragma omp parallel for\n" + LOOP + "\n}", SpmdizedControlLoop,
     (CpuTeams, CpuSequential)),
    # a parallel region in a distribute loop: the team follows the master through it; a
    # `continue` the team could not follow keeps the control loop's state machine
    ("#pragma omp target teams distribute", "for (int i = 0; i < n; i++) {\na[i] = 1;\n"
     "#pragma omp parallel\na[i] += 1;\n}", SpmdizedControlLoop, (CpuTeams, CpuSequential)),
    ("#pragma omp target teams distribute", "for (int i = 0; i < n; i++) {\nif (a[i] > 0) continue;\n"
     "#pragma omp parallel\na[i] += 1;\n}", ControlLoop, (CpuTeams, CpuSequential)),
])
def test_one_choice_for_every_device(pragmas, body, gpu, cpu):
    choice = choose(_target(pragmas, body))
    assert (choice.gpu, choice.cpu) == (gpu, cpu)


def test_the_reason_says_why_a_scheme_was_passed_over():
    choice = choose(_target(COMBINED + " schedule(dynamic)"))
    assert choice.reason.startswith("SPMDized control loop: ")
    assert choice.reason.endswith("(not combined: schedule must be absent or static,1 for the grid-stride loop)")


def test_num_threads_the_host_cannot_evaluate_keeps_the_region_off_the_combined_scheme():
    choice = choose(_target(COMBINED + " num_threads(g(n))"))
    assert choice.gpu is SpmdizedControlLoop and "num_threads" in choice.reason
    assert choose(_target(COMBINED + " num_threads(n / 2)")).gpu is CombinedConstruct


def test_a_call_to_a_function_whose_constructs_the_kernel_takes_in_needs_the_control_loop():
    construct = _target(COMBINED, "for (int i = 0; i < n; i++) fill(a, i);")
    choice = choose(construct, callees={"fill": None})
    assert choice.gpu is ControlLoop and "calls 'fill'" in choice.reason
    assert choose(construct, "combined", callees={"fill": None}).gpu is CombinedConstruct


@pytest.mark.parametrize("request_, gpu", [("host", None), ("control-loop", ControlLoop),
                                          ("serial", SerialKernel), ("combined", CombinedConstruct)])
def test_a_request_holds_for_regions_it_can_run(request_, gpu):
    assert request_ in REQUESTS
    body = "a[0] = 1;" if request_ == "serial" else LOOP
    pragmas = "#pragma omp target" if request_ == "serial" else COMBINED
    assert choose(_target(pragmas, body), request_).gpu is gpu


def test_serial_requested_for_a_parallel_region_runs_it_on_the_host():
    choice = choose(_target("#pragma omp target parallel for"), "serial")
    assert choice.gpu is None and choice.cpu == () and "--scheme serial" in choice.reason


def test_a_region_the_gpu_cannot_build_runs_on_the_host_on_every_device():
    facts = SimpleNamespace(reverse_offload=False, host_function_pointers=["f"])
    choice = choose(_target(COMBINED), facts=facts)
    assert (choice.gpu, choice.cpu) == (None, ()) and choice.reason.startswith("runs on the host: it uses 'f'")
