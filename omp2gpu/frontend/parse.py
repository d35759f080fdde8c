"""Parse preprocessed C with pycparser; syntax errors become located CompileErrors."""

from __future__ import annotations

import re

from pycparser import c_ast, c_parser

from omp2gpu.diagnostics import CompileError, SourceLocation

_parser: c_parser.CParser | None = None


def _the_parser() -> c_parser.CParser:
    # Building a CParser is the expensive part; parse() resets its state.
    global _parser
    if _parser is None:
        _parser = c_parser.CParser()
    return _parser


def parse(text: str, filename: str) -> c_ast.FileAST:
    """Parse preprocessed `text`; `filename` names it until a line marker does."""
    try:
        return _the_parser().parse(text, filename)
    except c_parser.ParseError as error:
        raise _syntax_error(str(error), text, filename) from None


def typedef_names_at_file_scope(ast: c_ast.FileAST) -> frozenset[str]:
    """Names declared by file-scope typedefs (block-scope ones are not included)."""
    return frozenset(node.name for node in ast.ext if isinstance(node, c_ast.Typedef))


# pycparser reports "<coord>: <message>"; the coord is file:line:col, file:line,
# a bare file name (at end of input) or None.
_WITH_LINE = re.compile(r"^(?P<file>.*?):(?P<line>\d+)(?::(?P<col>\d+))?: (?P<msg>.*)$", re.S)


def _syntax_error(raw: str, text: str, filename: str) -> CompileError:
    match = _WITH_LINE.match(raw)
    if match:
        location = SourceLocation(match["file"], int(match["line"]), int(match["col"] or 0))
        message = match["msg"]
    else:
        message = raw.split(": ", 1)[1] if ": " in raw else raw
        location = end_of_input(text, filename)
    return CompileError(_friendlier(message), location)


def _friendlier(message: str) -> str:
    """Reword pycparser's messages the way C compilers put them."""
    if message.startswith("before: "):
        return f"syntax error before '{message[len('before: '):]}'"
    if message == "At end of input":
        return "syntax error at end of input"
    illegal = re.match(r"Illegal character (.*)$", message)
    if illegal:
        return f"stray {illegal[1]} in program"
    return message[:1].lower() + message[1:]


_MARKER = re.compile(r'^\s*#\s*(?:line\s+)?(\d+)(?:\s+"((?:\\.|[^"\\])*)")?')


def end_of_input(text: str, filename: str) -> SourceLocation:
    """The original file and line of the last non-blank line of `text`."""
    line, file = 1, filename
    last = SourceLocation(filename, 1)
    for raw in text.split("\n"):
        marker = _MARKER.match(raw)
        if marker:
            line, file = int(marker[1]), marker[2] if marker[2] is not None else file
            continue
        if raw.strip():
            last = SourceLocation(file, line, len(raw.rstrip()) + 1)
        line += 1
    return last
