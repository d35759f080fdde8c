"""`cancel` and `cancellation point` on the host's threads (OpenMP 4.5 2.14), as GCC
expands them: GOMP_cancel / GOMP_cancellation_point say whether the innermost enclosing
construct of the named kind is cancelled (only with OMP_CANCELLATION=true, the
runtime's cancel-var), and the thread then leaves the construct: a `for` or `sections`
to its end, a `parallel` region or a task to the end of its outlined function.

A parallel region that holds `cancel parallel` or `cancellation point parallel` waits
at cancellable barriers (GOMP_barrier_cancel, GOMP_loop_end_cancel, ...): a thread that
finds the region cancelled there leaves too, rather than wait for threads that left.
"""

from __future__ import annotations

from contextlib import contextmanager

from llvmlite import ir

from omp2gpu.codegen.openmp.host import gomp
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.tree_walks import holds


def holds_cancel(body, kind: str) -> bool:
    """Whether `body` holds a cancel or cancellation point for constructs of `kind`."""
    return holds(body, lambda node: isinstance(node, OmpConstruct) and node.directive.cancel_kind == kind)


@contextmanager
def cancellable(cg, kind: str, exit_block: ir.Block):
    """Code emitted inside names `exit_block` as where a cancelled `kind` construct ends."""
    targets = cg.openmp_state.cancel_targets
    targets.append((kind, exit_block))
    try:
        yield
    finally:
        targets.pop()


def parallel_exit(cg, body) -> None:
    """At the start of a parallel region's outlined function: if the region can be
    cancelled, a block returning from it, for cancels and cancellable barriers."""
    if holds_cancel(body, "parallel"):
        exit_block = cg.new_block("parallel.cancelled")
        ir.IRBuilder(exit_block).ret_void()
        cg.openmp_state.parallel_exit = exit_block
        cg.openmp_state.cancel_targets.append(("parallel", exit_block))


def task_exit(cg) -> None:
    """At the start of a task's outlined function: where `cancel taskgroup` leaves it."""
    exit_block = cg.new_block("task.cancelled")
    ir.IRBuilder(exit_block).ret_void()
    cg.openmp_state.cancel_targets.append(("taskgroup", exit_block))


def barrier(cg, plain: str, cancellable_name: str) -> None:
    """Call the barrier entry point `plain`, or in a cancellable parallel region its
    cancellable twin, leaving the region when that says it is cancelled."""
    exit_block = cg.openmp_state.parallel_exit
    if exit_block is None:
        gomp.call(cg, plain)
        return
    cancelled = gomp.call(cg, cancellable_name)
    go_on = cg.new_block("barrier.passed")
    cg.builder.cbranch(gomp.true(cg, cancelled), exit_block, go_on)
    cg.builder.position_at_end(go_on)


class Cancellation:
    """The ThreadedHostOpenMP hooks for cancel and cancellation point."""

    def emit_cancel(self, cg, construct) -> None:
        kind, exit_block = _target(cg, construct)
        condition = ir.Constant(gomp.BOOL, 1)
        for clause in construct.directive.clauses:
            if clause.name == "if":
                condition = cg.builder.zext(cg.condition(clause.expr), gomp.BOOL)
        _leave_if(cg, gomp.call(cg, "GOMP_cancel", gomp.CANCEL_KINDS[kind], condition), exit_block)

    def emit_cancellation_point(self, cg, construct) -> None:
        kind, exit_block = _target(cg, construct)
        _leave_if(cg, gomp.call(cg, "GOMP_cancellation_point", gomp.CANCEL_KINDS[kind]), exit_block)


def _target(cg, construct) -> tuple[str, ir.Block]:
    kind = construct.directive.cancel_kind
    for target_kind, block in reversed(cg.openmp_state.cancel_targets):
        if target_kind == kind:
            return kind, block
    raise CompileError(f"'#pragma omp {construct.directive.kind} {kind}' is not inside a "
                       f"{'task' if kind == 'taskgroup' else f'{kind!r} construct'} of this function",
                       construct.coord)


def _leave_if(cg, cancelled: ir.Value, exit_block: ir.Block) -> None:
    go_on = cg.new_block("not.cancelled")
    cg.builder.cbranch(gomp.true(cg, cancelled), exit_block, go_on)
    cg.builder.position_at_end(go_on)
