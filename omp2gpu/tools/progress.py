"""The progress line an interactive terminal gets for a compile longer than a second:
`omp2gpu-cc: prog.c: codegen (3.2 s)`, redrawn in place while the work goes on and erased
when it ends, so a 10,000-line program does not compile for 14 s in silence. Only on a
terminal (a build log or a pipe gets nothing) and not with -v, which prints the steps."""

from __future__ import annotations

import sys
import threading
import time
from contextlib import contextmanager

from omp2gpu import pipeline

DELAY_S = 1.0          # no line for what finishes sooner
REDRAW_S = 0.2


@contextmanager
def progress_line(what: str, stream=None):
    stream = stream or sys.stderr
    if not stream.isatty():
        yield
        return
    done = threading.Event()
    start = time.perf_counter()

    def draw() -> None:
        if done.wait(DELAY_S):
            return
        shown = 0
        while not done.is_set():
            line = f"omp2gpu-cc: {what}: {pipeline.current_stage} ({time.perf_counter() - start:.1f} s)"
            stream.write("\r" + line.ljust(shown))
            stream.flush()
            shown = len(line)
            done.wait(REDRAW_S)
        stream.write("\r" + " " * shown + "\r")
        stream.flush()

    painter = threading.Thread(target=draw, daemon=True)
    painter.start()
    try:
        yield
    finally:
        done.set()
        painter.join()
