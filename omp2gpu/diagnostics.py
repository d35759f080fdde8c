"""Compiler diagnostics: `file:line:col: error: message`, the source line and a caret.

Every stage raises `CompileError` with the pycparser `Coord` (or any object with
`file`, `line`, `column`) of the construct at fault; the CLI formats it and exits 1.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass


@dataclass(frozen=True)
class SourceLocation:
    file: str
    line: int
    column: int = 0

    @classmethod
    def of(cls, coord) -> "SourceLocation | None":
        if coord is None:
            return None
        if isinstance(coord, SourceLocation):
            return coord
        return cls(str(getattr(coord, "file", "") or ""), int(getattr(coord, "line", 0) or 0),
                   int(getattr(coord, "column", 0) or 0))

    def shifted(self, columns: int) -> "SourceLocation":
        return SourceLocation(self.file, self.line, max(1, self.column + columns))

    def __str__(self) -> str:
        if self.column:
            return f"{self.file}:{self.line}:{self.column}"
        return f"{self.file}:{self.line}"


class CompileError(Exception):
    """An error in the user's input, located in the source."""

    def __init__(self, message: str, coord=None, hint: str | None = None):
        super().__init__(message)
        self.message = message
        self.location = SourceLocation.of(coord)
        self.hint = hint

    def format(self, severity: str = "error") -> str:
        return format_diagnostic(severity, self.message, self.location, self.hint)


class EndOfScopeError(CompileError):
    """An error that the end of a function or of the file proves: a label used and never
    defined, a region left open. Compiling only a prefix of the file (error_order.py)
    raises it falsely, so it is told apart."""


class LoweringError(CompileError):
    """An error gcc finds only when it lowers the OpenMP regions, once the whole file is
    read (constructs nested where they may not be, `default(none)`): any other error
    of the file, even a later one, is reported first (error_order.py)."""


class CompileWarning(CompileError):
    """Same shape as an error; printed, compilation goes on."""


# Whether warn() prints: the compilation's own CompileOptions.warnings_enabled (-w turns it
# off, as in gcc), set by `warnings_switched` around that compilation (driver.translate),
# so one load's -w is not the next one's. A context variable: each thread its own.
_warnings_enabled: ContextVar[bool] = ContextVar("omp2gpu_warnings_enabled", default=True)


@contextmanager
def warnings_switched(enabled: bool):
    """warn() prints (or not) while the block runs."""
    token = _warnings_enabled.set(enabled)
    try:
        yield
    finally:
        _warnings_enabled.reset(token)


def warn(message: str, coord=None) -> None:
    """Print `file:line:col: warning: message` (with the source line and a caret) to
    stderr, as gcc does for what it accepts but doubts (K&R parameters, implicit int)."""
    if not _warnings_enabled.get():
        return
    print(CompileWarning(message, coord).format("warning"), file=sys.stderr, flush=True)


def _source_line(location: SourceLocation) -> str | None:
    if not location.file or location.line <= 0 or not os.path.isfile(location.file):
        return None
    try:
        with open(location.file, encoding="utf-8", errors="replace") as handle:
            for number, text in enumerate(handle, 1):
                if number == location.line:
                    return text.rstrip("\n").expandtabs(1)
    except OSError:
        return None
    return None


def format_diagnostic(severity: str, message: str, location: SourceLocation | None,
                      hint: str | None = None) -> str:
    """Render a diagnostic the way gcc and clang do."""
    if location is None or not location.file:
        text = f"omp2gpu: {severity}: {message}"
    else:
        text = f"{location}: {severity}: {message}"
        line = _source_line(location)
        if line is not None:
            caret_column = max(1, min(location.column or 1, len(line) + 1))
            text += f"\n{line}\n{' ' * (caret_column - 1)}^"
    if hint:
        text += f"\nnote: {hint}"
    return text
