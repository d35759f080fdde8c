"""Loop nests on the GPU (canonical_loop.py, affine_nest.py, sema/loop_transformations.py,
sema/imperfect_nests.py): a triangular collapse(2) stays the combined SPMD kernel, its
rows found with one square root and no runtime call; a rectangular nest's kernel has
none of that; tiled, `!=` and imperfect nests assemble with ptxas under both schemes."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from omp2gpu import device_driver, driver

PROGRAMS = Path(__file__).resolve().parent.parent / "programs"

TRIANGLE = """
void lower_matvec(int n, const double *l, const double *x, double *y) {
  #pragma omp target teams distribute parallel for collapse(2) map(to: l[0:n*n], x[0:n]) map(tofrom: y[0:n])
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      #pragma omp atomic
      y[i] += l[i * n + j] * x[j];
    }
}
"""
SQUARE = TRIANGLE.replace("j <= i", "j < n")
IMPERFECT = """
void rows(int n, int m, double *a, double *w) {
  #pragma omp target teams distribute parallel for collapse(2) map(tofrom: a[0:n*m]) map(to: w[0:n])
  for (int i = 0; i < n; i++) {
    double weight = w[i] * 2;
    for (int j = 0; j < m; j++) a[i * m + j] *= weight;
  }
}
"""


def _translate(tmp_path, source: str, **options):
    path = tmp_path / "prog.c"
    path.write_text(source)
    return driver.translate(path, driver.CompileOptions(**options))


def _kernel_ptx(translation) -> str:
    ptx = device_driver.device_ptx(translation.device, driver.CompileOptions())
    return ptx[ptx.index(".entry"):]


def test_a_triangle_is_the_combined_kernel_with_one_square_root(tmp_path):
    translation = _translate(tmp_path, TRIANGLE)
    assert [k.scheme.name for k in translation.device.kernels] == ["combined"]
    kernel = _kernel_ptx(translation).split("\n}\n")[0]
    assert "call" not in kernel and kernel.count("sqrt.rn.f64") == 1


def test_a_rectangular_nest_keeps_its_division_only_kernel(tmp_path):
    kernel = _kernel_ptx(_translate(tmp_path, SQUARE)).split("\n}\n")[0]
    assert "sqrt" not in kernel and "cvt.rn.f64" not in kernel


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
@pytest.mark.parametrize("scheme", ["combined", "control-loop"])
@pytest.mark.parametrize("source", [TRIANGLE, IMPERFECT, PROGRAMS / "triangular_collapse_kernels.c",
                                    PROGRAMS / "tiled_transpose_unroll.c", PROGRAMS / "not_equal_loop_tests.c"],
                         ids=["triangle", "imperfect", "triangular corpus", "tiled corpus", "not-equal corpus"])
def test_ptxas_accepts_both_schemes(tmp_path, source, scheme):
    text = source.read_text() if isinstance(source, Path) else source
    translation = _translate(tmp_path, text, scheme=scheme)
    assert translation.device.kernels
    ptx = tmp_path / "prog.ptx"
    ptx.write_text(device_driver.device_ptx(translation.device, driver.CompileOptions(scheme=scheme)))
    subprocess.run(["ptxas", "-arch=sm_90", str(ptx), "-o", str(tmp_path / "prog.cubin")], check=True)
