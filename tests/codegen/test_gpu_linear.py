"""`linear` on loops in GPU kernels (codegen/openmp/data/linear_clause.py): each logical
iteration k sets the thread's own x to x0 + k * step before the body, in both GPU
schemes, and the kernels assemble. The values themselves are checked by the corpus
(tests/programs/target_linear_forms.c, target_parallel_for_linear.c) on every device."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from omp2gpu import device_driver, driver
from omp2gpu.targets import nvptx

LOOP_FORMS = {
    "parallel for": "#pragma omp target parallel for linear(x: 2) map(from: a)",
    "parallel for simd": "#pragma omp target parallel for simd linear(x: 2) map(from: a)",
    "simd": "#pragma omp target simd linear(x: 2) map(from: a)",
}

SOURCE = """
int main(void) {
  int a[100], x = 3;
PRAGMA
  for (int k = 0; k < 100; k++) { a[k] = x; x += 2; }
  return a[5] + x;
}
"""

ITERATION_VARIABLE = """
int main(void) {
  int a[1000], i = -1;
#pragma omp target teams distribute parallel for simd linear(i) map(from: a)
  for (i = 0; i < 1000; i++) a[i] = i;
  return a[5] + i;
}
"""


def _translate(tmp_path, source: str, scheme: str):
    path = tmp_path / "prog.c"
    path.write_text(source)
    return driver.translate(Path(path), driver.CompileOptions(scheme=scheme))


def _block(text: str, label: str) -> str:
    """The first basic block of the module labelled `label`."""
    found = re.search(rf'^"?{re.escape(label)}"?:\n(.*?)(?=^\S|\Z)', text, re.S | re.M)
    assert found, f"no block {label}"
    return found.group(1)


@pytest.mark.parametrize("form", LOOP_FORMS, ids=lambda form: form.replace(" ", "-"))
def test_control_loop_sets_linear_at_each_iteration(tmp_path, form):
    translation = _translate(tmp_path, SOURCE.replace("PRAGMA", LOOP_FORMS[form]), "control-loop")
    assert [kernel.scheme.name for kernel in translation.device.kernels] == ["control-loop"]
    text = str(translation.device.module)
    body = _block(text, "loop.body")
    # x = x0 + iv * step, from slots that survive the control loop's state changes
    found = re.search(r'load i32, i32\* %"x\.linear\.start".*\n.*load i64, i64\* %"x\.linear\.step".*\n'
                     r'.*mul i64.*\n.*trunc.*\n.*add i32.*\n.*store i32 %"[.\d]+", i32\* %"(x\.\w+)"', body)
    assert found, body
    copy = found.group(1)       # the thread's own x (x.private where the team master runs the loop)
    assert body.index(f'%"{copy}"') < body.index("getelementptr")       # set before the body reads it
    # the copy-out: the thread that ran the last iteration stores its x into the original
    assert re.search(rf'load i32, i32\* %"{re.escape(copy)}"\n\s*store i32 %"[.\d]+", i32\* %"x"', text)


@pytest.mark.skipif(nvptx.find_ptxas() is None, reason="ptxas not found")
@pytest.mark.parametrize("scheme", ["combined", "control-loop"])
def test_linear_kernels_assemble(tmp_path, scheme):
    source = SOURCE.replace("PRAGMA", LOOP_FORMS["parallel for"]).replace("int main", "int first") \
        + ITERATION_VARIABLE
    translation = _translate(tmp_path, source, scheme)
    assert not [r for r in translation.device.remarks if "runs on the host" in r]
    ptx = device_driver.device_ptx(translation.device, driver.CompileOptions(scheme=scheme))
    nvptx.assemble(ptx, "sm_90")


def test_combined_scheme_takes_linear_of_its_iteration_variable(tmp_path):
    """On a distribute, linear names only the loop's variable (sema/linear_on_distribute.py):
    the grid-stride loop copies its value after the loop out, as lastprivate."""
    translation = _translate(tmp_path, ITERATION_VARIABLE, "auto")
    assert [kernel.scheme.name for kernel in translation.device.kernels] == ["combined"]
    text = str(translation.device.module)
    assert re.search(r'store i32 %"[.\d]+", i32\* %"i"', _block(text, "lastprivate.copy"))
