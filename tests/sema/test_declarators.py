"""sema/declarators.py: a function declaration with parameter names and no types
(`int scale(a, b);`, gcc: "parameter names (without types) in function declaration")
declares no prototype, as in gcc; a block-scope function declaration may not be
`static` or `register` (gcc: "invalid storage class for function")."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

NAMES_ONLY = r"""
#include <stdio.h>
int scale(a, b);
int main(void) {
  int offset(k);
  printf("%d %d\n", scale(6, 7), offset(5));
  return 0;
}
int scale(int a, int b) { return a * b; }
int offset(int k) { return k + 100; }
"""


def _omp2gpu(tmp_path, source: str, *command: str) -> subprocess.CompletedProcess:
    path = tmp_path / "prog.c"
    path.write_text(source)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    return subprocess.run([sys.executable, "-m", "omp2gpu", *command, str(path)], capture_output=True, text=True,
                          env=env, timeout=300, cwd=tmp_path)


def test_names_without_types_declare_no_prototype(tmp_path):
    done = _omp2gpu(tmp_path, NAMES_ONLY, "run", "--device", "host")
    assert (done.returncode, done.stdout) == (0, "42 105\n"), done.stderr
    if shutil.which("gcc"):
        binary = tmp_path / "ref"
        subprocess.run(["gcc", str(tmp_path / "prog.c"), "-o", str(binary)], check=True, capture_output=True)
        assert subprocess.run([str(binary)], capture_output=True, text=True).stdout == "42 105\n"


@pytest.mark.parametrize("storage", ["static", "register"])
def test_a_block_scope_function_may_not_be_static_or_register(tmp_path, storage):
    source = f"int main(void)\n{{\n    {storage} int twice(int);\n    return 0;\n}}\n"
    done = _omp2gpu(tmp_path, source, "compile", "-o", str(tmp_path / "prog"))
    column = 5 + len(storage) + len(" int ")
    assert done.returncode == 1
    assert f"prog.c:3:{column}: error: invalid storage class for function 'twice'" in done.stderr
    assert "Traceback" not in done.stderr and "internal compiler error" not in done.stderr


EMPTY_PARENTHESES_FIRST = r"""
#include <stdio.h>
double mean();                 /* old style: no prototype, defined below with one */
static long checksum();
int main(void) {
  double v[4] = {1.0, 2.0, 4.0, 9.0};
  printf("%.2f %ld\n", mean(v, 4), checksum("omp2gpu", 3L));
  return 0;
}
double mean(const double *v, int n) { double s = 0; for (int i = 0; i < n; i++) s += v[i]; return s / n; }
static long checksum(const char *s, long k) { long h = 0; while (*s) h = h * k + *s++; return h; }
"""


def test_a_prototyped_definition_after_an_empty_parentheses_declaration(tmp_path):
    """codegen/module.py `_later_prototype`: was "prototype ... after an unprototyped
    declaration with different parameters is not supported"."""
    done = _omp2gpu(tmp_path, EMPTY_PARENTHESES_FIRST, "run", "--device", "host")
    assert (done.returncode, done.stdout) == (0, "4.00 119208\n"), done.stderr
