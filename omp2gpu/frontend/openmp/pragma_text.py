"""What a `#pragma` says and where: its text, whether it is OpenMP's, and the
place of its `omp` word in the original line (directive offsets count from it)."""

from __future__ import annotations

import linecache
import re

from pycparser import c_ast

try:
    from pycparser.c_parser import Coord
except ImportError:                                   # pycparser 2.x
    from pycparser.plyparser import Coord


def named(directive) -> str:
    return f"'#pragma omp {directive.kind}'"


def pragma_text(pragma: c_ast.Pragma) -> str:
    text = pragma.string
    if isinstance(text, c_ast.Constant):          # pycparser's own _Pragma("...") node
        text = text.value[text.value.index('"') + 1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return (text or "").strip()


def is_omp(text: str) -> bool:
    return text == "omp" or text.startswith(("omp ", "omp\t"))


_OMP_IN_SOURCE = re.compile(r'(?:#\s*pragma\s+|_Pragma\s*\(\s*L?"\s*)(omp)\b')


def omp_coord(coord):
    """Where the word `omp` is in the original line: the preprocessor may have
    moved the pragma (gcc writes it from column 1), and directive offsets count
    from this point."""
    if coord is None or not coord.file or not coord.line:
        return coord
    match = _OMP_IN_SOURCE.search(linecache.getline(coord.file, coord.line))
    column = match.start(1) + 1 if match else coord.column
    return Coord(coord.file, coord.line, column)
