"""Shrink an input while it keeps the same finding (delta debugging, Zeller's ddmin,
over lines and then over tokens), within a budget of compiler runs."""

from __future__ import annotations

import re
from typing import Callable

_PIECES = {
    "lines": re.compile(rb"[^\n]*\n|[^\n]+"),
    "tokens": re.compile(rb"\s*(?:\w+|\S)"),
}


def reduce(source: bytes, still_fails: Callable[[bytes], bool], budget: int = 200) -> bytes:
    """The smallest input found for which still_fails holds (source itself if none
    smaller), trying at most `budget` candidates."""
    tried = 0
    for unit in ("lines", "tokens"):
        pieces = _PIECES[unit].findall(source)
        chunks = 2
        while len(pieces) >= 2 and tried < budget:
            size = max(1, len(pieces) // chunks)
            shrunk = False
            for start in range(0, len(pieces), size):
                if tried >= budget:
                    break
                candidate = pieces[:start] + pieces[start + size:]
                tried += 1
                if still_fails(b"".join(candidate)):
                    pieces, shrunk = candidate, True
                    chunks = max(chunks - 1, 2)
                    break
            if not shrunk:
                if size == 1:
                    break
                chunks = min(len(pieces), chunks * 2)
        source = b"".join(pieces)
    return source
