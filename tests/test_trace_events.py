"""The profile as a Chrome / Perfetto trace (omp2gpu/trace_events.py): the recorder's
events and tracks, and the file a small program writes on the CPU device."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

from omp2gpu import trace_events

REPO = Path(__file__).resolve().parents[1]


def _by_phase(document: dict, phase: str) -> list[dict]:
    return [event for event in document["traceEvents"] if event["ph"] == phase]


def _track_names(document: dict) -> dict[tuple[int, int], str]:
    return {(e["pid"], e["tid"]): e["args"]["name"] for e in _by_phase(document, "M") if e["name"] == "thread_name"}


def _process_names(document: dict) -> dict[int, str]:
    return {e["pid"]: e["args"]["name"] for e in _by_phase(document, "M") if e["name"] == "process_name"}


def test_complete_events_carry_microseconds_and_named_tracks(tmp_path):
    trace = trace_events.Trace(str(tmp_path / "t.json"))
    with trace.span("parse", "compile"):
        pass
    trace.complete("k", "kernel", 10.0, 2.5, process="GPU 0 (X)", track="stream 0 (default)", args={"grid": 4})
    document = trace.document()
    parse, kernel = _by_phase(document, "X")
    assert parse["name"] == "parse" and parse["dur"] >= 0 and parse["tid"] == threading.get_native_id()
    assert (kernel["ts"], kernel["dur"], kernel["args"]) == (10.0, 2.5, {"grid": 4})
    processes = _process_names(document)
    assert processes[parse["pid"]] == "host" and processes[kernel["pid"]] == "GPU 0 (X)"
    assert parse["pid"] == os.getpid() and kernel["pid"] != parse["pid"]
    tracks = _track_names(document)
    assert tracks[(parse["pid"], parse["tid"])] == "main thread"
    assert tracks[(kernel["pid"], kernel["tid"])] == "stream 0 (default)"


def test_each_thread_is_a_track_of_its_own(tmp_path):
    trace = trace_events.Trace(str(tmp_path / "t.json"))
    worker = threading.Thread(target=lambda: trace.complete("w", "compile", 0, 1), name="w")
    worker.start()
    worker.join()
    trace.complete("m", "compile", 0, 1)
    first, second = _by_phase(trace.document(), "X")
    assert first["pid"] == second["pid"] and first["tid"] != second["tid"]


def test_the_file_has_trace_events_first_and_the_summaries_in_other_data(tmp_path, monkeypatch):
    path = tmp_path / "t.json"
    monkeypatch.setattr(trace_events, "sources", [lambda origin: {"traceEvents": [],
                                                                  "otherData": {"kernels": {"k": {"launches": []}}}}])
    trace = trace_events.Trace(str(path))
    trace.complete("x", "compile", 0, 1)
    trace.write()
    text = path.read_text()
    document = json.loads(text)
    # Perfetto stops at a top-level key it does not know: only these, traceEvents first.
    assert list(document) == ["traceEvents", "displayTimeUnit", "otherData"]
    assert text.lstrip().startswith('{\n"traceEvents"')
    assert document["displayTimeUnit"] in ("ms", "ns")
    assert document["otherData"] == {"kernels": {"k": {"launches": []}}}


def test_another_recorders_events_join_the_trace_on_processes_and_tracks_of_their_names(tmp_path, monkeypatch):
    origins = []

    def runtime(origin):       # as the offload runtime's __omp2gpu_profile_json gives them
        origins.append(origin)
        return {"traceEvents": [
            {"name": "process_name", "ph": "M", "pid": 7, "tid": 0, "args": {"name": "CPU device (2 workers)"}},
            {"name": "thread_name", "ph": "M", "pid": 7, "tid": 99, "args": {"name": "main thread"}},
            {"name": "k", "cat": "kernel", "ph": "X", "ts": 5.0, "dur": 1.0, "pid": 7, "tid": 99,
             "args": {"grid": 2, "block": 64}}], "otherData": {"device": "cpu"}}
    monkeypatch.setattr(trace_events, "sources", [runtime])
    trace = trace_events.Trace(str(tmp_path / "t.json"))
    trace.complete("parse", "compile", 0, 1)
    for document in (trace.document(), trace.document()):      # asked twice: nothing doubled
        parse, kernel = _by_phase(document, "X")
        assert _process_names(document)[kernel["pid"]] == "CPU device (2 workers)" != _process_names(document)[
            parse["pid"]]
        assert _track_names(document)[(kernel["pid"], kernel["tid"])] == "main thread"
        assert (kernel["ts"], kernel["args"], document["otherData"]) == (5.0, {"grid": 2, "block": 64},
                                                                         {"device": "cpu"})
        assert len(_process_names(document)) == 2
    assert abs(origins[0] - origins[1]) < 1 and origins[0] > 0     # the trace's start, the same each time


def test_no_trace_without_the_variable(monkeypatch):
    monkeypatch.delenv(trace_events.ENVIRONMENT, raising=False)
    monkeypatch.setattr(trace_events, "_active", None)
    monkeypatch.setattr(trace_events, "_environment_read", False)
    assert trace_events.active() is None
    with trace_events.span("nothing", "compile"):
        pass


PROGRAM = """
    #include <stdio.h>
    int main(void) {
        double a[1000];
        for (int i = 0; i < 1000; i++) a[i] = i;
        for (int r = 0; r < 3; r++) {
            #pragma omp target teams distribute parallel for map(tofrom: a[0:1000])
            for (int i = 0; i < 1000; i++) a[i] += 1.0;
        }
        printf("%g\\n", a[999]);
        return 0;
    }
"""


def test_a_program_on_the_cpu_device_writes_a_trace_of_copies_and_kernels(tmp_path):
    # the native program's runtime writes it at exit (runtime/offload/profile.c); `run`
    # compiled the program in another process, so no compile stages are in it
    source = tmp_path / "prog.c"
    source.write_text(textwrap.dedent(PROGRAM))
    profile = tmp_path / "profile.json"
    env = dict(os.environ, OMP2GPU_PROFILE=str(profile), OMP_NUM_THREADS="2",
               PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    done = subprocess.run([sys.executable, "-m", "omp2gpu", "run", str(source), "--device", "cpu"],
                          env=env, capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stdout) == (0, "1002\n"), done.stderr
    document = json.loads(profile.read_text())
    events = _by_phase(document, "X")
    for event in events:
        assert {"name", "cat", "ts", "dur", "pid", "tid"} <= set(event)
        assert isinstance(event["ts"], (int, float)) and event["dur"] >= 0
    by_category: dict[str, list[dict]] = {}
    for event in events:
        by_category.setdefault(event["cat"], []).append(event)
    assert set(by_category) == {"kernel", "copy"}
    kernels = by_category["kernel"]
    assert len(kernels) == 3 and all(e["args"]["grid"] >= 1 for e in kernels)
    copies = by_category["copy"]
    assert [e["name"] for e in copies] == ["copy to-device", "copy to-host"] * 3
    assert all(e["args"]["bytes"] == 8000 for e in copies)
    processes = _process_names(document)
    assert processes[kernels[0]["pid"]].startswith("CPU device") and copies[0]["pid"] == kernels[0]["pid"]
    # the summary the benchmarks read, as before: per kernel its resources and launches
    (summary,) = document["otherData"]["kernels"].values()
    assert len(summary["launches"]) == 3
    assert document["otherData"]["device"] == "cpu"


def test_an_unwritable_profile_is_a_warning_at_exit(tmp_path, capsys):
    trace = trace_events.Trace(str(tmp_path / "no" / "such" / "dir.json"))
    trace.write_at_exit()
    assert "omp2gpu: warning: cannot write the profile to " in capsys.readouterr().err
