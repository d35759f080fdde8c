"""Prefixes of a preprocessed C text that are whole C: the text up to a statement
boundary before a given place, with the blocks still open there closed.

    source = PreprocessedSource(text)
    for boundary, prefix in source.prefixes_before(source.offset_of(error.location)):
        ...                              # compile `prefix`: an error before `boundary` came first

error_order.py compiles such prefixes to find a file's first error in source order.
A boundary is the end of a `;`, `{` or `}` outside parentheses where every open
brace opens a block (not an initialiser, struct or enum body), so closing those
blocks (and `declare target` regions) leaves complete C; or the end of a `#pragma`
line, so that its directive is read (in a block, given a stand-in statement). Nor
is a cut made inside the block of `atomic` or the loop nest of `collapse`: what
those hold is checked, and a part of it is not valid. The rule looks only at
tokens, so now and then a prefix is still not C (a `do` body cut before its
`while`, a compound literal taken for a block): its parse fails, and the caller
tries the boundary before it.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from omp2gpu.diagnostics import SourceLocation

_TOKEN = re.compile(r"""
      (?P<directive>^[ \t]*\#[^\n]*)          # line markers and #pragma lines
    | (?P<comment>/\*.*?\*/|//[^\n]*)
    | (?P<literal>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
    | (?P<word>[A-Za-z_]\w*)
    | (?P<punct>[{}()\[\];:])
    """, re.VERBOSE | re.MULTILINE | re.DOTALL)
_MARKER = re.compile(r'^[ \t]*#[ \t]*(?:line[ \t]+)?(\d+)(?:[ \t]+"((?:\\.|[^"\\])*)")?')
# What may come before a `{` that opens a block: a statement's or function's header,
# `else`, `do`, a label, a directive, or the end of a statement or block.
_BEFORE_BLOCK = frozenset({")", "else", "do", ":", ";", "}"})
# The statement a directive cut off from its own is given, so that the directive is
# checked whole (its clauses, where it is): loops nested deep enough for `collapse`,
# which any directive that takes a statement accepts. What is said about it is
# past the cut.
_STAND_IN = "".join(f"for (int omp2gpu_cut{n} = 0; omp2gpu_cut{n} < 1; omp2gpu_cut{n}++) "
                    for n in range(3)) + ";\n"
_PRAGMA = re.compile(r"[ \t]*#[ \t]*pragma\b")
# Directives whose statement's shape is checked (an atomic capture's two statements,
# collapse's nested loops): never cut inside the statement's first block.
_DECLARE_TARGET_BEGIN = re.compile(r"[ \t]*#[ \t]*pragma[ \t]+omp[ \t]+declare[ \t]+target[ \t]*$")
_DECLARE_TARGET_END = re.compile(r"[ \t]*#[ \t]*pragma[ \t]+omp[ \t]+end[ \t]+declare[ \t]+target\b")
_SHAPE_CHECKED = re.compile(r"[ \t]*#[ \t]*pragma[ \t]+omp\b.*\b(?:atomic|collapse)\b")


class PreprocessedSource:
    def __init__(self, text: str):
        self.text = text
        self._line_starts: dict[tuple[str, int], int] = {}
        self._index_lines()
        # (offset, blocks open, declare target regions open, whether a pragma line ends there)
        self._boundaries: list[tuple[int, int, int, bool]] | None = None

    def _index_lines(self) -> None:
        file, line, offset = "", 1, 0
        for raw in self.text.split("\n"):
            marker = _MARKER.match(raw)
            if marker:
                line, file = int(marker[1]), marker[2] if marker[2] is not None else file
            else:
                self._line_starts.setdefault((file, line), offset)
                line += 1
            offset += len(raw) + 1

    def offset_of(self, location: SourceLocation | None) -> int | None:
        """Where in the text the original file's `location` is (None: not in it)."""
        if location is None:
            return None
        start = self._line_starts.get((location.file, location.line))
        if start is None:
            return None
        end = self.text.find("\n", start)
        line_length = (len(self.text) if end < 0 else end) - start
        return start + min(max(location.column - 1, 0), line_length)

    def prefixes_before(self, offset: int, limit: int = 3) -> Iterator[tuple[int, str]]:
        """(boundary, prefix) for the last `limit` boundaries at or before `offset`, the
        nearest first."""
        boundaries = self._find_boundaries()
        last = bisect.bisect_right(boundaries, (offset, float("inf"), 0, True))
        for position, open_blocks, open_regions, after_pragma in reversed(boundaries[max(0, last - limit):last]):
            statement = _STAND_IN if after_pragma and open_blocks else ""
            closers = statement + "}\n" * open_blocks + "#pragma omp end declare target\n" * open_regions
            yield position, self.text[:position] + "\n" + closers

    def _find_boundaries(self) -> list[tuple[int, int, int, bool]]:
        if self._boundaries is not None:
            return self._boundaries
        boundaries, braces, nesting, previous, shape_checked, regions = [], [], 0, "", False, 0
        for match in _TOKEN.finditer(self.text):
            kind, token = match.lastgroup, match[0]
            if kind == "comment":
                continue
            if kind == "directive" and _SHAPE_CHECKED.match(token):
                shape_checked = True
            elif kind == "directive" and _DECLARE_TARGET_BEGIN.match(token):
                regions += 1
            elif kind == "directive" and _DECLARE_TARGET_END.match(token):
                regions = max(0, regions - 1)
            elif token == ";" and nesting == 0:
                shape_checked = False
            if token in ("(", "["):
                nesting += 1
            elif token in (")", "]"):
                nesting = max(0, nesting - 1)
            elif token == "{":
                braces.append(self._brace_kind(previous, braces, nesting, shape_checked))
                shape_checked = False
            elif token == "}" and braces and braces.pop() == "aggregate":
                token = "}aggregate"            # not a boundary, nor a block's end
            pragma = kind == "directive" and _PRAGMA.match(token) is not None
            if (token in (";", "{", "}") or pragma) and nesting == 0 and all(b == "block" for b in braces):
                boundaries.append((match.end(), len(braces), regions, pragma))
            previous = "#" if kind == "directive" else token
        self._boundaries = boundaries
        return boundaries

    @staticmethod
    def _brace_kind(previous: str, braces: list[str], nesting: int, shape_checked: bool) -> str:
        """"block" (a compound statement), "checked" (one not to cut inside) or "aggregate"
        (an initialiser, a struct or enum body, anything in parentheses)."""
        if nesting or not (previous in _BEFORE_BLOCK or previous == "#"
                           or previous == "{" and braces and braces[-1] != "aggregate"):
            return "aggregate"
        return "checked" if shape_checked or "checked" in braces else "block"
