"""The `loop` construct on the GPU (sema/loop_construct.py lowers it before codegen): a
`target teams loop` whose body allows it is the combined SPMD kernel, nested loops that
bind to the thread included, and `--explain` says how each `loop` was lowered."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from omp2gpu import device_driver, driver
from omp2gpu.codegen.openmp.gpu.kernels import describe_regions

TEAMS_LOOP = """
void saxpy(int n, float x, float *y, const float *z) {
  #pragma omp target teams loop map(tofrom: y[0:n]) map(to: z[0:n])
  for (int i = 0; i < n; i++) y[i] += x * z[i];
}
"""
SPLIT = """
double total(int n, const double *a) {
  double s = 0;
  #pragma omp target teams map(to: a[0:n]) map(tofrom: s)
  {
  #pragma omp loop reduction(+: s)
  for (int i = 0; i < n; i++) s += a[i];
  }
  return s;
}
"""
NESTED = """
void row_sums(int n, int m, const double *a, double *sums) {
  #pragma omp target teams loop map(to: a[0:n*m]) map(from: sums[0:n])
  for (int i = 0; i < n; i++) {
    double s = 0;
    #pragma omp loop reduction(+: s)
    for (int j = 0; j < m; j++) s += a[i * m + j];
    sums[i] = s;
  }
}
"""
PARALLEL_LOOP = """
void scale(int n, double *a) {
  #pragma omp target parallel loop map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] *= 2;
}
"""


def _translate(tmp_path, source: str, **options):
    path = tmp_path / "prog.c"
    path.write_text(source)
    return driver.translate(path, driver.CompileOptions(**options))


def _kernel_ptx(translation) -> str:
    ptx = device_driver.device_ptx(translation.device, driver.CompileOptions())
    return ptx[ptx.index(".entry"):]


@pytest.mark.parametrize("source", [TEAMS_LOOP, SPLIT, NESTED], ids=["teams loop", "split", "nested"])
def test_teams_loop_is_the_combined_kernel(tmp_path, source):
    translation = _translate(tmp_path, source)
    assert [k.scheme.name for k in translation.device.kernels] == ["combined"]
    kernel = _kernel_ptx(translation)
    assert "%nctaid.x" in kernel                            # the grid-stride loop
    assert "call" not in kernel.split("\n}\n")[0]           # no runtime call, no state machine


def test_explain_says_how_each_loop_was_lowered(tmp_path):
    remarks = describe_regions(_translate(tmp_path, NESTED).device).splitlines()
    assert remarks[0].endswith("combined scheme (combined construct: SPMD grid-stride loop, no runtime calls)")
    assert remarks[1].endswith(":3:11: remark: 'target teams loop' lowered as 'target teams distribute "
                               "parallel for' (the loop binds to the teams region)")
    assert remarks[2].endswith(":6:13: remark: 'loop' lowered as 'simd' (the loop binds to the "
                               "encountering thread)")


def test_parallel_loop_is_a_parallel_for(tmp_path):
    translation = _translate(tmp_path, PARALLEL_LOOP)
    assert [k.scheme.name for k in translation.device.kernels] == ["combined"]     # one team's loop
    assert "'target parallel loop' lowered as 'target parallel for'" in describe_regions(translation.device)


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
@pytest.mark.parametrize("scheme", ["combined", "control-loop"])
@pytest.mark.parametrize("source", [TEAMS_LOOP, SPLIT, NESTED], ids=["teams loop", "split", "nested"])
def test_ptxas_accepts_both_schemes(tmp_path, source, scheme):
    translation = _translate(tmp_path, source, scheme=scheme)
    assert [k.scheme.name for k in translation.device.kernels] == [scheme]
    ptx = tmp_path / "prog.ptx"
    ptx.write_text(device_driver.device_ptx(translation.device, driver.CompileOptions(scheme=scheme)))
    subprocess.run(["ptxas", "-arch=sm_90", str(ptx), "-o", str(tmp_path / "prog.cubin")], check=True)


HOST_AND_TARGET = """
void relax(int n, double *a) {
  #pragma omp parallel loop
  for (int i = 0; i < n; i++) a[i] *= 0.5;
  #pragma omp target teams loop map(tofrom: a[0:n])
  for (int i = 0; i < n; i++) a[i] += 1.0;
}
"""


def test_host_loops_are_explained_beside_the_regions(tmp_path):
    """A target region's loops are its build's remarks; the host's are the translation's."""
    translation = _translate(tmp_path, HOST_AND_TARGET)
    assert [remark.split(": remark: ")[1] for remark in translation.host_loop_remarks] == [
        "'parallel loop' lowered as 'parallel for' (the loop binds to the parallel region)"]
    assert "'target teams loop' lowered as" in describe_regions(translation.device)
