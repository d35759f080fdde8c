"""Explicit tasks on the host's threads, deferred by the OpenMP runtime (OpenMP 4.5
2.9): `task` (if, final, mergeable, untied, priority, depend), `taskloop` (grainsize,
num_tasks, nogroup, collapse, [first|last]private), `taskwait`, `taskgroup`,
`taskyield`, through GOMP_task / GOMP_taskloop as GCC expands them. OpenMP 5.x:
`in_reduction` and taskloop's `reduction` (task_reductions.py), `detach` (the event in
the block's first word), the 5.x dependence types and `taskwait depend [nowait]`
(task_depend.py), strict grainsize (docs/tasks-5x.md).

A task's body is outlined (outline.py); its data block holds the address of each
shared variable and a copy of each firstprivate one, which the runtime copies when it
defers the task. Which variables are which (OpenMP 4.5 2.15.1.1) is decided where the
task is met: the clauses say; otherwise a variable with static storage is shared, and
a local one is shared when the enclosing context shares it among the team's implicit
tasks (it reaches this function as a parallel region's shared capture, or a host
`teams` region of this function began where it is visible: tasks.py's rule), else it
is firstprivate.
"""

from __future__ import annotations

import copy
from dataclasses import replace

from llvmlite import ir

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I8P, I32, I64
from omp2gpu.codegen.openmp.data import allocate_storage, task_depend
from omp2gpu.codegen.openmp.data.data_sharing import DataEnvironment, clauses_named, list_items, loop_nest
from omp2gpu.codegen.openmp.host import gomp, target_task_events, task_reductions
from omp2gpu.codegen.openmp.host import serial_tasks as tasks
from omp2gpu.codegen.openmp.host.cancel import task_exit
from omp2gpu.codegen.openmp.host.loops import counted_loop
from omp2gpu.codegen.openmp.loops import canonical_loop
from omp2gpu.codegen.openmp.loops.canonical_loop import AffineBounds
from omp2gpu.codegen.openmp.outline import OutlinedScope, is_local_object, outline
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.captures import free_identifiers
from omp2gpu.sema.scopes import Symbol

TASKLOOP_BOUNDS = 16        # GOMP_taskloop writes each task's [start, end) first in its block
_TASKLOOP_REDUCTIONS = ("reduction", "in_reduction")      # each task of the taskloop participates


class Tasks:
    """The ThreadedHostOpenMP hooks for tasking constructs."""

    def emit_task(self, cg, construct) -> None:
        directive = construct.directive
        tasks.check_clause_items(cg, directive)
        copied, team_shared = _data_sharing(cg, construct)
        b = cg.builder
        flags = _flag(cg, directive, "untied", gomp.TASK_UNTIED) + _flag(cg, directive, "mergeable",
                                                                       gomp.TASK_MERGEABLE)
        flags = ir.Constant(I32, flags)
        for clause in clauses_named(directive, "final"):
            flags = b.or_(flags, b.select(cg.condition(clause.expr), ir.Constant(I32, gomp.TASK_FINAL),
                                          ir.Constant(I32, 0)))
        deferrable = ir.Constant(ir.IntType(8), 1)
        for clause in clauses_named(directive, "if"):
            deferrable = b.zext(cg.condition(clause.expr), ir.IntType(8))
        priority = ir.Constant(I32, 0)
        for clause in clauses_named(directive, "priority"):
            value = cg.expr(clause.expr)
            tasks.check_priority(clause, value)
            priority = convert(b, value.value, value.ctype, ct.INT)
            flags = b.or_(flags, ir.Constant(I32, gomp.TASK_PRIORITY))
        depend = _depend_array(cg, directive)
        if depend.pointer is not None:
            flags = b.or_(flags, ir.Constant(I32, gomp.TASK_DEPEND))
        if depend.all_memory:
            deferrable = ir.Constant(ir.IntType(8), 0)
        event = _event_handle(cg, directive)
        if event is not None:
            flags = b.or_(flags, ir.Constant(I32, gomp.TASK_DETACH))
        body_directive = task_reductions.without(directive, ("firstprivate", "in_reduction"))
        # firstprivate items of an allocate clause: the task's block holds their values,
        # the body copies them into the allocator's storage (allocate_storage.py)
        body_directive.clauses += allocate_storage.allocated_items(directive, "firstprivate")
        participants = task_reductions.fold_targets(cg, directive)

        def body(inner):
            task_exit(inner)
            with inner.block_scope():
                if event is not None:
                    _declare_event(inner, event)
                with task_reductions.participate(inner, participants), \
                        DataEnvironment(inner, body_directive):
                    inner.stmt(construct.body)
        outlined = outline(cg, f"{cg.function.name}._omp_task", body, copied, team_shared=team_shared,
                           reserved=target_task_events.EVENT_BYTES if event is not None else 0)
        data = outlined.fill(cg)
        gomp.call(cg, "GOMP_task", outlined.function, data, ir.Constant(gomp.COPY_FN, None),
                  outlined.block.size, outlined.block.align, deferrable, flags,
                  depend.pointer if depend.pointer is not None else ir.Constant(I8P.as_pointer(), None), priority,
                  b.bitcast(event[1].address, I8P) if event is not None else ir.Constant(I8P, None))
        depend.release(cg)

    def emit_taskloop(self, cg, construct) -> None:
        directive = construct.directive
        depth = max([c.count for c in clauses_named(directive, "collapse")] or [1])
        loops = [canonical_loop.analyze(node) for node in loop_nest(construct.body, depth)]
        b = cg.builder
        with cg.block_scope():
            bounds, iv_type, trips, total = canonical_loop.loop_nest_space(cg, loops)
            total = b.zext(total, I64) if total.type.width < 64 else total
            nest, total_name = _declare_nest(cg, bounds, trips, iv_type, total)
            copied, team_shared = _data_sharing(cg, construct)
            copied |= {total_name} | {n for _, names in nest for n in names if n is not None}
            flags = ir.Constant(I32, gomp.TASKLOOP_UP + _flag(cg, directive, "untied", gomp.TASK_UNTIED)
                                + _flag(cg, directive, "nogroup", gomp.TASKLOOP_NOGROUP))
            for clause in clauses_named(directive, "final"):
                flags = b.or_(flags, b.select(cg.condition(clause.expr), ir.Constant(I32, gomp.TASK_FINAL),
                                              ir.Constant(I32, 0)))
            flags = b.or_(flags, ir.Constant(I32, gomp.TASKLOOP_IF))
            for clause in clauses_named(directive, "if"):
                flags = b.select(cg.condition(clause.expr), flags,
                                 b.and_(flags, ir.Constant(I32, ~gomp.TASKLOOP_IF & 0xFFFFFFFF)))
            count = ir.Constant(I64, 0)
            for clause in clauses_named(directive, "grainsize"):
                count = _int(cg, clause.expr, ct.ULONG)
                strict = gomp.TASKLOOP_STRICT if clause.strict else 0     # 5.1: every task grainsize iterations
                flags = b.or_(flags, ir.Constant(I32, gomp.TASKLOOP_GRAINSIZE | strict))
            for clause in clauses_named(directive, "num_tasks"):
                count = _int(cg, clause.expr, ct.ULONG)
            priority = ir.Constant(I32, 0)
            for clause in clauses_named(directive, "priority"):
                priority = _int(cg, clause.expr, ct.INT)
            body_directive = task_reductions.without(directive, ("firstprivate",) + _TASKLOOP_REDUCTIONS)
            participants = task_reductions.fold_targets(cg, directive, _TASKLOOP_REDUCTIONS)

            def body(inner):
                task_exit(inner)
                with task_reductions.participate(inner, participants):
                    _taskloop_body(inner, body_directive, loops, nest, total_name, iv_type)
            outlined = outline(cg, f"{cg.function.name}._omp_taskloop", body, copied, reserved=TASKLOOP_BOUNDS,
                               team_shared=team_shared)
            data = outlined.fill(cg)
            gomp.call(cg, "GOMP_taskloop_ull", outlined.function, data, ir.Constant(gomp.COPY_FN, None),
                      outlined.block.size, outlined.block.align, flags, count, priority,
                      ir.Constant(I64, 0), total, ir.Constant(I64, 1))

    emit_taskloop_simd = emit_taskloop

    def emit_target_task(self, cg, construct, emit) -> None:
        """A target construct with `nowait` or `depend` is a target task (OpenMP 4.5
        2.15.5): `emit(cg, construct)` (the construct without those clauses) becomes the
        body of a task, deferred with `nowait`, ordered by `depend` either way. Its
        firstprivate scalars are copied as the task is created; the rest it shares. A
        deferred one that launches a kernel is detached (target_task_events.py)."""
        directive = construct.directive
        names = {c.name for c in directive.clauses}
        inner = OmpConstruct(replace(directive, clauses=[c for c in directive.clauses
                                                        if c.name not in ("nowait", "depend")],
                                     in_target_task_running_ahead="nowait" in names and "depend" not in names),
                             construct.body, construct.coord)
        copied = {item.name for _, item in list_items(directive, "firstprivate")}
        # is_device_ptr's pointers are the values they have where the task is made (a loop
        # may have moved one on before a deferred task runs)
        copied |= {item.name for _, item in list_items(directive, "is_device_ptr")}
        if construct.body is not None:
            copied |= set(self.target_firstprivate(cg, construct))
        copied |= target_task_events.clause_scalars(cg, directive)
        depend = _depend_array(cg, directive)
        flags = gomp.TASK_DEPEND if depend.pointer is not None else 0
        deferred = 1 if clauses_named(directive, "nowait") and not depend.all_memory else 0
        if target_task_events.detaches(directive):     # its GPU work may outlive the body
            outlined = outline(cg, f"{cg.function.name}._omp_target_task",
                               lambda task: target_task_events.emit_detached_body(
                                   task, lambda: emit(task, inner), may_run_ahead=depend.pointer is None),
                               copied, reserved=target_task_events.EVENT_BYTES, team_shared=frozenset())
            data = outlined.fill(cg)
            detach = target_task_events.clear_event(cg, data)
            flags |= gomp.TASK_DETACH
        else:
            outlined = outline(cg, f"{cg.function.name}._omp_target_task", lambda task: emit(task, inner), copied,
                               team_shared=frozenset())
            data, detach = outlined.fill(cg), ir.Constant(I8P, None)
        gomp.call(cg, "GOMP_task", outlined.function, data, ir.Constant(gomp.COPY_FN, None),
                  outlined.block.size, outlined.block.align, deferred, flags,
                  depend.pointer if depend.pointer is not None else ir.Constant(I8P.as_pointer(), None), 0, detach)
        depend.release(cg)

    def emit_taskwait(self, cg, construct) -> None:
        """taskwait; with depend (5.0) only for the sibling tasks it names; with depend and
        nowait (5.1) a task with those dependences and nothing to do."""
        directive = construct.directive
        tasks.check_clause_items(cg, directive)
        depend = _depend_array(cg, directive)
        if depend.all_memory or depend.pointer is None:
            gomp.call(cg, "GOMP_taskwait")
        elif clauses_named(directive, "nowait"):
            gomp.call(cg, "GOMP_task", _empty_task(cg), ir.Constant(I8P, None), ir.Constant(gomp.COPY_FN, None),
                      0, 1, 1, gomp.TASK_DEPEND, depend.pointer, 0, ir.Constant(I8P, None))
        else:
            gomp.call(cg, "GOMP_taskwait_depend", depend.pointer)
        depend.release(cg)

    def emit_depobj(self, cg, construct) -> None:
        task_depend.emit_depobj(cg, construct.directive)

    def emit_taskyield(self, cg, construct) -> None:
        gomp.call(cg, "GOMP_taskyield")

    def emit_taskgroup(self, cg, construct) -> None:
        task_reductions.check_defining_items(cg, construct.directive)     # task_reductions.py: nothing more
        gomp.call(cg, "GOMP_taskgroup_start")
        cg.stmt(construct.body)
        if not cg.builder.block.is_terminated:
            gomp.call(cg, "GOMP_taskgroup_end")


def _taskloop_body(cg, directive, loops, nest, total_name, iv_type) -> None:
    """One task of a taskloop: the logical iterations [start, end) the runtime wrote at
    the start of the data block; the nest's bounds come by copy (_declare_nest)."""
    b = cg.builder
    written = b.bitcast(cg.function.args[0], I64.as_pointer())
    first = b.load(written)
    last = b.load(b.gep(written, [ir.Constant(I64, 1)]))
    total = b.load(cg.scope.lookup(total_name).address)
    with cg.block_scope():
        bounds, trips = [], []
        for x, (lower, step, trip, upper) in nest:
            copy_of = copy.copy(x)      # every value of this function, none of the encountering one's
            copy_of.lower = b.load(cg.scope.lookup(lower).address)
            copy_of.step = b.load(cg.scope.lookup(step).address)
            if upper is not None:       # the dependent loop of a non-rectangular nest
                copy_of.upper = b.load(cg.scope.lookup(upper).address)
                copy_of.outer = bounds[x.dependence.outer]
            trips.append(b.load(cg.scope.lookup(trip).address))
            copy_of.trip_count = convert(b, trips[-1], iv_type, x.iv_type)     # lastprivate(i)'s final value
            bounds.append(copy_of)
        environment = DataEnvironment(cg, directive,
                                      lastprivate_condition=lambda: cg.builder.icmp_unsigned("==", last, total))
        with environment:
            variables = canonical_loop.declare_loop_variables(cg, loops, bounds, environment)
            _counted_loop(cg, loops[-1].body, bounds, trips, iv_type, variables, first, last)


def _declare_nest(cg, bounds, trips, iv_type, total) -> tuple[list, str]:
    """Each loop's lower bound, step, trip count and (the dependent loop of a
    non-rectangular nest's only, else None) upper bound, and the total, as hidden locals
    of the encountering function (names C cannot spell) that the tasks capture by copy."""
    def hidden(name, value, ctype):
        slot = cg.alloca(ctype, name)
        cg.builder.store(value, slot)
        cg.scope.declare(Symbol(name, ctype, "object", slot))
        return name
    nest = [(x, (hidden(f"taskloop.{i}.lower", x.lower, x.iv_type), hidden(f"taskloop.{i}.step", x.step, x.iv_type),
                 hidden(f"taskloop.{i}.trip", trip, iv_type),
                 hidden(f"taskloop.{i}.upper", x.upper, x.iv_type) if isinstance(x, AffineBounds) else None))
            for i, (x, trip) in enumerate(zip(bounds, trips))]
    return nest, hidden("taskloop.total", total, ct.ULONG)


def _counted_loop(cg, body, bounds, trips, iv_type, variables, first, last) -> None:
    counted_loop(cg, body, (bounds, trips, iv_type, variables), first, last, iv_type)


def _data_sharing(cg, construct) -> tuple[set[str], set[str]]:
    """(the names the task gets by copy, the names the team shares): the copies are its
    firstprivate clause's and the local variables it uses that the enclosing context does
    not share among the team (module docstring); the team-shared ones stay team-shared for
    tasks the task creates."""
    directive = construct.directive
    listed = {item.name for name in ("private", "firstprivate", "shared", "lastprivate", "reduction", "in_reduction")
              for _, item in list_items(directive, name)}
    listed |= {clause.expr.name for clause in clauses_named(directive, "detach")}
    bounds = task_reductions.section_bound_names(directive, ("reduction", "in_reduction"))
    default = next((clause.kind for clause in clauses_named(directive, "default")), None)
    copied = {item.name for _, item in list_items(directive, "firstprivate")}
    copied |= {name for name in bounds if is_local_object(cg.scope.lookup(name))}
    team_shared = set()
    for name in free_identifiers(construct.body) + [item.name for _, item in list_items(directive, "shared")]:
        symbol = cg.scope.lookup(name)
        if not is_local_object(symbol):
            continue
        if _shared_by_team(cg, name, symbol):
            team_shared.add(name)
        if name in listed:
            continue
        if default == "none":
            raise CompileError(f"'{name}' must be listed in a data-sharing clause of "
                               f"'#pragma omp {directive.kind}' (it has 'default(none)')",
                               tasks.first_use(construct.body, name) or directive.coord)
        if default == "shared" or name in team_shared:
            continue
        copied.add(name)
    return copied, team_shared


def _shared_by_team(cg, name: str, symbol) -> bool:
    scope = cg.scope
    while scope.parent is not None:
        scope = scope.parent
    if isinstance(scope, OutlinedScope) and scope.names.get(name) is symbol:
        return scope.team_shares(name)
    stack = cg.openmp_state.team_regions
    return bool(stack) and tasks.shared_by(stack[-1], cg.scope, name)


def _flag(cg, directive, clause_name: str, bit: int) -> int:
    return bit if clauses_named(directive, clause_name) else 0


def _int(cg, expr, ctype) -> ir.Value:
    value = cg.expr(expr)
    if not value.ctype.is_integer:
        raise CompileError("an integer expression is needed", expr.coord)
    return convert(cg.builder, value.value, value.ctype, ctype)


def _depend_array(cg, directive) -> task_depend.DependArray:
    """GOMP's dependence list (task_depend.py); with omp_all_memory, the earlier sibling
    tasks are waited for here and the task runs undeferred."""
    depend = task_depend.depend_array(cg, directive)
    if depend.all_memory:
        gomp.call(cg, "GOMP_taskwait")
    return depend


def _event_handle(cg, directive):
    """detach(evt): the encountering context's event handle (an LValue), which the runtime
    sets as it creates the task; the task's own copy is the block's first word."""
    clause = next(iter(clauses_named(directive, "detach")), None)
    if clause is None:
        return None
    event = cg.lvalue(clause.expr)
    if not (event.ctype.is_integer and event.ctype.size == 8):
        raise CompileError(f"'{clause.expr.name}' in 'detach' is not an 'omp_event_handle_t'", clause.coord)
    return clause.expr.name, event


def _declare_event(cg, event) -> None:
    """In the task's function: the handle the runtime wrote into the block's first word."""
    name, original = event
    address = cg.builder.bitcast(cg.function.args[0], original.ctype.ir_type().as_pointer())
    cg.scope.declare(Symbol(name, original.ctype, "object", address))


def _empty_task(cg) -> ir.Function:
    """`void f(void *) {}`: taskwait nowait's task."""
    module = cg.module.module
    existing = module.globals.get("__omp2gpu_empty_task")
    if existing is not None:
        return existing
    function = ir.Function(module, ir.FunctionType(ir.VoidType(), [I8P]), name="__omp2gpu_empty_task")
    function.linkage = "internal"
    ir.IRBuilder(function.append_basic_block("entry")).ret_void()
    return function
