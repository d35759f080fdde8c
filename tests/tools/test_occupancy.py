"""The occupancy calculator (omp2gpu.tools.occupancy).

Without a GPU: figures worked out by hand from the published per-architecture
limits, the same cases the CUDA Occupancy Calculator spreadsheet shows. With one
(marker `gpu`): the calculator against the driver's
cuOccupancyMaxActiveBlocksPerMultiprocessor over many hand-written PTX kernels
(registers from a few to 255, static shared memory up to 48 KB, with and
without a barrier) and block sizes, and its per-SM table against the device's
attributes.
"""

from __future__ import annotations

import pytest
from gpu_presence import gpu_present

from omp2gpu.tools import occupancy as occ
from omp2gpu.tools.occupancy import KB, occupancy


# ----------------------------------------------------------------- by hand
@pytest.mark.parametrize("arch", ["sm_70", "sm_80", "sm_90"])
def test_64_registers_256_threads_is_half(arch):
    # 64 x 32 = 2048 registers a warp; 16 K per sub-partition -> 8 warps each, 32 per SM;
    # 4 blocks of 8 warps = 32 of 64 warps.
    result = occupancy(arch, 64, 256)
    assert (result.active_blocks, result.active_warps, result.occupancy) == (4, 32, 0.5)
    assert result.limiter == "registers"


def test_ga10x_has_48_warps():
    # sm_86: the same 32 warps are two thirds of its 48.
    result = occupancy("sm_86", 64, 256)
    assert result.active_warps == 32 and result.occupancy == pytest.approx(2 / 3)
    assert occupancy("sm_89", 32, 256).occupancy == 1.0      # 6 blocks x 8 warps = 48


def test_turing_has_32_warps_and_16_blocks():
    assert occupancy("sm_75", 32, 1024).occupancy == 1.0
    small = occupancy("sm_75", 16, 32)                        # 16 blocks of one warp
    assert (small.active_blocks, small.occupancy, small.limiter) == (16, 0.5, "blocks")


def test_few_registers_full_occupancy_limited_by_warps():
    result = occupancy("sm_90", 32, 256)
    assert (result.active_blocks, result.occupancy, result.limiters) == (8, 1.0, ("warps", "registers"))
    assert occupancy("sm_90", 22, 512).limiters == ("warps",)


def test_register_units_round_up_per_warp():
    # 33 registers: 1056 a warp, allocated 1280; 16384 // 1280 = 12 warps per sub-partition.
    result = occupancy("sm_80", 33, 128)
    assert result.active_warps == 48 and result.limiter == "registers"
    # 128 registers: 4096 a warp, 4 per sub-partition, 16 warps: 4 blocks of 128 threads.
    assert occupancy("sm_80", 128, 128).occupancy == 0.25


def test_small_blocks_hit_the_block_limit():
    result = occupancy("sm_90", 16, 32)
    assert (result.active_blocks, result.occupancy, result.limiter) == (32, 0.5, "blocks")


def test_too_many_registers_for_the_block_cannot_launch():
    assert occupancy("sm_90", 255, 512).active_blocks == 0
    assert occupancy("sm_90", 255, 256).active_blocks == 1
    assert occ.max_threads_per_block("sm_90", 255) == 256
    # 100 registers: 3328 a warp, 4 warps per sub-partition: at most 16 warps.
    assert occ.max_threads_per_block("sm_90", 100) == 512
    assert occ.max_threads_per_block("sm_90", 32) == 1024
    assert occ.max_threads_per_block("sm_90", 32, maxntid=200) == 200


def test_shared_memory_with_the_reserved_kilobyte():
    # 48 KB static + 1 KB reserved = 49 KB a block: 228 // 49 = 4 blocks on sm_90,
    # 164 // 49 = 3 on sm_80; sm_70 reserves nothing: 96 // 48 = 2.
    for arch, blocks in (("sm_90", 4), ("sm_80", 3), ("sm_70", 2)):
        result = occupancy(arch, 16, 256, shared_bytes=48 * KB)
        assert result.active_blocks == blocks and result.limiter == "shared memory", arch
    assert occupancy("sm_90", 16, 256, shared_bytes=48 * KB).occupancy == 0.5


def test_shared_allocation_granularity():
    # 40 bytes: 256 on sm_70 (no reservation), 1024 + 40 -> 1152 (128-byte units) on sm_90.
    assert occupancy("sm_70", 16, 128, shared_bytes=40).shared_per_block == 256
    assert occupancy("sm_90", 16, 128, shared_bytes=40).shared_per_block == 1152
    assert occupancy("sm_70", 16, 128).shared_per_block == 0


def test_static_shared_over_48k_cannot_launch():
    assert occupancy("sm_90", 16, 128, shared_bytes=48 * KB + 4).active_blocks == 0
    # dynamic shared memory may go up to the opt-in limit
    assert occupancy("sm_90", 16, 128, dynamic_shared_bytes=200 * KB).active_blocks == 1
    assert occupancy("sm_90", 16, 128, dynamic_shared_bytes=228 * KB).active_blocks == 0


def test_carveout_preference():
    # No preference: the largest carve-out. Max L1 (0%) on sm_80: the reserved 1 KB alone
    # needs shared memory, so the SM gets the smallest carve-out, 8 KB: 8 blocks.
    assert occupancy("sm_80", 16, 128).shared_per_sm == 164 * KB
    small = occupancy("sm_80", 16, 128, carveout=0)
    assert (small.shared_per_sm, small.active_blocks, small.limiter) == (8 * KB, 8, "shared memory")
    # 50% of 228 KB = 114 KB -> the 132 KB carve-out on sm_90
    assert occupancy("sm_90", 16, 128, carveout=50).shared_per_sm == 132 * KB
    # Turing: 32 or 64 KB
    assert occupancy("sm_75", 16, 128, shared_bytes=40 * KB, carveout=0).shared_per_sm == 64 * KB


def test_barriers_limit_blocks():
    # sm_86 has one barrier slot per resident block (16): two barriers a block -> 8 blocks.
    result = occupancy("sm_86", 16, 32, barriers=2)
    assert (result.active_blocks, result.limiter) == (8, "barriers")
    assert occupancy("sm_90", 16, 32, barriers=1).active_blocks == 32


def test_best_block_size_prefers_larger_blocks_on_ties():
    best = occ.best_block_size("sm_90", 64)
    assert (best.block_size, best.occupancy) == (1024, 0.5)
    best = occ.best_block_size("sm_90", 100)      # 16 warps a SM at most, any block up to 512
    assert best.block_size == 512 and best.active_warps == 16
    # 96 threads: 21 blocks of 3 warps leave one warp slot empty; 64: 32 blocks fill all 64
    assert occ.best_block_size("sm_90", 32, max_threads=96).block_size == 64


def test_grid_limited_occupancy():
    # 4 blocks of 512 threads fit an SM; 132 blocks on 132 SMs put one on each: a quarter.
    result = occupancy("sm_90", 22, 512)
    assert result.grid_limited(132, 132) == 0.25
    assert result.grid_limited(528, 132) == 1.0
    # the paper's control loop on the K40m's 15 SMs, here on an sm_90 of 15: 64 blocks of 4 warps
    assert occupancy("sm_90", 64, 128).grid_limited(64, 15) == pytest.approx(64 / 15 * 4 / 64)


def test_architectures_and_errors():
    assert occupancy("sm_90a", 64, 256).arch == "sm_90"
    assert set(occ.MULTIPROCESSORS) == {
        f"sm_{n}" for n in (70, 72, 75, 80, 86, 87, 89, 90, 100, 103, 120, 121)}
    with pytest.raises(occ.UnsupportedArchitecture, match="sm_110"):
        occupancy("sm_110", 32, 128)   # Thor: no published occupancy data kept here
    with pytest.raises(ValueError):
        occupancy("sm_90", 32, 0)
    assert occupancy("sm_90", 32, 2048).active_blocks == 0
    assert occ.theoretical_occupancy(registers=64, shared_bytes=0, block=256, arch="sm_80") == 0.5


# ----------------------------------------------------------------- against the driver
LIVE_VALUES = (2, 12, 20, 28, 36, 44, 56, 62, 70, 90, 100, 120, 150, 168, 200, 240)
SHARED = (0, 40, 1000, 4096, 12 * KB, 24000, 48 * KB)
BLOCKS = (1, 32, 33, 64, 96, 100, 128, 160, 192, 224, 256, 288, 320, 384, 416, 480, 512, 544, 640,
          768, 800, 896, 992, 1000, 1024)


def pressure_kernel(live: int, shared: int, barrier: bool) -> str:
    """PTX for a kernel that keeps `live` loaded values alive at once: volatile loads stay in
    order and are summed last-loaded first, so ptxas needs about `live` registers."""
    loads = "\n".join(f"    ld.volatile.global.u32 %r{i}, [%rd1+{4 * i}];" for i in range(1, live + 1))
    sums = "\n".join(f"    mad.lo.s32 %acc, %acc, 3, %r{i};" for i in range(live - 1, 0, -1))
    store = "    st.global.u32 [%rd1], %acc;"
    if shared:
        store = (f"    mov.u32 %t, %tid.x;\n    rem.u32 %t, %t, {max(shared // 4, 1)};\n"
                 f"    shl.b32 %t, %t, 2;\n    mov.u32 %base, buf;\n    add.u32 %t, %t, %base;\n"
                 f"    st.shared.u32 [%t], %acc;\n" + ("    bar.sync 0;\n" if barrier else "") +
                 "    ld.shared.u32 %acc, [%t];\n" + store)
    return f""".version 8.0
.target sm_70
.address_size 64
.visible .entry k(.param .u64 p)
{{
    .reg .b32 %r<{live + 1}>;
    .reg .b32 %acc, %t, %base;
    .reg .b64 %rd<2>;
{f"    .shared .align 4 .b8 buf[{shared}];" if shared else ""}
    ld.param.u64 %rd1, [p];
    cvta.to.global.u64 %rd1, %rd1;
{loads}
    mov.u32 %acc, %r{live};
{sums}
{store}
    ret;
}}
"""


def _driver():
    try:
        from cuda.bindings import driver
    except ImportError:
        from cuda import cuda as driver
    return driver


def _value(result):
    error, value = result
    assert error == _driver().CUresult.CUDA_SUCCESS, error
    return int(value)


def _checked(result):
    """A driver call's values, its CUresult checked."""
    error, *values = result
    assert error == _driver().CUresult.CUDA_SUCCESS, error
    return values[0] if len(values) == 1 else values


class _Gpu:
    """GPU 0 through cuda-python, in its primary context: PTX loaded and its functions found."""

    def __init__(self, ordinal: int = 0):
        driver = _driver()
        _checked(driver.cuInit(0))
        self.ordinal = ordinal
        handle = _checked(driver.cuDeviceGet(ordinal))
        _checked(driver.cuCtxSetCurrent(_checked(driver.cuDevicePrimaryCtxRetain(handle))))
        major = _value(driver.cuDeviceGetAttribute(
            driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, handle))
        minor = _value(driver.cuDeviceGetAttribute(
            driver.CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, handle))
        self.compute_capability = (major, minor)

    def load_module(self, ptx: str):
        return _checked(_driver().cuModuleLoadData(ptx.encode() + b"\0"))

    def get_function(self, module, name: str):
        return _checked(_driver().cuModuleGetFunction(module, name.encode()))


@pytest.mark.gpu
@pytest.mark.parametrize("live", LIVE_VALUES)
def test_calculator_matches_the_driver(live, gpu_device):
    device, arch = gpu_device
    driver = _driver()
    attribute = driver.CUfunction_attribute
    mismatches = []
    for shared in SHARED:
        barrier = shared in (1000, 24000)
        function = device.get_function(device.load_module(pressure_kernel(live, shared, barrier)), "k")
        registers = _value(driver.cuFuncGetAttribute(attribute.CU_FUNC_ATTRIBUTE_NUM_REGS, function))
        static = _value(driver.cuFuncGetAttribute(attribute.CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function))
        limit = _value(driver.cuFuncGetAttribute(attribute.CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function))
        ours = occ.max_threads_per_block(arch, registers, static, int(barrier))
        if ours != limit:
            mismatches.append(f"regs={registers} smem={static}: max threads driver {limit}, ours {ours}")
        for block in BLOCKS:
            error, blocks = driver.cuOccupancyMaxActiveBlocksPerMultiprocessor(function, block, 0)
            theirs = int(blocks) if error == driver.CUresult.CUDA_SUCCESS else 0
            mine = occupancy(arch, registers, block, static, barriers=int(barrier)).active_blocks
            if mine != theirs:
                mismatches.append(f"regs={registers} smem={static} block={block}: "
                                  f"driver {theirs}, ours {mine}")
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.gpu
def test_pressure_kernels_span_the_register_range(gpu_device):
    device, _ = gpu_device
    driver = _driver()
    counts = []
    for live in (LIVE_VALUES[0], LIVE_VALUES[-1]):
        function = device.get_function(device.load_module(pressure_kernel(live, 0, False)), "k")
        counts.append(_value(driver.cuFuncGetAttribute(
            driver.CUfunction_attribute.CU_FUNC_ATTRIBUTE_NUM_REGS, function)))
    assert counts[0] <= 16 and counts[1] >= 200, counts


@pytest.mark.gpu
def test_table_matches_the_device(gpu_device):
    device, arch = gpu_device
    driver = _driver()
    a = driver.CUdevice_attribute
    error, handle = driver.cuDeviceGet(device.ordinal)
    assert error == driver.CUresult.CUDA_SUCCESS
    read = lambda which: _value(driver.cuDeviceGetAttribute(which, handle))  # noqa: E731
    sm = occ.multiprocessor(arch)
    assert read(a.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR) == sm.shared_bytes
    assert read(a.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN) == sm.shared_per_block_optin
    assert read(a.CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK) == sm.reserved_shared_per_block
    assert read(a.CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR) == sm.registers
    assert read(a.CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK) == sm.registers_per_block
    assert read(a.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR) == sm.max_threads
    assert read(a.CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR) == sm.max_blocks
    assert read(a.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK) == sm.shared_per_block


@pytest.fixture(scope="module")
def gpu_device():
    """(GPU 0, its architecture); skips where there is none, no cuda-python, or the
    calculator lacks the architecture."""
    if not gpu_present():
        pytest.skip("no CUDA GPU")
    pytest.importorskip("cuda", reason="cuda-python (the gpu extra) reads the driver's figures")
    from omp2gpu.targets.nvptx import arch_for_compute_capability
    device = _Gpu(0)
    arch = arch_for_compute_capability(*device.compute_capability)
    try:
        occ.multiprocessor(arch)
    except occ.UnsupportedArchitecture:
        pytest.skip(f"the calculator has no data for {arch}")
    return device, arch



@pytest.mark.skipif(__import__("omp2gpu.targets.nvptx", fromlist=["x"]).find_ptxas() is None,
                    reason="ptxas not found (no CUDA toolkit)")
def test_pressure_kernels_assemble_with_rising_register_counts():
    from omp2gpu.targets import nvptx
    counts = [nvptx.resource_usage(pressure_kernel(live, 1000, True), "sm_90")["k"] for live in LIVE_VALUES]
    registers = [k.registers for k in counts]
    assert registers == sorted(registers) and registers[0] <= 16 and registers[-1] >= 200
    assert all(k.shared_bytes == 1000 and k.barriers == 1 and not k.spill_store_bytes for k in counts)


def test_blackwell_data_centre_keeps_hoppers_sm():
    for arch in ("sm_100", "sm_100a", "sm_103"):
        assert occupancy(arch, 64, 256).occupancy == 0.5
        assert occupancy(arch, 16, 32).active_blocks == 32
        assert occupancy(arch, 16, 128, shared_bytes=48 * KB).active_blocks == 4


def test_blackwell_geforce_has_adas_limits():
    # sm_120: 48 warps, 24 blocks, 100 KB of shared memory, one barrier slot per block.
    result = occupancy("sm_120", 64, 256)
    assert (result.active_warps, result.max_warps) == (32, 48)
    assert occupancy("sm_120", 16, 32).active_blocks == 24
    assert occupancy("sm_121", 16, 128, shared_bytes=48 * KB).active_blocks == 2   # 49 KB a block of 100
    assert occupancy("sm_120", 16, 32, barriers=2).active_blocks == 12
    assert occupancy("sm_120", 16, 128, dynamic_shared_bytes=100 * KB).active_blocks == 0
