"""codegen/loop_metadata: an OpenMP simd loop's back edge asks LLVM to vectorise it, and
the host's -O2 pipeline vectorises those loops only (targets/host/optimisation.py), as gcc
-O2; -O3 vectorises every loop it can."""

from __future__ import annotations

import re

import llvmlite.binding as llvm
from host_programs import host_ir

from omp2gpu.targets import host

SOURCE = r"""
double a[1000], b[1000];
void simd(int n) {
    #pragma omp simd
    for (int i = 0; i < n; i++) a[i] = a[i] * 2.0 + b[i];
}
void for_simd(int n) {
    #pragma omp parallel for simd
    for (int i = 0; i < n; i++) a[i] = a[i] * 2.0 + b[i];
}
void collapsed(int n) {
    #pragma omp parallel for simd collapse(2)
    for (int j = 0; j < 10; j++)
        for (int i = 0; i < n; i++) a[i] += b[j];
}
void plain(int n) {
    for (int i = 0; i < n; i++) a[i] = a[i] * 2.0 + b[i];
}
"""


def _body(ir_text: str, name: str) -> str:
    return re.search(rf'define [^\n]*@"?{re.escape(name)}"?\(.*?\n}}\n', ir_text, re.S).group(0)


def _vectorised(tmp_path, opt_level: int) -> dict[str, bool]:
    module = llvm.parse_assembly(host_ir(tmp_path, SOURCE))
    host.optimise(module, opt_level)
    text = str(module)
    return {name: bool(re.search(r"<\d+ x double>", _body(text, name)))
            for name in ("simd", "for_simd._omp_fn", "collapsed._omp_fn", "plain")}


def test_simd_loops_carry_a_loop_id_asking_for_vectorisation(tmp_path):
    text = host_ir(tmp_path, SOURCE)
    for name in ("simd", "for_simd._omp_fn", "collapsed._omp_fn"):
        assert "!llvm.loop" in _body(text, name), name
    assert "!llvm.loop" not in _body(text, "plain")
    assert re.search(r'!(\d+) = !{ !\1, !\d+ }', text)                  # each loop ID names itself
    assert '!"llvm.loop.vectorize.enable", i1 1' in text


def test_o2_vectorises_the_simd_loops_only_and_o3_every_loop(tmp_path):
    assert _vectorised(tmp_path, 2) == {"simd": True, "for_simd._omp_fn": True, "collapsed._omp_fn": True,
                                        "plain": False}
    assert all(_vectorised(tmp_path, 3).values())
