"""sema/declarators.py: an enumeration is an int, as gcc makes it, until its values need
more: unsigned int or unsigned long without negative values, else long (OpenMP's omp_allocator_handle_t runs to
UINTPTR_MAX and holds a pointer). Run on the host, compared with gcc's build."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from tests.codegen.host_programs import run

SOURCE = r"""
#include <stdio.h>
enum small { s0, s1 };
enum negative { n0 = -1, n1 };
enum wide { w0, w1 = 0x80000000 };
enum huge { h0, h1 = 0x100000000 };
enum handle { none, top = 0xffffffffffffffffUL };
int main(void) {
    int x = 0;
    enum handle h = (enum handle)&x;
    printf("%zu %zu %zu %zu %zu\n", sizeof(enum small), sizeof(enum negative), sizeof(enum wide),
           sizeof(enum huge), sizeof(enum handle));
    printf("%d %d %d\n", (enum wide)-1 > 0, (enum huge)-1 < 0, (int *)h == &x);
    printf("%zu %zu\n", sizeof(s1), sizeof(h1));
    return 0;
}
"""


def test_enumerations_take_gcc_s_sizes(tmp_path):
    got = run(tmp_path, SOURCE, 1)
    assert got == "4 4 4 8 8\n1 0 1\n4 8\n"
    if shutil.which("gcc") is None:
        pytest.skip("gcc not found")
    reference = tmp_path / "ref.c"
    reference.write_text(SOURCE)
    subprocess.run(["gcc", str(reference), "-o", str(tmp_path / "ref")], check=True)
    assert subprocess.run([str(tmp_path / "ref")], capture_output=True, text=True).stdout == got
