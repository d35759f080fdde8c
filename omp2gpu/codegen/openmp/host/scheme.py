"""The host scheme: OpenMP on the initial device, one team of one thread.

Every construct runs its body in place, sequentially, which OpenMP 4.5 allows
(a team may have one thread; a league one team). What must still be right is
data sharing (private copies, firstprivate scalars of target regions,
reductions, lastprivate), the nesting level the omp_* API reports, and the
standalone directives becoming no-ops on shared host memory. Explicit tasks
run at once, undeferred, in their own data environment (tasks.py). With one
thread a threadprivate variable is the original, so `threadprivate`, `copyin`
and `copyprivate` have nothing to do.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import ClassVar

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.openmp.data import region_allocators, task_depend
from omp2gpu.codegen.openmp.data.data_sharing import (
    DataEnvironment,
    clauses_named,
    iteration_variable,
    loop_nest,
)
from omp2gpu.codegen.openmp.data.defaultmap import with_defaultmap
from omp2gpu.codegen.openmp.hooks import OpenMPRuntime
from omp2gpu.codegen.openmp.host import serial_tasks as tasks
from omp2gpu.codegen.openmp.loops import canonical_loop
from omp2gpu.codegen.openmp.runtime_entries import CpuDeviceRuntime, RuntimeFunction
from omp2gpu.codegen.openmp.utility_constructs import emit_error_directive, flush_ordering, runs_masked
from omp2gpu.sema.captures import free_identifiers

# Leaf constructs that make a loop construct of a directive.
LOOP_CONSTRUCTS = ("for", "distribute", "simd", "taskloop")


class HostOpenMP(OpenMPRuntime):
    """OpenMPRuntime for the initial device."""

    # ----------------------------------------------------------------- runtime calls
    # leaf -> the runtime's (begin, end) around a teams or parallel region run in place, for
    # omp_get_level & co.: the CPU device's (runtime/cpu_device/omp_device.c; a team of one
    # there changes no level, so teams has none); a GPU kernel's are its own (kernels.py).
    nesting_calls: ClassVar[dict[str, tuple[RuntimeFunction, RuntimeFunction]]] = {
        "parallel": (CpuDeviceRuntime.host_parallel_begin, CpuDeviceRuntime.host_parallel_end),
    }

    @contextmanager
    def _nesting(self, cg, directive, values):
        """Tell the runtime about teams and parallel regions, for omp_get_level & co.
        (`values`: the clause expressions' values, by clause name.)"""
        entered = [self.nesting_calls[leaf] for leaf in ("teams", "parallel")
                   if directive.has(leaf) and leaf in self.nesting_calls]
        for begin, _ in entered:
            begin.call(cg.builder)
        yield
        if not cg.builder.block.is_terminated:
            for _, end in reversed(entered):
                end.call(cg.builder)

    # ----------------------------------------------------------------- compute constructs
    def emit_construct(self, cg, construct) -> None:
        construct = self.defaultmap_applied(cg, construct)
        with region_allocators.made_on_host(cg, construct.directive):     # uses_allocators(a(traits))
            super().emit_construct(cg, construct)

    def defaultmap_applied(self, cg, construct):
        """A target construct with its defaultmap clauses made explicit (defaultmap.py)."""
        return with_defaultmap(cg, construct, self.device_copies())

    def device_copies(self) -> frozenset:
        """Globals the device has its own copies of (declare target: OffloadHostOpenMP)."""
        return frozenset()

    def emit_compute_construct(self, cg, construct) -> None:
        directive = construct.directive
        loop_variables = []
        if any(directive.has(leaf) for leaf in LOOP_CONSTRUCTS):
            depth = max([c.count for c in clauses_named(directive, "collapse")] or [1])
            loops = loop_nest(construct.body, depth)
            for loop in loops:                  # run as written, but only if OpenMP allows it
                canonical_loop.analyze(loop)
            # One a linear clause names is the loop's to copy out (Linear): not private here.
            linear = {item.name for clause in clauses_named(directive, "linear") for item in clause.items}
            if directive.has("simd"):           # its innermost loop vectorised, as the program asks
                cg.simd_loops.add(id(loops[-1]))
            loop_variables = [name for name in map(iteration_variable, loops) if name and name not in linear]
        implicit = self.target_firstprivate(cg, construct) if directive.has("target") else []
        if directive.has("taskloop"):       # a task-generating construct: tasks.py's rules
            tasks.refuse_task_reductions(construct)
            implicit += [name for name in tasks.implicit_firstprivate(cg, construct) if name not in loop_variables]
        values = self._evaluate_clause_expressions(cg, directive)
        with self._nesting(cg, directive, values), tasks.team_region(cg, directive, implicit), \
                DataEnvironment(cg, directive, implicit, loop_variables):
            cg.stmt(construct.body)

    @staticmethod
    def _evaluate_clause_expressions(cg, directive) -> dict:
        """if/num_threads/num_teams/thread_limit/device are evaluated on entry, as OpenMP
        says, though one thread runs the region whatever they are: their side effects
        happen and their errors are reported. Returns the values, by clause name."""
        values = {}
        for clause in directive.clauses:
            if clause.name == "if":
                values[clause.name] = cg.condition(clause.expr)
            elif clause.name in ("num_threads", "num_teams", "thread_limit", "device"):
                if getattr(clause, "lower", None) is not None:      # num_teams(lower: upper)
                    cg.expr(clause.lower)
                values[clause.name] = cg.expr(clause.expr)
        return values

    def target_firstprivate(self, cg, construct) -> list[str]:
        """Scalars a target region uses without a map clause are firstprivate (OpenMP 4.5 2.15.1.1)."""
        directive = construct.directive
        # The pointer of a mapped section `p[lo:len]` is the region's own copy too (as
        # Clang and GCC pass it): moving it inside the region leaves the host's p alone.
        explicit = {item.name for clause_name in ("map", "is_device_ptr", "has_device_addr", "private",
                                                  "firstprivate", "lastprivate", "reduction", "shared", "linear")
                    for clause in clauses_named(directive, clause_name) for item in clause.items
                    if not (clause_name == "map" and item.sections and isinstance(item.expr, c_ast.ID))}
        names = []
        for name in free_identifiers(construct.body):
            symbol = cg.scope.lookup(name)
            if (symbol is not None and symbol.kind == "object"
                    and (symbol.ctype.is_scalar or symbol.ctype.is_complex)
                    and name not in explicit and self._firstprivate_in_target(name, symbol)):
                names.append(name)
        return names

    def _firstprivate_in_target(self, name: str, symbol) -> bool:
        """Whether an unmapped scalar is the target region's own copy: an automatic one.
        A file-scope or static one is too (OffloadHostOpenMP), unless it is `declare
        target`, which this class does not track; in a kernel (DeviceOpenMP) such a name
        is the device's own copy, the captures being the region's copies of the others."""
        return symbol.storage == "auto"

    # ----------------------------------------------------------------- synchronisation & data
    def _emit_body(self, cg, construct) -> None:
        with DataEnvironment(cg, construct.directive):     # single private(x), sections ...
            cg.stmt(construct.body)

    emit_master = emit_critical = emit_single = emit_atomic = _emit_body

    def emit_ordered(self, cg, construct) -> None:
        if construct.body is None:      # ordered depend(...): one thread runs the loop in
            return                      # iteration order, every sink before its source
        self._emit_body(cg, construct)
    emit_section = emit_sections = emit_taskgroup = _emit_body

    def emit_task(self, cg, construct) -> None:
        """Run at once, as an undeferred task, in its data environment (tasks.py)."""
        tasks.emit_task(cg, construct)

    def emit_target_data(self, cg, construct) -> None:
        # Host memory is the device memory: use_device_ptr names the same pointer.
        cg.stmt(construct.body)

    def _no_op(self, cg, construct) -> None:
        """Stand-alone directives with nothing to do on the initial device."""

    # threadprivate: one thread's copy is the original variable.
    emit_barrier = emit_taskwait = emit_taskyield = emit_threadprivate = _no_op
    emit_target_update = emit_target_enter_data = emit_target_exit_data = _no_op

    def emit_depobj(self, cg, construct) -> None:
        task_depend.emit_depobj(cg, construct.directive)

    def emit_flush(self, cg, construct) -> None:
        cg.builder.fence(flush_ordering(construct.directive))

    # ----------------------------------------------------------------- OpenMP 5.0/5.1
    def emit_masked(self, cg, construct) -> None:
        """One thread, numbered 0: it runs the block if the filter names it."""
        with cg.builder.if_then(runs_masked(cg, construct.directive, ir.Constant(ir.IntType(32), 0))):
            self._emit_body(cg, construct)

    # scope: one thread is the whole team (no barrier); its clauses in a data environment.
    emit_scope = _emit_body

    def emit_error(self, cg, construct) -> None:
        emit_error_directive(cg, construct)
