"""`linear(x[:step])` on a loop construct, for every scheme that shares a loop's
iterations among threads (the host's worksharing loops, the GPU's control loop and
combined construct): each thread's own x, which logical iteration k starts as
x0 + k * step (x0: x's value before the loop; a pointer steps in elements); the thread
that ran the sequentially last iteration copies its x out, as after the sequential
loop. The loop sets its own iteration variables: for one of them the clause asks only
for the value after the last iteration, which lastprivate copies out (`other_clauses`).

The schemes differ only in where x0 is read from (`snapshots`: a copy the team made
before the loop, where other teams may copy out meanwhile), where each thread's x lives
(`declare_copies`' slot maker) and whether x0 and the step must survive the GPU control
loop's state transitions (`persist`: stack slots rather than SSA values)."""

from __future__ import annotations

from dataclasses import is_dataclass, replace
from types import SimpleNamespace

from llvmlite import ir

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I64
from omp2gpu.codegen.openmp.data.data_sharing import clauses_named
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.clause_types import LastprivateClause
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.scopes import Symbol


def linear_items(directive, iteration_variables=()) -> list:
    """(item, step expression or None) of the linear clauses, iteration variables left out."""
    return [(item, clause.step) for clause in clauses_named(directive, "linear") for item in clause.items
            if item.name not in iteration_variables]


def as_lastprivate(directive, iteration_variables):
    """The directive without its linear clauses; a linear iteration variable becomes
    lastprivate (its value after the loop is all the clause asks for)."""
    counters = [item for clause in clauses_named(directive, "linear") for item in clause.items
                if item.name in iteration_variables]
    others = [c for c in directive.clauses if c.name != "linear"]
    if counters:
        others.append(LastprivateClause(coord=getattr(directive, "coord", None), items=counters))
    if is_dataclass(directive):
        return replace(directive, clauses=others)
    return SimpleNamespace(**{**vars(directive), "clauses": others})      # clauses merged from several


class Linear:
    """One loop construct's linear items (see the module's docstring)."""

    def __init__(self, cg, directive, iteration_variables=(), snapshots=None, persist=False):
        self.cg = cg
        self.items = linear_items(directive, iteration_variables)
        self.other_clauses = as_lastprivate(directive, iteration_variables)
        self.originals, self.starts, self.steps, self.copies = [], [], [], []
        self._persist = persist
        b = cg.builder
        for item, step in self.items:
            original = cg.lookup_symbol(item)
            if not (original.ctype.is_integer or original.ctype.is_pointer):
                raise CompileError(f"linear variable '{item.name}' must have integer or pointer type", item.coord)
            self.originals.append(original)
            source = (snapshots or {}).get(item.name, original.address)
            value = cg.expr(step) if step is not None else None
            start = b.load(source)
            step = ir.Constant(I64, 1) if value is None else convert(b, value.value, value.ctype, ct.LONG)
            self.starts.append(self._kept(start, f"{item.name}.linear.start"))
            self.steps.append(self._kept(step, f"{item.name}.linear.step"))

    def _kept(self, value: ir.Value, name: str) -> ir.Value:
        if not self._persist:
            return value
        slot = self.cg.alloca_ir(value.type, name)
        self.cg.builder.store(value, slot)
        return slot

    def _value(self, kept: ir.Value) -> ir.Value:
        return self.cg.builder.load(kept) if self._persist else kept

    def declare_copies(self, slot_for=None) -> None:
        """Each thread's x; `slot_for(name, ctype)`: where it lives (default: a stack slot)."""
        cg = self.cg
        for (item, _), original in zip(self.items, self.originals):
            slot = slot_for(item.name, original.ctype) if slot_for else cg.alloca(original.ctype, f"{item.name}.linear")
            cg.scope.declare(Symbol(item.name, original.ctype, "object", slot))
            self.copies.append(slot)

    def set_for(self, iteration: ir.Value) -> None:
        """x = x0 + iteration * step, for logical iteration `iteration` of the loop."""
        b = self.cg.builder
        if self.items and iteration.type.width < 64:
            iteration = b.sext(iteration, I64)
        for original, start, step, slot in zip(self.originals, self.starts, self.steps, self.copies):
            start = self._value(start)
            offset = b.mul(iteration, self._value(step))
            if original.ctype.is_pointer:
                value = b.gep(start, [offset])
            else:
                value = b.add(start, b.trunc(offset, start.type) if start.type.width < 64 else offset)
            b.store(value, slot)

    def copy_out(self, ran_last: ir.Value, before=None) -> None:
        """The thread that ran the last iteration stores its x into the original;
        `before()` is emitted first in that thread (the GPU's wait for the other teams)."""
        if not self.items:
            return
        b = self.cg.builder
        with b.if_then(ran_last):
            if before is not None:
                before()
            for original, slot in zip(self.originals, self.copies):
                b.store(b.load(slot), original.address)
