"""Reductions inside a warp: a shuffle tree over its lowest lanes (the combined scheme's
end of loop, combined.py), and the fold of every thread's value that the warp's converged
lanes first reduce among themselves (the control loop's reduction clauses: into warp
partials its team master folds, control_loop/team_reductions.py, else atomically), so
that a team of 96 folding into one shared double makes 3 atomic operations, not 96
contending compare-and-swap loops (bench/peers: 23x Clang's kernel time for a max
reduction before)."""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.ir_types import I32
from omp2gpu.codegen.openmp.atomics.combine import atomic_combine
from omp2gpu.codegen.openmp.data.data_sharing import combine
from omp2gpu.targets import nvptx

WARP_SIZE = nvptx.WARP_SIZE
_SHUFFLED = (ir.FloatType, ir.DoubleType)


def bounded(b, value, limit: int):
    """min(value, limit), unsigned."""
    bound = ir.Constant(I32, limit)
    return b.select(b.icmp_unsigned("<", value, bound), value, bound)


def warp_reduce(cg, op, ctype, value, lane, active):
    """Tree reduction over the `active` lowest lanes of a warp (partial warps included):
    lane 0 ends with the combination of all of theirs."""
    b = cg.builder
    mask = _lowest_lanes(b, active)
    offset = WARP_SIZE // 2
    while offset:
        other = nvptx.shfl_down_sync(b, mask, value, offset)
        valid = b.icmp_unsigned("<", b.add(lane, ir.Constant(I32, offset)), active)
        value = b.select(valid, combine(cg, op, ctype, value, other), value)
        offset //= 2
    return value


def shufflable(ctype) -> bool:
    """A reduction value the shuffle tree takes: float, double, 32- and 64-bit integers."""
    kind = ctype.ir_type()
    return isinstance(kind, _SHUFFLED) or (isinstance(kind, ir.IntType) and kind.width in (32, 64))


def warp_aggregated_fold(cg, op: str, ctype, address, value) -> None:
    """Atomically fold `value` into `*address`, each thread once (warp_aggregated, both
    ways atomically)."""
    if not shufflable(ctype):
        atomic_combine(cg, op, ctype, address, value)
        return
    fold = lambda folded: atomic_combine(cg, op, ctype, address, folded)     # noqa: E731
    warp_aggregated(cg, op, ctype, value, reduced=fold, alone=fold)


def warp_aggregated(cg, op: str, ctype, value, reduced, alone) -> None:
    """Every thread's `value`, each folded once (shufflable types). The lanes that arrive
    together (activemask) and are the warp's lowest reduce theirs by shuffles and lane 0
    calls reduced(the warp's value); lanes that arrive otherwise (a warp split by
    divergence) call alone(their own), so every value is folded exactly once however the
    warp arrives."""
    b = cg.builder
    arrived = nvptx.active_mask(b)
    active = nvptx.population_count(b, arrived)
    lowest = _lowest_lanes(b, active)
    lane = b.and_(nvptx.read_sreg(b, "tid.x"), ir.Constant(I32, WARP_SIZE - 1))
    tree, by_itself, fold, done = (cg.new_block(f"red.{name}") for name in ("tree", "alone", "fold", "done"))
    b.cbranch(b.icmp_unsigned("==", arrived, lowest), tree, by_itself)
    b.position_at_end(by_itself)
    alone(value)
    b.branch(done)
    b.position_at_end(tree)
    warp_value = warp_reduce(cg, op, ctype, value, lane, active)
    b.cbranch(b.icmp_unsigned("==", lane, ir.Constant(I32, 0)), fold, done)
    b.position_at_end(fold)
    reduced(warp_value)
    b.branch(done)
    b.position_at_end(done)


def _lowest_lanes(b, count):
    """The mask of a warp's `count` lowest lanes (1 <= count <= 32; a shift by 32 is not
    defined, so a whole warp is its own case)."""
    partial = b.sub(b.shl(ir.Constant(I32, 1), count), ir.Constant(I32, 1))
    return b.select(b.icmp_unsigned("==", count, ir.Constant(I32, WARP_SIZE)), ir.Constant(I32, 0xFFFFFFFF), partial)
