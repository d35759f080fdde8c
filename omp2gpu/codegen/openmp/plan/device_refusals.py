"""Why a device scheme cannot build a region's code, read from its facts (region_facts.py)
before any code exists: the chooser then runs the region on the host, and the remark
says why (`runs on the host: ...`). The messages are the ones codegen raised when it
found these by emitting the kernel.

Every GPU kernel: no long double (NVPTX has no 80-bit type, Clang refuses it too), no
host function's address, no `error` directive (no stderr), no reverse offload, no task
joining a task reduction or detached, no global of the host's that a function the
kernel calls uses unless it is `declare target`. The control loop besides: only the
constructs it lowers, no worksharing a parallel region would run out of order, no
team-shared variable-length array; the control loop and the combined scheme fold
reductions atomically, which a user-defined combiner is not, and the combined scheme's
warp reduction takes 32- and 64-bit values. On the CPU device (cpu_device_refusal),
which runs the host's code, only the tasks and globals rules hold; the CPU teams
scheme's own are cpu_teams_rules.py's.
"""

from __future__ import annotations

from omp2gpu.codegen.openmp.plan.region_facts import CONDITIONAL_LASTPRIVATE, InnerConstruct, RegionFacts, clause_names

LONG_DOUBLE = "long double (the host's x86 80-bit type) has no GPU equivalent"
# The host's threads pick the last assigning iteration (host/worksharing.py); no device does.
CONDITIONAL_LASTPRIVATE_REFUSAL = "'lastprivate(conditional: ...)' is not supported on the device"
HOST_FILE_OUTPUT = "it calls fprintf on a FILE other than stdout or stderr, and a GPU writes no host file"
REVERSE_OFFLOAD = ("it holds a reverse offload ('target device(ancestor: 1)'), the host's to run, and a kernel "
                   "cannot call back into the host")
ERROR_DIRECTIVE = "'#pragma omp error' at(execution) is not supported inside a GPU target region"

# What the control loop lowers (gpu_control_loop.ControlLoop.emit_construct), besides
# combinations of these leaves.
_LOOP_LEAVES = ("teams", "distribute", "parallel", "for", "simd")
_CONTROL_LOOP_KINDS = ("atomic", "barrier", "master", "single", "masked", "scope", "error", "critical", "allocate",
                       "flush", "taskwait", "taskyield", "ordered", "section", "sections", "task", "taskgroup")


def kernel_refusal(facts: RegionFacts, own_constructs=None, team_copies: bool = False,
                   expands_callees: bool = False) -> str | None:
    """Why no GPU kernel can run the region's code (None: one can), in the order the
    kernel's code meets them. `own_constructs`: a scheme's rule for the constructs of the
    kernel's own code, asked first for each; `team_copies`: the scheme makes the target
    and teams constructs' private copies team-shared, at the kernel's start;
    `expands_callees`: it expands the callees holding constructs in place (inlined_callees.py)."""
    if facts.reverse_offload:
        return REVERSE_OFFLOAD
    for name in facts.host_function_pointers:
        return (f"it uses '{name}', a host function's address (calls through it on the GPU, 'declare target "
                "indirect', are not supported)")
    for name in facts.team_shared_vlas if team_copies else ():
        return (f"variable-length array '{name}' shared by a team: its team-shared copy needs a size known at "
                "compile time")
    if facts.long_double is not None:
        return LONG_DOUBLE
    if facts.host_file_output is not None:
        return HOST_FILE_OUTPUT
    if _conditional_lastprivate(facts.construct):
        return CONDITIONAL_LASTPRIVATE_REFUSAL
    for construct in facts.constructs:
        why = (own_constructs and own_constructs(construct)) or _device_construct_refusal(construct)
        if why:
            return why
    for construct in facts.called_constructs:
        why = _device_construct_refusal(construct)
        if why:
            return why
    return _host_global_refusal(facts, expands_callees)


def _host_global_refusal(facts: RegionFacts, expanded: bool) -> str | None:
    for name in facts.host_globals_in_callees(expanded):
        return f"'{name}' is used on the device but is neither mapped nor 'declare target'"
    return None


def cpu_device_refusal(facts: RegionFacts) -> str | None:
    """Why the CPU device cannot run the region's code in any work-group scheme (it runs
    the host's code otherwise: long double, function pointers and `error` are fine)."""
    if _conditional_lastprivate(facts.construct):
        return CONDITIONAL_LASTPRIVATE_REFUSAL
    for construct in facts.constructs + facts.called_constructs:
        why = _device_construct_refusal(construct, gpu=False)
        if why:
            return why
    return _host_global_refusal(facts, expanded=False)


def _conditional_lastprivate(construct) -> bool:
    """The target construct itself has lastprivate(conditional:) (a `target parallel for`)."""
    return CONDITIONAL_LASTPRIVATE in clause_names(construct)


def _device_construct_refusal(construct: InnerConstruct, gpu: bool = True) -> str | None:
    """What no device's one-thread code runs (kernels.DeviceOpenMP, tasks.py)."""
    kind = construct.kind
    if kind == "error" and gpu:
        return ERROR_DIRECTIVE
    if CONDITIONAL_LASTPRIVATE in construct.clauses:
        return CONDITIONAL_LASTPRIVATE_REFUSAL
    if kind == "interop":               # hooks.OpenMPRuntime.emit_interop
        return ("'#pragma omp interop' in a target region (or a function it calls) is not supported: interop "
                "objects are made and used in host code")
    if "task" in kind.split() or "taskloop" in kind.split():
        for name in ("in_reduction", "detach"):
            if name in construct.clauses:
                return f"'{name}' on '#pragma omp {kind}' is not supported on the device"
        if "taskloop" in kind.split() and "reduction" in construct.clauses:
            return f"'reduction' on '#pragma omp {kind}' is not supported on the device"
    return None


def atomic_fold_refusal(facts: RegionFacts) -> str | None:
    """Why a scheme folding reductions atomically cannot run the region."""
    for op in facts.user_reductions:
        return f"user-defined reduction '{op}' is not supported on the device"
    return None


def combined_refusal(facts: RegionFacts) -> str | None:
    """Why the combined scheme cannot build the region's code (gpu_combined.reduce_into)."""
    for ctype in facts.small_integer_reductions:
        return f"a reduction on '{ctype}' is not supported on the GPU"
    return atomic_fold_refusal(facts)


def control_loop_refusal(facts: RegionFacts) -> str | None:
    """Why the control loop cannot build the region's code."""
    return (kernel_refusal(facts, _control_loop_construct, team_copies=True, expands_callees=True)
            or atomic_fold_refusal(facts))


def _control_loop_construct(construct: InnerConstruct) -> str | None:
    kind = construct.kind
    if kind not in _CONTROL_LOOP_KINDS and not all(leaf in _LOOP_LEAVES for leaf in kind.split()):
        return f"'#pragma omp {kind}' is not supported inside a GPU target region"
    if construct.parallel_depth and kind in ("sections", "task") or (
            kind == "ordered" and construct.has_body and construct.parallel_depth):
        return f"'#pragma omp {kind}' in a parallel region is not supported on the GPU yet"
    if kind == "single" and construct.parallel_depth == 1 and "copyprivate" in construct.clauses:
        return "'copyprivate' in a parallel region is not supported inside a GPU target region"
    return None


def function_refusal(unit, name: str, device: str) -> str | None:
    """Why `device` ("gpu" or "cpu") cannot compile function `name` of the file (a
    `declare target` one exported for other files' kernels) and what it calls, from the
    file's facts (region_facts.UnitFacts)."""
    reached = sorted(unit.reached({name}))
    for callee in reached:
        facts = unit.function_facts(callee)
        if device == "gpu" and facts.long_double is not None:
            return LONG_DOUBLE
        if device == "gpu" and facts.host_file_output is not None:
            return HOST_FILE_OUTPUT
        for construct in facts.constructs:
            why = _device_construct_refusal(construct, gpu=device == "gpu")
            if why:
                return why
    for callee in reached:
        for global_name in sorted(unit.function_facts(callee).globals - unit.declare_target_names):
            return f"'{global_name}' is used on the device but is neither mapped nor 'declare target'"
    return None
