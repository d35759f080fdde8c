"""A host league's `distribute parallel for` (host_teams.py): each team runs a parallel
region whose worksharing loop shares out only the team's part of the loop nest's logical
iterations, [first, last).

The team's function keeps first and last in two variables of its own scope, under names
no C program can spell; the worksharing directive carries a `LeagueWindow` clause naming
them; the loop, emitted in the parallel region's outlined function, looks the names up,
which captures them as any variable the region uses (outline.py)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from llvmlite import ir

from omp2gpu.frontend.openmp.clause_types import Clause
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.scopes import Symbol

_FIRST, _LAST = ".league.first", ".league.last"


@dataclass(kw_only=True)
class LeagueWindow(Clause):
    """Internal: the loop shares out [first, last) of its logical iterations."""
    name = "league window"


def window_variables(cg, directive):
    """In the team's code: the two window variables (first, last: stack slots, stored by
    the caller before each parallel region), and `directive` (the worksharing loop's)
    marked to read them."""
    slots = []
    for name in (_FIRST, _LAST):
        slot = cg.alloca(ct.ULONG, name)
        cg.scope.declare(Symbol(name, ct.ULONG, "object", slot))
        slots.append(slot)
    return slots, replace(directive, clauses=[*directive.clauses, LeagueWindow(coord=directive.coord)])


def league_window(cg, directive) -> tuple[ir.Value, ir.Value] | None:
    """(first, number of iterations) of the window the loop shares out, or None (all of it)."""
    if not any(isinstance(clause, LeagueWindow) for clause in directive.clauses):
        return None
    first, last = (cg.builder.load(cg.scope.lookup(name).address) for name in (_FIRST, _LAST))
    return first, cg.builder.sub(last, first)
