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

import weakref

from omp2gpu.sema.scopes import Symbol

# module emitter -> {id(copy symbol): (copy symbol, hidden name)}: one registry for all of
# a module's functions, since a task's function may ask about a copy of the function it
# was outlined from.
_COPIES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def hidden_name(name: str) -> str:
    return f"{name}.task_reduction_original"


def record_copy(cg, name: str, original_address) -> None:
    """`name`, as cg's scope declares it now, is a private copy whose contributions belong
    to the object at `original_address` (or to what that object's own record says)."""
    copy = cg.scope.lookup(name)
    cg.scope.declare(Symbol(hidden_name(name), copy.ctype, "object", original_address))
    _COPIES.setdefault(cg.module, {})[id(copy)] = (copy, hidden_name(name))


def fold_target(cg, name: str) -> str:
    """The name a task created here reaches the original of `name` by: its hidden name
    when `name` means a recorded copy here, or in a function this one was outlined from
    (a capture of the copy)."""
    copies = _COPIES.get(cg.module, {})
    scope, symbol = cg.scope, cg.scope.lookup(name)
    while symbol is not None:
        recorded = copies.get(id(symbol))
        if recorded is not None and recorded[0] is symbol:
            return recorded[1]
        outermost = scope
        while outermost.parent is not None:
            outermost = outermost.parent
        if not outermost.captures_enclosing or outermost.names.get(name) is not symbol:
            break
        symbol = next((c.symbol for c in outermost.block.captures if c.symbol.name == name), None)
        scope = outermost.enclosing
    return name
