"""codegen/atomic_builtins.py: GCC's __atomic_*/__sync_* builtins in user code, as LLVM
atomics with GCC's memory orders on the host and device-scoped PTX on the GPU."""

from __future__ import annotations

import re

import pytest
from host_programs import host_ir

from omp2gpu import device_driver, driver
from omp2gpu.codegen.atomic_builtins import ATOMIC_BUILTINS
from omp2gpu.diagnostics import CompileError


def _body(statements: str, declarations: str = "") -> str:
    return (f"#include <stdbool.h>\nstruct pair {{ int a, b; }};\n{declarations}\n"
            f"long c; unsigned short h; int *p; int order;\n"
            f"int main(void) {{\n{statements}\n return 0;\n}}\n")


@pytest.mark.parametrize("call, pattern", [
    ("__atomic_load_n(&c, __ATOMIC_ACQUIRE);", r"load atomic i64, i64\* .* acquire, align 8"),
    ("__atomic_load_n(&c, __ATOMIC_CONSUME);", r"load atomic i64, i64\* .* acquire"),
    # a load cannot release: GCC makes an invalid order seq_cst
    ("__atomic_load_n(&c, __ATOMIC_RELEASE);", r"load atomic i64, i64\* .* seq_cst"),
    ("__atomic_load_n(&c, order);", r"load atomic i64, i64\* .* seq_cst"),      # a run-time order
    ("__atomic_store_n(&c, 3, __ATOMIC_RELEASE);", r"store atomic i64 \S+, i64\* .* release"),
    ("__atomic_fetch_nand(&c, 3, __ATOMIC_RELAXED);", r"atomicrmw nand i64\* .*, i64 \S+ monotonic"),
    ("__atomic_sub_fetch(&h, 1, __ATOMIC_ACQ_REL);", r"atomicrmw sub i16\* .*, i16 \S+ acq_rel"),
    ("__sync_fetch_and_xor(&c, 5);", r"atomicrmw xor i64\* .*, i64 \S+ seq_cst"),
    ("__sync_lock_test_and_set(&c, 1);", r"atomicrmw xchg i64\* .*, i64 \S+ acquire"),
    ("__sync_lock_release(&c);", r"store atomic i64 0, i64\* .* release"),
    ("__sync_val_compare_and_swap(&c, 1, 2);", r"cmpxchg i64\* .*, i64 \S+, i64 \S+ seq_cst seq_cst"),
    ("__atomic_compare_exchange_n(&c, &c, 2, 1, __ATOMIC_RELEASE, __ATOMIC_RELAXED);",
     r"cmpxchg i64\* .*, i64 \S+ release monotonic"),
    ("__sync_synchronize();", r"fence seq_cst"),
    ("__atomic_signal_fence(__ATOMIC_SEQ_CST);", r'fence syncscope\("singlethread"\) seq_cst'),
    # a pointer's arithmetic is on its address, unscaled
    ("__atomic_fetch_add(&p, 4, __ATOMIC_RELAXED);",
     r"atomicrmw add i64\* .*, i64 4 monotonic"),
])
def test_host_instructions(tmp_path, call, pattern):
    assert re.search(pattern, host_ir(tmp_path, _body(call))), call


def test_generic_forms_move_an_objects_bits(tmp_path):
    ir = host_ir(tmp_path, _body("struct pair x = {1, 2}, e = x, d = {3, 4}, r; double v = 1, w = 2, o;\n"
                                 "__atomic_compare_exchange(&x, &e, &d, false, 5, 0);\n"
                                 "__atomic_load(&x, &r, 2); __atomic_exchange(&v, &w, &o, 4);"))
    assert re.search(r"cmpxchg i64\* .* seq_cst monotonic", ir)
    assert re.search(r"load atomic i64, i64\* .* acquire, align 8", ir)
    assert re.search(r"atomicrmw xchg i64\* .* acq_rel", ir)


def test_lock_free_queries_fold(tmp_path):
    ir = host_ir(tmp_path, _body("c = __atomic_always_lock_free(8, 0) + 10 * __atomic_is_lock_free(16, &c);"))
    assert "__atomic_is_lock_free" not in ir and "call" not in ir.split("define")[-1]


def test_lock_free_queries_are_constant_expressions(tmp_path):
    ir = host_ir(tmp_path, _body("char lanes[__atomic_always_lock_free(16, 0) ? 2 : 3]; c = sizeof lanes;",
                                 '_Static_assert(__atomic_is_lock_free(sizeof(long), 0), "lock-free");'))
    assert re.search(r"alloca \[3 x i8\]", ir)


def test_gpu_builtins_are_device_scoped(tmp_path):
    path = tmp_path / "prog.c"
    path.write_text(_body("#pragma omp target map(tofrom: c)\n{ __atomic_store_n(&c, 1, __ATOMIC_RELEASE);\n"
                          " __atomic_fetch_add(&c, 2, __ATOMIC_ACQ_REL); __atomic_load_n(&c, __ATOMIC_ACQUIRE);\n"
                          " __sync_bool_compare_and_swap(&c, 3, 4); __atomic_thread_fence(__ATOMIC_SEQ_CST); }"))
    translation = driver.translate(path, driver.CompileOptions())
    ptx = device_driver.device_ptx(translation.device, driver.CompileOptions())
    assert "st.release.gpu" in ptx and "ld.acquire.gpu" in ptx and "fence.sc.gpu" in ptx
    assert re.search(r"fence\.acq_rel\.gpu;\s+atom(\.global)?\.add\.u64", ptx)
    assert re.search(r"atom\.(acq_rel|sc)?\.?gpu(\.global)?\.cas\.b64", ptx) or "cas.b64" in ptx
    assert ".sys" not in ptx


@pytest.mark.parametrize("call, message", [
    ("__atomic_fetch_add(&f, 1, 0);", "operand type 'float *' is incompatible with argument 1 of "
                                      "'__atomic_fetch_add'"),
    ("__sync_fetch_and_add(&c);", "too few arguments to function '__sync_fetch_and_add'"),
    ("__atomic_store_n(&c, 1, 0, 0);", "too many arguments to function '__atomic_store_n'"),
    ("__atomic_always_lock_free(c, 0);", "the size given to '__atomic_always_lock_free' must be a constant"),
])
def test_misuse_is_located(tmp_path, call, message):
    with pytest.raises(CompileError, match=re.escape(message)) as error:
        host_ir(tmp_path, _body(call, "float f;"))
    assert error.value.location.line == 6


def test_one_table_has_every_operation():
    for op in ("add", "sub", "and", "or", "xor", "nand"):
        for name in (f"__atomic_fetch_{op}", f"__atomic_{op}_fetch", f"__sync_fetch_and_{op}",
                     f"__sync_{op}_and_fetch"):
            assert name in ATOMIC_BUILTINS
