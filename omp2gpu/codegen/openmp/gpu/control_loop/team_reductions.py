"""The reduction clauses of a team's parallel region in the control loop (both forms).

Each warp's converged lanes reduce their values by shuffles; lane 0 leaves the warp's
partial in shared memory and sets the warp's bit in a mask. After the region's closing
barrier the team master folds the marked partials into the original, once for the team,
with a plain load and store. Before, each warp folded its partial with an atomic read and
a compare-and-swap loop on the original, the team's warps contending for it, and the
barrier waited for the last of them (H200, CUPTI: cl_distribute_lastprivate_with_parallel
2.92 -> 2.89 us, cl_reduction_parallel_and_teams' one-team kernel 1.30 -> 1.22 us).

Only for originals that are the team's own (team_sharing.py: shared memory, the team
stack). One in global memory (a mapped scalar) keeps the per-warp atomics: its fold after
the barrier put a global round trip on the team's critical path (barrier_phases'
`target parallel reduction(&&: okt)`: 1.60 -> 1.79 us), where the warps' own reads had
overlapped their arrival at the barrier.

Lanes that reach the fold apart from their warp's lowest (divergence) still fold their
own values atomically into the original, before the barrier: the master's fold after
it sees them. The master clears the mask as it reads it; the next region's warps set
bits only after the barrier that opens it.
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.ir_types import I32
from omp2gpu.codegen.openmp.atomics.combine import atomic_combine
from omp2gpu.codegen.openmp.data.data_sharing import combine, reduction_identity
from omp2gpu.codegen.openmp.data.named_globals import named_global
from omp2gpu.codegen.openmp.data.user_reductions import UserReduction
from omp2gpu.codegen.openmp.gpu.warp_reductions import WARP_SIZE, shufflable, warp_aggregated
from omp2gpu.targets import nvptx

MAX_WARPS = 1024 // WARP_SIZE
# Shared memory the kernel's partial arrays may take (part of team_sharing's
# RUNTIME_SHARED_RESERVE); a region's reductions beyond it fold per warp, atomically.
PARTIALS_BYTES = 2048


class WarpPartials:
    """The kernel's per-warp partial arrays (reused by its regions one after another: a
    region's k-th reduction of a type takes the k-th array of that type) and the folds of
    the parallel region being emitted, which the master completes after its barrier."""

    def __init__(self, prefix: str, team_owned, at_team_start):
        self.prefix = prefix
        self.team_owned = team_owned            # address -> whether it is a slot of the team's own
        self.at_team_start = at_team_start      # emit(builder) in the master's first code
        self._arrays: dict[tuple[int, str], tuple[ir.GlobalVariable, ir.GlobalVariable]] = {}
        self._bytes = 0
        self._pending = []                      # (op, original, array, mask) of the open region

    def region_fold(self, cg, fallback):
        """The combine_reduction of a team's parallel region: each thread's part of the
        fold; `fallback` (the per-warp atomic fold) for what no partial array takes."""
        def fold(op, original, private):
            ctype = original.ctype
            arrays = None
            if not isinstance(op, UserReduction) and shufflable(ctype) and self.team_owned(original.address):
                arrays = self._arrays_for(cg, len(self._pending), ctype)
            if arrays is None:
                fallback(op, original, private)
                return
            array, mask = arrays
            b = cg.builder
            warp = b.lshr(nvptx.read_sreg(b, "tid.x"), ir.Constant(I32, 5))

            def leave_partial(partial):
                b.store(partial, b.gep(array, [ir.Constant(I32, 0), warp]))
                b.atomic_rmw("or", mask, b.shl(ir.Constant(I32, 1), warp), "monotonic")
            warp_aggregated(cg, op, ctype, b.load(private.address), reduced=leave_partial,
                            alone=lambda value: atomic_combine(cg, op, ctype, original.address, value))
            self._pending.append((op, original, array, mask))
        return fold

    def fold_after_join(self, cg) -> None:
        """The team master, after the region's closing barrier: each original combined
        with its marked partials."""
        pending, self._pending = self._pending, []
        for op, original, array, mask in pending:
            _fold_partials(cg, op, original, array, mask)

    def _arrays_for(self, cg, position: int, ctype):
        value_type = ctype.ir_type()
        key = (position, str(value_type))
        if key not in self._arrays:
            size = MAX_WARPS * ctype.size
            if self._bytes + size > PARTIALS_BYTES:
                return None
            self._bytes += size
            count = len(self._arrays)
            array = _shared(cg, f"{self.prefix}_warp_partials_{count}", ir.ArrayType(value_type, MAX_WARPS), 8)
            mask = _shared(cg, f"{self.prefix}_warp_partials_{count}_marked", I32, 4)
            self.at_team_start(lambda builder: builder.store(ir.Constant(I32, 0), mask))
            self._arrays[key] = (array, mask)
        return self._arrays[key]


def _fold_partials(cg, op, original, array, mask) -> None:
    b = cg.builder
    ctype = original.ctype
    marked = b.load(mask)
    b.store(ir.Constant(I32, 0), mask)
    entry = b.block
    gather, fold, done = cg.new_block("partials.gather"), cg.new_block("partials.fold"), cg.new_block("partials.done")
    b.cbranch(b.icmp_unsigned("!=", marked, ir.Constant(I32, 0)), gather, done)
    b.position_at_end(gather)
    left = b.phi(I32, "partials.left")
    total = b.phi(ctype.ir_type(), "partials.total")
    left.add_incoming(marked, entry)
    total.add_incoming(reduction_identity(op, ctype), entry)
    trailing = cg.module.module.declare_intrinsic("llvm.cttz", [I32, ir.IntType(1)])
    warp = b.call(trailing, [left, ir.Constant(ir.IntType(1), 1)])
    added = combine(cg, op, ctype, total, b.load(b.gep(array, [ir.Constant(I32, 0), warp])))
    rest = b.and_(left, b.sub(left, ir.Constant(I32, 1)))
    left.add_incoming(rest, b.block)
    total.add_incoming(added, b.block)
    b.cbranch(b.icmp_unsigned("!=", rest, ir.Constant(I32, 0)), gather, fold)
    b.position_at_end(fold)
    b.store(combine(cg, op, ctype, b.load(original.address), added), original.address)
    b.branch(done)
    b.position_at_end(done)


def _shared(cg, name: str, value_type: ir.Type, align: int) -> ir.GlobalVariable:
    return named_global(cg.module.module, name, value_type, "internal", ir.Constant(value_type, ir.Undefined),
                        align, addrspace=nvptx.SHARED_ADDRESS_SPACE)
