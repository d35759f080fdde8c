"""bench/real_programs: the corpus's real-program ports (tests/programs/real_*.c
and the multi-file tests/programs/real_*/, proxy apps and Rodinia-style
benchmarks) timed against gcc.

For each program, with its arguments of BENCH_ARGS (the problem sizes; --quick
uses the corpus defaults, which finish in a second):
- gcc host OpenMP   gcc -O2 -fopenmp -foffload=disable (libgomp runs the target
                    constructs on the host): the reference run time;
- compile           `omp2gpu compile -c` of each source file to an object with a
                    cold cache (front end, host and device code generation), summed;
- omp2gpu cpu       `omp2gpu run --device cpu` end to end (JIT start-up included)
                    and the program's own time (the durations in its "timing:" lines,
                    summed: see program_seconds);
- omp2gpu gpu       with a GPU: `omp2gpu run --device gpu` end to end, the program's
                    own time, and the kernel time the launcher's profile
                    (OMP2GPU_PROFILE) records, summed over every launch.
Every run has OMP_WAIT_POLICY=passive: on a shared, loaded machine libgomp's
spinning threads otherwise cost milliseconds per region (Needleman-Wunsch's
hundreds of launches took 12 s instead of 0.05 s on 2 busy cores).
Each configuration runs TRIALS times; a time is the best over trials. Every run's
output (its "timing:" lines dropped) must equal gcc's, or the row says "differs".
Ratios are omp2gpu time / gcc time (above 1: slower than gcc).

    python bench/real_programs/run.py [--quick] [--trials T] [--only NAME ...] [--out DIR]

Writes results.json and results.md next to this file (and to --out).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))
import common  # noqa: E402  (bench/common.py)

PROGRAMS = REPO / "tests" / "programs"

# Problem sizes for a run of about a second per program on 2 CPU cores (gcc); a GPU
# session may want larger ones (edit here; the corpus defaults are --quick).
BENCH_ARGS = {
    "real_gemm_tiled": ["-n", "256", "-r", "2"],
    "real_heat_stencil": ["-n", "512", "-s", "100", "-c", "25"],
    "real_lagrangian_hydro": ["-s", "20000", "-i", "200"],
    "real_minife_cg": ["-nx", "48", "-ny", "48", "-nz", "48", "-i", "100"],
    "real_minimd_lj": ["-n", "6", "-s", "60", "-r", "20"],
    "real_montecarlo_histogram": ["-s", "4000000", "-w", "16384"],
    "real_nbody_leapfrog": ["2048", "10"],
    "real_rodinia_backprop": ["-i", "65536", "-h", "16", "-e", "2", "-p", "16"],
    "real_rodinia_bfs": ["-n", "1000000", "-d", "6"],
    "real_rodinia_hotspot": ["512", "512", "100"],
    "real_rodinia_kmeans": ["-n", "200000", "-f", "16", "-k", "8"],
    "real_rodinia_lud": ["-s", "512"],
    "real_rodinia_nw": ["1024", "10"],
    "real_rodinia_pathfinder": ["-c", "100000", "-r", "200", "-p", "8"],
    "real_rodinia_srad": ["1024", "1024", "10", "0.5"],
    "real_stream_triad": ["-n", "4000000", "-t", "10"],
    "real_xsbench": ["-l", "200000", "-g", "2000"],
}
GCC_FLAGS = ["-std=gnu99", "-O2", "-fopenmp", "-foffload=disable"]
TIMEOUT_S = 1800


def programs(only: list[str] | None) -> list[Path]:
    """real_*.c files and real_*/ directories (one program of several files)."""
    found = sorted([*PROGRAMS.glob("real_*.c"), *(d for d in PROGRAMS.glob("real_*") if d.is_dir())])
    return [p for p in found if not only or p.stem in only]


def sources(program: Path) -> list[Path]:
    return sorted(program.glob("*.c")) if program.is_dir() else [program]


def _environment(extra: dict | None = None) -> dict:
    env = dict(os.environ, OMP_WAIT_POLICY="passive",
               PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    env.update(extra or {})
    return env


def timed(command: list[str], env: dict | None = None,
          cwd: Path | None = None) -> tuple[subprocess.CompletedProcess, float]:
    start = time.perf_counter()
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, timeout=TIMEOUT_S,
                          env=_environment(env), cwd=cwd)
    return done, time.perf_counter() - start


def without_timing(stdout: str) -> str:
    """The output the differential tests compare: "timing:" lines dropped."""
    return "".join(line for line in stdout.splitlines(keepends=True) if not line.startswith("timing:"))


_DURATION = re.compile(r"(\d+(?:\.\d*)?(?:e[-+]?\d+)?)\s*(s|ms|us|microseconds)\b")
_UNIT_SECONDS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "microseconds": 1e-6}


def program_seconds(stdout: str) -> float | None:
    """The program's own measurements: the sum, over its "timing:" lines, of every
    number written directly before a unit of time (s, ms, us, microseconds);
    rates and bare numbers (STREAM's table, "Mpairs/s") do not count."""
    durations = [float(value) * _UNIT_SECONDS[unit] for line in stdout.splitlines()
                 if line.startswith("timing:") for value, unit in _DURATION.findall(line)]
    return sum(durations) if durations else None


def kernel_seconds(profile: Path) -> float | None:
    """The sum of every kernel launch's time in the launcher's profile."""
    if not profile.is_file():
        return None
    data = json.loads(profile.read_text())["otherData"]      # the trace's summary (trace_events.py)
    entries = data.get("kernels", data) if isinstance(data, dict) else data
    total = 0.0
    for entry in (entries.values() if isinstance(entries, dict) else entries):
        for launch in entry.get("launches", ()):
            if launch.get("us") is not None:
                total += launch["us"] * 1e-6
    return total


def gpu_present() -> bool:
    """A GPU the offload runtime can use (`omp2gpu doctor`'s answer)."""
    from omp2gpu.tools.doctor import gpu_status
    return gpu_status()[0] > 0


def measure_program(source: Path, args: list[str], trials: int, gpu: bool, tmp: Path) -> dict:
    row: dict = {"args": args}
    binary = tmp / source.stem
    files = sources(source)
    subprocess.run(["gcc", *GCC_FLAGS, *map(str, files), "-o", str(binary), "-lm"], check=True,
                   capture_output=True, text=True)
    reference = None
    runs: dict[str, list] = {}
    for _ in range(trials):
        done, seconds = timed([binary, *args], {"OMP_NUM_THREADS": str(os.cpu_count())})
        if done.returncode != 0:
            return {**row, "error": f"gcc build exits {done.returncode}: {done.stderr[-300:]}"}
        reference = without_timing(done.stdout)
        runs.setdefault("gcc", []).append((seconds, program_seconds(done.stdout), None))

        cache = tmp / "cache"
        shutil.rmtree(cache, ignore_errors=True)
        compile_seconds = 0.0
        for file in files:
            done, seconds = timed([sys.executable, "-m", "omp2gpu", "compile", "-c", file, "-o",
                                   tmp / f"{file.stem}.o"], {"OMP2GPU_CACHE_DIR": str(cache)})
            compile_seconds += seconds
            if done.returncode != 0:
                row["compile_error"] = (done.stderr.strip().splitlines() or ["?"])[0]
                break
        runs.setdefault("compile", []).append((None if "compile_error" in row else compile_seconds, None, None))

        devices = ["cpu"] + (["gpu"] if gpu else [])
        for device in devices:
            profile = tmp / f"profile-{device}.json"
            profile.unlink(missing_ok=True)
            env = {"OMP_TARGET_OFFLOAD": "MANDATORY"}
            if device == "gpu":     # profiling the CPU device would turn its native launch path off
                env["OMP2GPU_PROFILE"] = str(profile)
            done, seconds = timed([sys.executable, "-m", "omp2gpu", "run", "--device", device, *files, "--", *args],
                                  env)
            if done.returncode != 0 or without_timing(done.stdout) != reference:
                first_error = (done.stderr.strip().splitlines() or ["output differs from gcc"])[0]
                row[f"{device}_error"] = first_error if done.returncode != 0 else "output differs from gcc"
                runs.setdefault(device, []).append((None, None, None))
                continue
            runs.setdefault(device, []).append((seconds, program_seconds(done.stdout),
                                                kernel_seconds(profile) if device == "gpu" else None))
    for name, trial_runs in runs.items():
        def best(i, trial_runs=trial_runs):
            values = [t[i] for t in trial_runs if t[i] is not None]
            return min(values) if values else None
        row[name] = {"end_to_end_s": best(0), "program_s": best(1), "kernel_s": best(2)}
    derive(row)
    return row


def derive(row: dict) -> None:
    """Ratios to gcc: end to end and the program's own timing (omp2gpu / gcc)."""
    gcc = row.get("gcc", {})
    for device in ("cpu", "gpu"):
        mine = row.get(device)
        if not mine:
            continue
        for key in ("end_to_end_s", "program_s"):
            if mine.get(key) and gcc.get(key):
                mine[f"{key[:-2]}_vs_gcc"] = mine[key] / gcc[key]


def _fmt(value, unit="") -> str:
    return "—" if value is None else f"{value:.3g}{unit}"


def markdown(results: dict) -> str:
    machine = results["machine"]
    lines = ["# Real programs: omp2gpu against gcc -O2 -fopenmp (host)", "",
             f"Machine: {machine['cpu']}, {machine['cores']} cores, gcc {machine['gcc']}, "
             f"Python {machine['python']}; GPU: {machine['gpu']}. Trials: {results['trials']} (best of). "
             "`python bench/real_programs/run.py` reproduces it.", "",
             "Times in seconds. *end to end*: the whole process (omp2gpu: compile and JIT included, "
             "warm cache); *program*: the program's own timing lines; *kernel*: the launcher's profile, "
             "every launch summed. Ratios are omp2gpu / gcc (below 1: faster than gcc).", "",
             "| program | args | gcc end to end | gcc program | compile (cold) | cpu end to end | cpu program "
             "| cpu/gcc program | gpu end to end | gpu program | gpu kernels | gpu/gcc program |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    notes = []
    for name, row in results["programs"].items():
        if "error" in row:
            notes.append(f"- {name}: {row['error']}")
            continue
        gcc, cpu, gpu = row.get("gcc", {}), row.get("cpu", {}), row.get("gpu", {})
        comp = row.get("compile", {})
        lines.append(f"| {name} | `{' '.join(row['args'])}` | {_fmt(gcc.get('end_to_end_s'))} | "
                     f"{_fmt(gcc.get('program_s'))} | {_fmt(comp.get('end_to_end_s'))} | "
                     f"{_fmt(cpu.get('end_to_end_s'))} | {_fmt(cpu.get('program_s'))} | "
                     f"{_fmt(cpu.get('program_vs_gcc'), 'x')} | {_fmt(gpu.get('end_to_end_s'))} | "
                     f"{_fmt(gpu.get('program_s'))} | {_fmt(gpu.get('kernel_s'))} | "
                     f"{_fmt(gpu.get('program_vs_gcc'), 'x')} |")
        for key in ("compile_error", "cpu_error", "gpu_error"):
            if key in row:
                notes.append(f"- {name}, {key.split('_')[0]}: {row[key]}")
    if notes:
        lines += ["", "Failures (the row's cells show — where a run failed):", "", *notes]
    return "\n".join(lines) + "\n"




def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="the corpus's default sizes (seconds in all)")
    parser.add_argument("--trials", type=int, default=2)
    parser.add_argument("--only", nargs="*",
                        help="program names to measure again; the other rows of results.json are kept")
    parser.add_argument("--out", type=Path, help="also write the results here")
    args = parser.parse_args()

    gpu = gpu_present()
    results = {"machine": {"cpu": common.cpu_name(), "cores": os.cpu_count(), "python": platform.python_version(),
                           "gcc": common.first_line(["gcc", "-dumpfullversion"]),
                           "gpu": common.first_line(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"])
                           if gpu else "none"},
               "trials": args.trials, "quick": args.quick, "programs": {}}
    if args.only and (HERE / "results.json").is_file():
        results["programs"] = json.loads((HERE / "results.json").read_text())["programs"]
    with tempfile.TemporaryDirectory(prefix="omp2gpu-real-") as tmp:
        for source in programs(args.only):
            program_args = [] if args.quick else BENCH_ARGS.get(source.stem, [])
            print(f"{source.stem} {' '.join(program_args)}", file=sys.stderr, flush=True)
            results["programs"][source.stem] = measure_program(source, program_args, args.trials, gpu, Path(tmp))
    text = markdown(results)
    print(text)
    for folder in filter(None, [HERE, args.out]):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "results.json").write_text(json.dumps(results, indent=1) + "\n")
        (folder / "results.md").write_text(text)


if __name__ == "__main__":
    main()
