"""frontend/parse.py: a syntax error is reported on the line (and column) gcc reports,
not at the end of the input where pycparser locates some of its errors."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.parse import parse

# name -> (source, (line, column) of the first error, as gcc 12 reports it)
CASES = {
    "operand missing": ("int main(void) {\n    int x = 1;\n    x = x + ;\n    return x;\n}\n\n"
                        "int other(void) { return 2; }\n", (3, 13)),
    "operand missing in parentheses": ("int main(void) {\n    int x = (1 + );\n    return x;\n}\n\n\n",
                                       (2, 18)),
    "argument missing": ("int f(int a) { return a; }\nint main(void) {\n    int x = f(1,);\n"
                         "    return x;\n}\n\n", (3, 17)),
    "cast of nothing": ("int main(void) {\n    int x = (int) ;\n    return x;\n}\n\n", (2, 19)),
    "subscript missing": ("int main(void) {\n    int a[2];\n    a[] = 1;\n    return 0;\n}\n\n", (3, 7)),
    "case label missing": ("int main(void) {\n    int x = 3;\n    switch (x) { case : x = 1; }\n"
                           "    return x;\n}\n\n", (3, 23)),
    "return return": ("int main(void) {\n    return return;\n}\n\n", (2, 12)),
    "sizeof of nothing": ("int main(void) {\n    int x = sizeof();\n    return x;\n}\n\n", (2, 20)),
    "unary operator without operand": ("int main(void) {\n    int x = 3;\n    x = * ;\n    return x;\n}\n\n",
                                       (3, 11)),
    "parameter missing": ("int f(int a,) { return a; }\nint main(void) { return f(1); }\n", (1, 13)),
    "call statement without ';'": ("int printf(const char *, ...);\nint main(void) {\n"
                                   "    printf(\"hi\\n\")\n    return 0;\n}\n", (3, 19)),
    "return without ';'": ("int main(void) {\n    int x = 1;\n    return x\n}\n", (3, 13)),
    "declaration without ';'": ("int main(void) {\n    int x = 1\n    return x;\n}\n", (3, 5)),
    "initialiser list not closed": ("int main(void) {\n    int a[3] = {1, 2, 3;\n    return a[0];\n}\n",
                                    (2, 24)),
    "for header of two parts": ("int main(void) {\n    int i, s = 0;\n    for (i = 0; i < 3) s++;\n"
                                "    return s;\n}\n", (3, 22)),
    "while without '('": ("int main(void) {\n    int x = 3;\n    while x > 0) x--;\n    return x;\n}\n",
                          (3, 11)),
    "stray '}'": ("int main(void) {\n    int x = 1;\n    }\n    return x;\n}\n", (4, 5)),
    "member without ';'": ("struct p { int x int y; };\nint main(void) { return 0; }\n", (1, 18)),
    # A statement starting with a token no expression starts with: at that token, not
    # as a ';' missing after the line before.
    "statement starting with '/'": ("int main(void) {\n    int x = 1;\n   /  x = 2;\n    return x;\n}\n",
                                    (3, 4)),
    "statement starting with ','": ("int main(void) {\n    int x = 1;\n    if (x) {\n    }\n    , x;\n"
                                    "    return x;\n}\n", (5, 5)),
    "stray ']' before a declaration": ("int main(void)\n{\n    ] int i = 0;\n    return i;\n}\n", (3, 5)),
    "typedef as a loop body": ("int main(void) {\n    int i, s = 0;\n    for (i = 0; i < 3; i++)\n"
                               "        typedef += i;\n    return s;\n}\n", (4, 9)),
    # A pragma where a declaration goes on: at the pragma.
    "pragma between a function's declarator and body": ("int main(void)\n#pragma GCC ivdep\n{ return 0; }\n",
                                                        (2, 9)),
    "pragma inside a declaration": ("int x\n#pragma GCC ivdep\nint y;\nint main(void) { return 0; }\n",
                                    (2, 9)),
    # A missing ')' or a file-scope ';': just after the token before it.
    "call not closed before the next line": ("int printf(const char *, ...);\nint main(void) {\n"
                                              "    printf(\"%d\\n\", 1\n           : 2);\n    return 0;\n}\n",
                                              (3, 21)),
    "file-scope declaration without ';'": ("static double weights[4]\nstatic double sums[4];\n"
                                           "int main(void) { return 0; }\n", (1, 25)),
    "file-scope declarations run together": ("int a static int b;\nint main(void) { return 0; }\n",
                                             (1, 6)),
    "static function defined in a block": ("int main(void)\n{\n    int x = 1;\n"
                                           "    static int twice(int v) { return 2 * v; }\n"
                                           "    return twice(x);\n}\n", (4, 16)),
    "block declaration without ';' before another": ("int main(void)\n{\n    int a[4]\n"
                                                     "    double d[4];\n    return 0;\n}\n", (3, 13)),
    # after a parameter gcc expects one of "';', ',' or ')'": at the next token
    "parameter list not closed": ("int main(void\n{\n    return 0;\n}\n", (2, 1)),
    "else without if": ("int main(void) {\n    int x = 1;\n    x++;\n    else x--;\n    return x;\n}\n",
                        (4, 5)),
}


def _first_error(source: str, tmp_path) -> tuple[int, int]:
    path = tmp_path / "prog.c"
    path.write_text(source)
    with pytest.raises(CompileError) as error:
        parse(source, str(path))
    return error.value.location.line, error.value.location.column


@pytest.mark.parametrize("source, where", CASES.values(), ids=CASES.keys())
def test_first_error_where_gcc_reports_it(tmp_path, source, where):
    assert _first_error(source, tmp_path) == where


def _gcc_first_error(source: str, tmp_path) -> tuple[int, int]:
    path = tmp_path / "prog.c"
    path.write_text(source)
    result = subprocess.run(["gcc", "-fsyntax-only", "-std=gnu99", str(path)],
                            capture_output=True, text=True)
    line = next(text for text in result.stderr.splitlines() if ": error: " in text)
    _, row, column = line.split(": error: ")[0].rsplit(":", 2)
    return int(row), int(column)


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is not installed")
@pytest.mark.parametrize("source, where", CASES.values(), ids=CASES.keys())
def test_the_recorded_place_is_gccs(tmp_path, source, where):
    assert _gcc_first_error(source, tmp_path) == where
