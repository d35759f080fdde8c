"""Bad input gets one clean, located error: `file:line:col: error: message`, the
source line and a caret under the column, exit status 1 -- never a traceback
or an internal compiler error.

Each `*.c` here starts with the diagnostic it must produce:

    /* expect: LINE:COL: error: MESSAGE FRAGMENT */

The column is where gcc or clang would point: the start of the offending
token; for an error about an operator (not an lvalue, a bad subscript or
increment) the operator; for other errors about an operator expression
omp2gpu points at the start of the expression. A file whose second line is `/* xfail: REASON */` is a known gap
(the input is accepted today): an xfail, not strict, so that a fix shows as
XPASS without failing the suite; then remove the marker.

The second half tests the command line with inputs that are not C programs.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]

_EXPECT = re.compile(r"^/\* expect: (?P<line>\d+):(?P<col>\d+): error: (?P<message>.+?) \*/$")
_XFAIL = re.compile(r"^/\* xfail: (?P<reason>.+?) \*/$")


def _expectation(path: Path):
    lines = path.read_text(encoding="utf-8").splitlines()
    match = _EXPECT.match(lines[0]) if lines else None
    if match is None:
        raise AssertionError(f"{path.name}: the first line must be "
                             "/* expect: LINE:COL: error: MESSAGE */")
    xfail = _XFAIL.match(lines[1]) if len(lines) > 1 else None
    return int(match["line"]), int(match["col"]), match["message"], xfail and xfail["reason"]


def _cases() -> list:
    cases = []
    for path in sorted(HERE.glob("*.c")):
        reason = _expectation(path)[3]
        marks = [pytest.mark.xfail(reason=f"known gap: {reason}", strict=False)] if reason else []
        cases.append(pytest.param(path, id=path.stem, marks=marks))
    return cases


def run_omp2gpu(*args: str, cwd: Path | None = None, timeout: int = 120) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    env.pop("OMP2GPU_DEBUG", None)            # it adds a traceback to internal errors
    return subprocess.run([sys.executable, "-m", "omp2gpu", "run", *args], cwd=cwd,
                          capture_output=True, text=True, errors="replace", env=env,
                          timeout=timeout)


def assert_clean(result: subprocess.CompletedProcess) -> None:
    for text in (result.stdout, result.stderr):
        assert "Traceback" not in text, result.stderr
        assert "internal compiler error" not in text, result.stderr


@pytest.mark.parametrize("path", _cases())
def test_bad_input(path: Path):
    line, column, fragment, _ = _expectation(path)
    result = run_omp2gpu(str(path))
    assert_clean(result)
    assert result.returncode == 1, f"exit status {result.returncode}\n{result.stderr}"
    lines = result.stderr.splitlines()
    assert len(lines) >= 3, result.stderr

    prefix = f"{path}:{line}:{column}: error: "
    assert lines[0].startswith(prefix), f"expected {prefix!r}...\ngot {lines[0]!r}"
    assert fragment in lines[0][len(prefix):], f"expected {fragment!r} in {lines[0]!r}"

    source_line = path.read_text(encoding="utf-8").splitlines()[line - 1]
    assert lines[1] == source_line.expandtabs(1)
    assert lines[2] == " " * (column - 1) + "^"


def test_every_file_has_an_expectation():
    files = sorted(HERE.glob("*.c"))
    assert len(files) >= 30
    for path in files:
        _expectation(path)


# --------------------------------------------------------------- the command line

def _single_error(result: subprocess.CompletedProcess, *fragments: str) -> None:
    assert_clean(result)
    assert result.returncode == 1, f"exit status {result.returncode}\n{result.stderr}"
    errors = [line for line in result.stderr.splitlines() if "error: " in line]
    assert len(errors) == 1, result.stderr
    for fragment in fragments:
        assert fragment in errors[0], result.stderr


def test_missing_file(tmp_path):
    missing = tmp_path / "no_such_program.c"
    _single_error(run_omp2gpu(str(missing)), "no_such_program.c")


def test_directory_as_input(tmp_path):
    folder = tmp_path / "folder.c"
    folder.mkdir()
    _single_error(run_omp2gpu(str(folder)), "folder.c")


def test_empty_file(tmp_path):
    empty = tmp_path / "empty.c"
    empty.write_text("")
    _single_error(run_omp2gpu(str(empty)), "main")


def test_binary_garbage(tmp_path):
    garbage = tmp_path / "garbage.c"
    garbage.write_bytes(bytes(range(256)) * 4 + b"\x7fELF\x00\x01\xff\xfe" * 16)
    result = run_omp2gpu(str(garbage))
    _single_error(result)
    assert result.stderr.startswith(f"{garbage}:"), result.stderr


def test_no_main(tmp_path):
    library = tmp_path / "library.c"
    library.write_text("int square(int x) { return x * x; }\n")
    _single_error(run_omp2gpu(str(library)), "undefined reference to 'main'")


def test_main_is_not_a_function(tmp_path):
    program = tmp_path / "main_object.c"
    program.write_text("int main = 3;\n")
    _single_error(run_omp2gpu(str(program)), "main")


def test_call_to_undefined_function(tmp_path):
    program = tmp_path / "undefined_function.c"
    program.write_text("int helper(int);\n\nint main(void) {\n    return helper(2);\n}\n")
    _single_error(run_omp2gpu(str(program)), "undefined reference to 'helper'")


def test_call_to_undefined_static_function(tmp_path):
    # was an internal compiler error: a declaration with internal linkage is not LLVM IR
    program = tmp_path / "undefined_static.c"
    program.write_text("static int helper(int);\n\nint main(void) {\n    return helper(2);\n}\n")
    _single_error(run_omp2gpu(str(program)), "undefined reference to 'helper'")
