"""codegen/code_rules.py: what -fwrapv, -ffast-math and -fno-math-errno change in the IR
(host code and the GPU's, which takes the host emitter's rules)."""

from __future__ import annotations

import re

from omp2gpu import driver
from omp2gpu.codegen.code_rules import CodeRules

SOURCE = r"""
#include <math.h>
int step(int seed) { return seed * 1103515245 + 12345; }
double norm(double x, double y) { return sqrt(x * x + y * y); }
int offload(int *a, int n) {
    #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
    for (int i = 0; i < n; i++) a[i] = a[i] * 3 + 1;
    return a[0];
}
"""


def _translate(tmp_path, **rules):
    source = tmp_path / "rules.c"
    source.write_text(SOURCE)
    return driver.translate(source, driver.CompileOptions(code_rules=CodeRules(**rules)))


def test_signed_arithmetic_is_nsw_unless_fwrapv(tmp_path):
    default = _translate(tmp_path)
    assert "mul nsw i32" in str(default.host) and "mul nsw i32" in str(default.device.module)
    wrapping = _translate(tmp_path, wrapv=True)
    assert " nsw " not in str(wrapping.host) and " nsw " not in str(wrapping.device.module)


def test_fast_math_flags_and_pure_math_functions(tmp_path):
    default = str(_translate(tmp_path).host)
    assert "fmul fast" not in default and "readnone" not in _sqrt_declaration(default)
    fast = str(_translate(tmp_path, fast_math=True).host)
    assert "fmul fast double" in fast and "fadd fast double" in fast and "readnone" in _sqrt_declaration(fast)
    assert "readnone" in _sqrt_declaration(str(_translate(tmp_path, math_errno=False).host))


def _sqrt_declaration(ir_text: str) -> str:
    return re.search(r'^declare .*@"?sqrt"?\(.*$', ir_text, re.MULTILINE).group(0)
