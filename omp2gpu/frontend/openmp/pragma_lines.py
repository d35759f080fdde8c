"""Where each character of a pragma's text is in the source file.

The preprocessor hands a `#pragma` over as one line: its continuation lines
(`\\` at the end of a line) joined, each run of blanks made one space, its
macros expanded. So an offset into that text, counted from the `omp` word, is
not a column of the source line once the pragma spans several lines. Matching
the text's tokens with the source's (difflib: an expanded macro is a token
replaced) places each offset back on its own line and column.
"""

from __future__ import annotations

import difflib
import linecache
import re

from omp2gpu.diagnostics import SourceLocation

_TOKEN = re.compile(r"""[\w.]+|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|\S""")


def source_positions(text: str, origin: SourceLocation) -> list[tuple[int, int]] | None:
    """(line, column) of each character of `text`, and one past its end, where `text`
    is the pragma whose first character is at `origin`; None where the source cannot
    be read or shares no token with the text."""
    spelled = _source_tokens(origin)
    tokens = [(match.start(), match[0]) for match in _TOKEN.finditer(text)]
    matcher = difflib.SequenceMatcher(None, [t for _, t in tokens], [t for t, _, _ in spelled],
                                      autojunk=False)
    if not spelled or matcher.find_longest_match().size == 0:
        return None
    at_token: list[tuple[int, int]] = []        # where each text token starts in the source
    for operation, start, end, source_start, source_end in matcher.get_opcodes():
        for k in range(end - start):
            if operation == "equal" or source_end > source_start:
                _, line, column = spelled[min(source_start + k, source_end - 1)]
            else:                                # inserted: where the next source token is
                _, line, column = spelled[min(source_start, len(spelled) - 1)]
            at_token.append((line, column))
    positions, token_index = [], -1
    for offset in range(len(text) + 1):
        while token_index + 1 < len(tokens) and tokens[token_index + 1][0] <= offset:
            token_index += 1
        if token_index < 0:
            positions.append((origin.line, origin.column))
            continue
        start, spelling = tokens[token_index]
        line, column = at_token[token_index]
        positions.append((line, column + min(offset - start, len(spelling))))
    return positions


def _source_tokens(origin: SourceLocation) -> list[tuple[str, int, int]]:
    """(token, line, column) of the pragma's source from `origin` on, following
    continuation lines."""
    found = []
    line_number, column = origin.line, origin.column
    while True:
        line = linecache.getline(origin.file, line_number).rstrip("\r\n")
        body = line.rstrip()
        continued = body.endswith("\\")
        if continued:
            body = body[:-1]
        start = max(column - 1, 0)
        found += [(match[0], line_number, match.start() + 1)
                  for match in _TOKEN.finditer(body, start)]
        if not continued:
            return found
        line_number, column = line_number + 1, 1
