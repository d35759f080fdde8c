"""NVVM intrinsics the device code generator calls: special registers,
barriers, memory fences, warp shuffles; and which atomicrmw operations the
NVPTX backend turns into one PTX instruction."""

from __future__ import annotations

from dataclasses import dataclass

from llvmlite import ir

I32, I64 = ir.IntType(32), ir.IntType(64)
VOID = ir.VoidType()
WARP_SIZE = 32
FULL_MASK = 0xFFFFFFFF

# PTX special register -> the NVVM intrinsic reading it (all i32).
SPECIAL_REGISTERS = {
    **{f"{register}.{axis}": f"llvm.nvvm.read.ptx.sreg.{register}.{axis}"
       for register in ("tid", "ntid", "ctaid", "nctaid") for axis in "xyz"},
    "warpsize": "llvm.nvvm.read.ptx.sreg.warpsize",
    "laneid": "llvm.nvvm.read.ptx.sreg.laneid",
}
# 64-bit ones: %globaltimer counts nanoseconds (omp_get_wtime in kernels).
SPECIAL_REGISTERS_64 = {"globaltimer": "llvm.nvvm.read.ptx.sreg.globaltimer"}

# Memory fences by scope: membar.cta / membar.gl (the GPU) / membar.sys.
MEMORY_BARRIERS = {
    "cta": "llvm.nvvm.membar.cta",
    "gl": "llvm.nvvm.membar.gl",
    "sys": "llvm.nvvm.membar.sys",
}

# shfl.sync modes; the clamp operand's low bits are the lane bound, except
# for "up", which clamps at the segment's first lane (0).
SHUFFLE_MODES = {"down": 0x1F, "bfly": 0x1F, "idx": 0x1F, "up": 0x00}

# (atomicrmw operation, type) pairs the NVPTX backend lowers to a single
# atom.* instruction on sm_70..sm_120 (checked with LLVM 22 and ptxas 13).
# Every other valid atomicrmw still compiles: LLVM's AtomicExpand pass turns
# it into a compare-and-swap loop (fsub, fmax, fmin, fmaximum, fminimum, and
# anything on i8/i16).
NATIVE_ATOMIC_RMW = frozenset(
    [(op, ty) for op in ("xchg", "add", "and", "or", "xor", "max", "min", "umax", "umin")
     for ty in ("i32", "i64")]
    + [("xchg", "float"), ("xchg", "double"), ("fadd", "float"), ("fadd", "double"), ("fadd", "half")]
)


def is_native_atomic(op: str, type_: ir.Type) -> bool:
    """Whether `atomicrmw op` on `type_` is one atom.* instruction."""
    return (op, str(type_)) in NATIVE_ATOMIC_RMW


def _intrinsic(builder: ir.IRBuilder, name: str, return_type: ir.Type, params: list) -> ir.Function:
    module = builder.module
    existing = module.globals.get(name)
    if existing is not None:
        return existing
    return ir.Function(module, ir.FunctionType(return_type, params), name=name)


def _i32(value) -> ir.Value:
    return ir.Constant(I32, value) if isinstance(value, int) else value


@dataclass(frozen=True)
class PartGrid:
    """Where a function that may run as one part of a fused launch (targets/nvptx/fusion.py)
    reads the grid: the registers where `real` (an i1 parameter) is true, else `registers`
    ({"ctaid.x": its block's number, "nctaid.x": its blocks}, parameters). Its callers pass
    `real` as a constant, so after inlining each read is one or the other, where it was."""
    real: ir.Value
    registers: dict


PART_GRID_ATTRIBUTE = "part_grid"      # a PartGrid, on such a function's ir.Function


def read_sreg(builder: ir.IRBuilder, name: str) -> ir.Value:
    """The value of special register `name` ("tid.x", "laneid"...: an i32;
    "globaltimer": an i64); see PartGrid for ctaid.x and nctaid.x in a fused launch's part."""
    wide = name in SPECIAL_REGISTERS_64
    intrinsic = SPECIAL_REGISTERS_64[name] if wide else SPECIAL_REGISTERS.get(name)
    if intrinsic is None:
        raise ValueError(f"unknown special register '{name}'")
    value = builder.call(_intrinsic(builder, intrinsic, ir.IntType(64) if wide else I32, []), [],
                         name=name.replace(".", "_"))
    part = getattr(builder.function, PART_GRID_ATTRIBUTE, None)
    if part is not None and name in part.registers:
        return builder.select(part.real, value, part.registers[name])
    return value


def barrier(builder: ir.IRBuilder, barrier_id: int | ir.Value = 0,
            thread_count: int | ir.Value | None = None, aligned: bool = True) -> None:
    """bar.sync: every thread of the block (or `thread_count` of them, a
    multiple of the warp size) waits at barrier `barrier_id`. LLVM 22 spells
    __syncthreads `llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)` and
    auto-upgrades the old `llvm.nvvm.barrier0`.

    `aligned=False` gives `barrier.sync`, which PTX allows in divergent code; on an
    H100 a warp whose lanes reach it apart still passed with its first lanes, so
    such callers warp_sync the warp's lanes first."""
    kind = "aligned." if aligned else ""
    if thread_count is None:
        function = _intrinsic(builder, f"llvm.nvvm.barrier.cta.sync.{kind}all", VOID, [I32])
        builder.call(function, [_i32(barrier_id)])
    else:
        function = _intrinsic(builder, f"llvm.nvvm.barrier.cta.sync.{kind}count", VOID, [I32, I32])
        builder.call(function, [_i32(barrier_id), _i32(thread_count)])


def diverged_barrier(builder: ir.IRBuilder) -> None:
    """The block meets at a barrier its warps' lanes may reach apart (from different
    branches or states): each warp's lanes meet first (bar.warp.sync), then the block
    (barrier.sync 0, not aligned; see `barrier`). The warp's mask is computed
    (warp_lanes_mask), never the constant full mask: ptxas folds `bar.warp.sync -1` into
    the warp sync it puts before the barrier itself, and the warp then passed the barrier
    with its first lanes, as with no warp sync at all (H200, session 23: the control loop's
    target_teams_nested_parallel lost rows of its grid in every run). Nor a branch on the
    block's shape to the constant: that measured slower (vadd's control loop, session 22)."""
    warp_sync(builder, warp_lanes_mask(builder))
    barrier(builder, aligned=False)


def warp_sync(builder: ir.IRBuilder, mask: int | ir.Value) -> None:
    """bar.warp.sync (__syncwarp): the lanes in `mask` wait for each other here."""
    builder.call(_intrinsic(builder, "llvm.nvvm.bar.warp.sync", VOID, [I32]), [_i32(mask)])


def active_mask(builder: ir.IRBuilder) -> ir.Value:
    """activemask (__activemask): the lanes of the warp executing this instruction together."""
    return builder.call(_intrinsic(builder, "llvm.nvvm.activemask", I32, []), [])


def population_count(builder: ir.IRBuilder, mask: ir.Value) -> ir.Value:
    """The number of bits set in a 32-bit mask (popc)."""
    return builder.call(_intrinsic(builder, "llvm.ctpop.i32", I32, [I32]), [mask])


def warp_lanes_mask(builder: ir.IRBuilder) -> ir.Value:
    """The lanes of this thread's warp that the block has (all 32 but in a last,
    partial warp): the mask for a warp_sync every thread of the warp reaches."""
    tid, ntid = read_sreg(builder, "tid.x"), read_sreg(builder, "ntid.x")
    lanes = builder.sub(ntid, builder.and_(tid, _i32(~(WARP_SIZE - 1))))      # 1 or more
    lanes = builder.select(builder.icmp_unsigned("<", lanes, _i32(WARP_SIZE)), lanes, _i32(WARP_SIZE))
    return builder.lshr(_i32(-1), builder.sub(_i32(WARP_SIZE), lanes))


def is_local(builder: ir.IRBuilder, pointer: ir.Value) -> ir.Value:
    """isspacep.local: whether a generic pointer points into the thread's local memory
    (an i1; constant once LLVM has inferred the pointer's address space)."""
    return _is_in_space(builder, pointer, "local")


def is_shared(builder: ir.IRBuilder, pointer: ir.Value) -> ir.Value:
    """isspacep.shared: whether a generic pointer points into the block's shared memory."""
    return _is_in_space(builder, pointer, "shared")


def _is_in_space(builder: ir.IRBuilder, pointer: ir.Value, space: str) -> ir.Value:
    i8p = ir.IntType(8).as_pointer()
    function = _intrinsic(builder, f"llvm.nvvm.isspacep.{space}", ir.IntType(1), [i8p])
    return builder.call(function, [builder.bitcast(pointer, i8p)])


def membar(builder: ir.IRBuilder, scope: str) -> None:
    """A memory fence at `scope` ("cta", "gl" or "sys")."""
    builder.call(_intrinsic(builder, MEMORY_BARRIERS[scope], VOID, []), [])


def membar_gl(builder: ir.IRBuilder) -> None:
    """membar.gl: this thread's writes are seen by the whole GPU before later ones."""
    membar(builder, "gl")


def shfl_sync(builder: ir.IRBuilder, mode: str, mask, value: ir.Value, operand,
              width: int = WARP_SIZE) -> ir.Value:
    """shfl.sync.`mode` of `value` among the lanes in `mask`. `operand` is the
    delta ("down", "up"), the xor mask ("bfly") or the source lane ("idx").
    Integers up to 64 bits, float, double and pointers; PTX shuffles 32 bits,
    so 64-bit values go as two halves."""
    clamp = ((WARP_SIZE - width) << 8) | SHUFFLE_MODES[mode]
    mask, operand = _i32(mask), _i32(operand)

    def shuffle32(word: ir.Value) -> ir.Value:
        suffix = "f32" if isinstance(word.type, ir.FloatType) else "i32"
        function = _intrinsic(builder, f"llvm.nvvm.shfl.sync.{mode}.{suffix}", word.type,
                              [I32, word.type, I32, I32])
        return builder.call(function, [mask, word, operand, ir.Constant(I32, clamp)])

    kind = value.type
    if isinstance(kind, ir.FloatType) or kind == I32:
        return shuffle32(value)
    if isinstance(kind, ir.IntType) and kind.width < 32:
        return builder.trunc(shuffle32(builder.zext(value, I32)), kind)
    if isinstance(kind, ir.DoubleType):
        return builder.bitcast(_shuffle64(builder, builder.bitcast(value, I64), shuffle32), kind)
    if kind == I64:
        return _shuffle64(builder, value, shuffle32)
    if isinstance(kind, ir.PointerType):
        return builder.inttoptr(_shuffle64(builder, builder.ptrtoint(value, I64), shuffle32), kind)
    raise TypeError(f"cannot shuffle a value of type {kind}")


def _shuffle64(builder: ir.IRBuilder, value: ir.Value, shuffle32) -> ir.Value:
    low = shuffle32(builder.trunc(value, I32))
    high = shuffle32(builder.trunc(builder.lshr(value, ir.Constant(I64, 32)), I32))
    return builder.or_(builder.shl(builder.zext(high, I64), ir.Constant(I64, 32)), builder.zext(low, I64))


def shfl_down_sync(builder: ir.IRBuilder, mask, value: ir.Value, delta, width: int = WARP_SIZE) -> ir.Value:
    """The value `delta` lanes up the warp (this lane's own where that is out of range)."""
    return shfl_sync(builder, "down", mask, value, delta, width)
