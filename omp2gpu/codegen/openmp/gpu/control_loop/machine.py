"""The control loop itself (paper Section 3, Fig. 1), as LLVM IR:

    entry:   every thread; next = 0 (the first sequential state), idx = 0
    header:  switch (next) { case k: state k ...  default: FINAL }
    state:   sequential states let only the team master (tid 0) in; parallel
             states let in the threads below the region's thread count
    latch:   barrier.sync 0;    -- the single barrier, where all threads reconverge
             (not the aligned bar.sync of __syncthreads: a warp's threads arrive apart)
             next = ControlState[idx]; idx ^= 1; goto header
    FINAL:   goto exit   (no return inside the switch)

The whole team reads FINAL after the same barrier and nothing follows the loop, so
the team leaves without meeting again: one barrier fewer per team than a FINAL
that went through the latch (a short team's cost on the H200: vadd, 1 element a
thread, met 4 barriers a team, then 3). A parallel state may also lead straight to
the exit (leave_if): after the last chunk of a distribute that is the region's whole
work, when the master flagged it so before the barrier into the state (vadd: 1).

ControlState[2] lives in shared memory; the master writes the slot of the
current iteration and everyone reads it after the barrier, so alternating
slots keep a slow reader from racing the master's next write.
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.ir_types import I32
from omp2gpu.targets import nvptx

FINAL = -1


class StateMachine:
    def __init__(self, cg, kernel_name: str):
        self.cg = cg
        b = cg.builder
        self.tid = nvptx.read_sreg(b, "tid.x")
        self.is_master = b.icmp_unsigned("==", self.tid, ir.Constant(I32, 0))
        array = ir.ArrayType(I32, 2)
        self.control = ir.GlobalVariable(cg.module.module, array, name=f"{kernel_name}_control_state",
                                         addrspace=nvptx.SHARED_ADDRESS_SPACE)
        self.control.linkage = "internal"
        self.control.initializer = ir.Constant(array, ir.Undefined)
        self.control.align = 4
        entry = self.entry = b.block
        self.preloads = []      # (header phi, what the latch computes for it)
        self.header, self.latch = cg.new_block("control.header"), cg.new_block("control.latch")
        self.final, self.exit = cg.new_block("control.final"), cg.new_block("control.exit")
        b.branch(self.header)
        b.position_at_end(self.header)
        self.next = b.phi(I32, "next")
        self.idx = b.phi(I32, "idx")
        self.next.add_incoming(ir.Constant(I32, 0), entry)
        self.idx.add_incoming(ir.Constant(I32, 0), entry)
        self.switch = b.switch(self.next, self.final)
        self.states = 0

    # ----------------------------------------------------------------- states
    def new_state(self, name: str, master_only: bool, participants=None) -> int:
        """Open a new state and position the builder inside it, past its guard:
        sequential states admit the team master; parallel states the threads
        below `participants()` (evaluated inside the state)."""
        state = self.reserve()
        self.open_reserved(state, name, master_only, participants)
        return state

    def _slot(self):
        b = self.cg.builder
        return b.gep(self.control, [ir.Constant(I32, 0), self.idx])

    def go_to(self, state: int, master_only_code: bool) -> None:
        """End this state: the master names the next one; everyone goes to the barrier."""
        b = self.cg.builder
        if master_only_code:
            b.store(ir.Constant(I32, state), self._slot())
        else:
            write, done = self.cg.new_block("control.set"), self.cg.new_block("control.setdone")
            b.cbranch(self.is_master, write, done)
            b.position_at_end(write)
            b.store(ir.Constant(I32, state), self._slot())
            b.branch(done)
            b.position_at_end(done)
        b.branch(self.latch)

    def reserve(self) -> int:
        """A state number for a state opened later (the continuation after a region)."""
        state = self.states
        self.states += 1
        return state

    def open_reserved(self, state: int, name: str, master_only: bool, participants=None, leave_if=None) -> None:
        """`leave_if`: a team-shared flag; the threads this state leaves out go to the exit
        when it is set (the state's own threads test it at its end: leave_if())."""
        b = self.cg.builder
        block = self.cg.new_block(f"state{state}.{name}")
        self.switch.add_case(ir.Constant(I32, state), block)
        b.position_at_end(block)
        inside = self.cg.new_block(f"state{state}.{name}.run")
        allowed = self.is_master if master_only else b.icmp_unsigned("<", self.tid, participants())
        if leave_if is None:
            b.cbranch(allowed, inside, self.latch)
        else:
            left_out = self.cg.new_block(f"state{state}.{name}.left_out")
            b.cbranch(allowed, inside, left_out)
            b.position_at_end(left_out)
            self.leave_if(leave_if)
            b.branch(self.latch)
        b.position_at_end(inside)

    def leave_if(self, flag) -> None:
        """When the team-shared `flag` is set, the thread leaves the kernel: the master set
        it before the barrier into this state, and the team has nothing left to do."""
        if flag is None:
            return
        b = self.cg.builder
        stay = self.cg.new_block("control.stay")
        b.cbranch(b.icmp_unsigned("!=", b.load(flag), ir.Constant(I32, 0)), self.exit, stay)
        b.position_at_end(stay)

    def after_each_barrier(self, ir_type, compute) -> ir.Value:
        """The value `compute()` gives right after the barrier, which every thread computes
        in the latch (loads of team-shared memory, nothing that writes): a state that needs
        it first thing finds it loaded, instead of issuing the loads only once the switch has
        sent it there (vadd's parallel state: its thread count, then its chunk's bounds, two
        more round trips to shared memory before the first global load). The value holds
        what the memory held at the last barrier: for data no thread writes between that
        barrier and its use."""
        at_header = ir.IRBuilder(self.header)
        at_header.position_at_start(self.header)
        value = at_header.phi(ir_type, "after_barrier")
        value.add_incoming(ir.Constant(ir_type, ir.Undefined), self.entry)   # no state uses it before
        self.preloads.append((value, compute))
        return value

    # ----------------------------------------------------------------- closing
    def finish(self) -> None:
        """The master ends the region: FINAL next; then the latch and the exit."""
        b = self.cg.builder
        if not b.block.is_terminated:
            self.go_to(FINAL, master_only_code=True)
        b.position_at_end(self.final)
        b.branch(self.exit)
        b.position_at_end(self.latch)
        # Threads arrive from different states: the master's warp is split. Its lanes
        # meet first (bar.warp.sync), so the block barrier sees whole warps arrive.
        nvptx.diverged_barrier(b)
        loaded = b.load(self._slot())
        preloaded = [(phi, compute()) for phi, compute in self.preloads]
        flipped = b.xor(self.idx, ir.Constant(I32, 1))
        self.next.add_incoming(loaded, b.block)
        self.idx.add_incoming(flipped, b.block)
        for phi, value in preloaded:
            phi.add_incoming(value, b.block)
        b.branch(self.header)
        b.position_at_end(self.exit)
