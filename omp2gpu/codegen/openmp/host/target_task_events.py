"""Target tasks whose GPU work may finish after their body returns (docs/async.md).

A `target ... nowait` region that launches a kernel is a *detached* task (GOMP_task's
detach flag, the mechanism libgomp has for OpenMP 5.0's `detach` clause). Its body
hands the task's completion event to the launcher (`__omp2gpu_target_task_begin`),
launches, and asks whether the launch took the event (`__omp2gpu_target_task_end`):
the GPU's native path takes it when it enqueued the kernel on a stream, and fulfils it
from that stream once the kernel is done. Otherwise the work is already finished and
the body fulfils the event itself. The OpenMP runtime counts the task complete only
when its event is fulfilled, so taskwait, barriers, the end of a taskgroup and the
tasks that depend on it wait for the GPU work, with nothing else in the compiler aware
of it.
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.ir_types import I8P, I32
from omp2gpu.codegen.openmp.data.data_sharing import clauses_named, list_items
from omp2gpu.codegen.openmp.host import gomp
from omp2gpu.codegen.openmp.runtime_entries import OffloadRuntime
from omp2gpu.offload import abi
from omp2gpu.sema.captures import free_identifiers

# libgomp writes the event into the first word of the task's data block before copying it
EVENT_BYTES = 8
# target constructs that move data and launch nothing: the launcher does them synchronously
_DATA_ONLY = ("target enter data", "target exit data", "target update", "target data")


def detaches(directive) -> bool:
    """Whether a target task is detached: deferred (`nowait`) and launching a kernel."""
    return bool(clauses_named(directive, "nowait")) and directive.kind not in _DATA_ONLY


def clause_scalars(cg, directive) -> set[str]:
    """The local scalars a target task's map/to/from clauses name (a section's pointer,
    its bounds): copied as the task is created, as the construct's addresses are fixed
    where it is met, not where its deferred task runs."""
    names = set()
    for clause_name in ("map", "to", "from"):
        for _, item in list_items(directive, clause_name):
            used = {item.name} if item.sections else set()
            for section in item.sections:
                for bound in (section.lower, section.length):
                    if bound is not None:
                        used |= set(free_identifiers(bound))
            for name in used:
                symbol = cg.scope.lookup(name)
                if (symbol is not None and symbol.kind == "object" and symbol.storage == "auto"
                        and symbol.ctype.is_scalar):
                    names.add(name)
    return names


def clear_event(cg, data: ir.Value) -> ir.Value:
    """In the encountering thread: the event slot of a filled data block, zeroed (a
    runtime that writes no event leaves a null one: the task then runs synchronously);
    returns its address, GOMP_task's `detach` argument."""
    slot = cg.builder.bitcast(data, I8P.as_pointer())
    cg.builder.store(ir.Constant(I8P, None), slot)
    return cg.builder.bitcast(slot, I8P)


def emit_detached_body(task_cg, emit_launch, may_run_ahead: bool) -> None:
    """The task's body: the event to the launcher, the launch (`emit_launch()`), and the
    event fulfilled here unless the launch took it. `may_run_ahead`: the task has no
    `depend` clause, so nothing waits for it but taskwait, barriers and taskgroups, and
    where the runtime would run it at once its kernel may run ahead instead
    (runtime/offload/run_ahead.c)."""
    b = task_cg.builder
    event = b.load(b.bitcast(task_cg.function.args[0], I8P.as_pointer()))
    flags = ir.Constant(I32, abi.TASK_MAY_RUN_AHEAD if may_run_ahead else 0)
    OffloadRuntime.target_task_begin.call(b, [event, flags])
    emit_launch()
    if b.block.is_terminated:
        return
    taken = OffloadRuntime.target_task_end.call(b)
    untaken = b.and_(b.icmp_unsigned("==", taken, ir.Constant(I32, 0)),
                     b.icmp_unsigned("!=", event, ir.Constant(I8P, None)))
    with b.if_then(untaken):
        gomp.call(task_cg, "omp_fulfill_event", b.ptrtoint(event, ir.IntType(64)))

