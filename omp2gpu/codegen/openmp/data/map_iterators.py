"""OpenMP 5.1 `iterator(...)` modifiers of map and motion clauses.

    map(iterator(i = 0:n), to: a[i])            target, target data, enter/exit data
    target update to(iterator(i = 0:n): s.p[i])

A map clause's items over the iterator space are mapped as ONE section: the smallest
one holding every item (computed at run time, each iteration's section evaluated with
the iterator a local). One allocation, so the region indexes from one base across the
items, and exit data / the end of the region release exactly what entry mapped. The
difference from mapping each item alone: where the items leave gaps (a stride), the
gaps are copied too (`to` gives the device the host's values there; `from` brings back
the device's copy, which holds the host's values unless the region wrote outside its
items). The list item's variable must not depend on the iterator (`p[i][0:m]` through
the pointers p[i] is refused by name).

`target update` moves each item alone: one launcher call per iteration
(offload_host.emit_target_update), so nothing between the items is copied.
"""

from __future__ import annotations

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.ir_types import I8P, I64
from omp2gpu.codegen.openmp.data.task_depend import for_each_iteration
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.tree_walks import names_used
from omp2gpu.sema import ctypes as ct


def check_item(item, iterators, clause: str) -> None:
    """The item's variable (all but its sections) does not use an iterator."""
    names = {iterator.name for iterator in iterators}
    if isinstance(item.expr, c_ast.StructRef) and clause == "map":
        raise CompileError(f"an 'iterator' modifier on the struct member '{item.spelling}' in a map clause "
                           "is not supported (map a section of the whole variable)", item.coord)
    used = _names(item.expr) & names
    if used:
        raise CompileError(f"'{item.spelling}': the iterator '{sorted(used)[0]}' is used outside the array "
                           f"sections of the list item, which is not supported in '{clause}' clauses",
                           item.coord)
    if not item.sections and clause == "map":
        raise CompileError(f"'{item.spelling}': an 'iterator' modifier needs the list item to use it in an "
                           "array section", item.coord)


def _names(node) -> set[str]:
    return names_used(node)


def iterated_extent(cg, iterators, extent) -> tuple[ir.Value, ir.Value]:
    """(begin, size) of the smallest section holding extent()'s (begin, size) for every
    value of the iterators; (null, 0) for an empty iteration space."""
    b = cg.builder
    low, high = cg.alloca(ct.LONG, "iterator.low"), cg.alloca(ct.LONG, "iterator.high")
    b.store(ir.Constant(I64, -1), low)          # all ones: above any address
    b.store(ir.Constant(I64, 0), high)

    def widen():
        begin, size = extent()
        start = b.ptrtoint(begin, I64)
        end = b.add(start, size)
        b.store(b.select(b.icmp_unsigned("<", start, b.load(low)), start, b.load(low)), low)
        b.store(b.select(b.icmp_unsigned(">", end, b.load(high)), end, b.load(high)), high)

    for_each_iteration(cg, iterators, widen)
    first, last = b.load(low), b.load(high)
    empty = b.icmp_unsigned(">", first, last)
    size = b.select(empty, ir.Constant(I64, 0), b.sub(last, first))
    begin = b.select(empty, ir.Constant(I64, 0), first)
    return b.inttoptr(begin, I8P), size

