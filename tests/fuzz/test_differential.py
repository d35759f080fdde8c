"""How one program's runs under gcc and omp2gpu are compared (differential.py)."""

from __future__ import annotations

import subprocess

from . import differential


def _done(status: int, stdout: str, stderr: str = "") -> subprocess.CompletedProcess:
    return subprocess.CompletedProcess([], status, stdout.encode(), stderr.encode())


def test_the_same_output_and_status_agree():
    assert differential._compare("cpu", _done(0, "x 1\n"), _done(0, "x 1\n")).kind == differential.AGREE


def test_a_different_line_is_silent_wrong_code_with_both_lines_shown():
    verdict = differential._compare("host", _done(0, "x 1\ny 2\n"), _done(0, "x 1\ny 3\n"))
    assert verdict.signature == (differential.DIFFER, "host")
    assert "gcc 'y 2'" in verdict.detail and "omp2gpu 'y 3'" in verdict.detail


def test_a_located_error_is_unsupported_and_an_internal_error_a_crash():
    located = _done(1, "", "prog.c:9:12: error: 'v', a variable-length array, cannot be copied\n")
    assert differential._compare("host", _done(0, "x\n"), located).kind == differential.UNSUPPORTED
    internal = _done(2, "", "omp2gpu: internal compiler error: KeyError: 'v'\n")
    assert differential._compare("cpu", _done(0, "x\n"), internal).kind == differential.CRASH
    assert differential._compare("cpu", _done(0, "x\n"), None).kind == differential.CRASH
    assert differential._compare("cpu", _done(0, "x\n"), _done(-11, "")).kind == differential.CRASH
