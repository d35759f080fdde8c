"""The launcher's messages on stderr (`omp2gpu: warning: ...`), after whatever the
program printed, and its fatal exit."""

from __future__ import annotations

import ctypes
import os
import sys


def one_line(error, limit: int = 1000) -> str:
    text = " | ".join(line.strip() for line in str(error).splitlines() if line.strip())
    text = text or type(error).__name__
    return text if len(text) <= limit else text[:limit] + "..."


def _flush_stdio() -> None:
    """The program's buffered C stdout first, so messages land after what it printed."""
    try:
        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError):
        pass
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass


def report(kind: str, text: str) -> None:
    _flush_stdio()
    try:
        sys.stderr.write(f"omp2gpu: {kind}: {text}\n")
        sys.stderr.flush()
    except (AttributeError, OSError, ValueError):
        pass


def fatal(text: str) -> None:
    """Print `omp2gpu: error: text` and end the process with status 1 at once (the JIT'd
    program is on the stack; exiting through Python would unwind into it)."""
    report("error", text)
    os._exit(1)
