"""The control-loop scheme (paper Section 3): any target region on the GPU.

All threads of a block start; the team master runs sequential code while the
others wait at the control loop's barrier (control_loop_machine.py). The
scheme object replaces the kernel's OpenMP hooks while its body is emitted,
as the paper's OpenMPRuntimeNVPTX does:
- EnterParallel: the master sets the region's thread count (num_threads,
  thread_limit, block size) and switches to a new parallel state; threads at
  or above the count go to the barrier. ExitParallel: the master switches to
  a new sequential state that continues the code after the region.
- EmitOMPBarrier: inside a parallel region, a parallel -> parallel transition.
- distribute: the team master takes its team's chunk; `distribute parallel
  for` hands each chunk's bounds to the parallel region through shared memory.
- Variables of the sequential code that a parallel region uses are
  team-shared (shared memory); everything else stays thread-private.
Nested parallel regions are serialised. Calls to functions of this translation
unit that hold OpenMP constructs are expanded in place (inlined_callees.py):
from sequential code their parallel regions run with the team (beyond the
paper, which serialises them); from a parallel region their orphaned
constructs bind to it. Worksharing loops: static schedules through __kmpc_for_static_init; dynamic
and guided ones hand out chunks from a team-shared counter (with nowait, the
static chunks, which OpenMP allows: the chunk-to-thread assignment is
unspecified).
"""

from __future__ import annotations

from contextlib import contextmanager
from types import SimpleNamespace
from typing import NamedTuple

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.openmp import canonical_loop
from omp2gpu.codegen.openmp.control_loop_machine import StateMachine
from omp2gpu.codegen.openmp.data_sharing import DataEnvironment, clauses_named, loop_nest
from omp2gpu.codegen.openmp.device_module import call_device_runtime, kernel_init
from omp2gpu.codegen.openmp.gpu_atomics import atomic_update, compare_and_swap_loop, emit_atomic
from omp2gpu.codegen.openmp.gpu_combined import atomic_combine
from omp2gpu.codegen.openmp.hooks import OpenMPRuntime
from omp2gpu.codegen.openmp.inlined_callees import reaches_called_parallel
from omp2gpu.codegen.values import LValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.omp_nodes import OmpConstruct
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.captures import free_identifiers
from omp2gpu.sema.scopes import Symbol
from omp2gpu.targets import nvptx

I1, I32, I64 = ir.IntType(1), ir.IntType(32), ir.IntType(64)
I8P = ir.IntType(8).as_pointer()
MAX_BLOCK_SIZE = 1024
DEFAULT_BLOCK_SIZE = 128
STATIC_SHARED_MEMORY = 48 * 1024        # what a kernel's static __shared__ data may take
# Left to the runtime's own shared data: control state, team state, the nesting depths
# (MAX_BLOCK_SIZE bytes) and per-warp reduction scratch (MAX_WARPS values per reduction).
RUNTIME_SHARED_RESERVE = 4 * 1024
SHARED_MEMORY_LIMIT = STATIC_SHARED_MEMORY - RUNTIME_SHARED_RESERVE   # team-shared variables; the rest: team stack
TEAM_STACK_ALIGN = 256
LOOP_LEAVES = ("distribute", "for", "simd")


class ControlLoop:
    name = "control-loop"
    # After the captures: the team stack, teams x region.team_stack_bytes of global
    # memory the launcher provides for team-shared variables shared memory cannot hold.
    hidden_params = (("team_stack", ir.IntType(8).as_pointer()),)
    # States are reached only through the loop's switch: a value an expression computed
    # before a callee's expanded parallel states is demoted to a slot (ssa_repair.py).
    splits_into_states = True

    def emit_kernel_body(self, cg, region) -> None:
        directive = region.directive
        shared = TeamSharedStorage(cg, region, team_stack=cg.function.args[len(region.captures)])
        nesting = cg.alloca_ir(I8P, "nesting")          # set below, once we know if the kernel nests
        cg.in_entry_block(lambda b: b.store(ir.Constant(I8P, None), nesting))
        kernel_init(cg, spmd=False, nesting=cg.builder.load(nesting))
        machine = StateMachine(cg, region.kernel_name)
        hooks = ControlLoopHooks(machine, shared, cg.openmp)
        cg.openmp = hooks
        machine.new_state("start", master_only=True)
        hooks.team_start = _insertion_block(cg, "team.start")
        with cg.block_scope():
            shared.rehome_captures(cg)
            leaves = tuple(leaf for leaf in directive.constructs if leaf != "target")
            hooks.emit_leaves(cg, leaves, directive, region.construct.body)
        machine.finish()
        region.team_stack_bytes = shared.finish()
        if hooks.nests or reaches_called_parallel(region.construct.body, cg.module.host.function_definitions,
                                                  cg.module.inlined_callees):
            depths = _nesting_depths(cg.module.module, region.kernel_name)
            cg.in_entry_block(lambda b: b.store(b.addrspacecast(
                b.gep(depths, [ir.Constant(I32, 0), ir.Constant(I32, 0)]), I8P), nesting))


def _insertion_block(cg, name: str) -> ir.Block:
    """An empty block on the current path, where code can be added later."""
    block, after = cg.new_block(name), cg.new_block(f"{name}.after")
    cg.builder.branch(block)
    ir.IRBuilder(block).branch(after)
    cg.builder.position_at_end(after)
    return block


def _nesting_depths(module: ir.Module, kernel_name: str) -> ir.GlobalVariable:
    """A byte per thread in shared memory: how deep in serialised parallel regions it is."""
    array = ir.ArrayType(ir.IntType(8), MAX_BLOCK_SIZE)
    variable = ir.GlobalVariable(module, array, name=f"{kernel_name}_nesting",
                                 addrspace=nvptx.SHARED_ADDRESS_SPACE)
    variable.linkage = "internal"
    variable.initializer = ir.Constant(array, ir.Undefined)
    return variable


# ----------------------------------------------------------------- team-shared variables
def _is_parallel(directive) -> bool:
    return directive.has("parallel")


class TeamSharedStorage:
    """Which variables the team's threads share, and their slots: in shared memory
    while SHARED_MEMORY_LIMIT bytes hold them, then on the team's stack in global
    memory (the kernel's team_stack parameter, one TEAM_STACK_ALIGN-rounded frame
    per team). Variables a critical construct names go to the team stack too: the
    critical lock's fences order their accesses, which compute-sanitizer's racecheck
    (shared memory only, barriers only) would report as hazards in shared memory."""

    def __init__(self, cg, region, team_stack: ir.Value):
        self.module = cg.module.module
        self.prefix = region.kernel_name
        self.bytes = 0                      # shared memory
        self.stack_bytes = 0                # each team's frame on the team stack
        self.count = 0
        self.team_stack = team_stack
        self._frame = None                  # this team's frame (i8*), made once
        self._frame_size = None             # a constant global: the size is known at the end
        captured = {c.name: c for c in region.captures if c.kind != "object"}
        sharing = _shared_in_parallel_regions(region.construct.body)
        self.declarations, self.locked, names = sharing.declarations, sharing.locked, sharing.outer
        self.locked_captures = sharing.locked_outer
        if _is_parallel(region.directive):
            names |= set(free_identifiers(region.construct.body))
        # A by-value capture nobody assigns holds the same value in every thread's
        # copy: only captures the code may change need one shared home.
        changed = _assigned_names(region.construct.body) - _own_loop_variables(region)
        self.captures = [captured[name] for name in names if name in captured and name in changed]

    def slot(self, cg, ctype: ct.CType, name: str, locked: bool = False) -> ir.Value:
        if locked or self.bytes + ctype.size > SHARED_MEMORY_LIMIT:
            return self._stack_slot(cg, ctype)
        array = ir.ArrayType(ctype.ir_type(), 1)
        self.count += 1
        variable = ir.GlobalVariable(self.module, array, name=f"{self.prefix}_shared_{self.count}_{name}",
                                     addrspace=nvptx.SHARED_ADDRESS_SPACE)
        variable.linkage = "internal"
        variable.initializer = ir.Constant(array, ir.Undefined)
        variable.align = max(ctype.align, 4)
        self.bytes += ctype.size
        # Cast in the entry block: every state of the control loop may use the slot.
        return cg.in_entry_block(lambda b: b.addrspacecast(
            b.gep(variable, [ir.Constant(I32, 0), ir.Constant(I32, 0)]), ctype.ir_type().as_pointer()))

    def rehome_captures(self, cg) -> None:
        """The master copies by-value captures a parallel region reads into shared memory."""
        for capture in self.captures:
            private = cg.scope.lookup(capture.name)
            slot = self.slot(cg, capture.ctype, capture.name, capture.name in self.locked_captures)
            cg.builder.store(cg.builder.load(private.address), slot)
            cg.scope.declare(Symbol(capture.name, capture.ctype, "object", slot))

    def _stack_slot(self, cg, ctype: ct.CType) -> ir.Value:
        offset = _round_up(self.stack_bytes, max(ctype.align, 1))
        self.stack_bytes = offset + ctype.size
        frame = self._team_frame(cg)
        return cg.in_entry_block(lambda b: b.bitcast(b.gep(frame, [ir.Constant(I64, offset)]),
                                                     ctype.ir_type().as_pointer()))

    def _team_frame(self, cg) -> ir.Value:
        if self._frame is None:
            self._frame_size = ir.GlobalVariable(self.module, I64, name=f"{self.prefix}_team_frame_bytes")
            self._frame_size.linkage = "internal"
            self._frame_size.global_constant = True

            def frame(b):
                team = b.zext(nvptx.read_sreg(b, "ctaid.x"), I64)
                return b.gep(self.team_stack, [b.mul(team, b.load(self._frame_size))], name="team_frame")
            self._frame = cg.in_entry_block(frame)
        return self._frame

    def finish(self) -> int:
        """Bytes of each team's frame on the team stack (0: shared memory held everything)."""
        frame = _round_up(self.stack_bytes, TEAM_STACK_ALIGN)
        if self._frame_size is not None:
            self._frame_size.initializer = ir.Constant(I64, frame)
        return frame


def _round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


def _assigned_names(node) -> set[str]:
    """Variables the code may change: assigned, incremented, or whose address is taken."""
    names: set[str] = set()

    def target(expression):
        while isinstance(expression, (c_ast.ArrayRef, c_ast.StructRef)):
            expression = expression.name
        if isinstance(expression, c_ast.ID):
            names.add(expression.name)

    def walk(n):
        if n is None:
            return
        if isinstance(n, c_ast.Assignment):
            target(n.lvalue)
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
            target(n.expr)
        for _, child in n.children():
            walk(child)
    walk(node)
    return names


def _own_loop_variables(region) -> set[str]:
    """Iteration variables of the loops the target directive itself governs (the scheme
    gives each thread its own, so the captured originals are never written)."""
    directive = region.directive
    if not any(directive.has(leaf) for leaf in LOOP_LEAVES):
        return set()
    depth = max([c.count for c in clauses_named(directive, "collapse")] or [1])
    return {canonical_loop.analyze(node).variable for node in loop_nest(region.construct.body, depth)}


class TeamSharing(NamedTuple):
    declarations: set       # ids of the declarations the team's threads may share
    outer: set              # names from outside `body` that its parallel regions use
    locked: set             # ids of the declarations named in critical constructs
    locked_outer: set       # names from outside `body` named in critical constructs


def _shared_in_parallel_regions(body, params=()) -> TeamSharing:
    """Declarations (by node id) that the team's threads may share, and outer names that
    parallel regions in `body` use. Shared: what a parallel region names, and what the
    sequential code lets escape (`&x`, an array decaying to a pointer), since the pointer
    may reach the parallel region; a thread cannot reach another's local memory."""
    declarations: set[int] = set()
    outer: set[str] = set()
    locked: set[int] = set()
    locked_outer: set[str] = set()
    scopes: list[dict] = [{param.name: param for param in params if param.name}]

    def resolve(name):
        for scope in reversed(scopes):
            if name in scope:
                return scope[name]
        return None

    def sort_names(construct, found: set, unresolved: set) -> None:
        """The construct's free names: declarations in `body` by id, the others by name."""
        for name in free_identifiers(construct):
            declaration = resolve(name)
            if declaration is not None:
                found.add(id(declaration))
            else:
                unresolved.add(name)

    def escapes(node, parent):
        if isinstance(parent, c_ast.UnaryOp) and parent.op == "&":
            base = node
            while isinstance(base, (c_ast.ArrayRef, c_ast.StructRef)):
                base = base.name
            return base if isinstance(base, c_ast.ID) else None
        if isinstance(node, c_ast.ID) and not (isinstance(parent, c_ast.ArrayRef) and parent.name is node) \
                and not (isinstance(parent, c_ast.UnaryOp) and parent.op == "sizeof"):
            declaration = resolve(node.name)
            if declaration is not None and isinstance(declaration.type, c_ast.ArrayDecl):
                return node
        return None

    def walk(node, parent=None):
        if node is None:
            return
        escaped = escapes(node, parent)
        if escaped is not None and resolve(escaped.name) is not None:
            declarations.add(id(resolve(escaped.name)))
        if isinstance(node, c_ast.Decl) and node.name:
            walk(node.init, node)
            scopes[-1][node.name] = node
            return
        if isinstance(node, OmpConstruct) and _is_parallel(node.directive):
            sort_names(node, declarations, outer)
            for critical in _constructs(node, "critical"):
                sort_names(critical, locked, locked_outer)
            return
        opens_scope = isinstance(node, (c_ast.Compound, c_ast.For))
        if opens_scope:
            scopes.append({})
        for _, child in node.children():
            walk(child, node)
        if opens_scope:
            scopes.pop()

    walk(body)
    return TeamSharing(declarations, outer, locked, locked_outer)


def _constructs(node, kind: str):
    """The OpenMP constructs of `kind` inside node."""
    for _, child in node.children():
        if isinstance(child, OmpConstruct) and child.directive.has(kind):
            yield child
        yield from _constructs(child, kind)


# ----------------------------------------------------------------- values across states
class Persisted:
    """Values the team master's code needs on both sides of a state transition live in
    stack slots: an SSA value of one state does not dominate the next (switch) state."""

    def __init__(self, cg, **values):
        object.__setattr__(self, "_cg", cg)
        slots = {}
        for name, value in values.items():
            slot = cg.alloca_ir(value.type, name)
            cg.builder.store(value, slot)
            slots[name] = slot
        object.__setattr__(self, "_slots", slots)

    def __getattr__(self, name):
        return self._cg.builder.load(self._slots[name])

    def store(self, **values) -> None:
        for name, value in values.items():
            self._cg.builder.store(value, self._slots[name])


class PersistedBounds(canonical_loop.LoopBounds):
    """LoopBounds whose lower bound and step are reloaded where they are used."""

    def __init__(self, cg, bounds: canonical_loop.LoopBounds):
        self.loop, self.var_type, self.iv_type = bounds.loop, bounds.var_type, bounds.iv_type
        self._values = Persisted(cg, lower=bounds.lower, step=bounds.step)

    @property
    def lower(self):
        return self._values.lower

    @property
    def step(self):
        return self._values.step


def count_type(cg, loops) -> ct.IntType:
    """32-bit iteration counting when every loop variable fits (fewer registers), else 64."""
    types = [canonical_loop.iteration_type(canonical_loop.variable_type(cg, each)) for each in loops]
    return ct.LONG if any(t.bits == 64 for t in types) else ct.INT


def _loop_space(cg, loops, counting: ct.IntType):
    """Bounds of a (collapsed) loop nest, its trip counts and total, all persisted."""
    b = cg.builder
    bounds = [canonical_loop.LoopBounds(cg, each) for each in loops]
    trips = [convert(b, x.trip_count, x.iv_type, counting) for x in bounds]
    total = trips[0]
    for trip in trips[1:]:
        total = b.mul(total, trip)
    space = Persisted(cg, total=total, **{f"trip{i}": t for i, t in enumerate(trips)})
    return [PersistedBounds(cg, x) for x in bounds], space


# ----------------------------------------------------------------- the hooks inside a kernel
class ControlLoopHooks(OpenMPRuntime):
    def __init__(self, machine: StateMachine, shared: TeamSharedStorage, outer):
        self.machine = machine
        self.shared = shared
        self.outer = outer                  # the device module's hooks (atomics, device functions)
        self.in_parallel = False            # in code of a parallel region (of the team, or nested)
        self.serialised = 0                 # depth of nested parallel regions, each a team of one
        self.nests = False                  # the kernel has a nested parallel region
        self.team_start = None              # a block the team master runs once, first

    def at_team_start(self, emit) -> None:
        """emit(builder) in code the team master runs before any parallel region."""
        builder = ir.IRBuilder(self.team_start)
        builder.position_before(self.team_start.terminator)
        emit(builder)

    @property
    def team_parallel(self) -> bool:
        """In the team's parallel region itself, where worksharing, barriers, master and
        single involve the team's threads (in a nested region each thread is a team of one)."""
        return self.in_parallel and not self.serialised

    def inline_definition(self, cg, name: str):
        """Calls to functions whose constructs the kernel takes in (inlined_callees.py) are
        expanded in place; from sequential code, what the callee's parallel regions use
        is team-shared as in the region's own code."""
        definition = cg.module.inlined_callees.get(name)
        if definition is not None and not self.in_parallel:
            params = definition.decl.type.args.params
            sharing = _shared_in_parallel_regions(definition.body, params)
            self.shared.declarations |= sharing.declarations
            self.shared.locked |= sharing.locked
        return definition

    def local_address(self, cg, declaration, ctype):
        if not self.in_parallel and id(declaration) in self.shared.declarations:
            return self.shared.slot(cg, ctype, declaration.name, id(declaration) in self.shared.locked)
        return None

    # ----------------------------------------------------------------- dispatch
    def emit_construct(self, cg, construct) -> None:
        directive = construct.directive
        kind = directive.kind
        if kind == "atomic":
            emit_atomic(cg, construct)
        elif kind == "barrier":
            if self.team_parallel:
                self.barrier(cg)
        elif kind in ("master", "single"):
            self.emit_master_or_single(cg, construct)
        elif kind == "critical":
            self.emit_critical(cg, construct)
        elif kind in ("flush",):
            nvptx.membar_gl(cg.builder)
        elif kind in ("taskwait", "taskyield"):
            pass
        elif directive.constructs and all(c in ("teams", "distribute", "parallel", "for", "simd")
                                           for c in directive.constructs):
            self.emit_leaves(cg, directive.constructs, directive, construct.body)
        elif kind in ("ordered", "section", "sections", "task", "taskgroup"):
            if self.in_parallel and kind in ("sections", "task"):
                raise CompileError(f"'#pragma omp {kind}' in a parallel region is not supported on "
                                   "the GPU yet", construct.coord)
            cg.stmt(construct.body)
        else:
            raise CompileError(f"'#pragma omp {kind}' is not supported inside a GPU target region",
                               construct.coord)

    def emit_leaves(self, cg, leaves: tuple, directive, body) -> None:
        """The constructs of a (combined) directive, outermost first."""
        if not leaves:
            cg.stmt(body)
            return
        leaf, rest = leaves[0], leaves[1:]
        if leaf == "teams":
            with self._teams_data_environment(cg, directive):
                self.emit_leaves(cg, rest, directive, body)
        elif leaf == "distribute":
            self.emit_distribute(cg, rest, directive, body)
        elif leaf == "parallel":
            if self.in_parallel:                      # nested: serialised in each thread
                self.nests = True
                call_device_runtime(cg, "__kmpc_serialized_parallel", ir.VoidType(), [])
                self.serialised += 1
                try:
                    with self._data_environment(cg, directive):
                        self.emit_leaves(cg, rest, directive, body)
                finally:
                    self.serialised -= 1
                if not cg.builder.block.is_terminated:
                    call_device_runtime(cg, "__kmpc_end_serialized_parallel", ir.VoidType(), [])
            else:
                self.emit_parallel(cg, rest, directive, body)
        elif leaf in ("for", "simd"):
            self.emit_loop(cg, directive, body, rest=rest)
        else:
            raise CompileError(f"'{leaf}' is not supported inside a GPU target region", directive.coord)

    def _teams_data_environment(self, cg, directive):
        """The teams construct's private, firstprivate and reduction copies: one per team,
        made by the team master and team-shared (its parallel regions may name them);
        reductions fold into the original atomically, across teams."""
        clauses = [c for c in directive.clauses if c.name in ("private", "firstprivate", "reduction")]
        shared = self.shared
        return DataEnvironment(cg, SimpleNamespace(clauses=clauses), combine_reduction=self._atomic_fold(cg),
                               private_slot=lambda name, ctype: shared.slot(
                                   cg, ctype, name, name in shared.locked_captures))

    def _atomic_fold(self, cg):
        return lambda op, original, private: atomic_combine(cg, op, original.ctype, original.address,
                                                            cg.builder.load(private.address))

    # ----------------------------------------------------------------- parallel regions
    def emit_parallel(self, cg, rest, directive, body) -> None:
        """EnterParallel ... ExitParallel (paper Section 3.3)."""
        b = cg.builder
        requested = self._num_threads(cg, directive)
        call_device_runtime(cg, "__kmpc_prepare_parallel", ir.VoidType(), [requested])
        parallel_state = self.machine.reserve()
        after = self.machine.reserve()
        self.machine.go_to(parallel_state, master_only_code=True)
        self.machine.open_reserved(parallel_state, "parallel", master_only=False,
                                   participants=lambda: self._participants(cg))
        self.in_parallel = True
        try:
            with cg.block_scope():
                with self._data_environment(cg, directive):
                    if rest and rest[0] in ("for", "simd"):
                        self.emit_loop(cg, directive, body, rest=rest[1:], worksharing=True, implicit_barrier=False)
                    else:
                        self.emit_leaves(cg, rest, directive, body)
        finally:
            self.in_parallel = False
        if not b.block.is_terminated:
            self.machine.go_to(after, master_only_code=False)
        self.machine.open_reserved(after, "sequential", master_only=True)
        call_device_runtime(cg, "__kmpc_parallel_end", ir.VoidType(), [])

    def _participants(self, cg) -> ir.Value:
        return call_device_runtime(cg, "__kmpc_parallel_start", I32, [])

    def _num_threads(self, cg, directive) -> ir.Value:
        clause = next(iter(clauses_named(directive, "num_threads")), None)
        requested = ir.Constant(I32, 0)
        if clause is not None:
            requested = cg.expr_as(clause.expr, ct.INT)
        for condition in clauses_named(directive, "if"):
            if condition.modifier in (None, "parallel"):
                test = cg.condition(condition.expr)
                requested = cg.builder.select(test, requested, ir.Constant(I32, 1))
        return requested

    def barrier(self, cg) -> None:
        """EmitOMPBarrier: a parallel -> parallel transition at the one synchronisation point."""
        state = self.machine.reserve()
        self.machine.go_to(state, master_only_code=False)
        self.machine.open_reserved(state, "parallel", master_only=False,
                                   participants=lambda: self._participants(cg))

    # ----------------------------------------------------------------- synchronisation
    def emit_master_or_single(self, cg, construct) -> None:
        b = cg.builder
        if not self.team_parallel:
            with DataEnvironment(cg, construct.directive):
                cg.stmt(construct.body)
            return
        run, done = cg.new_block("master.run"), cg.new_block("master.done")
        b.cbranch(self.machine.is_master, run, done)
        b.position_at_end(run)
        with DataEnvironment(cg, construct.directive):
            cg.stmt(construct.body)
        cg.branch_if_open(done)
        b.position_at_end(done)
        if construct.directive.kind == "single" and not clauses_named(construct.directive, "nowait"):
            self.barrier(cg)

    def emit_critical(self, cg, construct) -> None:
        """A spin lock per critical name in global memory (threads of a warp progress
        independently on sm_70 and later)."""
        b = cg.builder
        module = cg.module.module
        name = f"omp2gpu_critical_{construct.directive.critical_name or 'unnamed'}"
        lock = module.globals.get(name)
        if lock is None:
            lock = ir.GlobalVariable(module, I32, name=name)
            lock.linkage = "internal"
            lock.initializer = ir.Constant(I32, 0)
        acquire, body = cg.new_block("critical.acquire"), cg.new_block("critical.body")
        b.branch(acquire)
        b.position_at_end(acquire)
        pair = b.cmpxchg(lock, ir.Constant(I32, 0), ir.Constant(I32, 1), "acquire", "monotonic")
        b.cbranch(b.extract_value(pair, 1), body, acquire)
        b.position_at_end(body)
        cg.stmt(construct.body)
        if not b.block.is_terminated:
            b.atomic_rmw("xchg", lock, ir.Constant(I32, 0), "release")

    # ----------------------------------------------------------------- loops
    def emit_distribute(self, cg, rest, directive, body) -> None:
        """The team master runs its team's chunks; with `parallel for` each chunk becomes
        a parallel region whose bounds reach the threads through shared memory.
        The chunk plan is recomputed where it is needed rather than kept live across
        the control loop's states: kernel-wide live values cost registers (paper 5.1)."""
        b = cg.builder
        loops = self._loops(directive, body)
        with cg.block_scope():
            self.counting = count_type(cg, loops)
            start = self.shared.slot(cg, self.counting, "dist_start")   # master-only, survives states
            first_chunk, _, _ = self._team_chunks(cg, directive, loops)
            b.store(first_chunk, start)
            cond, run, done = cg.new_block("dist.cond"), cg.new_block("dist.chunk"), cg.new_block("dist.end")
            b.branch(cond)
            b.position_at_end(cond)
            _, chunk, total = self._team_chunks(cg, directive, loops)
            b.cbranch(b.icmp_signed("<", b.load(start), total), run, done)
            b.position_at_end(run)
            end = b.add(b.load(start), chunk)
            end = b.select(b.icmp_signed("<", end, total), end, total)
            if rest and rest[0] == "parallel":
                hi = self.shared.slot(cg, self.counting, "dist_hi")
                b.store(end, hi)
                self._distribute_parallel(cg, rest, directive, body, start, hi)
            else:
                bounds, space = _loop_space(cg, loops, self.counting)
                with self._data_environment(cg, directive):
                    slots = self._declare_loop_variables(cg, loops, bounds)
                    self._iterate(cg, bounds, space, b.load(start), Persisted(cg, hi=end), slots,
                                  loops[-1].body)
            if not b.block.is_terminated:
                _, _, stride = self._team_chunks(cg, directive, loops, stride=True)
                b.store(b.add(b.load(start), stride), start)
                b.branch(cond)
            b.position_at_end(done)

    def _team_chunks(self, cg, directive, loops, stride=False):
        """(this team's first iteration, chunk length, total) — or, with `stride`, the
        distance between this team's chunks as the third value."""
        b = cg.builder
        counting = self.counting
        one = ir.Constant(counting.ir_type(), 1)
        with cg.block_scope():
            bounds = [canonical_loop.LoopBounds(cg, each) for each in loops]
            total = one
            for x in bounds:
                total = b.mul(total, convert(b, x.trip_count, x.iv_type, counting))
        teams = convert(b, nvptx.read_sreg(b, "nctaid.x"), ct.UINT, counting)
        team = convert(b, nvptx.read_sreg(b, "ctaid.x"), ct.UINT, counting)
        chunk = self._chunk(cg, directive, "dist_schedule")
        if chunk is None:                      # one contiguous block per team
            chunk = b.sdiv(b.add(total, b.sub(teams, one)), teams)
            chunk = b.select(b.icmp_signed("<", chunk, one), one, chunk)
        return b.mul(team, chunk), chunk, (b.mul(teams, chunk) if stride else total)

    def _distribute_parallel(self, cg, rest, directive, body, lo, hi) -> None:
        """`distribute parallel for`: one parallel region per team chunk [lo, hi)."""
        self.chunk_range = (lo, hi)
        try:
            self.emit_parallel(cg, rest[1:], directive, body)
        finally:
            self.chunk_range = None

    counting = ct.LONG     # the type iterations are counted in, per loop construct (count_type)
    chunk_range = None     # (lo, hi) shared slots of the team's chunk, inside distribute parallel for
    last_flag = None       # per-thread "ran the loop's last iteration", for lastprivate

    def _data_environment(self, cg, directive, clauses=True):
        """Privates for the code that runs a construct: reductions fold atomically; lastprivate
        is copied by the thread (or team master) that ran the last iteration."""
        self.last_flag = cg.alloca(ct.BOOL, "ran.last")
        cg.builder.store(ir.Constant(ir.IntType(8), 0), self.last_flag)
        flag = self.last_flag
        return DataEnvironment(cg, SimpleNamespace(clauses=list(directive.clauses) if clauses else []),
                               combine_reduction=self._atomic_fold(cg),
                               lastprivate_condition=lambda: cg.builder.trunc(cg.builder.load(flag), I1))

    def _chunk(self, cg, directive, clause_name: str):
        clause = next(iter(clauses_named(directive, clause_name)), None)
        if clause is None or clause.chunk is None:
            return None
        return cg.expr_as(clause.chunk, self.counting)

    @staticmethod
    def _loops(directive, body):
        depth = max([c.count for c in clauses_named(directive, "collapse")] or [1])
        return [canonical_loop.analyze(node) for node in loop_nest(body, depth)]

    def emit_loop(self, cg, directive, body, rest=(), worksharing=None, implicit_barrier=True) -> None:
        """A loop construct: split among the region's threads in a parallel region, else
        run by the one thread there is."""
        b = cg.builder
        worksharing = self.team_parallel if worksharing is None else worksharing
        loops = self._loops(directive, body)
        own_environment = not (worksharing and implicit_barrier is False)
        with cg.block_scope():
            self.counting = count_type(cg, loops)
            bounds, space = _loop_space(cg, loops, self.counting)
            lo, hi = ir.Constant(self.counting.ir_type(), 0), space.total
            if self.chunk_range is not None:        # this team's chunk of a distribute
                lo, hi = b.load(self.chunk_range[0]), b.load(self.chunk_range[1])
            with self._data_environment(cg, directive) if own_environment else _nothing():
                if worksharing and _firstprivate_and_lastprivate(directive):
                    # Every thread's firstprivate copy is made before the last iteration's
                    # thread copies out (OpenMP 4.5 2.15.3.5): a barrier between them.
                    self.barrier(cg)
                slots = self._declare_loop_variables(cg, loops, bounds)
                if worksharing:
                    self._worksharing_range(cg, directive, bounds, space, lo, hi, slots, loops[-1].body)
                else:
                    self._iterate(cg, bounds, space, lo, Persisted(cg, hi=hi), slots, loops[-1].body)
        if worksharing and implicit_barrier and not clauses_named(directive, "nowait"):
            self.barrier(cg)

    def _declare_loop_variables(self, cg, loops, bounds):
        """Each thread's own iteration variables; the team master's are team-shared when
        a parallel region in the loop body reads them."""
        slots = []
        read_in_parallel = set() if self.in_parallel else _shared_in_parallel_regions(loops[-1].body).outer
        for loop, bound in zip(loops, bounds):
            if loop.variable in read_in_parallel:
                slot = self.shared.slot(cg, bound.var_type, loop.variable)
            else:
                slot = cg.alloca(bound.var_type, loop.variable)
            cg.scope.declare(Symbol(loop.variable, bound.var_type, "object", slot))
            slots.append(slot)
        return slots

    def _set_variables(self, cg, bounds, space, iteration, slots) -> None:
        """The loop variables for logical iteration `iteration` of the collapsed nest."""
        b = cg.builder
        remaining = iteration
        for index in reversed(range(len(bounds))):
            if index == 0:
                logical = remaining
            else:
                trip = getattr(space, f"trip{index}")
                logical = b.srem(remaining, trip)
                remaining = b.sdiv(remaining, trip)
            local = convert(b, logical, self.counting, bounds[index].iv_type)
            b.store(bounds[index].value_at(cg, local), slots[index])

    def _worksharing_range(self, cg, directive, bounds, space, lo, hi, slots, body) -> None:
        """schedule(static[, chunk]) over [lo, hi) via __kmpc_for_static_init; dynamic and
        guided through _dispatch_range (with nowait too: static chunks, which OpenMP allows)."""
        b = cg.builder
        chunk = self._chunk(cg, directive, "schedule")
        schedule = next(iter(clauses_named(directive, "schedule")), None)
        counting = self.counting
        if schedule is not None and schedule.kind in ("dynamic", "guided"):
            chunk = chunk if chunk is not None else ir.Constant(counting.ir_type(), 1)
            if not clauses_named(directive, "nowait"):
                self._dispatch_range(cg, schedule.kind, chunk, bounds, space, lo, hi, slots, body)
                return
        # No schedule clause: chunks of one iteration dealt round-robin, so neighbouring
        # threads touch neighbouring elements (coalesced), as the paper's static,1.
        chunk = chunk if chunk is not None else ir.Constant(counting.ir_type(), 0 if schedule else 1)
        first, length, stride = (cg.alloca(counting, n) for n in ("ws.first", "ws.length", "ws.stride"))
        plan = Persisted(cg, lo=lo, count=b.sub(hi, lo))
        # libomp's naming: _4 for 32-bit iteration counts, _8 for 64-bit ones
        init = "__kmpc_for_static_init_4" if counting.bits == 32 else "__kmpc_for_static_init_8"
        call_device_runtime(cg, init, ir.VoidType(), [
            plan.count, chunk, nvptx.read_sreg(b, "tid.x"), self._participants(cg), first, length, stride])
        cond, run, done = cg.new_block("ws.cond"), cg.new_block("ws.chunk"), cg.new_block("ws.end")
        b.branch(cond)
        b.position_at_end(cond)
        b.cbranch(b.icmp_signed("<", b.load(first), plan.count), run, done)
        b.position_at_end(run)
        end = b.add(b.load(first), b.load(length))
        end = b.select(b.icmp_signed("<", end, plan.count), end, plan.count)
        self._iterate(cg, bounds, space, b.add(plan.lo, b.load(first)), Persisted(cg, hi=b.add(plan.lo, end)),
                      slots, body)
        b.store(b.add(b.load(first), b.load(stride)), first)
        b.branch(cond)
        b.position_at_end(done)

    def _dispatch_range(self, cg, kind, chunk, bounds, space, lo, hi, slots, body) -> None:
        """schedule(dynamic|guided) over [lo, hi): each thread takes the next chunk from a
        team-shared counter when it is free (guided: the remainder over twice the threads,
        at least the chunk). The last thread to find nothing left resets the counter for
        the loop's next run; the barrier after the loop keeps runs apart."""
        b = cg.builder
        counting = self.counting
        zero, one = ir.Constant(counting.ir_type(), 0), ir.Constant(counting.ir_type(), 1)
        next_chunk = self.shared.slot(cg, counting, "dispatch_next")
        finished = self.shared.slot(cg, ct.INT, "dispatch_finished")
        self.at_team_start(lambda tb: (tb.store(zero, next_chunk), tb.store(ir.Constant(I32, 0), finished)))
        threads = self._participants(cg)
        plan = Persisted(cg, lo=lo, count=b.sub(hi, lo), chunk=b.select(b.icmp_signed("<", chunk, one), one, chunk),
                         spread=b.mul(convert(b, threads, ct.INT, counting), ir.Constant(counting.ir_type(), 2)))
        taken = Persisted(cg, first=zero, size=zero)
        grab, run, out = cg.new_block("dispatch.grab"), cg.new_block("dispatch.run"), cg.new_block("dispatch.out")
        b.branch(grab)
        b.position_at_end(grab)
        count, step = plan.count, plan.chunk
        if kind == "guided":
            spread = plan.spread

            def take(old):
                share = b.sdiv(b.add(b.sub(count, old), b.sub(spread, one)), spread)
                size = b.select(b.icmp_signed("<", share, step), step, share)
                return b.select(b.icmp_signed("<", old, count), b.add(old, size), old)
            first, new = compare_and_swap_loop(cg, next_chunk, counting, take)
            size = b.sub(new, first)
        else:
            first, size = b.atomic_rmw("add", next_chunk, step, "monotonic"), step
        taken.store(first=first, size=size)
        b.cbranch(b.icmp_signed("<", first, count), run, out)
        b.position_at_end(run)
        end = b.add(taken.first, taken.size)
        end = b.select(b.icmp_signed("<", end, plan.count), end, plan.count)
        self._iterate(cg, bounds, space, b.add(plan.lo, taken.first), Persisted(cg, hi=b.add(plan.lo, end)),
                      slots, body)
        b.branch(grab)
        b.position_at_end(out)
        arrived = b.atomic_rmw("add", finished, ir.Constant(I32, 1), "monotonic")
        last, done = cg.new_block("dispatch.reset"), cg.new_block("dispatch.end")
        b.cbranch(b.icmp_signed("==", arrived, b.sub(self._participants(cg), ir.Constant(I32, 1))), last, done)
        b.position_at_end(last)                 # atomic too: no plain access races the others' atomics
        b.atomic_rmw("xchg", next_chunk, zero, "monotonic")
        b.atomic_rmw("xchg", finished, ir.Constant(I32, 0), "monotonic")
        b.branch(done)
        b.position_at_end(done)

    def _iterate(self, cg, bounds, space, lo, limit, slots, body) -> None:
        """for (iv = lo; iv < limit.hi; iv++) { variables = f(iv); body; note iv == total - 1 }
        Everything the loop needs after its body is reloaded, since the body may switch state."""
        b = cg.builder
        iv = cg.alloca(self.counting, "iv")
        one = ir.Constant(self.counting.ir_type(), 1)
        b.store(lo, iv)
        cond, run, step_block, done = (cg.new_block("loop.cond"), cg.new_block("loop.body"),
                                       cg.new_block("loop.next"), cg.new_block("loop.end"))
        b.branch(cond)
        b.position_at_end(cond)
        b.cbranch(b.icmp_signed("<", b.load(iv), limit.hi), run, done)
        b.position_at_end(run)
        self._set_variables(cg, bounds, space, b.load(iv), slots)
        with cg.loop_targets(done, step_block):
            cg.stmt(body)
        cg.branch_if_open(step_block)
        b.position_at_end(step_block)
        current = b.load(iv)
        if self.last_flag is not None:
            is_last = b.icmp_signed("==", current, b.sub(space.total, one))
            b.store(b.select(is_last, ir.Constant(ir.IntType(8), 1), b.load(self.last_flag)), self.last_flag)
        b.store(b.add(current, one), iv)
        b.branch(cond)
        b.position_at_end(done)


def _firstprivate_and_lastprivate(directive) -> bool:
    first = {item.name for clause in clauses_named(directive, "firstprivate") for item in clause.items}
    return any(item.name in first for clause in clauses_named(directive, "lastprivate") for item in clause.items)


@contextmanager
def _nothing():
    yield
