"""codegen/openmp/atomics/memory_order.py and atomic_compare.py: the memory order of each
atomic construct as LLVM orderings on the host, as .gpu-scoped PTX on the GPU (with
fences where NVPTX drops an atomicrmw's ordering), and `atomic compare` as one
instruction where that is exact, else a compare-and-swap loop."""

from __future__ import annotations

import re
import types

import pytest
from host_programs import host_ir

from omp2gpu import device_driver, driver
from omp2gpu.codegen.openmp.atomics import memory_order


def _directive(kind="update", written=None, default="relaxed"):
    return types.SimpleNamespace(atomic_kind=kind, memory_order_clause=written,
                                 default_memory_order=default)


@pytest.mark.parametrize("kind, written, default, order", [
    ("update", None, "relaxed", "relaxed"),
    ("update", "seq_cst", "relaxed", "seq_cst"),
    ("read", None, "acq_rel", "acquire"),
    ("write", None, "acq_rel", "release"),
    ("update", None, "acq_rel", "release"),
    ("capture", None, "acq_rel", "acq_rel"),
    ("read", None, "seq_cst", "seq_cst"),
    ("capture", "relaxed", "seq_cst", "relaxed"),
])
def test_construct_order(kind, written, default, order):
    assert memory_order.construct_order(_directive(kind, written, default)) == order


def test_loads_and_stores_keep_the_half_that_applies():
    assert memory_order.load_ordering("acq_rel") == "acquire"
    assert memory_order.store_ordering("acq_rel") == "release"
    assert memory_order.load_ordering("relaxed") == "monotonic"
    assert memory_order.failure_ordering("acq_rel") == "acquire"
    assert memory_order.failure_ordering("release") == "monotonic"
    assert memory_order.failure_ordering("seq_cst", "relaxed") == "monotonic"


HOST_ORDERS = """
int x, v;
int main(void) {
  #pragma omp parallel
  {
    #pragma omp atomic read acquire
    v = x;
    #pragma omp atomic write release
    x = 1;
    #pragma omp atomic seq_cst
    x += 2;
    #pragma omp atomic capture acq_rel
    v = x++;
  }
  return v;
}
"""


def test_host_orderings(tmp_path):
    ir = host_ir(tmp_path, HOST_ORDERS)
    assert re.search(r"load atomic i32, i32\* @\"x\" acquire", ir)
    assert re.search(r"store atomic i32 1, i32\* @\"x\" release", ir)
    assert re.search(r"atomicrmw add i32\* .* seq_cst", ir)
    assert re.search(r"atomicrmw add i32\* .* acq_rel", ir)
    assert "syncscope" not in ir


COMPARE = """
int imax, hits; unsigned umin = 100u; long cas; float top;
int main(void) {
  #pragma omp parallel for
  for (int i = 0; i < 64; i++) {
    int won;
    #pragma omp atomic compare
    imax = imax < i ? i : imax;
    #pragma omp atomic compare
    if ((unsigned)i < umin) { umin = (unsigned)i; }
    #pragma omp atomic compare capture seq_cst fail(relaxed)
    { won = cas == 5L; if (won) { cas = 6L; } }
    #pragma omp atomic compare
    if (top < i * 0.5f) { top = i * 0.5f; }
    hits += won;
  }
  return imax;
}
"""


def test_compare_lowering_on_the_host(tmp_path):
    ir = host_ir(tmp_path, COMPARE)
    assert re.search(r"atomicrmw max i32\* .* monotonic", ir)         # signed int maximum
    assert re.search(r"atomicrmw umin i32\* .* monotonic", ir)        # unsigned minimum
    assert re.search(r"cmpxchg i64\* .*, i64 5, i64 6 seq_cst monotonic", ir)
    # The float maximum compares as C does, in a loop around a cmpxchg of its bits.
    assert "fcmp olt float" in ir and re.search(r"cmpxchg i32\* .* monotonic monotonic", ir)
    assert "atomicrmw fmax" not in ir


LONG_DOUBLE = """
long double x, v;
int main(void) {
  #pragma omp parallel
  {
    #pragma omp atomic read seq_cst
    v = x;
    #pragma omp atomic write
    x = 2.5L;
    #pragma omp atomic
    x *= 1.5L;
    #pragma omp atomic capture
    { v = x; x = 0.5L; }
  }
  return 0;
}
"""


def test_long_double_swaps_its_sixteen_bytes(tmp_path):
    """x86_fp80 has no atomic instruction: an i128 load, else a cmpxchg i128 loop that
    keeps the six padding bytes it read."""
    ir = host_ir(tmp_path, LONG_DOUBLE)
    assert re.search(r"load atomic i128, i128\* .* seq_cst, align 16", ir)
    assert len(re.findall(r"cmpxchg i128\*", ir)) == 3                 # write, update, swap
    assert "atomicrmw fmul" not in ir and "atomicrmw xchg x86_fp80" not in ir
    padding = ((1 << 128) - 1) ^ ((1 << 80) - 1)                       # bytes 10..15 kept
    assert re.search(rf"and i128 .*, {padding}\n", ir)


GPU = """
float best[8]; int flag, got;
int main(void) {
  #pragma omp target teams distribute parallel for map(tofrom: best)
  for (int i = 0; i < 1024; i++) {
    #pragma omp atomic compare
    if (best[i % 8] < i * 0.25f) { best[i % 8] = i * 0.25f; }
  }
  #pragma omp target map(tofrom: flag, got)
  {
    #pragma omp atomic write release
    flag = 1;
    #pragma omp atomic read acquire
    got = flag;
    #pragma omp atomic update acq_rel
    flag += 2;
  }
  return got;
}
"""


def test_gpu_atomics_are_device_scoped_with_their_orders(tmp_path):
    path = tmp_path / "prog.c"
    path.write_text(GPU)
    translation = driver.translate(path, driver.CompileOptions())
    ptx = device_driver.device_ptx(translation.device, driver.CompileOptions())
    assert "st.release.gpu" in ptx and "ld.acquire.gpu" in ptx
    assert re.search(r"atom\.relaxed\.gpu(\.global)?\.cas\.b32", ptx)
    # NVPTX drops an atomicrmw's ordering: acq_rel is a relaxed atom between fences.
    add = re.search(r"fence\.acq_rel\.gpu;\s+atom(\.global)?\.add\.u32[^\n]*\n\s+fence\.acq_rel\.gpu;", ptx)
    assert add, ptx
    assert ".sys" not in ptx


POINTER = """
int pool[4]; int *slot;
int main(void) {
  int won;
  #pragma omp atomic compare capture acq_rel
  { won = slot == (int *)0; if (won) { slot = &pool[2]; } }
  return won;
}
"""


def test_a_pointer_is_swapped_with_one_cmpxchg(tmp_path):
    assert re.search(r"cmpxchg i32\*\* @\"slot\", i32\* null, i32\* .* acq_rel acquire", host_ir(tmp_path, POINTER))


CONTENDED = """
struct cell { int count : 12; int flags : 4; };
int main(void) {
  struct cell c = {0, 0};
  #pragma omp target map(tofrom: c)
  {
    #pragma omp parallel num_threads(64)
    {
      #pragma omp atomic update
      c.count += 1;
    }
  }
  return c.count;
}
"""


def test_a_swap_loop_starts_from_a_load_outside_shared_memory(tmp_path):
    """A compare-and-swap loop's first read (a bit-field's atomic update): an atomic
    load where the object is not in shared memory, which does not contend with the other
    threads' swaps; an atomic add of 0 in shared memory, where racecheck needs an atom."""
    path = tmp_path / "prog.c"
    path.write_text(CONTENDED)
    translation = driver.translate(path, driver.CompileOptions())
    ptx = device_driver.device_ptx(translation.device, driver.CompileOptions())
    assert re.search(r"isspacep\.shared", ptx)
    assert re.search(r"ld\.relaxed\.gpu(\.global)?\.b32", ptx) and re.search(r"atom(\.shared)?\.or\.b32[^\n]*, 0;", ptx)
    host = host_ir(tmp_path, CONTENDED)
    assert "isspacep" not in host and re.search(r"atomicrmw (add|or) i32\* .*, i32 0 monotonic", host)
