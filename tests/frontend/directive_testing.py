"""What the directive and clause parser tests share: parsing one pragma at a known
place, and checking where an error points."""

import pytest
from pycparser.c_parser import Coord

from omp2gpu.diagnostics import CompileError, SourceLocation
from omp2gpu.frontend.openmp.directive_node import Directive
from omp2gpu.frontend.openmp.directives import parse_directive

PRAGMA_COLUMN = 9       # "#pragma omp ...": the "o" of "omp" is in column 9
# A name linecache never reads a file for (<...>): the parser looks the pragma's line up
# in its source, and another test may have left a real prog.c in linecache.
FILE = "<pragma under test>"
COORD = Coord(FILE, 12, PRAGMA_COLUMN)


def parse(text: str, typedefs=frozenset()) -> Directive:
    return parse_directive(text, COORD, frozenset(typedefs))


def error(text: str, typedefs=frozenset()) -> CompileError:
    with pytest.raises(CompileError) as info:
        parse(text, typedefs)
    return info.value


def column_of(text: str, needle: str, occurrence: int = 1) -> int:
    """Source column of the n-th occurrence of `needle` in the pragma text."""
    index = -1
    for _ in range(occurrence):
        index = text.index(needle, index + 1)
    return PRAGMA_COLUMN + index


def assert_error(text: str, message: str, at: str, occurrence: int = 1, typedefs=frozenset()):
    err = error(text, typedefs)
    assert err.message == message
    assert err.location == SourceLocation(FILE, 12, column_of(text, at, occurrence))


def expr_text(node) -> str:
    from pycparser.c_generator import CGenerator
    return CGenerator(reduce_parentheses=True).visit(node)


