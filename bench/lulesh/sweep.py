"""bench/lulesh/sweep.py: the monotonic-Q sweep host-timed end to end (issue 15's goal:
<= 120 us per sweep at 100^3 on the H100), synchronous and with `nowait`.

    python bench/lulesh/sweep.py [--size 100] [--iterations 200] [--runs 3] [--out DIR] [--modes TEXT]
                                 [--define NAME ...] [--flag FLAG ...] [--phases]

Runs examples/lulesh/lulesh_kernels.c on the GPU (omp_get_wtime around each sweep, the
program's own `time:` lines; best and mean over the run's sweeps, best run of --runs):
synchronous (each region's launch waited for); `-n` (each region a deferred target
task met in sequential code, docs/async.md) with its kernel running ahead of the host
until the taskwait (OMP2GPU_NOWAIT_RUN_AHEAD=1): those made while one runs fused (the
default), all fused at the taskwait (OMP2GPU_FUSE_LAUNCHES=wait), none fused (=0); and
without running ahead; `-p` (the same tasks made in a `parallel` + `single`) with its
kernel on a stream (OMP2GPU_NOWAIT_STREAMS=1; its task completed by the poller thread) and
with each launch waited for (=0); synchronous with automatic concurrency
(OMP2GPU_AUTO_ASYNC=1: regions whose footprints do not conflict overlap). Each omp2gpu
mode runs once more under CUPTI for the GPU's side of a sweep (launches, span, kernel
time). Beside them, in the same run, the CUDA C reference
(examples/lulesh/cuda/lulesh_cuda.cu -H, LULESH's CUDA kernel, 128 threads a block) times
the same per-region sweep on the host: each launch waited for, back to back on one
stream, on one stream per region, and replayed as a CUDA graph. Writes sweep.json and
sweep.md here (and under --out). --phases adds, per mode and for the CUDA graph, the host's
time before the first kernel and after the last (API calls logged under CUPTI). --define
NAME builds omp2gpu's program with -DNAME (LULESH_SPECULATED_LOADS: the loop body with its
loads hoisted by hand, examples/lulesh); --flag FLAG with an omp2gpu flag
(-fno-speculate-mapped-loads: the loads left under their branches, sema/speculation/).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "bench"))
import common  # noqa: E402  (bench/common.py)

PROGRAM = REPO / "examples" / "lulesh" / "lulesh_kernels.c"
CUDA_SOURCE = REPO / "examples" / "lulesh" / "cuda" / "lulesh_cuda.cu"
CUDA_MODES = {"waited": "CUDA C, each launch waited for", "serial": "CUDA C, back to back on one stream",
              "streams": "CUDA C, one stream per region", "graph": "CUDA C, CUDA graph replayed",
              "hostfunc": "CUDA C, one stream per region, a host function after each"}
HOST_TIMED = re.compile(r"^HOSTTIMED mode=(\w+) best_us=([\d.]+) mean_us=([\d.]+)", re.M)
MODES = {"synchronous": ([], {}),
         "nowait in sequential code, kernels run ahead, fused while one runs": (
             ["-n"], {"OMP2GPU_NOWAIT_RUN_AHEAD": "1"}),
         "nowait in sequential code, kernels run ahead, fused at the taskwait": (
             ["-n"], {"OMP2GPU_NOWAIT_RUN_AHEAD": "1", "OMP2GPU_FUSE_LAUNCHES": "wait"}),
         "nowait in sequential code, kernels run ahead, not fused": (
             ["-n"], {"OMP2GPU_NOWAIT_RUN_AHEAD": "1", "OMP2GPU_FUSE_LAUNCHES": "0"}),
         "nowait in sequential code, run-ahead off": (["-n"], {"OMP2GPU_NOWAIT_RUN_AHEAD": "0"}),
         "nowait from parallel + single, kernels on streams, completion polled": (
             ["-p"], {"OMP2GPU_NOWAIT_STREAMS": "1"}),
         "nowait from parallel + single, each launch waited for": (["-p"], {"OMP2GPU_NOWAIT_STREAMS": "0"}),
         "synchronous, automatic concurrency": ([], {"OMP2GPU_AUTO_ASYNC": "1"})}
# modes whose tasks the completion poller sees finish (runtime/offload/completion_poller.c):
# its cuEventQuery calls are logged, but not which one saw the end, so --phases leaves them out
POLLED_MODES = ("run-ahead off", "completion polled")
RUN_TIMEOUT_S = 120
COMPILE_FLAGS: list[str] = []  # --define's -DNAME and --flag's flags, for omp2gpu's build of the program
SPAN_ITERATIONS = 50           # sweeps of the run under CUPTI
MONOQ_TIME = re.compile(r"^time: CalcMonotonicQRegionForElems per sweep: best ([\d.]+) us, mean ([\d.]+) us", re.M)


def accel_kernel_suffix() -> str:
    """The `_lN` of the accel-boundary region's kernel, which starts each sweep."""
    lines = PROGRAM.read_text().splitlines()
    comment = next(n for n, text in enumerate(lines) if "/* ApplyAccelerationBoundaryConditionsForNodes */" in text)
    return f"_l{next(n for n in range(comment, len(lines)) if lines[n].strip().startswith('#pragma omp target')) + 1}"


def run_program(arguments: list[str], extra_env: dict, size: int, iterations: int) -> tuple[object, str | None]:
    """(the finished run, None), or (None, why it failed)."""
    env = dict(os.environ, OMP_TARGET_OFFLOAD="MANDATORY", **extra_env)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
    try:
        done = subprocess.run([sys.executable, "-m", "omp2gpu", "run", *COMPILE_FLAGS, str(PROGRAM), "--device", "gpu",
                               "--", "-s", str(size), "-i", str(iterations), *arguments],
                              env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {RUN_TIMEOUT_S} s"
    if done.returncode != 0 or "PASSED" not in done.stdout:
        return None, (done.stderr.strip() or done.stdout.strip())[-400:]
    return done, None


def one_run(arguments: list[str], extra_env: dict, size: int, iterations: int) -> dict:
    done, error = run_program(arguments, extra_env, size, iterations)
    found = MONOQ_TIME.search(done.stdout) if done else None
    if not found:
        return {"error": error or "no time line"}
    return {"best_us": float(found.group(1)), "mean_us": float(found.group(2))}


def logged_run(arguments: list[str], extra_env: dict, size: int, kernel_log: Path, api_calls: bool = False):
    """A run of SPAN_ITERATIONS sweeps under CUPTI (bench/peers/kernel_log.c): its sweeps, each
    (the accel-boundary kernel's end ns, [(start ns, ns) of its monotonic-Q kernels]), the
    first (warm-up) left out, and its API calls' (start, end, name) where `api_calls`; or the
    error (str)."""
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "kernels"
        env = {**extra_env, "CUDA_INJECTION64_PATH": str(kernel_log), "PEERS_KERNEL_LOG": str(log),
               "PEERS_KERNEL_STARTS": "1", **({"PEERS_API_CALLS": "1"} if api_calls else {})}
        done, error = run_program(arguments, env, size, SPAN_ITERATIONS)
        if done is None:
            return error
        records = sorted((record["start"], record["ns"], record["name"])
                         for record in common.kernel_log_records(log) if "start" in record)
        calls = common.api_call_records(log)
    accel, sweeps = accel_kernel_suffix(), []
    for start, ns, name in records:
        if name.endswith(accel):
            sweeps.append((start + ns, []))
        elif sweeps and "print_where_it_ran" not in name and "device_num" not in name:
            sweeps[-1][1].append((start, ns))
    sweeps = [sweep for sweep in sweeps[1:] if sweep[1]]          # the first sweep warms up
    return (sweeps, calls) if sweeps else "no kernel records"


def gpu_spans(arguments: list[str], extra_env: dict, size: int, kernel_log: Path) -> dict:
    """The GPU's side of a sweep, from CUPTI's kernel records: medians over SPAN_ITERATIONS
    sweeps of the span from its first kernel's start to its last one's end, of its kernels'
    summed time, and of its launches."""
    run = logged_run(arguments, extra_env, size, kernel_log)
    if isinstance(run, str):
        return {"error": run}
    sweeps = [kernels for _, kernels in run[0]]
    return {"gpu_span_us": statistics.median(max(s + n for s, n in sweep) - min(s for s, _ in sweep)
                                             for sweep in sweeps) / 1e3,
            "kernel_us": statistics.median(sum(n for _, n in sweep) for sweep in sweeps) / 1e3,
            "launches": statistics.median(len(sweep) for sweep in sweeps)}


def host_phases(arguments: list[str], extra_env: dict, size: int, kernel_log: Path) -> dict:
    """--phases: the host's time on either side of the GPU's span, from a run under CUPTI that
    also logs API calls (each call slower for it: upper bounds). Medians over the sweeps of
    the time from the host's return from the accel-boundary region's wait (just before the
    sweep's clock starts) to the first kernel's start, and from the last kernel's end to the
    host's return from the wait that saw it."""
    run = logged_run(arguments, extra_env, size, kernel_log, api_calls=True)
    if isinstance(run, str):
        return {"error": run}
    sweeps, calls = run
    waits = sorted(end for _, end, name in calls if "Synchronize" in name)
    before, after = [], []
    for (accel_end, kernels), bound in zip(sweeps, [end for end, _ in sweeps[1:]] + [float("inf")]):
        first, last = min(s for s, _ in kernels), max(s + n for s, n in kernels)
        # a sweep whose region before it, or whose end, the host did not wait for (automatic
        # concurrency overlaps the accel-boundary region with the sweep) has no such phase
        host_starts = [end for end in waits if accel_end <= end <= first]
        host_back = [end for end in waits if last <= end < bound]
        if host_starts and host_back:
            before.append(first - host_starts[0])
            after.append(host_back[0] - last)
    return _phase_medians(before, after, "no waits logged")


def _phase_medians(before: list[int], after: list[int], error: str) -> dict:
    if not before:
        return {"error": error}
    return {"to_first_kernel_us": statistics.median(before) / 1e3,
            "after_last_kernel_us": statistics.median(after) / 1e3}


def graph_phases(binary: Path, size: int, kernel_log: Path) -> dict:
    """--phases for CUDA C's graph replay, as host_phases: from cudaGraphLaunch's call to the
    first kernel's start, and from the last kernel's end to cudaStreamSynchronize's return."""
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "kernels"
        subprocess.run([str(binary), "-s", str(size), "-i", str(SPAN_ITERATIONS), "-H"], capture_output=True,
                       timeout=RUN_TIMEOUT_S, env={**os.environ, "CUDA_INJECTION64_PATH": str(kernel_log),
                                                   "PEERS_KERNEL_LOG": str(log), "PEERS_KERNEL_STARTS": "1",
                                                   "PEERS_API_CALLS": "1"})
        starts = sorted((record["start"], record["start"] + record["ns"])
                        for record in common.kernel_log_records(log) if "start" in record)
        calls = common.api_call_records(log)
    launches = sorted(start for start, _, name in calls if name.startswith("cudaGraphLaunch"))
    waits = sorted(end for _, end, name in calls if name.startswith("cudaStreamSynchronize"))
    before, after = [], []
    for launch in launches[1:]:                                   # the first replay warms up
        back = next((end for end in waits if end > launch), None)
        kernels = [(s, e) for s, e in starts if launch < s and back is not None and e <= back]
        if kernels:
            before.append(kernels[0][0] - launch)
            after.append(back - max(e for _, e in kernels))
    return _phase_medians(before, after, "no graph replays logged")


def cuda_reference(size: int, iterations: int, kernel_log: Path | None = None) -> dict:
    """The CUDA C rows: {row name: {"best_us", "mean_us"} or {"error"}}; with `kernel_log`
    (--phases), the graph's row also has its "phases" (graph_phases)."""
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    with tempfile.TemporaryDirectory() as tmp:
        binary = Path(tmp) / "lulesh_cuda"
        built = subprocess.run([nvcc, "-O3", "-arch=sm_90", str(CUDA_SOURCE), "-o", str(binary)],
                               capture_output=True, text=True)
        if built.returncode != 0:
            return {name: {"error": built.stderr.strip()[-300:]} for name in CUDA_MODES.values()}
        done = subprocess.run([str(binary), "-s", str(size), "-i", str(iterations), "-H"],
                              capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        phases = graph_phases(binary, size, kernel_log) if kernel_log else None
    found = {m.group(1): {"best_us": float(m.group(2)), "mean_us": float(m.group(3))}
             for m in HOST_TIMED.finditer(done.stdout)}
    if phases and "graph" in found:
        found["graph"]["phases"] = phases
    failed = done.returncode != 0 or "PASSED" not in done.stdout
    error = {"error": (done.stderr.strip() or done.stdout.strip())[-300:]}
    return {name: (error if failed or mode not in found else found[mode]) for mode, name in CUDA_MODES.items()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=100)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--modes", help="only the omp2gpu modes whose name holds this text, or one of TEXT|TEXT... "
                             "(CUDA C's always run)")
    parser.add_argument("--define", action="append", default=[], metavar="NAME",
                        help="build omp2gpu's program with -DNAME (repeatable)")
    parser.add_argument("--flag", action="append", default=[], metavar="FLAG",
                        help="build omp2gpu's program with FLAG (repeatable; e.g. --flag=-fno-speculate-mapped-loads)")
    parser.add_argument("--phases", action="store_true",
                        help="one more run under CUPTI a mode, API calls logged: the host's time before "
                             "the first kernel and after the last")
    args = parser.parse_args()
    COMPILE_FLAGS[:] = [f"-D{name}" for name in args.define] + args.flag
    device = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                            capture_output=True, text=True).stdout.strip() or "an unknown GPU"
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        kernel_log = common.build_kernel_log(Path(folder))
        for mode, (arguments, extra_env) in MODES.items():
            if args.modes and not any(text in mode for text in args.modes.split("|")):
                continue
            runs = [one_run(arguments, extra_env, args.size, args.iterations) for _ in range(args.runs)]
            good = [r for r in runs if "error" not in r]
            results[mode] = dict(min(good, key=lambda r: r["best_us"]), run_means_us=[r["mean_us"] for r in good],
                                 gpu=gpu_spans(arguments, extra_env, args.size, kernel_log)) if good else runs[0]
            if good and args.phases and not any(text in mode for text in POLLED_MODES):
                results[mode]["phases"] = host_phases(arguments, extra_env, args.size, kernel_log)
            print(mode, results[mode], flush=True)
        for name, row in cuda_reference(args.size, args.iterations, kernel_log if args.phases else None).items():
            results[name] = row
            print(name, row, flush=True)
    variant = f", omp2gpu's build with {' '.join(COMPILE_FLAGS)}" if COMPILE_FLAGS else ""
    lines = [f"# The monotonic-Q sweep host-timed, {args.size}^3, on {device}{variant}", "",
             "omp_get_wtime around each sweep of the 11 region launches (examples/lulesh/lulesh_kernels.c), "
             f"{args.iterations} sweeps after a warm-up; best run of {args.runs} (and each run's mean). "
             "Goals: <= 120 us on the H100 (issue 15); <= 55 us on the H200 with fused launches, below CUDA C's "
             "graph replay (issue 29). "
             "CUDA C rows: the same 11 launches of LULESH's CUDA kernel (examples/lulesh/cuda, "
             "128 threads a block), host-timed in the same run. The GPU's side, for omp2gpu's modes: a run of "
             f"{SPAN_ITERATIONS} sweeps under CUPTI (bench/peers/kernel_log.c), the median sweep's launches, its "
             "span from the first kernel's start to the last one's end, and its kernels' summed time." + (
                 " With --phases, the host's side of a sweep from one more run under CUPTI with the API calls "
                 "logged (each call slower for it): from the host's return from the wait before the sweep (for "
                 "CUDA C's graph: from cudaGraphLaunch's call) to the first kernel's start, and from the last "
                 "kernel's end to the host's return from its wait." if args.phases else ""), "",
             "| mode | best us | mean us | each run's mean us | launches | GPU span us | kernel us |"
             + (" host to first kernel us | last kernel to host us |" if args.phases else ""),
             "|---|---|---|---|---|---|---|" + ("---|---|" if args.phases else "")]
    for mode, row in results.items():
        gpu = row.get("gpu", {})
        spans = ("", "", "") if "gpu_span_us" not in gpu else (
            f"{gpu['launches']:g}", f"{gpu['gpu_span_us']:.1f}", f"{gpu['kernel_us']:.1f}")
        if "error" in row:
            cells = ("n/a", row["error"][:120], "", "", "", "")
        else:
            cells = (f"{row['best_us']:.1f}", f"{row['mean_us']:.1f}",
                     " / ".join(f"{mean:.1f}" for mean in row.get("run_means_us", [])), *spans)
        if args.phases:
            phases = row.get("phases", {})
            cells = (*cells, *(("", "") if "to_first_kernel_us" not in phases else (
                f"{phases['to_first_kernel_us']:.1f}", f"{phases['after_last_kernel_us']:.1f}")))
        lines.append(f"| {mode} | {' | '.join(cells)} |")
    table = "\n".join(lines) + "\n"
    print(table)
    document = {"device": device, "size": args.size, "iterations": args.iterations, "defines": args.define,
                "flags": args.flag, "results": results}
    # a variant's figures never replace the program's own (sweep.md here)
    for folder in ([] if COMPILE_FLAGS else [HERE]) + ([args.out] if args.out else []):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "sweep.json").write_text(json.dumps(document, indent=2))
        (folder / "sweep.md").write_text(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
