"""Whether a target region the control loop would take can run SPMD instead (issue 29's
SPMDization, what Clang's OpenMPOpt does to generic kernels), read from the tree alone.

An SPMDized kernel (gpu/control_loop/guarded.py) has every thread of the team walk the
region's code in order: the team master runs each stretch of sequential code inside a
guard, the team meets at a barrier, runs the parallel region, and meets again. That
needs every thread to reach each parallel region the same way. On the straight path
through the sequential code they do; a loop or `if` of the sequential code around a
parallel region is a team statement: the master evaluates its condition and the team
takes the branch it took (its decision, broadcast through shared memory). A distribute loop around
parallel regions is followed the same way (its chunks, then its iterations). What cannot
be followed keeps the control loop, whose state machine follows any control flow: a
parallel region in a `switch` or a metadirective, and jumps (`break`, `continue` out of
a team statement; `return`, `goto`, labels in the master's code).
"""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import SourceLocation
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct, OmpMetadirective
from omp2gpu.frontend.tree_walks import holds, nodes
from omp2gpu.sema.team_loop_jumps import LOOPS, team_level

# Statements whose jumps could leave a guard of the team master's code, or enter one.
_JUMPS = (c_ast.Return, c_ast.Goto, c_ast.Label)


def _parallel(node) -> bool:
    return isinstance(node, OmpConstruct) and node.directive.has("parallel")


def holds_parallel_region(node) -> bool:
    """Whether a parallel region (or a metadirective, which may become one) is at or below `node`."""
    return holds(node, team_level)


def spmdization_obstacle(construct) -> str | None:
    """Why the target construct's region cannot run SPMDized (None: it can). A distribute
    loop around parallel regions is a loop the team follows, as a team statement."""
    if construct.directive.has("parallel"):       # the target's own parallel region, or each chunk's
        return None
    return _sequential_obstacle(construct.body)


_TEAM_STATEMENTS = (c_ast.If, c_ast.For, c_ast.While, c_ast.DoWhile)
_LOOPS_AND_SWITCHES = (*LOOPS, c_ast.Switch)


def team_statements(body) -> frozenset:
    """The loops and `if`s of the team master's code `body` that hold parallel regions
    (by node id): the whole team takes them (an SPMDized kernel's team statements)."""
    found, _ = _walk_sequential(body)
    return frozenset(found)


def _sequential_obstacle(body) -> str | None:
    """What keeps the team from following the team master's code `body` to its parallel regions."""
    return _walk_sequential(body)[1]


def _walk_sequential(body) -> tuple[set, str | None]:
    """(the team statements of `body`, the first obstacle to SPMDizing it or None)."""
    found: set = set()
    stack = [body] if body is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, c_ast.Compound):
            stack.extend(reversed(node.block_items or []))
        elif isinstance(node, OmpConstruct) and node.directive.constructs \
                and set(node.directive.constructs) <= {"teams", "distribute"}:
            stack.append(node.body)             # a distribute's loop: a team statement when it holds parallel
        elif _parallel(node):
            pass                                # the team's own: every thread runs it
        elif isinstance(node, OmpMetadirective) and holds(node, team_level):
            return found, f"the metadirective at {SourceLocation.of(node.coord)} may open a parallel region"
        elif isinstance(node, _TEAM_STATEMENTS) and holds(node, team_level):
            jump = _loop_jump(node)
            if jump is not None:
                return found, (f"'{'break' if isinstance(jump, c_ast.Break) else 'continue'}' at "
                               f"{SourceLocation.of(jump.coord)} leaves a loop around a parallel region")
            found.add(id(node))
            below = [node.iftrue, node.iffalse] if isinstance(node, c_ast.If) else [node.stmt]
            stack.extend(reversed([statement for statement in below if statement is not None]))
        elif (inner := next((n for n in nodes(node) if team_level(n) and n is not node), None)) is not None:
            what = node.directive.kind if isinstance(node, OmpConstruct) else type(node).__name__.lower()
            return found, f"the parallel region at {SourceLocation.of(inner.coord)} is inside {what}"
        elif (jump := next((n for n in nodes(node, prune=_parallel) if isinstance(n, _JUMPS)), None)) is not None:
            return found, f"a jump in the team master's code at {SourceLocation.of(jump.coord)} ('{_jump_name(jump)}')"
    return found, None


def _loop_jump(statement):
    """A break or continue that would leave or restart the team statement's own loop (or
    that of a loop around an `if`): the team would not follow the master there. Those
    sema/team_loop_jumps.py could rewrite are flags by now; a `continue` in a `switch`
    is still one."""
    def prune(node, kinds):
        return node is not statement and (isinstance(node, kinds) or _parallel(node))
    breaks = (n for n in nodes(statement, lambda n: prune(n, _LOOPS_AND_SWITCHES)) if isinstance(n, c_ast.Break))
    continues = (n for n in nodes(statement, lambda n: prune(n, LOOPS)) if isinstance(n, c_ast.Continue))
    return next(breaks, None) or next(continues, None)


def _jump_name(node) -> str:
    return {c_ast.Return: "return", c_ast.Goto: "goto"}.get(type(node), "label")
