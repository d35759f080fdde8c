"""The SPMDized control loop: a region the control loop would take, run with no state
machine when its parallel regions lie on the straight path through its sequential code
(plan/spmdization.py), as Clang's OpenMPOpt SPMDizes generic kernels.

Every thread of the team walks the region's code in order:

    if (tid == 0) { sequential code }        -- the team master, alone (a guard)
    barrier                                  -- what the master wrote is seen
    n = threads of the parallel region
    if (tid < n) { the region's code }       -- its barriers: barrier.sync 0
    else         { wait at the region's barriers until its last }
    barrier                                  -- the region's end
    if (tid == 0) { sequential code } ...

A loop or `if` of the sequential code around a parallel region (a team statement,
plan/spmdization.py) is taken by the whole team: the master evaluates its condition in a
guard and writes it to shared memory, the team meets at a barrier and branches on it
(two slots taken in turn, as below, so the next decision never overwrites one a slow
thread has still to read).

The control loop's hooks do the rest unchanged (team-shared variables, worksharing,
reductions, master, single, critical); where it opens a state this opens a guard or
meets at a barrier, and values cross guards in stack slots as they cross states.

Threads beyond a parallel region's count (num_threads, `if`) wait out its barriers:
before each one the region's thread 0 writes whether it is the region's last, in one of
two shared slots taken in turn (each thread keeps the parity), so a slow waiter reading
one slot never races the write of the next; a region whose count is the whole team
needs none of that.
"""

from __future__ import annotations

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.ir_types import I32
from omp2gpu.codegen.openmp.data.data_sharing import clauses_named
from omp2gpu.codegen.openmp.data.named_globals import named_global
from omp2gpu.codegen.openmp.gpu.control_loop.scheme import ControlLoop, ControlLoopHooks
from omp2gpu.codegen.openmp.plan.spmdization import spmdization_obstacle, team_statements
from omp2gpu.codegen.openmp.runtime_entries import DeviceRuntime
from omp2gpu.offload.abi import GPU_SPMDIZED
from omp2gpu.targets import nvptx

ZERO, ONE = ir.Constant(I32, 0), ir.Constant(I32, 1)


class SpmdizedControlLoop(ControlLoop):
    name = GPU_SPMDIZED

    @staticmethod
    def ineligibility(construct, facts=None) -> str | None:
        return spmdization_obstacle(construct)

    @staticmethod
    def team_master_hooks(cg, region, shared) -> ControlLoopHooks:
        guard = TeamMasterGuard(cg, region.kernel_name)
        guard.open()
        hooks = GuardedHooks(guard, shared, cg.openmp)
        hooks.team_statements = team_statements(region.construct.body)
        return hooks


class TeamMasterGuard:
    """The guards around the team master's code, in place of the control loop's states;
    `tid` and `is_master` as the state machine's, which the hooks read."""

    def __init__(self, cg, kernel_name: str):
        self.cg = cg
        b = cg.builder
        self.tid = nvptx.read_sreg(b, "tid.x")
        self.is_master = b.icmp_unsigned("==", self.tid, ZERO)
        self.kernel_name = kernel_name
        self._after = None          # where the open guard's code ends
        self._last_barrier = None   # the two "this barrier ends the region" slots, made on first use
        self._decisions = None      # the two slots of the master's decisions, made on first use
        self._decision_parity = None

    def open(self) -> None:
        run, self._after = self.cg.new_block("master.code"), self.cg.new_block("master.after")
        self.cg.builder.cbranch(self.is_master, run, self._after)
        self.cg.builder.position_at_end(run)

    def close(self) -> None:
        self.cg.branch_if_open(self._after)
        self.cg.builder.position_at_end(self._after)

    def last_barrier_slot(self, phase: ir.Value) -> ir.Value:
        if self._last_barrier is None:
            self._last_barrier = self._slot_pair("region_ends")
        return self.cg.builder.gep(self._last_barrier, [ZERO, phase])

    def decide(self, test: ir.Value) -> ir.Value:
        """In the master's code: its decision `test` (i1), which every thread of the team
        returns, past the guard and a barrier."""
        cg, b = self.cg, self.cg.builder
        if self._decisions is None:
            self._decisions = self._slot_pair("decisions")
            self._decision_parity = cg.alloca_ir(I32, "decision.parity")
            cg.in_entry_block(lambda entry: entry.store(ZERO, self._decision_parity))
        b.store(b.zext(test, I32), b.gep(self._decisions, [ZERO, b.load(self._decision_parity)]))
        self.close()
        nvptx.diverged_barrier(b)
        parity = b.load(self._decision_parity)
        decided = b.load(b.gep(self._decisions, [ZERO, parity]))
        b.store(b.xor(parity, ONE), self._decision_parity)
        return b.icmp_unsigned("!=", decided, ZERO)

    def _slot_pair(self, name: str) -> ir.GlobalVariable:
        array = ir.ArrayType(I32, 2)
        return named_global(self.cg.module.module, f"{self.kernel_name}_{name}", array, "internal",
                            ir.Constant(array, ir.Undefined), align=4, addrspace=nvptx.SHARED_ADDRESS_SPACE)


class GuardedHooks(ControlLoopHooks):
    leaves_after_final_chunk = False    # the team meets at a barrier after each parallel region anyway

    def __init__(self, guard: TeamMasterGuard, shared, outer):
        super().__init__(guard, shared, outer)
        self.guard = guard
        self.phase = None       # this thread's barrier parity, in a region some threads sit out

    def end_of_region(self) -> None:
        self.guard.close()

    def team_code_begins(self, cg) -> None:
        self.guard.open()

    def team_code_ends(self, cg) -> None:
        self.guard.close()

    def team_decision(self, cg, test: ir.Value) -> ir.Value:
        return self.guard.decide(test)

    def emit_parallel(self, cg, rest, directive, body) -> None:
        b = cg.builder
        DeviceRuntime.prepare_parallel.call(b, [self._num_threads(cg, directive)])
        self.guard.close()
        nvptx.diverged_barrier(b)
        threads = self._participants(cg)
        some_sit_out = any(c.modifier in (None, "parallel") for c in clauses_named(directive, "if")) \
            or bool(clauses_named(directive, "num_threads"))
        if some_sit_out:
            self.phase = cg.alloca_ir(I32, "barrier.parity")
            b.store(ZERO, self.phase)
        runs, waits, joined = cg.new_block("parallel.run"), cg.new_block("parallel.wait"), cg.new_block("parallel.end")
        b.cbranch(b.icmp_unsigned("<", self.guard.tid, threads), runs, waits)
        b.position_at_end(runs)
        self._parallel_body(cg, rest, directive, body)
        if not b.block.is_terminated:
            self._announce(cg, last=True)
            nvptx.diverged_barrier(b)
            b.branch(joined)
        b.position_at_end(waits)
        if some_sit_out:
            self._wait_out_region(cg, joined)
        else:                   # every thread runs the region: not reached
            nvptx.diverged_barrier(b)
            b.branch(joined)
        self.phase = None
        b.position_at_end(joined)
        self.guard.open()
        self.partials.fold_after_join(cg)
        DeviceRuntime.parallel_end.call(b)

    # ----------------------------------------------------------------- team statements
    def emit_team_statement(self, cg, node) -> None:
        """A loop or `if` around parallel regions, taken by the whole team as its master
        decides. No break or continue leaves it (plan/spmdization.py)."""
        b, guard = cg.builder, self.guard
        if isinstance(node, c_ast.If):
            test = guard.decide(cg.condition(node.cond))
            end = cg.new_block("team.if.end")
            branches = [(cg.new_block("team.if.then"), node.iftrue)]
            if node.iffalse is not None:
                branches.append((cg.new_block("team.if.else"), node.iffalse))
            b.cbranch(test, branches[0][0], branches[1][0] if len(branches) > 1 else end)
            for block, statement in branches:
                b.position_at_end(block)
                self._team_block(cg, statement, end)
            b.position_at_end(end)
            guard.open()
            return
        with cg.block_scope():
            if isinstance(node, c_ast.For) and isinstance(node.init, c_ast.DeclList):
                cg.stmt(node.init)
            elif isinstance(node, c_ast.For) and node.init is not None:
                cg.expr(node.init)
            cond, body, end = cg.new_block("team.loop.cond"), cg.new_block("team.loop.body"), \
                cg.new_block("team.loop.end")
            guard.close()
            b.branch(body if isinstance(node, c_ast.DoWhile) else cond)
            b.position_at_end(cond)
            guard.open()
            test = ir.Constant(ir.IntType(1), 1) if node.cond is None else cg.condition(node.cond)
            b.cbranch(guard.decide(test), body, end)
            b.position_at_end(body)
            guard.open()
            cg.stmt(node.stmt)
            if isinstance(node, c_ast.For) and node.next is not None and not b.block.is_terminated:
                cg.expr(node.next)
            guard.close()
            b.branch(cond)
            b.position_at_end(end)
            guard.open()

    def _team_block(self, cg, statement, end: ir.Block) -> None:
        """A branch of a team `if`: the master's code guarded, then the team goes on to `end`."""
        self.guard.open()
        cg.stmt(statement)
        self.guard.close()
        cg.builder.branch(end)

    def barrier(self, cg, explicit: bool = False) -> None:
        """EmitOMPBarrier: the region's threads meet, and those sitting it out.

        A `#pragma omp barrier` of a region the whole team runs is aligned (bar.sync, as
        Clang's SPMD barrier and CUDA's __syncthreads): OpenMP has every thread of the team
        meet that one barrier, as CUDA has for __syncthreads, and the code before it is the
        program's own, whose branches reconverge where they join. Implied barriers (a
        worksharing loop's end, single's, the guards') keep the warp-synchronised form: the
        code before them is this scheme's (session 18 made those aligned too, and 13 GPU
        tests failed)."""
        b = cg.builder
        self._announce(cg, last=False)
        if explicit and self.phase is None:
            nvptx.barrier(b)
            return
        nvptx.diverged_barrier(b)
        if self.phase is not None:
            b.store(b.xor(b.load(self.phase), ONE), self.phase)

    def _announce(self, cg, last: bool) -> None:
        """Thread 0 of a region some threads sit out says whether this barrier is its last."""
        if self.phase is None:
            return
        b = cg.builder
        write, written = cg.new_block("barrier.announce"), cg.new_block("barrier.announced")
        b.cbranch(self.guard.is_master, write, written)
        b.position_at_end(write)
        b.store(ONE if last else ZERO, self.guard.last_barrier_slot(b.load(self.phase)))
        b.branch(written)
        b.position_at_end(written)

    def _wait_out_region(self, cg, joined: ir.Block) -> None:
        """A thread beyond the region's count: at each of the region's barriers until its last."""
        b = cg.builder
        wait = cg.new_block("parallel.wait.barrier")
        b.branch(wait)
        b.position_at_end(wait)
        nvptx.diverged_barrier(b)
        phase = b.load(self.phase)
        last = b.load(self.guard.last_barrier_slot(phase))
        b.store(b.xor(phase, ONE), self.phase)
        b.cbranch(b.icmp_unsigned("!=", last, ZERO), joined, wait)
