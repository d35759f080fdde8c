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
- Variables of the sequential code that a parallel region uses are
  team-shared (team_sharing.py: shared memory, else the team stack);
  everything else stays thread-private.
- distribute, worksharing `for` and `simd` are the mixin LoopConstructs
  (control_loop_loops.py).
Nested parallel regions are serialised. Calls to functions of this translation
unit that hold OpenMP constructs are expanded in place (inlined_callees.py):
from sequential code their parallel regions run with the team (beyond the
paper, which serialises them); from a parallel region their orphaned
constructs bind to it.
"""

from __future__ import annotations

import contextlib
from types import SimpleNamespace

from llvmlite import ir

from omp2gpu.codegen.ir_types import I8P, I32
from omp2gpu.codegen.openmp.atomics.constructs import emit_atomic
from omp2gpu.codegen.openmp.data.data_sharing import DataEnvironment, clauses_named, combine
from omp2gpu.codegen.openmp.data.linear_clause import as_lastprivate
from omp2gpu.codegen.openmp.data.named_globals import named_global
from omp2gpu.codegen.openmp.gpu.control_loop.loops import LoopConstructs
from omp2gpu.codegen.openmp.gpu.control_loop.machine import StateMachine
from omp2gpu.codegen.openmp.gpu.control_loop.team_reductions import WarpPartials
from omp2gpu.codegen.openmp.gpu.control_loop.team_sharing import TeamSharedStorage
from omp2gpu.codegen.openmp.gpu.device_module import kernel_init
from omp2gpu.codegen.openmp.gpu.warp_reductions import warp_aggregated_fold
from omp2gpu.codegen.openmp.hooks import OpenMPRuntime
from omp2gpu.codegen.openmp.host import doacross
from omp2gpu.codegen.openmp.host import serial_tasks as tasks
from omp2gpu.codegen.openmp.integer_clauses import integer_operand
from omp2gpu.codegen.openmp.plan.device_refusals import control_loop_refusal
from omp2gpu.codegen.openmp.plan.inlined_callees import reaches_called_parallel
from omp2gpu.codegen.openmp.plan.region_shape import combined_shape
from omp2gpu.codegen.openmp.plan.scheme_interface import GpuKernelScheme
from omp2gpu.codegen.openmp.plan.team_shared_names import shared_in_parallel_regions
from omp2gpu.codegen.openmp.runtime_entries import DeviceRuntime
from omp2gpu.codegen.openmp.utility_constructs import runs_masked
from omp2gpu.diagnostics import CompileError
from omp2gpu.offload.abi import CONTROL_LOOP_BLOCK_SIZE, GPU_CONTROL_LOOP
from omp2gpu.targets import nvptx

MAX_BLOCK_SIZE = 1024


class ControlLoop(GpuKernelScheme):
    name = GPU_CONTROL_LOOP
    block_size = CONTROL_LOOP_BLOCK_SIZE

    @staticmethod
    def device_refusal(facts) -> str | None:
        return control_loop_refusal(facts)
    # After the captures: the team stack, teams x the kernel's team_stack_bytes of global
    # memory the launcher provides for team-shared variables shared memory cannot hold.
    hidden_params = (("team_stack", ir.IntType(8).as_pointer()),)
    # States are reached only through the loop's switch: a value an expression computed
    # before a callee's expanded parallel states is demoted to a slot (ssa_repair.py).
    splits_into_states = True

    def emit_kernel_body(self, cg, region) -> int:
        directive = region.directive
        shared = TeamSharedStorage(cg, region, team_stack=cg.function.args[len(region.captures)])
        nesting = cg.alloca_ir(I8P, "nesting")          # set below, once we know if the kernel nests
        cg.in_entry_block(lambda b: b.store(ir.Constant(I8P, None), nesting))
        kernel_init(cg, spmd=False, nesting=cg.builder.load(nesting))
        hooks = self.team_master_hooks(cg, region, shared)
        if hooks.leaves_after_final_chunk:
            hooks.final_distribute = final_distribute(region.construct)
        cg.openmp = hooks
        hooks.team_start = _insertion_block(cg, "team.start")
        with cg.block_scope():
            shared.rehome_captures(cg)
            leaves = tuple(leaf for leaf in directive.constructs if leaf != "target")
            with hooks.target_data_environment(cg, directive):
                hooks.emit_leaves(cg, leaves, directive, region.construct.body)
        hooks.end_of_region()
        team_stack_bytes = shared.finish()
        if hooks.nests or reaches_called_parallel(region.construct.body, cg.module.host.function_definitions,
                                                  cg.module.inlined_callees):
            depths = _nesting_depths(cg.module.module, region.kernel_name)
            cg.in_entry_block(lambda b: b.store(b.addrspacecast(
                b.gep(depths, [ir.Constant(I32, 0), ir.Constant(I32, 0)]), I8P), nesting))
        return team_stack_bytes

    @staticmethod
    def team_master_hooks(cg, region, shared) -> ControlLoopHooks:
        """The kernel's hooks, with the builder placed where the team master starts the
        region's sequential code: the control loop's first state."""
        machine = StateMachine(cg, region.kernel_name)
        machine.new_state("start", master_only=True)
        return ControlLoopHooks(machine, shared, cg.openmp)


# Clauses that add no code after a loop's last iteration (lastprivate, reduction, linear,
# allocate do: the team copies, folds or frees after its chunks).
_NOTHING_AFTER = frozenset({"map", "firstprivate", "private", "shared", "default", "num_teams", "thread_limit",
                            "num_threads", "schedule", "dist_schedule", "collapse", "if", "device", "defaultmap",
                            "is_device_ptr", "has_device_addr", "order", "simdlen", "safelen", "proc_bind",
                            "nowait", "depend"})


def final_distribute(construct):
    """The directive of the `distribute parallel for` that is the region's whole work
    (the combined construct, however spelt, with no clause that adds code after its last
    iteration), else None. After its last chunk's parallel region the team has nothing
    left to do: it leaves there, without meeting the master at the barrier twice more
    (to end the parallel region, then to hear FINAL) -- vadd's teams met 3 barriers."""
    shape = combined_shape(construct)
    if shape is None or shape.per_team or not shape.loop_directive.has("distribute"):
        return None
    if any(clause.name not in _NOTHING_AFTER for directive in shape.directives for clause in directive.clauses):
        return None
    return shape.loop_directive


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


# ----------------------------------------------------------------- the hooks inside a kernel
class ControlLoopHooks(LoopConstructs, OpenMPRuntime):
    atomic_syncscope = "device"
    device_name = "gpu"         # what declare variant and metadirective choose by inside the kernel
    leaves_after_final_chunk = True     # the team leaves after its last chunk's parallel region

    def __init__(self, machine: StateMachine, shared: TeamSharedStorage, outer):
        super().__init__()
        self.machine = machine
        self.shared = shared
        self.outer = outer                  # the device module's hooks (atomics, device functions)
        self.in_parallel = False            # in code of a parallel region (of the team, or nested)
        self.serialised = 0                 # depth of nested parallel regions, each a team of one
        self.nests = False                  # the kernel has a nested parallel region
        self.team_start = None              # a block the team master runs once, first
        # The team's parallel regions' reductions, completed by the master after each.
        self.partials = WarpPartials(shared.prefix, shared.holds, self.at_team_start)

    # Loops of the team master's code around parallel regions (a distribute's): the control
    # loop's master runs them alone, its states follow; an SPMDized team follows the master
    # through them (guarded.py).
    def team_code_begins(self, cg) -> None:
        """A block of the master's code starts, which the team reached with it."""

    def team_code_ends(self, cg) -> None:
        """The master's code ends here: the team goes on with it."""

    def team_decision(self, cg, test: ir.Value) -> ir.Value:
        """The master's decision `test`, as the threads that go on with it see it."""
        return test

    def end_of_region(self) -> None:
        """After the region's code: the master ends the control loop."""
        self.machine.finish()

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
            sharing = shared_in_parallel_regions(definition.body, params, cg.module.critical_callees)
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
                self.barrier(cg, explicit=True)
        elif kind in ("master", "single", "masked"):
            self.emit_master_or_single(cg, construct)
        elif kind == "scope":
            self.emit_scope(cg, construct)
        elif kind == "error":           # no stderr on the GPU: the region runs on the host
            raise CompileError("'#pragma omp error' at(execution) is not supported inside a GPU target region",
                               construct.coord)
        elif kind == "critical":
            self.emit_critical(cg, construct)
        elif kind == "allocate":                 # OpenMP 5.0 (allocate_storage.py)
            self.emit_allocate(cg, construct)
        elif kind in ("flush",):
            nvptx.membar_gl(cg.builder)         # every memory order: a fence at the GPU's scope
        elif kind in ("taskwait", "taskyield"):
            pass
        elif directive.constructs and all(c in ("teams", "distribute", "parallel", "for", "simd")
                                           for c in directive.constructs):
            self.emit_leaves(cg, directive.constructs, directive, construct.body)
        elif kind == "ordered" and construct.body is None:
            if self.in_parallel and not doacross.in_order_here(cg):
                raise CompileError("'ordered depend(...)' must be inside a loop with an 'ordered(n)' clause",
                                   construct.coord)
            # one thread runs the doacross loop in order: every dependence holds already
        elif kind in ("ordered", "section", "sections", "task", "taskgroup"):
            # An ordered block would run in each thread as it comes, in no order.
            if self.in_parallel and kind in ("sections", "task", "ordered"):
                raise CompileError(f"'#pragma omp {kind}' in a parallel region is not supported on "
                                   "the GPU yet", construct.coord)
            # Undeferred, in its data environment (a task's unlisted locals firstprivate);
            # the copies team-shared, as a parallel region inside may use them.
            if kind == "task":
                tasks.emit_task(cg, construct, private_slot=self._team_slot(cg))
            else:
                with DataEnvironment(cg, directive, private_slot=self._team_slot(cg)):
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
                DeviceRuntime.serialized_parallel.call(cg.builder)
                self.serialised += 1
                try:
                    with self._data_environment(cg, directive):
                        self.emit_leaves(cg, rest, directive, body)
                finally:
                    self.serialised -= 1
                if not cg.builder.block.is_terminated:
                    DeviceRuntime.end_serialized_parallel.call(cg.builder)
            else:
                self.emit_parallel(cg, rest, directive, body)
        elif leaf == "for" and doacross.is_doacross(directive, body):
            self.emit_doacross_loop(cg, directive, body, rest)
        elif leaf == "for":
            self.emit_loop(cg, directive, body, rest=rest)
        elif leaf == "simd":        # not worksharing: the encountering thread runs every iteration
            self.emit_loop(cg, directive, body, rest=rest, worksharing=False)
        else:
            raise CompileError(f"'{leaf}' is not supported inside a GPU target region", directive.coord)

    def target_data_environment(self, cg, directive):
        """A plain target construct's private and firstprivate copies (arrays and structs:
        scalars already come by value), made like the teams construct's; a combined
        construct's go to the leaf they bind to (teams, parallel, for)."""
        if directive.constructs != ("target",):
            return contextlib.nullcontext()
        return self._teams_data_environment(cg, directive, ("private", "firstprivate"))

    def _teams_data_environment(self, cg, directive, names=("private", "firstprivate", "reduction")):
        """The teams construct's private, firstprivate and reduction copies: one per team,
        made by the team master and team-shared (its parallel regions may name them);
        reductions fold into the original atomically, across teams."""
        clauses = [c for c in directive.clauses if c.name in names]
        return DataEnvironment(cg, SimpleNamespace(clauses=clauses), combine_reduction=self._atomic_fold(cg),
                               private_slot=self._team_slot(cg))

    def allocator_team_slot(self, cg):
        """Team code (not a parallel region's): a pteam/cgroup variable in shared memory."""
        if self.in_parallel:
            return None
        return lambda name, ctype, align: self.shared.slot(cg, ctype, name, align=align)

    def _team_slot(self, cg):
        """DataEnvironment's `private_slot` for copies one per team, made by the team
        master and shared by the team's threads."""
        shared = self.shared
        return lambda name, ctype: shared.slot(cg, ctype, name, name in shared.locked_captures)

    def _atomic_fold(self, cg):
        """Fold a private copy into its original: atomically where other threads reach the
        original (shared memory, the team stack, global memory); with plain loads and
        stores where it is this thread's own stack slot (a serialised nested region's
        reduction onto the outer region's private copy: PTX atomics on local memory are
        undefined)."""
        def fold(op, original, private):
            value = cg.builder.load(private.address)
            if not _thread_private(original.address):
                warp_aggregated_fold(cg, op, original.ctype, original.address, value)
                return
            folded = combine(cg, op, original.ctype, cg.builder.load(original.address), value)
            cg.builder.store(folded, original.address)
        return fold

    # ----------------------------------------------------------------- parallel regions
    def emit_parallel(self, cg, rest, directive, body) -> None:
        """EnterParallel ... ExitParallel (paper Section 3.3)."""
        b = cg.builder
        requested = self._num_threads(cg, directive)
        DeviceRuntime.prepare_parallel.call(b, [requested])
        parallel_state = self.machine.reserve()
        after = self.machine.reserve()
        last_work, self.exit_after_parallel = self.exit_after_parallel, None     # not a nested region's
        self.machine.go_to(parallel_state, master_only_code=True)
        participants = lambda: self._participants(cg)       # noqa: E731
        if self.chunk_range is not None and self.chunk_range.read:     # its count too (loops.py)
            count = self.machine.after_each_barrier(I32, participants)
            participants = lambda: count                    # noqa: E731
        self.machine.open_reserved(parallel_state, "parallel", master_only=False,
                                   participants=participants, leave_if=last_work)
        # A team that leaves after the region has no master to complete its reductions.
        self._parallel_body(cg, rest, directive, body, partials=last_work is None)
        if not b.block.is_terminated:
            self.machine.leave_if(last_work)
            self.machine.go_to(after, master_only_code=False)
        self.machine.open_reserved(after, "sequential", master_only=True)
        self.partials.fold_after_join(cg)
        DeviceRuntime.parallel_end.call(cg.builder)

    def _parallel_body(self, cg, rest, directive, body, partials: bool = True) -> None:
        """The parallel region's code, as each of its threads runs it. `partials`: its
        reductions leave warp partials for the master to fold after the region
        (team_reductions.py), else each warp folds its own atomically."""
        self.in_parallel = True
        try:
            with cg.block_scope():
                directive = doacross.inner_loops_private(directive, body)
                loop_clauses = directive
                if rest and rest[0] in ("for", "simd"):     # linear on the loop's own variable: lastprivate
                    loop_clauses = as_lastprivate(directive, {x.variable for x in self._loops(directive, body)})
                fold = self.partials.region_fold(cg, self._atomic_fold(cg)) if partials else None
                with self._data_environment(cg, loop_clauses, combine_reduction=fold) as environment:
                    if rest and rest[0] == "for" and doacross.is_doacross(directive, body):
                        self.emit_doacross_loop(cg, directive, body, rest[1:], environment)
                    elif rest and rest[0] in ("for", "simd"):
                        self.emit_loop(cg, directive, body, rest=rest[1:], worksharing=True, implicit_barrier=False,
                                       environment=environment)
                    else:
                        self.emit_leaves(cg, rest, directive, body)
        finally:
            self.in_parallel = False

    def emit_doacross_loop(self, cg, directive, body, rest, environment=None) -> None:
        """A doacross loop (doacross.py): the team master runs every iteration in order,
        which keeps every dependence; the team meets at the loop's barrier after it."""
        if self.chunk_range is not None:
            raise CompileError("a doacross loop ('ordered(n)') shared by teams ('distribute parallel for') "
                               "is not supported on the GPU", directive.coord)
        if environment is None:
            directive = doacross.inner_loops_private(directive, body)
        b = cg.builder
        run, done = cg.new_block("doacross.master"), cg.new_block("doacross.done")
        b.cbranch(self.machine.is_master if self.team_parallel else ir.Constant(ir.IntType(1), 1), run, done)
        b.position_at_end(run)
        with doacross.in_order(cg):
            self.emit_loop(cg, directive, body, rest=rest, worksharing=False, implicit_barrier=False,
                           environment=environment)
        cg.branch_if_open(done)
        b.position_at_end(done)
        if self.team_parallel and not clauses_named(directive, "nowait"):
            self.barrier(cg)

    def _participants(self, cg) -> ir.Value:
        return DeviceRuntime.parallel_start.call(cg.builder)

    def _num_threads(self, cg, directive) -> ir.Value:
        clause = next(iter(clauses_named(directive, "num_threads")), None)
        requested = ir.Constant(I32, 0)
        if clause is not None:
            requested = integer_operand(cg, clause)
        for condition in clauses_named(directive, "if"):
            if condition.modifier in (None, "parallel"):
                test = cg.condition(condition.expr)
                requested = cg.builder.select(test, requested, ir.Constant(I32, 1))
        return requested

    def barrier(self, cg, explicit: bool = False) -> None:
        """EmitOMPBarrier: a parallel -> parallel transition at the one synchronisation point.
        `explicit`: a `#pragma omp barrier` of the program (else a construct's implied one)."""
        state = self.machine.reserve()
        self.machine.go_to(state, master_only_code=False)
        self.machine.open_reserved(state, "parallel", master_only=False,
                                   participants=lambda: self._participants(cg))

    # ----------------------------------------------------------------- synchronisation
    def emit_master_or_single(self, cg, construct) -> None:
        b = cg.builder
        masked = construct.directive.kind == "masked"
        if not self.team_parallel:          # one thread, numbered 0, is the team
            if masked:
                runs, skip = cg.new_block("masked.run"), cg.new_block("masked.done")
                b.cbranch(runs_masked(cg, construct.directive, ir.Constant(I32, 0)), runs, skip)
                b.position_at_end(runs)
            with DataEnvironment(cg, construct.directive):
                cg.stmt(construct.body)
            if masked:
                cg.branch_if_open(skip)
                b.position_at_end(skip)
            return
        if clauses_named(construct.directive, "copyprivate"):
            # The other threads' copies are not reached: run such a region on the host.
            raise CompileError("'copyprivate' in a parallel region is not supported inside a GPU "
                               "target region", construct.coord)
        run, done = cg.new_block("master.run"), cg.new_block("master.done")
        runs = runs_masked(cg, construct.directive, self.machine.tid) if masked else self.machine.is_master
        b.cbranch(runs, run, done)
        b.position_at_end(run)
        with DataEnvironment(cg, construct.directive):
            cg.stmt(construct.body)
        cg.branch_if_open(done)
        b.position_at_end(done)
        if construct.directive.kind == "single" and not clauses_named(construct.directive, "nowait"):
            self.barrier(cg)

    def emit_scope(self, cg, construct) -> None:
        """OpenMP 5.1's scope: each thread runs the block with its own copies, reductions
        folded atomically; in the team's parallel region, a barrier after it unless nowait."""
        directive = construct.directive
        with cg.block_scope(), DataEnvironment(cg, directive, combine_reduction=self._atomic_fold(cg)):
            cg.stmt(construct.body)
        if self.team_parallel and not clauses_named(directive, "nowait") and not cg.builder.block.is_terminated:
            self.barrier(cg)

    def emit_critical(self, cg, construct) -> None:
        """A spin lock per critical name in global memory (threads of a warp progress
        independently on sm_70 and later)."""
        b = cg.builder
        lock = named_global(cg.module.module, f"omp2gpu_critical_{construct.directive.critical_name or 'unnamed'}",
                            I32, "internal", ir.Constant(I32, 0))
        acquire, body = cg.new_block("critical.acquire"), cg.new_block("critical.body")
        b.branch(acquire)
        b.position_at_end(acquire)
        pair = b.cmpxchg(lock, ir.Constant(I32, 0), ir.Constant(I32, 1), "acquire", "monotonic")
        b.cbranch(b.extract_value(pair, 1), body, acquire)
        b.position_at_end(body)
        cg.stmt(construct.body)
        if not b.block.is_terminated:
            b.atomic_rmw("xchg", lock, ir.Constant(I32, 0), "release")


def _thread_private(address: ir.Value) -> bool:
    """An address inside a stack slot (an alloca, through GEPs and casts): local memory
    only the thread that made it reaches."""
    while isinstance(address, (ir.GEPInstr, ir.CastInstr)):
        address = address.operands[0]
    return isinstance(address, ir.AllocaInstr)
