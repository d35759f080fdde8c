"""Team-shared variables of a control-loop kernel (gpu_control_loop.py): which
variables a team's threads share, and where they live.

Shared: the variables of the sequential code that a parallel region names, what
that code lets escape (`&x`, an array decaying to a pointer: the pointer may
reach the region, and a thread cannot reach another's local memory), and the
by-value captures the code may change (a capture nobody assigns holds the same
value in every thread's copy). They live in shared memory while
SHARED_MEMORY_LIMIT bytes hold them, else on the team stack: each team's frame
of global memory the launcher provides (the kernel's team_stack parameter).
Variables a critical construct names go on the team stack too: the critical
lock's fences order their accesses, but compute-sanitizer's racecheck (shared
memory only, barriers only) cannot see that ordering and would report hazards
in shared memory.
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.ir_types import I32, I64
from omp2gpu.codegen.openmp.data.data_sharing import clauses_named, loop_nest
from omp2gpu.codegen.openmp.loops import canonical_loop
from omp2gpu.codegen.openmp.plan.team_shared_names import is_parallel, shared_in_parallel_regions
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.captures import assigned_names, free_identifiers
from omp2gpu.sema.scopes import Symbol
from omp2gpu.targets import nvptx

STATIC_SHARED_MEMORY = 48 * 1024        # what a kernel's static __shared__ data may take
# Left to the runtime's own shared data: control state, team state, the nesting depths
# (gpu_control_loop.MAX_BLOCK_SIZE bytes) and per-warp reduction partials (combined.py's
# MAX_WARPS values per reduction; team_reductions.PARTIALS_BYTES).
RUNTIME_SHARED_RESERVE = 4 * 1024
SHARED_MEMORY_LIMIT = STATIC_SHARED_MEMORY - RUNTIME_SHARED_RESERVE   # team-shared variables; the rest: team stack
TEAM_STACK_ALIGN = 256
LOOP_LEAVES = ("distribute", "for", "simd")


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
        self._homes = []                    # the addresses slot() gave out
        captured = {c.name: c for c in region.captures if c.kind != "object"}
        sharing = shared_in_parallel_regions(region.construct.body, critical_callees=cg.module.critical_callees)
        self.declarations, self.locked, names = sharing.declarations, sharing.locked, sharing.outer
        self.locked_captures = sharing.locked_outer
        if is_parallel(region.directive):
            names |= set(free_identifiers(region.construct.body))
        # A by-value capture nobody assigns holds the same value in every thread's
        # copy: only captures the code may change need one shared home. A pointer
        # the code writes through is not changed: each thread reads its own copy,
        # which LLVM knows points to global memory (a kernel parameter).
        pointers = frozenset(name for name, capture in captured.items() if capture.ctype.is_pointer)
        changed = assigned_names(region.construct.body, pointers) - _own_loop_variables(region)
        # Sorted: the same shared-memory layout on every run (set order follows the hash seed).
        self.captures = [captured[name] for name in sorted(names) if name in captured and name in changed]

    def slot(self, cg, ctype: ct.CType, name: str, locked: bool = False, align: int = 1) -> ir.Value:
        if ctype.is_variable:
            raise CompileError(f"variable-length array '{name}' shared by a team: its team-shared "
                               "copy needs a size known at compile time")
        if locked or self.bytes + ctype.size > SHARED_MEMORY_LIMIT:
            self._homes.append(self._stack_slot(cg, ctype, align))
            return self._homes[-1]
        array = ir.ArrayType(ctype.ir_type(), 1)
        self.count += 1
        variable = ir.GlobalVariable(self.module, array, name=f"{self.prefix}_shared_{self.count}_{name}",
                                     addrspace=nvptx.SHARED_ADDRESS_SPACE)
        variable.linkage = "internal"
        variable.initializer = ir.Constant(array, ir.Undefined)
        variable.align = max(ctype.align, 4, align)
        self.bytes += ctype.size
        # Cast in the entry block: every state of the control loop may use the slot.
        self._homes.append(cg.in_entry_block(lambda b: b.addrspacecast(
            b.gep(variable, [ir.Constant(I32, 0), ir.Constant(I32, 0)]), ctype.ir_type().as_pointer())))
        return self._homes[-1]

    def holds(self, address: ir.Value) -> bool:
        """Whether `address` is a slot of this storage: the team's own, no other team's."""
        return any(address is home for home in self._homes)

    def rehome_captures(self, cg) -> None:
        """The master copies by-value captures a parallel region reads into shared memory."""
        for capture in self.captures:
            private = cg.scope.lookup(capture.name)
            slot = self.slot(cg, capture.ctype, capture.name, capture.name in self.locked_captures)
            cg.builder.store(cg.builder.load(private.address), slot)
            cg.scope.declare(Symbol(capture.name, capture.ctype, "object", slot))

    def _stack_slot(self, cg, ctype: ct.CType, align: int = 1) -> ir.Value:
        offset = _round_up(self.stack_bytes, max(ctype.align, align))
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


def _own_loop_variables(region) -> set[str]:
    """Iteration variables of the loops the target directive itself governs (the scheme
    gives each thread its own, so the captured originals are never written)."""
    directive = region.directive
    if not any(directive.has(leaf) for leaf in LOOP_LEAVES):
        return set()
    depth = max([c.count for c in clauses_named(directive, "collapse")] or [1])
    return {canonical_loop.analyze(node).variable for node in loop_nest(region.construct.body, depth)}
