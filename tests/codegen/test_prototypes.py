"""prototypes.py: the external functions of a file, as the Python API calls them."""

from __future__ import annotations

from omp2gpu import driver
from omp2gpu.pipeline import CompileOptions
from omp2gpu.sema import ctypes as ct

SOURCE = """
static int hidden(int v) { return v; }
int declared_only(int v);
void scale(int n, const double v[n], double *restrict out, void *p) { (void)v; (void)out; (void)p; }
int none(void) { return hidden(1); }
int old_style(a) int a; { return a; }
"""


def test_external_definitions_with_types_and_parameter_names(tmp_path):
    path = tmp_path / "lib.c"
    path.write_text(SOURCE)
    prototypes = driver.translate(path, CompileOptions()).prototypes
    assert list(prototypes) == ["scale", "none", "old_style"]
    scale = prototypes["scale"]
    assert scale.ctype.params == (ct.INT, ct.PointerType(ct.DOUBLE), ct.PointerType(ct.DOUBLE), ct.VOID_PTR)
    assert scale.ctype.params[1].pointee_const and not scale.ctype.params[2].pointee_const
    assert scale.parameter_names == ("n", "v", "out", "p")
    assert (scale.location.line, prototypes["none"].parameter_names) == (4, ())
    assert prototypes["old_style"].parameter_names == ("a",)
