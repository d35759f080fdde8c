"""The profile, OMP2GPU_PROFILE=FILE: the run as a Chrome / Perfetto trace.

The file is the Trace Event Format's JSON object, which chrome://tracing and
ui.perfetto.dev open. "traceEvents" holds one complete event ("ph": "X", ts and dur
in microseconds from the start of the trace) per compile stage, copy between the host
and a device, and kernel launch, each on a track: a process (pid) and a thread (tid)
named by metadata events ("ph": "M"). The host is one process whose tracks are its
threads (tid: the native thread id); each device is a process of its own, whose tracks
are its streams (a GPU) or the host threads that launched on it (the CPU device).
"otherData" carries the summaries the other recorders add (the offload runtime's: each
kernel's resources and launches, what the benchmarks read). Perfetto stops reading at a
top-level key it does not know, so the file has only these keys, "traceEvents" first.

One trace per process, started by the first `active()` when OMP2GPU_PROFILE is set (or
by `start`), written when Python exits (not when the program ends in C's exit(), which
skips Python's exit handlers). Other recorders in the process add their events through
`sources` (the offload runtime's launches and copies, for the Python API: native_link.py).
"""

from __future__ import annotations

import atexit
import json
import os
import sys
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager, nullcontext

from omp2gpu import config

ENVIRONMENT = config.Settings.profile.name
HOST = "host"                       # the process label of the host's own tracks

# Other recorders of this process: each is called with the trace's start (CLOCK_MONOTONIC
# microseconds) and returns its trace document so far, starts from then on, or None.
sources: list[Callable[[float], dict | None]] = []


class Trace:
    def __init__(self, path: str):
        self.path = path
        self._origin = time.perf_counter()
        self._events: list[dict] = []
        self._processes: dict[str, int] = {}
        self._tracks: dict[tuple[int, object], int] = {}
        self._track_names: list[dict] = []
        self._lock = threading.Lock()

    def now(self) -> float:
        """Microseconds since the trace began."""
        return (time.perf_counter() - self._origin) * 1e6

    def complete(self, name: str, category: str, start: float, duration: float,
                 process: str = HOST, track: str | None = None, args: dict | None = None) -> None:
        """One complete event. `track`: a named track of `process` (a stream); None: the
        calling thread's own."""
        with self._lock:
            pid = self._process_id(process)
            event = {"name": name, "cat": category, "ph": "X", "ts": round(start, 3),
                     "dur": round(max(duration, 0.0), 3), "pid": pid, "tid": self._track_id(pid, track)}
            if args:
                event["args"] = args
            self._events.append(event)

    @contextmanager
    def span(self, name: str, category: str, process: str = HOST, track: str | None = None,
             args: dict | None = None):
        """A complete event around the with-block."""
        start = self.now()
        try:
            yield
        finally:
            self.complete(name, category, start, self.now() - start, process, track, args)

    def _process_id(self, label: str) -> int:
        pid = self._processes.get(label)
        if pid is None:
            # The host keeps its real pid; devices, numbers after it (unique in this file).
            pid = self._processes[label] = os.getpid() + len(self._processes)
            self._track_names.append(_metadata("process_name", pid, 0, label))
            self._track_names.append(_metadata("process_sort_index", pid, 0, len(self._processes), "sort_index"))
        return pid

    def _track_id(self, pid: int, track: str | None) -> int:
        key = (pid, track if track is not None else threading.get_native_id())
        tid = self._tracks.get(key)
        if tid is None:
            tid = self._tracks[key] = key[1] if track is None else len(self._tracks) + 1
            self._track_names.append(_metadata("thread_name", pid, tid, track or _thread_label()))
        return tid

    def document(self) -> dict:
        with self._lock:
            other: dict = {}
            events = list(self._events)
            origin = (time.clock_gettime(time.CLOCK_MONOTONIC) - (time.perf_counter() - self._origin)) * 1e6
            for source in sources:
                document = source(origin)
                if document is not None:
                    events += self._adopted(document["traceEvents"])
                    other.update(document.get("otherData", {}))
            return {"traceEvents": [*self._track_names, *events], "displayTimeUnit": "ms",
                    "otherData": other}

    def _adopted(self, events: list[dict]) -> list[dict]:
        """Another recorder's complete events on this trace's processes and tracks, found by
        their names (its process and thread numbers are its own)."""
        processes = {e["pid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "process_name"}
        tracks = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
                  if e["ph"] == "M" and e["name"] == "thread_name"}
        adopted = []
        for event in events:
            if event["ph"] == "X":
                pid = self._process_id(processes.get(event["pid"], HOST))
                track = tracks.get((event["pid"], event["tid"]), f"thread {event['tid']}")
                adopted.append({**event, "pid": pid, "tid": self._track_id(pid, track)})
        return adopted

    def write(self) -> None:
        with open(self.path, "w", encoding="utf-8") as out:
            json.dump(self.document(), out, indent=0)

    def write_at_exit(self) -> None:
        """write(), saying why not on stderr (at exit a traceback helps nobody)."""
        try:
            self.write()
        except OSError as error:
            print(f"omp2gpu: warning: cannot write the profile to {self.path}: {error.strerror or error}",
                  file=sys.stderr)


def _metadata(kind: str, pid: int, tid: int, value, key: str = "name") -> dict:
    return {"name": kind, "ph": "M", "pid": pid, "tid": tid, "args": {key: value}}


def _thread_label() -> str:
    """The main thread; a Python thread by its name (the CLI compiles and runs the program
    on "omp2gpu-compile", for its deep stack); a native thread (an OpenMP worker calling
    into the launcher) by its id."""
    thread = threading.current_thread()
    if thread is threading.main_thread():
        return "main thread"
    if thread.name.startswith("Dummy-"):            # threading's name for a thread it did not start
        return f"thread {threading.get_native_id()}"
    return f"{thread.name} (thread {threading.get_native_id()})"


# ----------------------------------------------------------------- the process's trace
_active: Trace | None = None
_environment_read = False


def active() -> Trace | None:
    """The process's trace, None when the run is not profiled."""
    global _environment_read
    if not _environment_read:
        _environment_read = True
        path = config.settings().profile
        if path:
            start(path)
    return _active


def start(path: str) -> Trace:
    """Record into a trace written to `path` at exit (the current one, if it has that path)."""
    global _active, _environment_read
    _environment_read = True
    if _active is None or _active.path != path:
        _active = Trace(path)
        atexit.register(_active.write_at_exit)
    return _active


def stop() -> None:
    """No trace from now on (tests); one started before is still written at exit."""
    global _active, _environment_read
    _active, _environment_read = None, True


def span(name: str, category: str, **where):
    """Trace.span on the process's trace; nothing when there is none."""
    trace = active()
    return nullcontext() if trace is None else trace.span(name, category, **where)
