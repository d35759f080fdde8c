"""What the CPU teams scheme (cpu_teams.py) takes, read from a region's tree and facts
before any code exists: the clauses of a combined directive by the leaf each applies
to, and `cpu_teams_refusal(facts)`, why the scheme cannot build a region (it then runs
as one work-item, cpu_workgroup.CpuSequential). The walk follows the scheme's own
(cpu_teams.CpuTeams.construct, cpu_barrier_phases.BarrierPhases.statement,
cpu_team_loops.TeamLoops): team code, parallel regions split into phases at their
barriers, work-item code, inactive nested parallel regions.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import SimpleNamespace

from pycparser import c_ast

from omp2gpu.codegen.openmp.cpu.barrier_phases import synchronises
from omp2gpu.codegen.openmp.host import doacross
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct

# Clauses by the leaf of a combined directive that takes them (OpenMP 4.5 2.11).
_LEAF_ORDER = ("for", "distribute", "parallel", "teams", "target")
UNSUPPORTED_CLAUSES = ("copyin", "copyprivate", "linear")
SUPPORTED_KINDS = ("target", "target teams", "target parallel", "target parallel for",
                   "target parallel for simd", "target teams distribute",
                   "target teams distribute simd", "target teams distribute parallel for",
                   "target teams distribute parallel for simd", "target simd")
TASKING = ("task", "taskgroup", "taskwait", "taskyield", "threadprivate")
_PARALLEL_KINDS = ("parallel", "parallel for", "parallel for simd", "parallel sections")
_DISTRIBUTE_KINDS = ("distribute", "distribute simd", "distribute parallel for", "distribute parallel for simd")
_SPLIT_KINDS = ("for", "for simd", "single", "sections", "barrier", "scope")     # a parallel region's phases


def route(directive) -> dict[str, list]:
    """The clauses of a (combined) directive, by the leaf construct each applies to."""
    leaves = set(directive.kind.split())
    routed = {leaf: [] for leaf in _LEAF_ORDER}

    def innermost(*choices):
        return next((leaf for leaf in choices if leaf in leaves), "target")

    lastprivate = {item.name for clause in directive.clauses if clause.name == "lastprivate"
                   for item in clause.items}
    for clause in directive.clauses:
        name = clause.name
        if name in UNSUPPORTED_CLAUSES:
            raise CompileError(f"'{name}' in a CPU teams region")
        if name in ("private",):
            routed[innermost("for", "distribute", "parallel", "teams")].append(clause)
        elif name == "firstprivate" and "for" in leaves and "parallel" in leaves and \
                any(item.name in lastprivate for item in clause.items):
            # Also lastprivate: both apply to the for, whose last iteration assigns the
            # original, not a copy private to the parallel region (OpenMP 5.0 2.13.1).
            both = [item for item in clause.items if item.name in lastprivate]
            rest = [item for item in clause.items if item.name not in lastprivate]
            routed["for"].append(replace(clause, items=both))
            if rest:
                routed["parallel"].append(replace(clause, items=rest))
        elif name == "firstprivate":
            routed[innermost("parallel", "distribute", "teams")].append(clause)
        elif name == "lastprivate":
            routed[innermost("for", "distribute")].append(clause)
        elif name == "reduction":
            routed[innermost("for", "parallel", "teams")].append(clause)
        elif name in ("schedule", "ordered", "nowait") and "for" in leaves:
            routed["for"].append(clause)
        elif name == "collapse":
            routed[innermost("for", "distribute")].append(clause)
            if "for" in leaves and "distribute" in leaves:
                routed["distribute"].append(clause)
        elif name == "dist_schedule":
            routed["distribute"].append(clause)
        elif name in ("num_threads", "proc_bind"):
            routed["parallel"].append(clause)
        elif name == "if" and getattr(clause, "modifier", None) in (None, "parallel") and "parallel" in leaves:
            routed["parallel"].append(clause)
        else:
            routed["target"].append(clause)    # map, device, num_teams... and what needs nothing here
    return routed


def clauses_of(items) -> SimpleNamespace:
    return SimpleNamespace(clauses=list(items), kind="", has=lambda name: False)


def constructs_in(node, inside_parallel=False):
    """(construct, nested in a parallel region of the node) for every construct in node,
    in source order (an explicit stack: a recursive generator is quadratic in depth)."""
    stack = [(node, inside_parallel)] if node is not None else []
    while stack:
        node, inside_parallel = stack.pop()
        if isinstance(node, OmpConstruct):
            yield node, inside_parallel
            inside_parallel = inside_parallel or node.directive.has("parallel")
        stack.extend((child, inside_parallel) for _, child in reversed(node.children()))


# ----------------------------------------------------------------- the refusal
class _Refused(Exception):
    pass


@dataclass(frozen=True)
class _State:
    wi: bool = False            # work-item code (cpu_teams.Team.wi set)
    nthreads: bool = False      # inside a parallel region of the team
    inactive: int = 0           # inside a parallel region nested in a work-item


def cpu_teams_refusal(facts) -> str | None:
    """Why the CPU teams scheme cannot build the region (None: it can)."""
    construct = facts.construct
    directive = construct.directive
    if directive.kind not in SUPPORTED_KINDS:
        return f"'{directive.kind}' is not run as CPU teams"
    for inner, _ in constructs_in(construct.body):
        if inner.directive.kind in TASKING:
            return f"'{inner.directive.kind}' in a CPU teams region"
    if facts.callee_holding_constructs is not None:
        return f"'{facts.callee_holding_constructs}', called in the region, holds OpenMP constructs"
    try:
        _route_checked(directive)
        _below_teams(construct.body, directive, _State(), facts)
    except _Refused as refusal:
        return str(refusal)
    return None


def _route_checked(directive) -> None:
    for clause in directive.clauses:
        if clause.name in UNSUPPORTED_CLAUSES:
            raise _Refused(f"'{clause.name}' in a CPU teams region")


def _below_teams(body, directive, state: _State, facts) -> None:
    leaves = directive.kind.split()
    if "distribute" in leaves:
        if "parallel" in leaves:
            _parallel(body, directive, "for" in leaves, state, facts, in_distribute=True)
        else:
            _team_code(body, state, facts)
    elif "parallel" in leaves:
        _parallel(body, directive, "for" in leaves, state, facts)
    else:
        _team_code(body, state, facts)


def _parallel(body, directive, is_for: bool, state: _State, facts, in_distribute: bool = False) -> None:
    for clause in route(directive)["parallel"]:
        if clause.name not in ("private", "firstprivate", "reduction"):
            continue
        for item in clause.items:        # each gets a context array (BarrierPhases._context_array)
            if clause.name == "reduction" and (item.sections or facts.reduces_whole_array(directive, item.name)):
                raise _Refused("an array-section reduction on a CPU teams parallel region")
            _check_sized(facts.variable_length_type(item.name))
    inner = _State(wi=False, nthreads=True, inactive=state.inactive)
    if is_for:
        _for_phase(directive, body, inner, facts, in_distribute)
    else:
        _statement(body, inner, facts)


def _for_phase(directive, loop, state: _State, facts, in_distribute: bool) -> None:
    if in_distribute and doacross.is_doacross(directive, _unwrap(loop)):
        raise _Refused("a doacross loop ('ordered(n)') shared by teams ('distribute parallel for') "
                       "is not supported on the CPU device")
    _team_code(_unwrap(loop), _State(True, state.nthreads, state.inactive), facts)


def _statement(node, state: _State, facts) -> None:
    """A statement of a parallel region (BarrierPhases.statement)."""
    as_work_item = _State(True, state.nthreads, state.inactive)
    if not synchronises(node):
        _team_code(node, as_work_item, facts)
    elif isinstance(node, c_ast.Compound):
        for item in node.block_items or ():          # a barrier splits its declarations from their uses:
            for decl in _declarations(item):         # each gets a context array
                if decl.name is not None and not {"static", "extern"} & set(decl.storage or ()):
                    _check_sized(facts.variable_length_type(decl))
        for item in node.block_items or ():
            if synchronises(item):
                _statement(item, state, facts)
            else:
                _team_code(item, as_work_item, facts)
    elif isinstance(node, OmpConstruct):
        kind = node.directive.kind
        if kind in ("for", "for simd"):
            _for_phase(node.directive, node.body, state, facts, False)
        elif kind == "single" and any(clause.name == "copyprivate" for clause in node.directive.clauses):
            raise _Refused("'copyprivate' in a CPU teams region")
        elif kind in ("single", "sections"):
            _team_code(node.body, as_work_item, facts)
        elif kind != "barrier":
            raise _Refused(f"'{kind}' holding a barrier of its parallel region")
    elif isinstance(node, c_ast.If):
        _statement(node.iftrue, state, facts)
        if node.iffalse is not None:
            _statement(node.iffalse, state, facts)
    elif isinstance(node, (c_ast.For, c_ast.While, c_ast.DoWhile)):
        _statement(node.stmt, state, facts)
    else:
        raise _Refused("a barrier in a statement the CPU teams scheme cannot split")


def _team_code(node, state: _State, facts) -> None:
    """Code emitted as it is, its constructs met by CpuTeams.construct."""
    stack = [node]
    while stack:
        current = stack.pop()
        if current is None:
            continue
        if isinstance(current, OmpConstruct) and _construct(current, state, facts):
            continue
        stack.extend(child for _, child in reversed(list(current.children())))


def _construct(construct, state: _State, facts) -> bool:
    """CpuTeams.construct: True when the scheme takes the construct (its body walked here),
    False when the host scheme's way emits it (its body is then team code as before)."""
    directive = construct.directive
    kind = directive.kind
    if state.inactive:
        if directive.has("parallel"):
            _team_code(construct.body, _State(state.wi, state.nthreads, state.inactive + 1), facts)
            return True
        return False
    if directive.has("teams"):
        if state.wi or state.nthreads:
            raise _Refused("'teams' must be closely nested in 'target'")
        _route_checked(directive)
        _below_teams(construct.body, directive, state, facts)
        return True
    if kind in _PARALLEL_KINDS:
        if state.wi:
            _team_code(construct.body, _State(state.wi, state.nthreads, state.inactive + 1), facts)
            return True
        if kind == "parallel sections":
            raise _Refused("'parallel sections' in a CPU teams region")
        _route_checked(directive)
        _parallel(construct.body, directive, "for" in kind, state, facts)
        return True
    if kind in _DISTRIBUTE_KINDS:
        if state.wi or state.nthreads:
            raise _Refused("'distribute' must be closely nested in 'teams'")
        _route_checked(directive)
        _below_teams(construct.body, directive, state, facts)
        return True
    if kind in _SPLIT_KINDS and state.nthreads:
        raise _Refused(f"'{kind}' where its parallel region cannot split")
    if kind in TASKING[:4]:
        raise _Refused(f"'{kind}' in a CPU teams region")
    return False


def _check_sized(variable_type: str | None) -> None:
    if variable_type is not None:
        raise _Refused(f"the size of variable-length array type '{variable_type}' is only known at run time; "
                       "not supported here")


def _declarations(item) -> list:
    if isinstance(item, c_ast.Decl):
        return [item]
    return list(item.decls) if isinstance(item, c_ast.DeclList) else []


def _unwrap(node):
    while isinstance(node, c_ast.Compound) and len(node.block_items or ()) == 1:
        node = node.block_items[0]
    return node
