"""sema/imperfect_nests.py: collapsed loops with code between them (OpenMP 5.0) made
perfect by running that code in each innermost iteration; the located errors for what
intervening code may not hold; and such nests run on the host and the CPU device (gcc 12
cannot build them, so the expected output is computed here)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pycparser import c_ast, c_generator

from omp2gpu import driver
from omp2gpu.diagnostics import CompileError

REPO_ROOT = Path(__file__).resolve().parent.parent.parent


def _construct(tmp_path, body: str):
    path = tmp_path / "prog.c"
    path.write_text(f"int f(int);\nint main(void) {{\n int a[8][8], n = 8, s = 0;\n{body}\n return s;\n}}\n")
    ast = driver.parse_file(path, driver.CompileOptions())
    return ast.ext[-1].body.block_items[-2]


def _c(node) -> str:
    return " ".join(c_generator.CGenerator().visit(node).split())


def test_intervening_code_moves_into_the_innermost_body(tmp_path):
    construct = _construct(tmp_path, "#pragma omp parallel for collapse(2)\nfor (int i = 0; i < n; i++) {\n"
                                     " int row = f(i);\n for (int j = 0; j < n; j++) a[i][j] = row + j;\n s++;\n}")
    outer = construct.body
    assert isinstance(outer.stmt, c_ast.For)
    assert _c(outer.stmt.stmt) == "{ int row = f(i); do a[i][j] = row + j; while (0); s++; }"


def test_code_only_before_needs_no_wrapper_and_perfect_nests_stay(tmp_path):
    construct = _construct(tmp_path, "#pragma omp for collapse(2)\nfor (int i = 0; i < n; i++) {\n"
                                     " s += i;\n for (int j = 0; j < n; j++) { a[i][j] = j; }\n}")
    assert _c(construct.body.stmt.stmt) == "{ s += i; { a[i][j] = j; } }"
    perfect = _construct(tmp_path, "#pragma omp for collapse(2)\nfor (int i = 0; i < n; i++)\n"
                                   " for (int j = 0; j < n; j++) a[i][j] = j;")
    assert _c(perfect.body.stmt.stmt) == "a[i][j] = j"


@pytest.mark.parametrize(("body", "message"), [
    ("for (int i = 0; i < n; i++) { int m = f(i); for (int j = 0; j < m; j++) s++; }", "may not use 'm'"),
    ("for (int i = 0; i < n; i++) { if (i) continue; for (int j = 0; j < n; j++) s++; }", "jump out"),
    ("for (int i = 0; i < n; i++) {\n#pragma omp critical\n s++;\n for (int j = 0; j < n; j++) s++; }",
     "OpenMP directive"),
])
def test_forbidden_intervening_code_is_a_located_error(tmp_path, body, message):
    with pytest.raises(CompileError, match=message) as caught:
        _construct(tmp_path, "#pragma omp parallel for collapse(2) reduction(+: s)\n" + body)
    assert caught.value.location is not None


PROGRAM = r"""
#include <stdio.h>
#define N 9
#define M 7
#define K 3
int main(void) {
  static long cell[N][M][K];
  static int rows[N];
  long total = 0;
#pragma omp target teams distribute parallel for collapse(3) map(tofrom: cell, rows)
  for (int i = 0; i < N; i++) {
    long base = i * 1000;
    for (int j = 0; j < M; j++) {
      long mid = base + j * 10;
      for (int k = 0; k < K; k++) {
        if (k == 1) continue;
        cell[i][j][k] = mid + k;
      }
      if (j == 0) rows[i] = 1;
    }
  }
#pragma omp parallel for collapse(2) reduction(+: total)
  for (int i = 0; i < N; i++) {
    int weight = i % 4 + 1;
    for (int j = 0; j < M; j++)
      for (int k = 0; k < K; k++) total += weight * cell[i][j][k];
  }
  int marked = 0;
  for (int i = 0; i < N; i++) marked += rows[i];
  printf("%ld %d\n", total, marked);
  return 0;
}
"""


@pytest.mark.parametrize("device", ["host", "cpu"])
def test_imperfect_nests_run(tmp_path, device):
    path = tmp_path / "prog.c"
    path.write_text(PROGRAM)
    env = dict(os.environ, OMP_NUM_THREADS="3",
               PYTHONPATH=os.pathsep.join(p for p in [str(REPO_ROOT), os.environ.get("PYTHONPATH", "")] if p))
    result = subprocess.run([sys.executable, "-m", "omp2gpu", "run", "--device", device, str(path)],
                            capture_output=True, text=True, env=env, timeout=300, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    expected = sum((i % 4 + 1) * (i * 1000 + j * 10 + k) for i in range(9) for j in range(7) for k in (0, 2))
    assert result.stdout == f"{expected} 9\n"
