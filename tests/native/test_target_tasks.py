"""Target tasks on libomp2gpu's GPU streams (docs/async.md, runtime/offload/target_tasks.c):
`target nowait` kernels queued on streams and completed by the poller, kernels that run
ahead of sequential code until the thread's next wait (the GOMP waits wrapped at link
time), `depend` order, what stays synchronous, and automatic concurrency of synchronous
regions (OMP2GPU_AUTO_ASYNC=1, runtime/offload/auto_async.c).

Without a GPU the program runs on a stand-in for the CUDA driver (fake_cuda/libcuda.c,
found first through LD_LIBRARY_PATH; FAKE_CUDA_KERNEL_MS): its streams are threads whose
kernels compute nothing but take that long and log their start and end on stderr, where the
program writes its marks (`mark: NAME`) too, so the order of the lines is the order of
the events. The program's results are checked against gcc's on the host and the CPU
device here, and on a real GPU by the `gpu` tests."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from test_native_executables import PROGRAMS, build, omp2gpu

HERE = Path(__file__).resolve().parent
SOURCE = "target_tasks_on_streams.c"
AUTO_SOURCE = "auto_async_regions.c"
TIMEOUT_S = 120
FIELD_KERNEL = "smooth_field__omp_target_task"
KERNEL_MS = "150"              # each fake kernel's time: far longer than the host's launches

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc (the C toolchain and reference)")


@pytest.fixture(scope="module")
def program(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("target_tasks"), SOURCE)


def gcc_run(folder: Path, source: str) -> str:
    subprocess.run(["gcc", "-fopenmp", "-foffload=disable", "-O1", str(PROGRAMS / source), "-o", str(folder / "prog")],
                   check=True)
    # gcc's binary runs its regions on the host (another test may have left OMP_TARGET_OFFLOAD
    # = MANDATORY in the environment, where libgomp, having no device, stops)
    return subprocess.run([str(folder / "prog")], capture_output=True, text=True, check=True,
                          timeout=TIMEOUT_S, env={**os.environ, "OMP_TARGET_OFFLOAD": "DISABLED"}).stdout


@pytest.fixture(scope="module")
def gcc_output(tmp_path_factory) -> str:
    return gcc_run(tmp_path_factory.mktemp("gcc"), SOURCE)


@pytest.fixture(scope="module")
def auto_program(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("auto_async"), AUTO_SOURCE)


@pytest.fixture(scope="module")
def auto_gcc_output(tmp_path_factory) -> str:
    return gcc_run(tmp_path_factory.mktemp("auto_gcc"), AUTO_SOURCE)


def run(program: Path, env: dict) -> subprocess.CompletedProcess:
    done = subprocess.run([str(program)], capture_output=True, text=True, timeout=TIMEOUT_S,
                          env={"PATH": os.environ.get("PATH", ""), "OMP_NUM_THREADS": "2", **env})
    assert done.returncode == 0, done.stderr
    return done


def on_fake_gpu(program: Path, fake_driver: Path, tmp_path: Path, **env: str) -> tuple[list, list[str]]:
    """The program's events (("start"|"end", kernel, stream) or ("mark", name)) in order,
    and its offload log's lines. Each launch is its own (OMP2GPU_FUSE_LAUNCHES=0) unless
    `env` says otherwise: test_fused_launches.py tests fusion."""
    log = tmp_path / "launches"
    log.unlink(missing_ok=True)
    done = run(program, {"LD_LIBRARY_PATH": str(fake_driver), "OMP_TARGET_OFFLOAD": "MANDATORY",
                         "OMP2GPU_OFFLOAD_LOG": str(log), "FAKE_CUDA_KERNEL_MS": KERNEL_MS,
                         "OMP2GPU_FUSE_LAUNCHES": "0", **env})
    assert "free while a kernel runs" not in done.stderr, done.stderr
    events = []
    for line in done.stderr.splitlines():
        if match := re.fullmatch(r"FAKE-CUDA: (start|end) __omp_offloading_(\S+) stream=(\d+)", line):
            events.append((match[1], match[2], int(match[3])))
        elif line.startswith("mark: "):
            events.append(("mark", line[len("mark: "):]))
    return events, log.read_text().splitlines()


def between(events: list, after: str | None, before: str) -> list:
    """The kernel events between two marks (`after` None: from the start)."""
    marks = [event[1] if event[0] == "mark" else None for event in events]
    first = marks.index(after) + 1 if after else 0
    return events[first:marks.index(before)]


def index(events: list, kind: str, kernel_prefix: str) -> int:
    return next(i for i, event in enumerate(events) if event[0] == kind and event[1].startswith(kernel_prefix))


def overlapping(kernels: list) -> bool:
    """Every kernel started before any ended (they ran at once, on their streams)."""
    starts = [i for i, event in enumerate(kernels) if event[0] == "start"]
    ends = [i for i, event in enumerate(kernels) if event[0] == "end"]
    return bool(starts) and max(starts) < min(ends)


def test_results_match_gcc_on_the_host_and_the_cpu_device(program, gcc_output):
    for devices in ("cpu", "none"):
        env = {"OMP2GPU_DEVICES": devices} if devices != "none" else {"OMP_TARGET_OFFLOAD": "DISABLED"}
        assert run(program, env).stdout == gcc_output, devices


def test_sequential_nowait_kernels_run_ahead_until_each_wait(program, fake_driver, tmp_path):
    events, _ = on_fake_gpu(program, fake_driver, tmp_path)
    first = between(events, None, "taskwait")
    # the host went on past the four launches before any kernel ended
    launched = first.index(("mark", "launched"))
    assert all(event[0] != "end" for event in first[:launched]), first
    waits = ("taskwait", "taskgroup", "barrier", "taskloop", "sections")
    for after, wait in zip((None, *waits), waits):
        kernels = [event for event in between(events, after, wait) if event[0] != "mark"]
        assert len(kernels) == 8 and all(event[1].startswith(FIELD_KERNEL) for event in kernels), (wait, kernels)
        assert overlapping(kernels), (wait, kernels)          # each waited for only at `wait`
        assert len({event[2] for event in kernels}) == 4 and 0 not in {event[2] for event in kernels}


def test_depend_chains_are_ordered(program, fake_driver, tmp_path):
    events, _ = on_fake_gpu(program, fake_driver, tmp_path)
    chain = between(events, "sections", "chain")
    assert [event[0] for event in chain] == ["start", "end"] * 3, chain
    in_parallel = between(events, "chain", "parallel")
    fields = [event for event in in_parallel if event[1].startswith(FIELD_KERNEL)]
    assert len(fields) == 8 and overlapping(fields), in_parallel     # completed by the poller
    first, second = "main__omp_fn__omp_target_task_l", "main__omp_fn__omp_target_task_1_l"
    assert index(in_parallel, "start", second) > index(in_parallel, "end", first), in_parallel


def test_launches_with_transient_data_are_waited_for_and_the_end_of_main_waits(program, fake_driver, tmp_path):
    events, log = on_fake_gpu(program, fake_driver, tmp_path)
    fresh = between(events, "parallel", "fresh")
    assert [event[0] for event in fresh] == ["start", "end"] and fresh[0][2] == 0, fresh
    # main returned with its last kernel running: the exit waited for it
    ending = events[events.index(("mark", "end of main")):]
    assert [event[0] for event in ending] == ["mark", "start", "end"] or \
        [event[0] for event in ending] == ["mark", "end"], events[-6:]
    queued = [line for line in log if " stream=" in line]
    assert len(queued) == len(log) - 1, log                   # all but the transient one
    assert len({line.split("stream=")[1] for line in queued}) == 16, log


def test_switches_make_target_tasks_wait(program, fake_driver, tmp_path):
    """OMP2GPU_NOWAIT_RUN_AHEAD=0: sequential code's tasks detach, and the OpenMP runtime
    waits for each; OMP2GPU_NOWAIT_STREAMS=0: every launch is waited for."""
    events, _ = on_fake_gpu(program, fake_driver, tmp_path, OMP2GPU_NOWAIT_RUN_AHEAD="0")
    first = between(events, None, "launched")
    assert [event[0] for event in first] == ["start", "end"] * 4 and first[0][2] != 0, first
    events, log = on_fake_gpu(program, fake_driver, tmp_path, OMP2GPU_NOWAIT_STREAMS="0")
    assert all(event[0] == "mark" or event[2] == 0 for event in events) and not any(" stream=" in line for line in log)


def kernel_lines() -> dict[str, int]:
    """auto_async_regions.c's kernels K1..K4: the line of each one's pragma (its name's _lN)."""
    lines = (PROGRAMS / AUTO_SOURCE).read_text().splitlines()
    return {tag: number for number, line in enumerate(lines, 1) for tag in ("K1", "K2", "K3", "K4")
            if line.startswith("#pragma omp target") and f"/* {tag} */" in line}


def test_automatic_concurrency_keeps_results_on_the_host_and_the_cpu_device(auto_program, auto_gcc_output):
    for env in ({"OMP2GPU_DEVICES": "cpu"}, {"OMP_TARGET_OFFLOAD": "DISABLED"}):
        assert run(auto_program, {**env, "OMP2GPU_AUTO_ASYNC": "1"}).stdout == auto_gcc_output, env


def test_automatic_concurrency_overlaps_only_launches_that_do_not_conflict(auto_program, fake_driver, tmp_path):
    """K1 and K2 write different arrays: they overlap; K3 reads K1's array and K4 writes
    K2's: each follows the other's launch of the same step; `target update` waits."""
    events, log = on_fake_gpu(auto_program, fake_driver, tmp_path, OMP2GPU_AUTO_ASYNC="1")
    line = kernel_lines()
    name = {tag: f"main_l{number}" for tag, number in line.items()}
    kernels = between(events, None, "updated")
    issued = kernels.index(("mark", "issued"))
    assert any(event[0] == "end" for event in kernels[issued:]), kernels     # the host went on
    first_k1, first_k2 = index(kernels, "start", name["K1"]), index(kernels, "start", name["K2"])
    assert max(first_k1, first_k2) < index(kernels, "end", name["K1"]), kernels
    for before, after in (("K1", "K3"), ("K2", "K4"), ("K1", "K1"), ("K2", "K2")):
        started = 0
        for position, event in enumerate(kernels):
            if event[0] == "start" and event[1] == name[after]:
                ended = sum(e[0] == "end" and e[1] == name[before] for e in kernels[:position])
                assert ended >= started + (before != after), (before, after, kernels)
                started += 1
    overlaps = {tuple(entry.split(" overlaps ")) for entry in log if " overlaps " in entry}
    pairs = {(first.split()[0].removeprefix("__omp_offloading_"), second.removeprefix("__omp_offloading_"))
             for first, second in overlaps}
    assert (name["K2"], name["K1"]) in pairs, log
    conflicting = {("K1", "K3"), ("K2", "K4"), ("K1", "K1"), ("K2", "K2"), ("K3", "K3"), ("K4", "K4")}
    for first, second in conflicting:
        assert (name[first], name[second]) not in pairs and (name[second], name[first]) not in pairs, log


def test_kernels_queued_by_tasks_of_a_team_let_its_barriers_end(fake_driver, tmp_path):
    """Tasks made in a `single` and by one thread of a parallel region: the kernels run at
    once, and both the single's barrier and the region's end are passed (they were not:
    the poller's completion came while the team slept in libgomp's barrier)."""
    program = build(tmp_path, "nowait_in_a_team.c")
    for threads in ("1", "2", "4"):
        events, _ = on_fake_gpu(program, fake_driver, tmp_path, OMP_NUM_THREADS=threads)
        assert ("mark", "parallel end passed") in events, events
        assert overlapping(between(events, None, "single barrier passed")), events
        assert overlapping(between(events, "single barrier passed", "parallel end passed")), events
    reference = gcc_run(tmp_path, "nowait_in_a_team.c")
    assert run(program, {"OMP2GPU_DEVICES": "cpu", "OMP_TARGET_OFFLOAD": "MANDATORY"}).stdout == reference


def test_link_flags_wrap_the_openmp_waits():
    done = omp2gpu("link-flags", cwd=HERE)
    assert done.returncode == 0, done.stderr
    assert "-Wl,--wrap=GOMP_taskwait" in done.stdout.split() and "-Wl,--wrap=GOMP_barrier" in done.stdout.split()


# --- on a GPU -------------------------------------------------------------------------------

@pytest.mark.gpu
@pytest.mark.parametrize("scheme", ["combined", "control-loop"])
def test_on_the_gpu_results_match_gcc_with_kernels_on_streams(tmp_path, gcc_output, scheme):
    """The real driver: gcc's results, and the independent kernels on several streams
    (control-loop kernels that take a team stack are waited for instead)."""
    program = build(tmp_path, SOURCE, "--scheme", scheme)
    log = tmp_path / "launches"
    done = run(program, {"OMP_TARGET_OFFLOAD": "MANDATORY", "OMP2GPU_OFFLOAD_LOG": str(log),
                         "OMP2GPU_FUSE_LAUNCHES": "0"})
    assert done.stdout == gcc_output and "warning" not in done.stderr, done.stderr
    streams = {line.split("stream=")[1] for line in log.read_text().splitlines() if " stream=" in line}
    if scheme == "combined":
        assert len(streams) == 16, log.read_text()


@pytest.mark.gpu
def test_on_the_gpu_automatic_concurrency_keeps_gcc_results(auto_program, auto_gcc_output, tmp_path):
    log = tmp_path / "launches"
    done = run(auto_program, {"OMP_TARGET_OFFLOAD": "MANDATORY", "OMP2GPU_OFFLOAD_LOG": str(log),
                              "OMP2GPU_AUTO_ASYNC": "1"})
    assert done.stdout == auto_gcc_output and "warning" not in done.stderr, done.stderr
    assert any(" overlaps " in line for line in log.read_text().splitlines()), log.read_text()
