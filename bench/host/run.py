"""bench/host: host OpenMP compiled by omp2gpu against gcc -O3 -fopenmp, in one run.

Programs (written for this benchmark; each times its kernel itself with omp_get_wtime,
best of its repetitions, and prints a checksum of its result):
- triad             stream_triad.c: `parallel for` a[i] = b[i] + s * c[i];
- jacobi rows       jacobi2d.c: a 5-point stencil, one `parallel for` over the rows per sweep;
- jacobi collapse   the same with `parallel for collapse(2)` (-DCOLLAPSE);
- cholesky tasks    cholesky_tasks.c: blocked Cholesky, one task per block operation,
                    ordered by depend(in/inout);
- taskloop          taskloop_collatz.c: `taskloop grainsize(g)` over Collatz step counts,
                    an irregular loop.
Each runs built by `gcc -O3 -fopenmp` and by `omp2gpu run -O3` (the program's own kernel
time, not the compile), with OMP_NUM_THREADS set to every core and to 1, on the same input;
the checksums must be equal. Every configuration runs --trials times, gcc and omp2gpu
interleaved, and keeps the best time. Throughput ratio = gcc time / omp2gpu time (goal
>= 0.95 on the loops, >= 0.9 on the tasks: issue 14). The OpenMP runtime each side ran
on is named with its path: gcc's from `ldd`, omp2gpu's as its loader chooses it
(OMP2GPU_OPENMP_RUNTIME; --runtimes runs omp2gpu once per runtime named). The load
average is recorded before every run: on a shared machine the times mean little.

    python bench/host/run.py [--quick] [--trials T] [--threads N ...] [--runtimes default gomp iomp5]
                             [--only NAME ...] [--gcc-native] [--out DIR]

omp2gpu compiles for the host's CPU (LLVM's host CPU name and features, as -march=native);
`gcc -O3` for baseline x86-64 (SSE2) unless --gcc-native.

Writes results.json, results.md (and results.png where matplotlib is installed) next to
this file, and to --out.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))
import common  # noqa: E402  (bench/common.py)
import report  # noqa: E402  (bench/host/report.py)

GCC_FLAGS = ["-std=gnu99", "-O3", "-fopenmp"]
OMP2GPU_FLAGS = ["-O3"]
TIMEOUT_S = 900
LOOP_GOAL, TASK_GOAL = 0.95, 0.9


@dataclass(frozen=True)
class Benchmark:
    name: str
    source: str
    args: tuple[str, ...]           # the full-size problem
    quick_args: tuple[str, ...]     # --quick: seconds in all, to check the benchmark works
    goal: float
    defines: tuple[str, ...] = ()


BENCHMARKS = (
    Benchmark("triad", "stream_triad.c", ("20000000", "20"), ("1000000", "5"), LOOP_GOAL),
    Benchmark("jacobi rows", "jacobi2d.c", ("2048", "100", "2"), ("256", "20", "2"), LOOP_GOAL),
    Benchmark("jacobi collapse", "jacobi2d.c", ("2048", "100", "2"), ("256", "20", "2"), LOOP_GOAL,
              ("COLLAPSE",)),
    Benchmark("cholesky tasks", "cholesky_tasks.c", ("2048", "128", "3"), ("256", "32", "2"), TASK_GOAL),
    Benchmark("taskloop", "taskloop_collatz.c", ("2000000", "1000", "3"), ("100000", "100", "2"), TASK_GOAL),
)

_BEST_TIME = re.compile(r"^timing:.*\bbest ([0-9.]+) s$", re.MULTILINE)
_CHECKSUM = re.compile(r"^checksum: (.*)$", re.MULTILINE)

# Run in a fresh interpreter with the runtime choice of the run it describes: which
# runtime omp2gpu's loader takes, and the file the process then has mapped.
_WHICH_RUNTIME = """
import json, os
from omp2gpu.targets import openmp_runtime
chosen = openmp_runtime.load()
mapped = {line.split()[-1] for line in open("/proc/self/maps") if len(line.split()) >= 6}
paths = sorted(p for p in mapped if os.path.basename(p).startswith(chosen.name + "."))
print(json.dumps({"name": chosen.name, "path": paths[0] if paths else chosen.path}))
"""


def _environment(threads: int, runtime: str | None = None) -> dict:
    env = dict(os.environ, OMP_NUM_THREADS=str(threads),
               PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    env.pop("OMP2GPU_OPENMP_RUNTIME", None)
    if runtime not in (None, "default"):
        env["OMP2GPU_OPENMP_RUNTIME"] = runtime
    return env


def omp2gpu_runtime(runtime: str) -> dict | None:
    """{"name", "path"} of the OpenMP runtime omp2gpu runs on with `runtime` chosen
    ("default": the loader's own choice), or None when it cannot be loaded here."""
    done = subprocess.run([sys.executable, "-c", _WHICH_RUNTIME], env=_environment(1, runtime),
                          capture_output=True, text=True)
    return json.loads(done.stdout) if done.returncode == 0 else None


def gcc_runtime(binary: Path) -> dict:
    """{"name", "path"} of the OpenMP runtime the gcc-built binary loads (from ldd)."""
    listing = subprocess.run(["ldd", str(binary)], capture_output=True, text=True).stdout
    for line in listing.splitlines():
        name, _, rest = line.strip().partition(" => ")
        if name.startswith(("libgomp", "libiomp5", "libomp")):
            path = rest.split(" (")[0].strip()
            return {"name": name.split(".so")[0], "path": os.path.realpath(path) if path else name}
    return {"name": "?", "path": "?"}


def build_gcc(benchmark: Benchmark, work: Path, flags: list[str]) -> Path:
    binary = work / benchmark.name.replace(" ", "_")
    subprocess.run(["gcc", *flags, *[f"-D{d}" for d in benchmark.defines], str(HERE / benchmark.source),
                    "-o", str(binary), "-lm"], check=True, capture_output=True, text=True)
    return binary


def omp2gpu_command(benchmark: Benchmark, args) -> list[str]:
    return [sys.executable, "-m", "omp2gpu", "run", *OMP2GPU_FLAGS, *[f"-D{d}" for d in benchmark.defines],
            str(HERE / benchmark.source), "--", *args]


def run_once(command: list[str], env: dict) -> dict:
    """One run: the program's best kernel time, its checksum, the load average before it."""
    load = os.getloadavg()[0]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=TIMEOUT_S)
    best, checksum = _BEST_TIME.search(done.stdout), _CHECKSUM.search(done.stdout)
    if done.returncode != 0 or not best or not checksum:
        why = (done.stderr.strip().splitlines() or [f"exit {done.returncode}, no timing line"])[-1]
        return {"error": why, "load": load}
    return {"seconds": float(best.group(1)), "checksum": checksum.group(1), "load": load}


def measure(benchmark: Benchmark, args, threads: int, runtimes: dict, trials: int, binary: Path) -> list[dict]:
    """One row per omp2gpu runtime: gcc and omp2gpu at `threads`, best of `trials`
    interleaved runs."""
    runs: dict[str, list[dict]] = {"gcc": [], **{name: [] for name in runtimes}}
    for _ in range(trials):
        runs["gcc"].append(run_once([str(binary), *args], _environment(threads)))
        for name in runtimes:
            runs[name].append(run_once(omp2gpu_command(benchmark, args), _environment(threads, name)))
    gcc = _best(runs["gcc"])
    rows = []
    for name, runtime in runtimes.items():
        mine = _best(runs[name])
        loads = [run["load"] for run in runs["gcc"] + runs[name]]
        row = {"program": benchmark.name, "args": list(args), "threads": threads, "goal": benchmark.goal,
               "gcc_s": gcc.get("seconds"), "omp2gpu_s": mine.get("seconds"),
               "gcc_all_s": [run.get("seconds") for run in runs["gcc"]],
               "omp2gpu_all_s": [run.get("seconds") for run in runs[name]],
               "gcc_runtime": gcc_runtime(binary), "omp2gpu_runtime": runtime,
               "checksum_gcc": gcc.get("checksum"), "checksum_omp2gpu": mine.get("checksum"),
               "load_average": [round(min(loads), 2), round(max(loads), 2)]}
        row["checksums_equal"] = row["checksum_gcc"] is not None and row["checksum_gcc"] == row["checksum_omp2gpu"]
        if row["gcc_s"] and row["omp2gpu_s"]:
            row["ratio"] = row["gcc_s"] / row["omp2gpu_s"]
            row["meets_goal"] = row["ratio"] >= benchmark.goal
        errors = [f"{side}: {run['error']}" for side in ("gcc", name) for run in runs[side] if "error" in run]
        if errors:
            row["errors"] = sorted(set(errors))
        rows.append(row)
    return rows


def _best(runs: list[dict]) -> dict:
    """The fastest successful run; its checksum is every successful run's when they agree."""
    ok = [run for run in runs if "seconds" in run]
    if not ok:
        return {}
    best = min(ok, key=lambda run: run["seconds"])
    checksums = {run["checksum"] for run in ok}
    return {**best, "checksum": best["checksum"] if len(checksums) == 1 else "varies: " + " | ".join(sorted(checksums))}


def machine() -> dict:
    return {"cpu": common.cpu_name(), "cores": os.cpu_count(), "python": platform.python_version(),
            "gcc": common.first_line(["gcc", "-dumpfullversion"]), "platform": platform.platform(),
            "omp2gpu_commit": common.first_line(["git", "-C", str(REPO), "describe", "--always", "--dirty"]),
            "omp_environment": {k: v for k, v in os.environ.items() if k.startswith(("OMP_", "GOMP_", "KMP_"))}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small sizes: checks the benchmark, times mean little")
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--threads", type=int, nargs="+", help="thread counts (default: every core, then 1)")
    parser.add_argument("--runtimes", nargs="+", default=["default"],
                        help="omp2gpu's OpenMP runtimes: default, gomp, iomp5 or a library path")
    parser.add_argument("--only", nargs="+", metavar="NAME",
                        help="programs to run (names of the table); the results then hold only these")
    parser.add_argument("--gcc-native", action="store_true",
                        help="gcc -march=native too (omp2gpu always compiles for the host's CPU)")
    parser.add_argument("--out", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    gcc_flags = GCC_FLAGS + (["-march=native"] if args.gcc_native else [])

    cores = len(os.sched_getaffinity(0))
    threads = args.threads or sorted({cores, 1}, reverse=True)
    runtimes = {name: omp2gpu_runtime(name) for name in args.runtimes}
    missing = [name for name, found in runtimes.items() if found is None]
    runtimes = {name: found for name, found in runtimes.items() if found is not None}
    for name in missing:
        print(f"omp2gpu cannot load the OpenMP runtime '{name}' here: skipped", file=sys.stderr)
    if not runtimes:
        return 1
    chosen = [b for b in BENCHMARKS if not args.only or b.name in args.only]
    began = time.perf_counter()
    results = {"machine": machine(), "trials": args.trials, "quick": args.quick, "threads": threads,
               "gcc_flags": gcc_flags, "omp2gpu_flags": OMP2GPU_FLAGS, "skipped_runtimes": missing,
               "started": time.strftime("%Y-%m-%d %H:%M:%S"), "rows": []}
    with tempfile.TemporaryDirectory(prefix="omp2gpu-host-bench-") as work:
        for benchmark in chosen:
            binary = build_gcc(benchmark, Path(work), gcc_flags)
            program_args = benchmark.quick_args if args.quick else benchmark.args
            for count in threads:
                print(f"{benchmark.name} {' '.join(program_args)}, {count} threads", file=sys.stderr, flush=True)
                results["rows"] += measure(benchmark, program_args, count, runtimes, args.trials, binary)
    results["load_average_end"] = [round(x, 2) for x in os.getloadavg()]
    results["elapsed_s"] = round(time.perf_counter() - began, 1)
    print(report.console_table(results))
    for folder in filter(None, [HERE, args.out]):
        report.write(results, folder)
    print(f"{results['elapsed_s']} s; wrote results.json and results.md to {HERE}"
          + (f" and {args.out}" if args.out else ""))
    return 0 if all(row["checksums_equal"] for row in results["rows"]) else 1


if __name__ == "__main__":
    sys.exit(main())
