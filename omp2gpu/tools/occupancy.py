"""Theoretical occupancy of a kernel on one streaming multiprocessor (SM), sm_70 to sm_121.

Occupancy = warps resident on an SM / the most it can hold. A block stays resident
until it finishes, so the number of blocks an SM holds at once is the smallest of
what its warp slots, block slots, register file, shared memory and barriers allow;
the smallest is the limiting factor. The rules are those of NVIDIA's occupancy
calculator (the CUDA Programming Guide's tables and cuda_occupancy.h), written
out here so that `omp2gpu report` needs no GPU and no CUDA toolkit:

- registers go to warps, in units of 256 per warp, from four sub-partitions of
  the register file, each holding a quarter (16 K) of the SM's 64 K registers;
  a block whose warps, rounded up to a multiple of four, need more than 64 K
  registers cannot be launched at all;
- shared memory goes to blocks in units of 256 bytes (sm_7x) or 128 (sm_8x,
  sm_90 and later), and from sm_80 on the driver reserves 1 KB of it for every block;
  the SM's shared memory is a carve-out of its L1: one of a few sizes, the
  largest by default, and a smaller preferred carve-out is overridden when one
  block needs more;
- each block holds its named barriers (bar.sync ids) in a per-SM pool.

The GPU tests check these figures against cuOccupancyMaxActiveBlocksPerMultiprocessor.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from omp2gpu.targets.nvptx import default_arch

WARP_SIZE = 32
KB = 1024


@dataclass(frozen=True)
class Multiprocessor:
    """What one SM of an architecture offers."""
    arch: str
    max_warps: int                       # resident warps per SM
    max_blocks: int                      # resident blocks per SM
    shared_carveouts_kb: tuple[int, ...]  # shared memory sizes the L1/shared split can take
    shared_per_block_optin: int          # most (static + dynamic) shared per block, opted in
    shared_unit: int                     # shared memory allocation granularity
    reserved_shared_per_block: int       # taken by the driver from each block's shared memory
    barrier_slots_per_block: int         # barrier pool = this x max_blocks
    registers: int = 64 * KB             # 32-bit registers per SM
    registers_per_block: int = 64 * KB
    max_registers_per_thread: int = 255
    register_unit: int = 256             # registers are given to a warp in these units
    sub_partitions: int = 4              # the register file is split four ways
    shared_per_block: int = 48 * KB      # without opting in (all static shared memory)
    max_threads_per_block: int = 1024

    @property
    def shared_bytes(self) -> int:
        """Shared memory per SM at the largest carve-out (the default)."""
        return self.shared_carveouts_kb[-1] * KB

    @property
    def max_threads(self) -> int:
        return self.max_warps * WARP_SIZE


_VOLTA_CARVEOUTS = (0, 8, 16, 32, 64, 96)
_A100_CARVEOUTS = (0, 8, 16, 32, 64, 100, 132, 164)
_GA10X_CARVEOUTS = (0, 8, 16, 32, 64, 100)
_HOPPER_CARVEOUTS = _A100_CARVEOUTS + (196, 228)

# Compute capability 7.0-12.1: the Programming Guide's "Technical Specifications per
# Compute Capability" and cuda_occupancy.h (carve-outs, units, barriers). Data-centre
# Blackwell (sm_100 B200, sm_103 B300) keeps Hopper's SM; the GeForce/workstation
# Blackwell (sm_120) and DGX Spark's (sm_121) have Ada's 48 warps, 24 blocks and 100 KB.
MULTIPROCESSORS: dict[str, Multiprocessor] = {m.arch: m for m in (
    Multiprocessor("sm_70", 64, 32, _VOLTA_CARVEOUTS, 96 * KB, 256, 0, 2),
    Multiprocessor("sm_72", 64, 32, _VOLTA_CARVEOUTS, 96 * KB, 256, 0, 2),
    Multiprocessor("sm_75", 32, 16, (32, 64), 64 * KB, 256, 0, 2),
    Multiprocessor("sm_80", 64, 32, _A100_CARVEOUTS, 163 * KB, 128, KB, 2),
    Multiprocessor("sm_86", 48, 16, _GA10X_CARVEOUTS, 99 * KB, 128, KB, 1),
    Multiprocessor("sm_87", 48, 16, _A100_CARVEOUTS, 163 * KB, 128, KB, 1),
    Multiprocessor("sm_89", 48, 24, _GA10X_CARVEOUTS, 99 * KB, 128, KB, 1),
    Multiprocessor("sm_90", 64, 32, _HOPPER_CARVEOUTS, 227 * KB, 128, KB, 2),
    Multiprocessor("sm_100", 64, 32, _HOPPER_CARVEOUTS, 227 * KB, 128, KB, 2),
    Multiprocessor("sm_103", 64, 32, _HOPPER_CARVEOUTS, 227 * KB, 128, KB, 2),
    Multiprocessor("sm_120", 48, 24, _GA10X_CARVEOUTS, 99 * KB, 128, KB, 1),
    Multiprocessor("sm_121", 48, 24, _GA10X_CARVEOUTS, 99 * KB, 128, KB, 1),
)}

# The order limiting factors are named in when several bind at once.
FACTORS = ("warps", "blocks", "registers", "shared memory", "barriers")


class UnsupportedArchitecture(ValueError):
    pass


def multiprocessor(arch: str) -> Multiprocessor:
    """The SM of `arch` ("sm_90a" is an sm_90)."""
    base = arch[:-1] if arch.endswith(("a", "f")) else arch
    if base not in MULTIPROCESSORS:
        raise UnsupportedArchitecture(
            f"no occupancy data for {arch} (the calculator covers {', '.join(MULTIPROCESSORS)})")
    return MULTIPROCESSORS[base]


def _round_up(value: int, unit: int) -> int:
    return -(-value // unit) * unit


@dataclass(frozen=True)
class Occupancy:
    """Blocks and warps one SM holds for a kernel at one block size."""
    arch: str
    block_size: int
    active_blocks: int                  # blocks per SM
    active_warps: int                   # warps per SM
    max_warps: int
    limits: dict[str, int] = field(default_factory=dict)   # factor -> blocks per SM it allows
    shared_per_sm: int = 0              # the carve-out used (bytes)
    shared_per_block: int = 0           # allocated per block, reserved part included

    @property
    def occupancy(self) -> float:
        return self.active_warps / self.max_warps

    @property
    def limiters(self) -> tuple[str, ...]:
        """The factors that allow no more blocks than are resident (all of them, in FACTORS order)."""
        return tuple(f for f in FACTORS if self.limits.get(f) == self.active_blocks)

    @property
    def limiter(self) -> str:
        return self.limiters[0] if self.limiters else ""

    def grid_limited(self, grid: int, multiprocessors: int) -> float:
        """Occupancy averaged over the GPU when a grid of `grid` blocks is spread over
        `multiprocessors` SMs in one wave or more: a small grid leaves warp slots empty
        (what a profiler's achieved occupancy shows for a short grid)."""
        if multiprocessors <= 0 or grid <= 0:
            return 0.0
        waves = -(-grid // max(1, self.active_blocks * multiprocessors))
        per_sm = grid / (waves * multiprocessors)       # blocks per SM while a wave runs
        warps = min(self.active_blocks, per_sm) * -(-self.block_size // WARP_SIZE)
        return warps / self.max_warps


def _carveout(sm: Multiprocessor, needed_per_block: int, preference: int | None) -> int:
    """Shared memory per SM: the preferred carve-out (percent of the largest; None: the
    largest), rounded up to a size the SM has, but never less than one block needs."""
    wanted = sm.shared_bytes if preference is None else preference * sm.shared_bytes // 100
    if wanted < needed_per_block:
        wanted = needed_per_block
    for size in sm.shared_carveouts_kb:
        if size * KB >= wanted:
            return size * KB
    return sm.shared_bytes


def occupancy(arch: str, registers: int, block_size: int, shared_bytes: int = 0,
              dynamic_shared_bytes: int = 0, barriers: int = 0,
              carveout: int | None = None) -> Occupancy:
    """Occupancy of a kernel using `registers` per thread, `shared_bytes` of static and
    `dynamic_shared_bytes` of dynamic shared memory per block and `barriers` named
    barriers, launched with `block_size` threads; `carveout` is the preferred shared
    memory carve-out in percent (None: no preference)."""
    sm = multiprocessor(arch)
    if not 1 <= block_size:
        raise ValueError(f"block size {block_size} is not a positive number of threads")
    if carveout is not None and not 0 <= carveout <= 100:
        raise ValueError(f"shared memory carve-out {carveout}% is not between 0 and 100")
    warps = -(-block_size // WARP_SIZE)
    limits = {"warps": sm.max_warps // warps if block_size <= sm.max_threads_per_block else 0,
              "blocks": sm.max_blocks}

    # Registers: per warp, from each sub-partition separately.
    per_warp = _round_up(registers * WARP_SIZE, sm.register_unit)
    launchable = (registers <= sm.max_registers_per_thread
                  and per_warp * warps <= sm.registers_per_block
                  # the hardware checks the block as if its warps filled all four sub-partitions
                  and per_warp * _round_up(warps, sm.sub_partitions) <= sm.registers_per_block)
    if not launchable:
        limits["registers"] = 0
    elif per_warp:
        warps_per_partition = sm.registers // sm.sub_partitions // per_warp
        limits["registers"] = warps_per_partition * sm.sub_partitions // warps
    # (no registers at all: no register limit)

    # Shared memory: the driver's reservation counts against the block.
    allocated = _round_up(shared_bytes + dynamic_shared_bytes + sm.reserved_shared_per_block, sm.shared_unit)
    per_block_limit = (sm.shared_per_block_optin if dynamic_shared_bytes and
                       shared_bytes + dynamic_shared_bytes > sm.shared_per_block else sm.shared_per_block)
    shared_per_sm = _carveout(sm, allocated, carveout)
    if allocated > per_block_limit + sm.reserved_shared_per_block:
        limits["shared memory"] = 0
    elif allocated:
        limits["shared memory"] = shared_per_sm // allocated

    if barriers:
        limits["barriers"] = sm.barrier_slots_per_block * sm.max_blocks // barriers

    blocks = min(limits.values())
    return Occupancy(arch=sm.arch, block_size=block_size, active_blocks=blocks,
                     active_warps=blocks * warps, max_warps=sm.max_warps, limits=limits,
                     shared_per_sm=shared_per_sm, shared_per_block=allocated)


def _block_sizes(ceiling: int):
    """`ceiling`, then each whole number of warps below it, largest first."""
    for aligned in range(_round_up(ceiling, WARP_SIZE), 0, -WARP_SIZE):
        yield min(ceiling, aligned)


def max_threads_per_block(arch: str, registers: int, shared_bytes: int = 0, barriers: int = 0,
                          maxntid: int | None = None) -> int:
    """The largest block that can be launched (0: none), as the driver's
    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: the hardware's 1024, the kernel's
    .maxntid, or the most warps its registers and shared memory allow."""
    sm = multiprocessor(arch)
    ceiling = min(sm.max_threads_per_block, maxntid or sm.max_threads_per_block)
    for block in _block_sizes(ceiling):
        if occupancy(arch, registers, block, shared_bytes, barriers=barriers).active_blocks:
            return block
    return 0


def best_block_size(arch: str, registers: int, shared_bytes: int = 0, barriers: int = 0,
                    max_threads: int | None = None) -> Occupancy | None:
    """The block size with the most resident threads per SM (as cudaOccMaxPotentialBlockSize:
    whole warps below `max_threads`, larger blocks win ties); None when no block fits."""
    sm = multiprocessor(arch)
    best = None
    for block in _block_sizes(min(max_threads or sm.max_threads_per_block, sm.max_threads_per_block)):
        candidate = occupancy(arch, registers, block, shared_bytes, barriers=barriers)
        threads = candidate.active_blocks * block
        if threads and (best is None or threads > best.active_blocks * best.block_size):
            best = candidate
    return best


def theoretical_occupancy(registers: int, shared_bytes: int = 0, block: int = 128,
                          arch: str | None = None, barriers: int = 0) -> float:
    """The fraction alone, for scripts (bench/lulesh): `arch` defaults to the GPU present."""
    if arch is None:
        arch = default_arch()
    return occupancy(arch, registers, block, shared_bytes, barriers=barriers).occupancy
