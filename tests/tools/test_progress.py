"""tools/progress.py: a terminal sees the current step of a compile longer than a second,
erased at the end; anything else (a build log, a pipe) sees nothing."""

from __future__ import annotations

import io
import time

from omp2gpu import pipeline
from omp2gpu.tools import progress


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_long_step_on_a_terminal(monkeypatch):
    monkeypatch.setattr(progress, "DELAY_S", 0.05)
    terminal = Terminal()
    with progress.progress_line("prog.c", terminal):
        with pipeline.stage("codegen"):
            time.sleep(0.3)
    text = terminal.getvalue()
    assert "\romp2gpu-cc: prog.c: codegen (" in text and text.endswith("\r")
    assert text.split("\r")[-2].strip() == ""                     # the line erased


def test_nothing_when_short_or_not_a_terminal(monkeypatch):
    terminal, log = Terminal(), io.StringIO()
    with progress.progress_line("prog.c", terminal):
        pass
    with progress.progress_line("prog.c", log):
        time.sleep(0.01)
    assert terminal.getvalue() == "" and log.getvalue() == ""
