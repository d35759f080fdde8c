"""Where a task reduction's contributions go (OpenMP 5.0 2.19.5.4-6).

A participating task (`in_reduction`, a taskloop's `reduction`, `target in_reduction`)
works on a private copy and folds it, when it ends, into the reduction's *original*
list item. Inside a construct that made its own copy of the item -- a `reduction(task,
...)` construct's implicit tasks, or an enclosing participating task -- the item's
name means that copy, which the task must not fold into (the copy's owner updates it
without atomics, and may end before the task). So each such copy is recorded with a
hidden name bound to the original's address, and a task created where the name means
the copy folds through the hidden name instead. (A task in a called function names
the original itself: nothing to record.)
"""

from __future__ import annotations

from omp2gpu.sema.scopes import Symbol

_COPIES = "task_reduction.copies"       # key in cg.openmp_state: id(copy symbol) -> (copy, hidden name)


def hidden_name(name: str) -> str:
    return f"{name}.task_reduction_original"


def record_copy(cg, name: str, original_address) -> None:
    """`name`, as cg's scope declares it now, is a private copy whose contributions belong
    to the object at `original_address` (or to what that object's own record says)."""
    target = cg.scope.lookup(name)
    cg.scope.declare(Symbol(hidden_name(name), target.ctype, "object", original_address))
    cg.openmp_state.setdefault(_COPIES, {})[id(target)] = (target, hidden_name(name))


def fold_target(cg, name: str) -> str:
    """The name a task created here reaches the original of `name` by."""
    symbol = cg.scope.lookup(name)
    recorded = cg.openmp_state.get(_COPIES, {}).get(id(symbol))
    return recorded[1] if recorded is not None and recorded[0] is symbol else name
