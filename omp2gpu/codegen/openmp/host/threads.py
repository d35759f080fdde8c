"""The host scheme with real threads: OpenMP on the initial device through a production
OpenMP runtime's GOMP entry points (gomp.py; targets/openmp_runtime.py loads libgomp
or libiomp5), as GCC compiles it.

- `parallel`: the body is outlined (outline.py) and GOMP_parallel runs it on a team;
  `num_threads`, `if` and `proc_bind` become its arguments. Around a parallel
  construct, `target` / `teams` / `distribute` leaves of a combined directive run as
  the one-thread HostOpenMP runs them (a league of one team), the parallel region
  inside them with threads.
- worksharing, synchronisation and tasks: host_worksharing.py, host_tasks.py.
HostOpenMP (host.py), one thread for everything, stays the base of the device
schemes, whose host-like code (a serial kernel, a CPU work-item) runs in one thread.
"""

from __future__ import annotations

from contextlib import contextmanager

from llvmlite import ir

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I32
from omp2gpu.codegen.openmp.atomics.constructs import emit_atomic
from omp2gpu.codegen.openmp.data.data_sharing import DataEnvironment, clauses_named
from omp2gpu.codegen.openmp.host import gomp
from omp2gpu.codegen.openmp.host import tasks as host_tasks
from omp2gpu.codegen.openmp.host import worksharing as host_worksharing
from omp2gpu.codegen.openmp.host.cancel import Cancellation, parallel_exit
from omp2gpu.codegen.openmp.host.scheme import HostOpenMP
from omp2gpu.codegen.openmp.host.teams import (
    TEAM_SHARERS,
    emit_host_teams,
    emit_league_distribute_parallel_for,
    is_host_league,
    league_loop,
    split_target,
    split_teams,
)
from omp2gpu.codegen.openmp.host.threadprivate import (
    copy_in,
    declare_copyin_sources,
    mark_threadprivate,
    thread_copy,
)
from omp2gpu.codegen.openmp.integer_clauses import integer_operand
from omp2gpu.codegen.openmp.outline import outline, read_only_scalars
from omp2gpu.codegen.openmp.plan.leaf_clauses import split_at_parallel
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.sema import ctypes as ct


class ThreadedHostOpenMP(host_worksharing.Worksharing, host_tasks.Tasks, Cancellation, HostOpenMP):
    """OpenMPRuntime for the initial device, on the OpenMP runtime's threads."""

    def emit_compute_construct(self, cg, construct) -> None:
        directive = construct.directive
        if directive.has("target"):         # what it holds runs on the host as a target region's code
            cg.openmp_state.targets_entered += 1
            try:
                if directive.constructs[1:2] == ("teams",) and clauses_named(directive, "num_teams"):
                    self._target_league(cg, construct)
                else:
                    self._emit_compute_construct(cg, construct)
            finally:
                cg.openmp_state.targets_entered -= 1
        elif directive.constructs[0] == "teams" and is_host_league(cg, construct):
            emit_host_teams(cg, construct, self._teams_body)
        else:
            self._emit_compute_construct(cg, construct)

    def _target_league(self, cg, construct) -> None:
        """`target teams ... num_teams(...)` run on the host: the target leaf's data
        environment (its implicit firstprivate scalars as the whole directive decides
        them) around a league of the teams (host_teams.py)."""
        target, league = split_target(construct.directive)
        implicit = self.target_firstprivate(cg, construct)
        self._evaluate_clause_expressions(cg, target)
        with DataEnvironment(cg, target, implicit):
            emit_host_teams(cg, OmpConstruct(league, construct.body, construct.coord), self._teams_body)

    def _teams_body(self, cg, construct) -> None:
        """One team's initial thread: the block (or the distribute loop of `teams
        distribute`) in the team's data environment."""
        teams, loop = split_teams(construct.directive)
        cg.openmp_state.in_league = True
        fold = host_worksharing.fold_atomically(cg)
        with cg.block_scope(), DataEnvironment(cg, teams, combine_reduction=fold):
            if loop is None:
                cg.stmt(construct.body)
            else:
                self.emit_construct(cg, OmpConstruct(loop, construct.body, construct.coord))

    def emit_distribute(self, cg, construct) -> None:
        """In a host league, the teams share the loop (host_teams.py); elsewhere (a target
        region run on the host) one team runs it all."""
        if cg.openmp_state.in_league:
            self.emit_for(cg, OmpConstruct(league_loop(construct.directive), construct.body, construct.coord),
                          nowait=True, sharers=TEAM_SHARERS)
        else:
            self.emit_compute_construct(cg, construct)

    emit_distribute_simd = emit_distribute

    def emit_distribute_parallel_for(self, cg, construct) -> None:
        if cg.openmp_state.in_league:
            emit_league_distribute_parallel_for(cg, construct, self.emit_parallel_region)
        else:
            self.emit_compute_construct(cg, construct)

    emit_distribute_parallel_for_simd = emit_distribute_parallel_for

    def _emit_compute_construct(self, cg, construct) -> None:
        directive = construct.directive
        if not directive.has("parallel"):
            super().emit_compute_construct(cg, construct)
            return
        split = split_at_parallel(directive)
        region = OmpConstruct(split.parallel, construct.body, construct.coord)
        if split.worksharing is not None:
            region = OmpConstruct(split.parallel, OmpConstruct(split.worksharing, construct.body, construct.coord),
                                  construct.coord)
        if split.outer is not None:      # target / teams around it: a league of one team
            super().emit_compute_construct(cg, OmpConstruct(split.outer, region, construct.coord))
        else:
            self.emit_parallel_region(cg, region)

    def emit_parallel_region(self, cg, construct) -> None:
        directive = construct.directive
        threads = self._team_size(cg, directive)
        flags = next((gomp.PROC_BIND.get(c.kind, 0) for c in clauses_named(directive, "proc_bind")), 0)
        name = f"{cg.function.name}._omp_fn"
        declare_copyin_sources(cg, directive)
        outlined = outline(cg, name, lambda inner: self._parallel_body(inner, construct),
                           copied=read_only_scalars(cg, construct))
        data = outlined.fill(cg)
        gomp.call(cg, "GOMP_parallel", outlined.function, data, threads, flags)

    @staticmethod
    def _team_size(cg, directive) -> ir.Value:
        """num_threads, or 0 (the runtime's nthreads-var); 1 when an if clause is false."""
        threads = ir.Constant(I32, 0)
        for clause in clauses_named(directive, "num_threads"):
            threads = integer_operand(cg, clause)
        for clause in clauses_named(directive, "if"):
            threads = cg.builder.select(cg.condition(clause.expr), threads, ir.Constant(I32, 1))
        return threads

    def _parallel_body(self, cg, construct) -> None:
        """One thread's implicit task: copyin, then the region in its data environment."""
        directive = construct.directive
        parallel_exit(cg, construct.body)
        copy_in(cg, directive)
        with cg.block_scope(), DataEnvironment(cg, directive, combine_reduction=host_worksharing.fold_atomically(cg)):
            cg.stmt(construct.body)

    def emit_atomic(self, cg, construct) -> None:
        emit_atomic(cg, construct)

    @contextmanager
    def _nesting(self, cg, directive, values):
        """The runtime knows its levels itself (HostOpenMP tells its own). A teams
        construct's thread_limit (a target construct's, OpenMP 5.1) is the thread-limit-var
        of its team (omp_get_thread_limit, and the most threads its parallel regions get)
        until the construct ends."""
        limit = values.get("thread_limit") if directive.has("teams") or directive.has("target") else None
        if limit is None:
            yield
            return
        saved = gomp.call(cg, "omp_get_thread_limit")
        gomp.call(cg, "GOMP_teams", ir.Constant(I32, 0), convert(cg.builder, limit.value, limit.ctype, ct.UINT))
        yield
        if not cg.builder.block.is_terminated:
            # INT_MAX is how omp_get_thread_limit says "no limit" (GOMP's UINT_MAX).
            unlimited = cg.builder.icmp_signed("==", saved, ir.Constant(I32, 2**31 - 1))
            gomp.call(cg, "GOMP_teams", ir.Constant(I32, 0),
                      cg.builder.select(unlimited, ir.Constant(I32, -1), saved))

    # ----------------------------------------------------------------- threadprivate
    def emit_file_scope_construct(self, module, node) -> None:
        if node.directive.kind == "threadprivate":
            mark_threadprivate(module.file_scope, node.directive.threadprivate_list)
        else:
            super().emit_file_scope_construct(module, node)

    def emit_threadprivate(self, cg, construct) -> None:
        mark_threadprivate(cg.scope, construct.directive.threadprivate_list)

    def threadprivate_symbol(self, cg, symbol):
        return thread_copy(cg, symbol)
