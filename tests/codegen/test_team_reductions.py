"""gpu/control_loop/team_reductions.py: a team's parallel-region reductions leave one
partial a warp in shared memory, and the team master folds them into the original after
the region's barrier with a plain store; an original in global memory, and what no
partial array is left for, keep the per-warp atomics."""

from __future__ import annotations

import pytest
from llvmlite import ir

from omp2gpu import driver

STEPS = """
void f(int n, double *a, double *peaks) {
  #pragma omp target teams num_teams(4) thread_limit(96) map(to: a[0:n]) map(from: peaks[0:8])
  {
    for (int t = 0; t < 8; t++) {
      double peak = 0.0;
      #pragma omp parallel for reduction(max: peak)
      for (int i = 0; i < n; i++) peak = a[i] * t > peak ? a[i] * t : peak;
      long count = 0;
      #pragma omp parallel for reduction(+: count)
      for (int i = 0; i < n; i++) count += a[i] > peak / 2;
      if (omp_get_team_num() == 0) peaks[t] = peak + count;
    }
  }
}
"""

MAPPED = """
void f(int n, long *total) {
  #pragma omp target teams num_teams(1) map(tofrom: total[0:1])
  {
    long sum = 0;
    #pragma omp parallel for reduction(+: sum)
    for (int i = 0; i < n; i++) sum += i;
    total[0] = sum;
  }
}
long g(int n) {
  long grand = 0;
  #pragma omp target teams num_teams(1) map(tofrom: grand)
  {
    int k = n;
    #pragma omp parallel for reduction(+: grand)
    for (int i = 0; i < k; i++) grand += i;
  }
  return grand;
}
"""

NINE = """
void f(double *out) {
  #pragma omp target teams num_teams(1) map(from: out[0:9])
  {
    double a = 0, b = 0, c = 0, d = 0, e = 0, g = 0, h = 0, m = 0;
    float k = 0;
    #pragma omp parallel reduction(+: a, b, c, d, e, g, h, m, k)
    { a += 1; b += 2; c += 3; d += 4; e += 5; g += 6; h += 7; m += 8; k += 9; }
    out[0] = a + b + c + d + e + g + h + m + k;
  }
}
"""


def _kernels(tmp_path, source, scheme):
    path = tmp_path / "prog.c"
    path.write_text("#include <omp.h>\n" + source)
    translation = driver.translate(path, driver.CompileOptions(scheme=scheme))
    module = translation.device.module
    return module, [(kernel, module.get_global(kernel.kernel_name)) for kernel in translation.device.kernels]


def _partial_arrays(module, kernel_name):
    return [g for g in module.global_values
            if g.name.startswith(f"{kernel_name}_warp_partials_") and not g.name.endswith("_marked")]


def _block(function, name):
    return [block for block in function.blocks if block.name.startswith(name)]


def _atomics(block):
    return [i for i in block.instructions if i.opname in ("cmpxchg", "atomicrmw")]


@pytest.mark.parametrize("scheme", [None, "control-loop"])
def test_team_owned_originals_are_folded_once_with_a_plain_store(tmp_path, scheme):
    module, [(kernel, function)] = _kernels(tmp_path, STEPS, scheme)
    assert kernel.scheme.name == ("spmdized" if scheme is None else "control-loop")
    # One array per type, reused by the regions of the time-step loop.
    arrays = _partial_arrays(module, kernel.kernel_name)
    assert sorted(str(a.value_type) for a in arrays) == ["[32 x double]", "[32 x i64]"]
    folds = _block(function, "partials.fold")
    assert len(folds) == 2
    for block in folds:
        assert not _atomics(block)
        assert any(isinstance(i, ir.StoreInstr) for i in block.instructions)
    # Lane 0 of each warp marks its partial; the master clears the marks at team start.
    marks = [i for b in function.blocks for i in b.instructions
             if i.opname == "atomicrmw" and "_marked" in str(i)]
    assert len(marks) == 2
    starts = _block(function, "team.start")
    assert sum("_marked" in str(i) for i in starts[0].instructions) == 2


def test_an_original_in_global_memory_keeps_the_per_warp_atomics(tmp_path):
    """A mapped scalar's fold after the barrier would put a global round trip on the
    team's path (barrier_phases, H200: 1.60 -> 1.79 us): only the team's own take partials."""
    module, [(team_own, team_own_function), (mapped, mapped_function)] = _kernels(tmp_path, MAPPED, None)
    assert _partial_arrays(module, team_own.kernel_name) and _block(team_own_function, "partials.fold")
    assert not _partial_arrays(module, mapped.kernel_name) and not _block(mapped_function, "partials.fold")
    assert any(i.opname == "cmpxchg" or (i.opname == "atomicrmw" and "add i64" in str(i))
               for b in mapped_function.blocks for i in b.instructions)


def test_reductions_beyond_the_partial_arrays_fold_per_warp(tmp_path):
    """Eight arrays of doubles fill the kernel's share of shared memory: the ninth
    reduction (the float) keeps the per-warp atomic fold, and gets no array."""
    module, [(kernel, function)] = _kernels(tmp_path, NINE, None)
    arrays = _partial_arrays(module, kernel.kernel_name)
    assert [str(a.value_type) for a in arrays] == ["[32 x double]"] * 8
    assert len(_block(function, "partials.fold")) == 8
    assert any(i.opname == "atomicrmw" and "fadd float" in str(i) for b in function.blocks for i in b.instructions)


SECTION = """
void f(int n) {
  int h[8] = {0};
  #pragma omp target teams num_teams(2) map(tofrom: h)
  {
    int k = n / 2;
    #pragma omp parallel for reduction(+: h[0:8])
    for (int i = 0; i < k; i++) h[i % 8] += 1;
  }
}
"""


@pytest.mark.parametrize("scheme", [None, "control-loop"])
def test_array_section_elements_fold_one_by_one(tmp_path, scheme):
    """A section's elements fold in a loop over the section: one partial array for all of
    them would hold only the last element's (reduction_array_section on the GPU, until
    each element kept its per-warp atomics)."""
    module, [(kernel, function)] = _kernels(tmp_path, SECTION, scheme)
    assert kernel.scheme.name in ("control-loop", "spmdized")
    assert not _partial_arrays(module, kernel.kernel_name)
    assert not _block(function, "partials.fold")
