"""The NVPTX target on hand-built llvmlite.ir kernels: architectures, kernel
marking, special registers, barriers, shuffles, atomics, libdevice, PTX, and
ptxas's cubins and resource figures. No GPU needed; ptxas and libdevice tests
skip themselves where the CUDA toolkit is absent."""

from __future__ import annotations

import re
from pathlib import Path

import llvmlite.binding as llvm
import pytest
from llvmlite import ir

from omp2gpu.targets import nvptx
from omp2gpu.targets.nvptx import arch as arch_module
from omp2gpu.targets.nvptx.cubin import section_sizes

I32, I64, FLOAT, DOUBLE = ir.IntType(32), ir.IntType(64), ir.FloatType(), ir.DoubleType()
PTR = ir.PointerType()
MATH_H = Path(__file__).resolve().parents[2] / "runtime" / "include" / "math.h"

requires_ptxas = pytest.mark.skipif(nvptx.find_ptxas() is None, reason="ptxas not found (no CUDA toolkit)")
requires_libdevice = pytest.mark.skipif(nvptx.find_libdevice() is None,
                                        reason="libdevice.10.bc not found (no CUDA toolkit)")


def kernel(name: str, params: list, max_threads: int | None = None):
    """A module holding one empty kernel; returns (module, kernel, builder)."""
    module = nvptx.new_device_module(name)
    function = ir.Function(module, ir.FunctionType(ir.VoidType(), params), name=name)
    nvptx.mark_kernel(function, max_threads)
    return module, function, ir.IRBuilder(function.append_basic_block("entry"))


def vadd_module() -> ir.Module:
    """vadd(a, b, c, n): c[i] = a[i] + b[i] in a grid-stride loop."""
    module, function, b = kernel("vadd", [PTR, PTR, PTR, I32])
    a, bb, c, n = function.args

    def sreg(name):
        return nvptx.read_sreg(b, name)
    start = b.add(b.mul(sreg("ctaid.x"), sreg("ntid.x")), sreg("tid.x"))
    stride = b.mul(sreg("ntid.x"), sreg("nctaid.x"))
    entry, loop, body, done = b.block, *(function.append_basic_block(x) for x in ("loop", "body", "done"))
    b.branch(loop)
    b.position_at_end(loop)
    i = b.phi(I32, "i")
    i.add_incoming(start, entry)
    b.cbranch(b.icmp_signed("<", i, n), body, done)
    b.position_at_end(body)
    index = b.sext(i, I64)
    total = b.fadd(b.load(b.gep(a, [index], source_etype=DOUBLE), typ=DOUBLE),
                   b.load(b.gep(bb, [index], source_etype=DOUBLE), typ=DOUBLE))
    b.store(total, b.gep(c, [index], source_etype=DOUBLE))
    i.add_incoming(b.add(i, stride), body)
    b.branch(loop)
    b.position_at_end(done)
    b.ret_void()
    return module


def math_module(c_name: str, ty: ir.Type) -> ir.Module:
    """apply(x): x[tid] = c_name(x[tid]) through libdevice."""
    module, function, b = kernel("apply", [PTR])
    slot = b.gep(function.args[0], [nvptx.read_sreg(b, "tid.x")], source_etype=ty)
    b.store(b.call(nvptx.declare_math_function(module, c_name), [b.load(slot, typ=ty)]), slot)
    b.ret_void()
    return module


def warp_sum_module(ty: ir.Type) -> ir.Module:
    """warp_sum(x): lane 0 of each warp adds the warp's values of x[tid], tree-wise by shuffles."""
    module, function, b = kernel("warp_sum", [PTR])
    slot = b.gep(function.args[0], [nvptx.read_sreg(b, "tid.x")], source_etype=ty)
    value = b.load(slot, typ=ty)
    add = b.fadd if isinstance(ty, (ir.FloatType, ir.DoubleType)) else b.add
    for delta in (16, 8, 4, 2, 1):
        value = add(value, nvptx.shfl_down_sync(b, nvptx.FULL_MASK, value, delta))
    b.store(value, slot)
    b.ret_void()
    return module


def atomic_module(op: str, ty: ir.Type) -> ir.Module:
    """update(total, x): atomically total = total <op> x[tid]."""
    module, function, b = kernel("update", [PTR, PTR])
    total, x = function.args
    value = b.load(b.gep(x, [nvptx.read_sreg(b, "tid.x")], source_etype=ty), typ=ty)
    b.atomic_rmw(op, total, value, "monotonic")
    b.ret_void()
    return module


def shared_module() -> ir.Module:
    """reverse(x): reverses a block's 256 doubles through shared memory, with a barrier."""
    module, function, b = kernel("reverse", [PTR], max_threads=256)
    array = ir.ArrayType(DOUBLE, 256)
    shared = ir.GlobalVariable(module, array, "buffer", addrspace=nvptx.SHARED_ADDRESS_SPACE)
    shared.linkage = "internal"
    shared.initializer = ir.Constant(array, ir.Undefined)
    tid = nvptx.read_sreg(b, "tid.x")
    own = b.gep(function.args[0], [tid], source_etype=DOUBLE)
    b.store(b.load(own, typ=DOUBLE), b.gep(shared, [I32(0), tid]))
    nvptx.barrier(b)
    mirrored = b.sub(I32(255), tid)
    b.store(b.load(b.gep(shared, [I32(0), mirrored])), own)
    b.ret_void()
    return module


def body(ptx: str) -> str:
    """The PTX instructions of the (first) kernel."""
    return ptx.split(".entry", 1)[1]


# ----------------------------------------------------------------- architectures
def test_unknown_architecture_is_rejected():
    with pytest.raises(ValueError, match=r"unknown GPU architecture 'sm_12'"):
        nvptx.validate_arch("sm_12")
    with pytest.raises(ValueError, match="unknown GPU architecture"):
        nvptx.compile_to_ptx(vadd_module(), arch="sm_12")


@pytest.mark.parametrize("arch", list(nvptx.ARCHITECTURES))
def test_llvm_knows_every_architecture(arch):
    # With no +ptx feature LLVM emits the architecture's lowest PTX ISA; for a
    # processor it does not know it warns and falls back to PTX 3.2.
    nvptx.target_machine()
    machine = llvm.Target.from_triple(nvptx.DEVICE_TRIPLE).create_target_machine(cpu=arch, features="")
    module = llvm.parse_assembly("define ptx_kernel void @k() { ret void }")
    nvptx.configure_device_module(module)
    ptx = machine.emit_assembly(module)
    lowest = nvptx.ARCHITECTURES[arch]
    assert f".version {lowest // 10}.{lowest % 10}\n" in ptx
    assert f".target {arch}\n" in ptx


def test_ptx_version():
    assert nvptx.ptx_features("sm_90") == "+ptx80"
    assert nvptx.ptx_version("sm_120") == 87
    assert nvptx.ptx_version("sm_90", 90) == 90
    with pytest.raises(ValueError, match="PTX ISA"):
        nvptx.ptx_version("sm_120", 80)
    ptx = nvptx.emit_ptx(nvptx.optimise(vadd_module(), "sm_100"), "sm_100")
    assert ".version 8.6" in ptx and ".target sm_100" in ptx


@pytest.mark.parametrize("capability, arch", [((9, 0), "sm_90"), ((8, 6), "sm_86"), ((12, 0), "sm_120"),
                                              ((10, 3), "sm_103"), ((12, 2), "sm_121"), ((8, 8), "sm_87"),
                                              ((5, 2), "sm_90")])
def test_arch_for_compute_capability(capability, arch):
    assert nvptx.arch_for_compute_capability(*capability) == arch


def test_default_arch_without_a_gpu(monkeypatch):
    monkeypatch.setattr(arch_module, "_capability_from_nvidia_smi", lambda: None)
    monkeypatch.setattr(arch_module, "_capability_from_driver", lambda: None)
    arch_module.default_arch.cache_clear()
    try:
        assert nvptx.default_arch() == "sm_90"
    finally:
        arch_module.default_arch.cache_clear()
    assert nvptx.default_arch() in nvptx.ARCHITECTURES


# ----------------------------------------------------------------- modules and kernels
def test_device_module_has_triple_and_layout():
    module = nvptx.new_device_module("m")
    assert module.triple == nvptx.DEVICE_TRIPLE == "nvptx64-nvidia-cuda"
    assert module.data_layout == nvptx.data_layout()
    assert nvptx.data_layout().startswith("e-") and "i64:64" in nvptx.data_layout()


def test_kernel_is_an_entry_with_maxntid():
    module, function, b = kernel("bounded", [], max_threads=256)
    b.ret_void()
    ptx = nvptx.compile_to_ptx(module)
    assert ".visible .entry bounded(" in ptx
    assert ".maxntid 256" in ptx
    assert ".target sm_90" in ptx


def test_kernel_must_return_void():
    module = nvptx.new_device_module("m")
    function = ir.Function(module, ir.FunctionType(I32, []), name="k")
    with pytest.raises(ValueError, match="must return void"):
        nvptx.mark_kernel(function)


def test_device_functions_are_not_entries():
    module, function, b = kernel("caller", [PTR])
    helper = ir.Function(module, ir.FunctionType(ir.VoidType(), [PTR]), name="helper")
    helper.attributes.add("noinline")
    hb = ir.IRBuilder(helper.append_basic_block())
    hb.store(I32(7), helper.args[0])
    hb.ret_void()
    b.call(helper, [function.args[0]])
    b.ret_void()
    ptx = nvptx.compile_to_ptx(module)
    assert ".func helper(" in ptx and ".entry caller(" in ptx and ".entry helper" not in ptx


# ----------------------------------------------------------------- intrinsics
def test_vector_add_uses_special_registers():
    ptx = nvptx.compile_to_ptx(vadd_module())
    assert ".visible .entry vadd(" in ptx and ".target sm_90" in ptx
    for register in ("%tid.x", "%ntid.x", "%ctaid.x", "%nctaid.x"):
        assert register in ptx
    assert "add.rn.f64" in ptx


def test_every_special_register_reads():
    module, function, b = kernel("registers", [PTR])
    for index, name in enumerate(nvptx.SPECIAL_REGISTERS):
        b.store(nvptx.read_sreg(b, name), b.gep(function.args[0], [I32(index)], source_etype=I32))
    b.ret_void()
    ptx = nvptx.compile_to_ptx(module)
    assert "%laneid" in ptx and "%nctaid.z" in ptx and "%ctaid.y" in ptx
    assert "[%rd2+48], 32;" in ptx        # the warp size is a known constant
    with pytest.raises(ValueError, match="unknown special register"):
        nvptx.read_sreg(b, "tid.w")


def test_the_global_timer_reads_as_64_bits():
    """%globaltimer (nanoseconds: omp_get_wtime in kernels) is an i64, read each time."""
    module, function, b = kernel("clock", [PTR])
    first = nvptx.read_sreg(b, "globaltimer")
    assert first.type == I64
    b.store(b.sub(nvptx.read_sreg(b, "globaltimer"), first), function.args[0])
    b.ret_void()
    ptx = nvptx.compile_to_ptx(module)
    assert ptx.count("mov.u64") >= 2 and ptx.count("%globaltimer") == 2


def test_barriers_and_fences():
    module, function, b = kernel("sync", [])
    nvptx.barrier(b)
    nvptx.barrier(b, 1, 64)
    nvptx.barrier(b, 2, aligned=False)
    nvptx.barrier(b, 3, 64, aligned=False)
    nvptx.membar_gl(b)
    nvptx.membar(b, "cta")
    b.ret_void()
    text = body(nvptx.compile_to_ptx(module))
    assert "bar.sync \t0;" in text and "bar.sync \t1, 64;" in text
    assert "barrier.sync \t2;" in text and "barrier.sync \t3, 64;" in text
    assert "membar.gl;" in text and "membar.cta;" in text


def test_warp_sync_over_the_warps_lanes():
    module, function, b = kernel("warp", [])
    nvptx.warp_sync(b, nvptx.warp_lanes_mask(b))
    nvptx.warp_sync(b, -1)
    b.ret_void()
    text = body(nvptx.compile_to_ptx(module))
    assert re.search(r"bar\.warp\.sync \t%r\d+;", text) and "bar.warp.sync \t-1;" in text
    assert "%ntid.x" in text and "%tid.x" in text


def test_diverged_barrier_meets_the_warps_lanes_by_a_computed_mask_then_the_block():
    """Never the constant full mask: ptxas folds it into the barrier's own warp sync, and a
    warp whose lanes come apart then passes with its first lanes (H200, session 23)."""
    module, function, b = kernel("meet", [])
    nvptx.diverged_barrier(b)
    b.ret_void()
    text = body(nvptx.compile_to_ptx(module))
    assert re.search(r"bar\.warp\.sync \t%r\d+;\s+barrier\.sync \t0;", text)
    assert "bar.warp.sync \t-1;" not in text and "bar.sync" not in text


@pytest.mark.parametrize("ty, shuffles", [(I32, 5), (FLOAT, 5), (DOUBLE, 10), (I64, 10)])
def test_shuffle_reduction(ty, shuffles):
    ptx = nvptx.compile_to_ptx(warp_sum_module(ty))
    assert len(re.findall(r"shfl\.sync\.down\.b32", ptx)) == shuffles


def test_shuffle_rejects_aggregates():
    module, function, b = kernel("k", [])
    value = ir.Constant(ir.LiteralStructType([I32, I32]), None)
    with pytest.raises(TypeError, match="cannot shuffle"):
        nvptx.shfl_down_sync(b, nvptx.FULL_MASK, value, 1)


@pytest.mark.parametrize("op, ty, instruction", [
    ("fadd", DOUBLE, "atom.global.add.f64"),
    ("fadd", FLOAT, "atom.global.add.f32"),
    ("add", I64, "atom.global.add.u64"),
    ("max", I32, "atom.global.max.s32"),
    ("fmax", DOUBLE, "atom.relaxed.sys.global.cas.b64"),     # no atom.max.f64: a compare-and-swap loop
    ("fmin", FLOAT, "atom.relaxed.sys.global.cas.b32"),
])
def test_atomics(op, ty, instruction):
    ptx = nvptx.compile_to_ptx(atomic_module(op, ty))
    assert instruction in ptx
    assert nvptx.is_native_atomic(op, ty) == ("cas" not in instruction)


# ----------------------------------------------------------------- libdevice
def test_math_table_covers_math_h():
    # long double functions have no device version: a region using long double runs on the host.
    text = "\n".join(line for line in MATH_H.read_text().splitlines() if "long double" not in line)
    declared = set(re.findall(r"^\w[\w ]*?\**\b(\w+)\(", text, re.M))
    assert declared - set(nvptx.LIBDEVICE_MATH) == {"scalbln", "scalblnf", "__fpclassify", "__fpclassifyf"}
    assert nvptx.LIBDEVICE_MATH["sqrt"] == "__nv_sqrt" and nvptx.LIBDEVICE_MATH["powf"] == "__nv_powf"
    assert nvptx.LIBDEVICE_MATH["lround"] == "__nv_llround"
    assert str(nvptx.libdevice_function_type("__nv_frexpf")) == "float (float, ptr)"
    assert set(nvptx.LIBDEVICE_MATH.values()) == set(nvptx.LIBDEVICE_SIGNATURES)


@requires_libdevice
def test_math_signatures_match_libdevice():
    library = llvm.parse_bitcode(nvptx.find_libdevice().read_bytes())
    actual = {f.name: f.global_value_type for f in library.functions if not f.is_declaration}
    for name in nvptx.LIBDEVICE_SIGNATURES:
        expected = nvptx.libdevice_function_type(name)
        fn_type = actual[name]
        assert str(fn_type.get_function_return()) == str(expected.return_type), name
        assert [str(p) for p in fn_type.get_function_parameters()] == [str(p) for p in expected.args], name


@requires_libdevice
@pytest.mark.parametrize("opt_level", [0, 3])
def test_sqrt_through_libdevice(opt_level):
    code = nvptx.compile_device(math_module("sqrt", DOUBLE), opt_level=opt_level)
    assert "sqrt.rn.f64" in code.ptx
    assert "__nv_" not in code.ptx
    defined = re.findall(r"^define .*@\"?([\w.]+)", code.optimised_ir, re.M)
    assert defined == ["apply"]         # libdevice is inlined and the rest dropped


@requires_libdevice
def test_libdevice_keeps_only_what_is_used():
    code = nvptx.compile_device(math_module("sinf", FLOAT))
    assert ".entry apply(" in code.ptx and "__nv_" not in code.ptx
    assert "__nvvm_reflect" not in code.optimised_ir
    assert "__cudart_i2opi_d" not in code.ptx   # the double-precision table went with sin


def test_modules_without_math_need_no_libdevice(monkeypatch):
    monkeypatch.setattr(nvptx.libdevice, "find_libdevice", lambda: None)
    assert ".entry vadd(" in nvptx.compile_to_ptx(vadd_module())
    with pytest.raises(nvptx.LibdeviceNotFound, match="libdevice.10.bc not found"):
        nvptx.compile_to_ptx(math_module("exp", DOUBLE))


def test_toolkit_root_from_cuda_home(tmp_path, monkeypatch):
    fake = tmp_path / "nvvm" / "libdevice" / "libdevice.10.bc"
    fake.parent.mkdir(parents=True)
    fake.write_bytes(b"BC")
    monkeypatch.setenv("CUDA_HOME", str(tmp_path))
    assert nvptx.find_libdevice() == fake


def test_malformed_ir_fails_verification():
    module, function, b = kernel("broken", [I32])
    then, other, join = (function.append_basic_block(name) for name in ("then", "other", "join"))
    b.cbranch(b.icmp_signed("<", function.args[0], I32(0)), then, other)
    b.position_at_end(then)
    value = b.add(function.args[0], I32(1))
    b.branch(join)
    b.position_at_end(other)
    b.branch(join)
    b.position_at_end(join)
    b.mul(value, value)                                 # `value` does not dominate this use
    b.ret_void()
    with pytest.raises(RuntimeError, match="verification failed"):
        nvptx.compile_to_ptx(module)


# ----------------------------------------------------------------- ptxas
@requires_ptxas
def test_assemble_vector_add():
    code = nvptx.compile_device(vadd_module())
    cubin = code.cubin
    assert cubin[:4] == b"\x7fELF"
    assert ".text.vadd" in section_sizes(cubin)
    usage = code.resources["vadd"]
    assert 4 <= usage.registers <= 64
    assert usage.spill_store_bytes == usage.spill_load_bytes == 0
    assert usage.shared_bytes == 0 and usage.barriers == 0
    assert usage.constant_banks.get(0, 0) > 0 and usage.constant_bytes >= usage.constant_banks[0]


@requires_ptxas
def test_shared_memory_and_barrier_resources():
    usage = nvptx.resource_usage(nvptx.compile_to_ptx(shared_module()), "sm_90")["reverse"]
    assert usage.shared_bytes == 256 * 8
    assert usage.barriers == 1
    assert usage.registers > 0


@requires_ptxas
@requires_libdevice
def test_assemble_libdevice_shuffles_and_atomics():
    for module in (math_module("exp", DOUBLE), warp_sum_module(DOUBLE), atomic_module("fadd", DOUBLE),
                   atomic_module("fmax", FLOAT)):
        ptx = nvptx.compile_to_ptx(module)
        (name, usage), = nvptx.resource_usage(ptx, "sm_90").items()
        assert usage.registers > 0, name


@requires_ptxas
@pytest.mark.parametrize("arch", ["sm_75", "sm_80", "sm_90a", "sm_120"])
def test_assemble_for_other_architectures(arch):
    ptx = nvptx.compile_to_ptx(warp_sum_module(DOUBLE), arch=arch)
    assert f".target {arch}" in ptx
    assert nvptx.assemble(ptx, arch)[:4] == b"\x7fELF"


@requires_ptxas
def test_ptxas_errors_carry_its_message():
    bad = ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k() { mov.u32 %r1, 1; ret; }\n"
    with pytest.raises(nvptx.PtxasError) as caught:
        nvptx.assemble(bad, "sm_90")
    assert "device.ptx, line 4" in caught.value.message


def test_parse_verbose_output():
    text = """\
ptxas info    : 0 bytes gmem, 256 bytes cmem[3]
ptxas info    : Compiling entry function 'spill' for 'sm_90'
ptxas info    : Function properties for spill
    776 bytes stack frame, 776 bytes spill stores, 784 bytes spill loads
ptxas info    : Used 254 registers, used 0 barriers, 776 bytes cumulative stack size
ptxas info    : Compiling entry function 'old' for 'sm_80'
ptxas info    : Function properties for old
    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
ptxas info    : Used 32 registers, used 1 barriers, 1024 bytes smem, 368 bytes cmem[0], 8 bytes cmem[2]
ptxas info    : Function properties for helper
    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
"""
    usage = nvptx.parse_verbose_output(text)
    assert set(usage) == {"spill", "old"}
    assert usage["spill"] == nvptx.KernelResources("spill", registers=254, spill_store_bytes=776,
                                                   spill_load_bytes=784, stack_frame_bytes=776)
    old = usage["old"]
    assert (old.registers, old.barriers, old.shared_bytes, old.constant_bytes) == (32, 1, 1024, 376)
