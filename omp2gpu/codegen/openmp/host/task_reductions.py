"""Task reductions on the host's threads (OpenMP 5.0 2.19.5.4-6): `task_reduction` on
taskgroup, `in_reduction` on task, taskloop and target, `reduction` on taskloop, and
`reduction(task, ...)` on parallel and worksharing constructs.

Every participant -- a task with `in_reduction`, each task of a taskloop with
`reduction` or `in_reduction`, a target task with `in_reduction`, each implicit task of
a `reduction(task, ...)` construct -- works on a private copy initialised to the
operator's identity and, when it ends, folds its copy into the original list item with
one atomic (a locked update for what atomics cannot do, the combiner inside a critical
section for a `declare reduction`). The construct that defines the reduction has
nothing left to do at its end but what it does anyway: the end of a taskgroup, of a
taskloop's implicit taskgroup, the barrier ending a parallel or worksharing region
wait for every participating task, so the original holds the result there. Which
address a task folds into is reduction_aliases.py's concern.

Why not the runtime's own task-reduction entry points (GOMP_taskgroup_reduction_register
and GOMP_task_reduction_remap, a per-thread array and a hash lookup in every task)?
They exist in libgomp only -- the CPU device, the GPU and libiomp5 would each need
another scheme -- and the fold at the end is one atomic per task and item, which a task
(microseconds of runtime bookkeeping) does not notice.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import replace
from types import SimpleNamespace

from omp2gpu.codegen.openmp.data import reduction_aliases, user_reductions
from omp2gpu.codegen.openmp.data.data_sharing import DataEnvironment, list_items, reduction_identity
from omp2gpu.codegen.openmp.host.worksharing import fold_atomically
from omp2gpu.codegen.values import LValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.clause_parsers import REDUCTION_OPS
from omp2gpu.frontend.openmp.clause_types import MapClause, ReductionClause
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.sema.captures import free_identifiers
from omp2gpu.sema.scopes import Symbol

PARTICIPANT_CLAUSES = ("in_reduction",)


def items(directive, clause_names=PARTICIPANT_CLAUSES) -> list:
    return [(clause, item) for name in clause_names for clause, item in list_items(directive, name)]


def without(directive, clause_names):
    """The directive without these clauses (what the rest of the construct's code sees)."""
    return replace(directive, clauses=[c for c in directive.clauses if c.name not in clause_names])


def fold_targets(cg, directive, clause_names=PARTICIPANT_CLAUSES) -> list[tuple]:
    """Where the task is created: (op, item, the name the task reaches the item's
    original by) for each item it participates with."""
    return [(clause.op, item, reduction_aliases.fold_target(cg, item.name))
            for clause, item in items(directive, clause_names)]


@contextmanager
def participate(cg, targets):
    """Around a participating task's body (emitted in the task's own function; `targets`:
    fold_targets where the task was created): each item's private copy, declared under
    its name, folded into the original with atomics when the body ends. An array or an
    array section is DataEnvironment's reduction of a section (a private array, every
    element the identity, folded element by element)."""
    if not targets:
        yield
        return
    fold = fold_atomically(cg)
    arrays = [(op, item) for op, item, target in targets if _is_array(cg, item, target)]
    scalars = [(op, item, _original(cg, item, target)) for op, item, target in targets
               if not _is_array(cg, item, target)]
    copies = []
    with cg.block_scope():
        for op, item, original in scalars:
            copy = LValue(original.ctype, cg.alloca(original.ctype, f"{item.name}.in_reduction"))
            user = user_reductions.find(cg.scope, op, original.ctype)
            if user is not None:
                user_reductions.initialise(cg, user, copy, original)
                op = user
            else:
                _check_operator(op, item, original.ctype)
                cg.builder.store(reduction_identity(op, original.ctype), copy.address)
            cg.scope.declare(Symbol(item.name, original.ctype, "object", copy.address))
            reduction_aliases.record_copy(cg, item.name, original.address)
            copies.append((op, original, copy))
        sections = SimpleNamespace(clauses=[ReductionClause(coord=item.coord, op=op, items=[item])
                                            for op, item in arrays])
        originals = {item.name: cg.scope.lookup(item.name).address for _, item in arrays}
        with DataEnvironment(cg, sections, combine_reduction=fold):
            for name, address in originals.items():
                reduction_aliases.record_copy(cg, name, address)
            yield
            if not cg.builder.block.is_terminated:
                for op, original, copy in copies:
                    fold(op, original, copy)


def _is_array(cg, item, target: str) -> bool:
    symbol = cg.scope.lookup(target)
    if not (item.sections or (symbol is not None and symbol.ctype.is_array)):
        return False
    if target != item.name:
        raise CompileError(f"'{item.spelling}', an array, in the task reduction of a task inside another "
                           "participant on it is not supported", item.coord)
    return True


def section_bound_names(directive, clause_names=PARTICIPANT_CLAUSES) -> set[str]:
    """The names an item's section bounds use: a deferred task takes their values where
    it is created (its firstprivate copies)."""
    return {name for _, item in items(directive, clause_names) for section in item.sections
            for bound in (section.lower, section.length) if bound is not None for name in free_identifiers(bound)}


def _original(cg, item, target: str) -> LValue:
    symbol = cg.scope.lookup(target)
    if symbol is None or symbol.kind != "object":
        raise CompileError(f"'{item.name}' in a reduction clause is not a variable", item.coord)
    return LValue(symbol.ctype, symbol.address)


def _check_operator(op: str, item, ctype) -> None:
    if op not in REDUCTION_OPS:
        raise CompileError(f"no '#pragma omp declare reduction' for '{op}' and type '{ctype}'", item.coord)
    if not ctype.is_arithmetic:
        raise CompileError(f"reduction variable '{item.name}' must be of arithmetic type", item.coord)
    if op in ("&", "|", "^") and not ctype.is_integer:
        raise CompileError(f"reduction operator '{op}' requires an integer variable", item.coord)


def check_defining_items(cg, directive) -> None:
    """`task_reduction` items of a taskgroup name variables of a type their operator
    reduces (the taskgroup itself only waits for its participants, as every taskgroup
    does)."""
    for clause, item in list_items(directive, "task_reduction"):
        symbol = cg.scope.lookup(item.name)
        if symbol is None or symbol.kind != "object":
            raise CompileError(f"'{item.name}' in a 'task_reduction' clause is not a variable", item.coord)
        ctype = symbol.ctype
        while ctype.is_array:                  # an array's elements are reduced
            ctype = ctype.element
        if not item.sections and user_reductions.find(cg.scope, clause.op, ctype) is None:
            _check_operator(clause.op, item, ctype)


def without_clauses(construct, clause_names) -> OmpConstruct:
    return OmpConstruct(without(construct.directive, clause_names), construct.body, construct.coord)


def mapped_target(cg, construct) -> OmpConstruct:
    """`target in_reduction(op: x)`: the target task's private copy of x is what the region
    sees, mapped tofrom (added here, so the target task shares x rather than copying it
    as a firstprivate scalar); participate() makes the copy around the region."""
    directive = construct.directive
    mapped = {item.name for c in directive.clauses if c.name == "map" for item in c.items}
    added = [MapClause(coord=clause.coord, items=[item for item in clause.items if item.name not in mapped],
                       map_type="tofrom", map_type_explicit=True)
             for clause in directive.clauses if clause.name == "in_reduction"]
    return OmpConstruct(replace(directive, clauses=directive.clauses + [c for c in added if c.items]),
                        construct.body, construct.coord)
