"""The native image's kernel table (omp2gpu/native_image.py): what it tells libomp2gpu
about each kernel beyond its launch information."""

from __future__ import annotations

from omp2gpu import device_driver, native_image
from omp2gpu.offload.abi import BYTES, POINTER, KernelInfo


def test_param_writes_marks_read_only_parameters_of_args_only_kernels():
    info = KernelInfo("k", [POINTER, BYTES, POINTER], args_only=True, read_only_params=(0,))
    assert native_image.param_writes(info) == b"rww"
    assert native_image.param_writes(KernelInfo("k", [POINTER], args_only=False)) is None


def test_the_table_carries_the_effects_the_ptx_header_records():
    kernels = {"k": KernelInfo("k", [POINTER, POINTER]), "other": KernelInfo("other", [POINTER])}
    ptx = "// omp2gpu-effects k args-only rw\n// omp2gpu-effects other any w\n.version 8.0\n"
    annotated = device_driver.with_effects(kernels, ptx)
    table = native_image.table_ir(annotated, {"k", "other"}, {}, {}, ptx, "x86_64-unknown-linux-gnu", "")
    assert 'c"rw\\00"' in table and "i64 0, ptr null, ptr null, i32 -1, i32 0 }, %kernel_desc" not in table
    assert table.count("i64 0, ptr null, ptr null, i32 -1, i32 0 }") == 1                      # other: any


def test_the_table_gives_the_fused_kernels_slots_the_ptx_header_records():
    kernels = {"k": KernelInfo("k", [POINTER]), "other": KernelInfo("other", [POINTER])}
    ptx = "// omp2gpu-fused k 0\n.version 8.0\n"
    annotated = device_driver.with_effects(kernels, ptx)
    assert (annotated["k"].fused_slot, annotated["other"].fused_slot) == (0, -1)
    table = native_image.table_ir(annotated, {"k", "other"}, {}, {}, ptx, "x86_64-unknown-linux-gnu", "")
    assert table.count(", i32 0, i32 0 }") == 1 and table.count(", i32 -1, i32 0 }") == 1
    # without the GPU's code (no PTX loaded) no launch is fused
    without_ptx = native_image.table_ir(annotated, set(), {}, {}, None, "x86_64-unknown-linux-gnu", "")
    assert ", i32 0, i32 0 }" not in without_ptx


def test_the_table_says_which_kernels_may_spread_a_short_loop():
    """KernelInfo.spreads reaches kernel_desc.spreads (the last field), for GPU kernels only."""
    kernels = {"k": KernelInfo("k", [POINTER], spreads=True), "other": KernelInfo("other", [POINTER])}
    table = native_image.table_ir(kernels, {"k", "other"}, {}, {}, "", "x86_64-unknown-linux-gnu", "")
    assert table.count(", i32 -1, i32 1 }") == 1 and table.count(", i32 -1, i32 0 }") == 1
    assert ", i32 1 }" not in native_image.table_ir(kernels, set(), {}, {}, None, "x86_64-unknown-linux-gnu", "")
