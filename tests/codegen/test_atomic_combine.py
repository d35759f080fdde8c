"""codegen/openmp/atomics/combine.py: a reduction folded into its variable by a
compare-and-swap loop (operators without one atomic instruction: `&&`, `||`, `*`, a
floating-point max) writes nothing when the fold leaves the value as it was: the GPU code
compares the value the fold makes with the one read and branches past the swap when they
are equal, so a team whose `&&` stays true makes no swap at all."""

from __future__ import annotations

import re

import pytest

from omp2gpu import device_driver, driver

PROGRAM = """
int main(void) {
  int ok = 1, any = 0;
  double top = 0.0, product = 1.0;
  #pragma omp target teams distribute parallel for reduction(&&: ok) reduction(||: any) \\
      reduction(max: top) reduction(*: product) map(tofrom: ok, any, top, product)
  for (int i = 0; i < 1000; i++) {
    ok = ok && i >= 0;
    any = any || i == 7;
    top = top > i * 0.5 ? top : i * 0.5;
    product *= 1.0;
  }
  return ok + any + (int)top + (int)product;
}
"""

_SWAP = re.compile(r"atom\.[\w.]*cas\.b(32|64)\s+%\w+, \[[^\]]+\], (%\w+), (%\w+);")


def compared_first(lines: list[str], at: int) -> bool:
    """Whether the swap on line `at` follows a comparison of its expected and new values."""
    width, expected, new = _SWAP.search(lines[at]).groups()
    pattern = re.compile(rf"setp\.(eq|ne)\.b{width}\s+%p\d+, ({re.escape(expected)}, {re.escape(new)}|"
                         rf"{re.escape(new)}, {re.escape(expected)});")
    return any(pattern.search(line) for line in lines[max(0, at - 8):at])


@pytest.mark.parametrize("scheme", ["combined", "control-loop"])
def test_each_swap_of_a_reduction_is_skipped_when_the_fold_changes_nothing(tmp_path, scheme):
    path = tmp_path / "prog.c"
    path.write_text(PROGRAM)
    options = driver.CompileOptions(scheme=scheme)
    ptx = device_driver.device_ptx(driver.translate(path, options).device, options)
    lines = ptx.splitlines()
    swaps = [at for at, line in enumerate(lines) if _SWAP.search(line)]
    assert len(swaps) >= 4, ptx
    assert [lines[at] for at in swaps if not compared_first(lines, at)] == []
