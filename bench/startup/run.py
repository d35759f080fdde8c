"""Start-up benchmark: how long `omp2gpu run` takes to start a ~2,000-line program.

    python bench/startup/run.py [--lines 2000] [--seed 1] [--repeat 3] [--profile]
    python bench/startup/run.py --case large [--large-lines 50000] [--repeat 1]
    python bench/startup/run.py --case native     # native.py: a native executable's first line

Generates the program (gen_program.py) into a temporary folder and times, best
of --repeat runs:

- omp2gpu `python -m omp2gpu run prog.c`, wall clock from process start to the
  program's first output line (the program prints and flushes it before any work,
  so this is compile, link and exec), and to process exit, in two cases:
  - "new program": nothing of this program in the cache, only the bundled runtimes
    (each run starts from a copy of a cache that a run of another generated program
    of the same size filled: the host and CPU-device runtimes, the worker pool's
    machine code), so the program is optimised and compiled to machine code;
  - "re-run": the same program run again, unchanged, its executable from the
    cache (native_link.cached_executable): the front end runs, LLVM's -O2, code
    generation and the link do not;
- omp2gpu with a cold cache: the same, once, with an empty OMP2GPU_CACHE_DIR
  (the runtimes are compiled again);
- gcc -O2 for reference: compile, then run (first line, exit);
- CPU time (user + system) of
  omp2gpu up to its first line (large_file.measure: the process is killed there),
  in both cases, and of gcc's compile, best of --repeat: the load on a shared machine
  inflates wall time far more than CPU time, so CPU time is what compares across runs.

omp2gpu's output must equal gcc's. Prints a table and writes results.json
and results.md next to this script. --profile adds `run`'s own stage times
(OMP2GPU_TIME_STAGES=1) in both cases, `python -X importtime` and a cProfile
summary of one compilation's Python side.

`--case large` (or `all`) measures a large file instead (or as well): compile
time and peak memory of `compile -S`, `--emit-llvm` and `run` beside gcc -O2's
(large_file.py), with the code cache off (OMP2GPU_CODE_CACHE=0: every run
compiles). results.json and results.md keep the case not measured this
time from their last run.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO_ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))
import gen_program  # noqa: E402
import large_file  # noqa: E402
import native  # noqa: E402

GOAL_S = 1.5          # issue 18: first output line in at most 1.5 s, warm
GCC_FLAGS = ["-std=c99", "-O2", "-fopenmp", "-foffload=disable", "-ffp-contract=off"]
RUN_ENV = {"OMP_NUM_THREADS": "4"}


def _env(**extra: str) -> dict[str, str]:
    env = dict(os.environ, **RUN_ENV, **extra)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO_ROOT), env.get("PYTHONPATH")) if p)
    return env


def timed_run(command: list[str], env: dict[str, str], cwd: Path) -> dict:
    """Run `command`; seconds to its first stdout line and to its exit, and its output."""
    start = time.perf_counter()
    # Unbuffered: communicate() reads the pipe itself, past any buffer readline() filled.
    process = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)
    first = process.stdout.readline()
    first_line_s = time.perf_counter() - start
    rest, errors = process.communicate()
    total_s = time.perf_counter() - start
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited {process.returncode}:\n"
                           f"{errors.decode(errors='replace')}")
    return {"first_line_s": first_line_s if first else total_s, "total_s": total_s,
            "stdout": (first + rest).decode(errors="replace"),
            "stderr": errors.decode(errors="replace")}


def best_of(repeat: int, run) -> dict:
    runs = [run() for _ in range(repeat)]
    best = min(runs, key=lambda r: r["first_line_s"])
    return {**best, "first_line_all_s": [round(r["first_line_s"], 3) for r in runs],
            "total_all_s": [round(r["total_s"], 3) for r in runs]}


class Caches:
    """Cache folders for the two cases: a copy of `runtimes` (filled by another program)
    for each new-program run, and `rerun`, where this program has run before."""

    def __init__(self, work: Path):
        self.work = work
        self.runtimes = work / "cache-runtimes"
        self.rerun = work / "cache-rerun"
        self._copies = 0

    def fresh(self) -> Path:
        """A new copy of the runtimes-only cache."""
        self._copies += 1
        copy = self.work / f"cache-new-{self._copies}"
        shutil.copytree(self.runtimes, copy)
        return copy

    def env(self, case: str, **extra: str) -> dict[str, str]:
        cache = self.fresh() if case == "new" else self.rerun
        return _env(OMP2GPU_CACHE_DIR=str(cache), **extra)


def bench(lines: int, seed: int, repeat: int, work: Path) -> tuple[dict, Path, Caches]:
    source = work / "startup_prog.c"
    source.write_text(gen_program.generate(lines, seed))
    other = work / "other_prog.c"           # of the same size, to fill the runtimes' cache
    other.write_text(gen_program.generate(lines, seed + 1))
    line_count = source.read_text().count("\n")
    omp2gpu = [sys.executable, "-m", "omp2gpu", "run", str(source)]

    results: dict = {"program": {"lines": line_count, "seed": seed,
                                 "openmp_regions": source.read_text().count("#pragma omp")},
                     "load_average_at_start": [round(x, 2) for x in os.getloadavg()]}
    # omp2gpu's bytecode compiled, as an installed package has it (pip compiles it; a
    # source tree under PYTHONDONTWRITEBYTECODE=1 would compile it on every run).
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(REPO_ROOT / "omp2gpu")],
                   env=_env(), check=True)
    caches = Caches(work)
    timed_run([sys.executable, "-m", "omp2gpu", "run", str(other)],
              _env(OMP2GPU_CACHE_DIR=str(caches.runtimes)), work)
    shutil.copytree(caches.runtimes, caches.rerun)
    timed_run(omp2gpu, caches.env("rerun"), work)       # this program's machine code kept
    for case in ("new", "rerun"):
        figures = best_of(repeat, lambda case=case: timed_run(omp2gpu, caches.env(case), work))
        figures["cpu_to_first_line_s"] = large_file.best(repeat, lambda case=case: large_file.measure(
            omp2gpu, caches.env(case), work, to_first_line=True))["cpu_s"]
        results[f"omp2gpu_{case}"] = figures
    results["omp2gpu_cold_cache"] = timed_run(
        omp2gpu, _env(OMP2GPU_CACHE_DIR=str(work / "cache-cold")), work)

    gcc = shutil.which("gcc")
    if gcc is None:
        results["gcc"] = None
    else:
        binary = work / "startup_prog"

        def gcc_compile():
            start = time.perf_counter()
            subprocess.run([gcc, *GCC_FLAGS, str(source), "-o", str(binary), "-lm"], check=True)
            return {"first_line_s": time.perf_counter() - start}

        compile_s = min(gcc_compile()["first_line_s"] for _ in range(repeat))
        compile_cpu_s = large_file.best(repeat, lambda: large_file.measure(
            [gcc, *GCC_FLAGS, str(source), "-o", str(binary), "-lm"], _env(), work))["cpu_s"]
        run = best_of(repeat, lambda: timed_run([str(binary)], _env(), work))
        results["gcc"] = {"compile_s": compile_s, "compile_cpu_s": compile_cpu_s,
                          "run_first_line_s": run["first_line_s"],
                          "run_total_s": run["total_s"],
                          "first_line_s": compile_s + run["first_line_s"],
                          "total_s": compile_s + run["total_s"], "stdout": run["stdout"]}
        results["output_matches_gcc"] = all(results[f"omp2gpu_{case}"]["stdout"] == run["stdout"]
                                            for case in ("new", "rerun", "cold_cache"))
    results["goal_s"] = GOAL_S
    for case in ("new", "rerun"):
        results[f"meets_goal_{case}"] = results[f"omp2gpu_{case}"]["first_line_s"] <= GOAL_S
    return results, source, caches


def profile(source: Path, caches: Caches, top: int = 25) -> dict:
    """Where one compilation spends its time: imports, `run`'s stages (new program and
    re-run), cProfile."""
    env = _env()
    imports = subprocess.run([sys.executable, "-X", "importtime", "-c", "import omp2gpu.driver, "
                              "omp2gpu.codegen.module, omp2gpu.frontend.parse, "
                              "omp2gpu.frontend.openmp.pragmas, omp2gpu.codegen.openmp.offload_host"],
                             env=env, capture_output=True, text=True)
    rows = []
    for line in imports.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].strip()))
    rows.sort(reverse=True)

    stages = {case: _stage_times(source, caches, case) for case in ("new", "rerun")}
    os.environ["OMP2GPU_CACHE_DIR"] = str(caches.rerun)      # the runtimes from the cache
    sys.path.insert(0, str(REPO_ROOT))
    from omp2gpu import driver
    profiler = cProfile.Profile()
    with driver.collector_paused():       # as in `run`
        profiler.enable()
        driver.compile_program(str(source), driver.CompileOptions(), whole_program=True)
        profiler.disable()
    buffer = io.StringIO()
    pstats.Stats(profiler, stream=buffer).sort_stats("cumulative").print_stats(top)
    return {"import_cumulative_us_top": [{"us": us, "module": name} for us, name in rows[:15]],
            "stages_s": stages, "cprofile_cumulative": buffer.getvalue()}


STAGE_LINE = "omp2gpu: stage times (s): "


def _stage_times(source: Path, caches: Caches, case: str, repeat: int = 3) -> dict:
    """`omp2gpu run`'s own account of its stages (OMP2GPU_TIME_STAGES=1) in `case`, from
    the run of `repeat` that reached the first output line soonest. `machine_code` makes
    the host's object code, `link` links the executable (a re-run has neither `optimise`,
    `machine_code` nor `link`: its executable is cached); `rest` is what the first line's
    time leaves: Python's start-up, the imports, the exec of the program."""
    command = [sys.executable, "-m", "omp2gpu", "run", str(source)]
    best = min((timed_run(command, caches.env(case, OMP2GPU_TIME_STAGES="1"), source.parent)
                for _ in range(repeat)), key=lambda run: run["first_line_s"])
    line = next((line for line in best["stderr"].splitlines() if line.startswith(STAGE_LINE)), None)
    if line is None:
        return {"error": "no stage times on stderr"}
    stages = json.loads(line[len(STAGE_LINE):])
    stages["rest"] = round(best["first_line_s"] - sum(stages.values()), 4)
    return {"first_line": round(best["first_line_s"], 4), **stages}


CASES = (("new", "omp2gpu run, new program (runtimes cached)"),
         ("rerun", "omp2gpu run, re-run (its executable cached)"))


def table(results: dict) -> str:
    g = results["gcc"]
    rows = []
    for case, name in CASES:
        o = results[f"omp2gpu_{case}"]
        rows.append((f"{name}, best of {len(o['first_line_all_s'])}", o["first_line_s"], o["total_s"],
                     o.get("cpu_to_first_line_s")))
    cold = results["omp2gpu_cold_cache"]
    rows.append(("omp2gpu run, cold cache (1 run)", cold["first_line_s"], cold["total_s"], None))
    if g:
        rows.append(("gcc -O2 compile + run", g["first_line_s"], g["total_s"], None))
        rows.append(("  of which gcc compile", g["compile_s"], g["compile_s"], g.get("compile_cpu_s")))
    out = ["| | to first output line (s) | total (s) | CPU to first line (s) |", "|---|---:|---:|---:|"]
    out += [f"| {name} | {first:.3f} | {total:.3f} | {'' if cpu is None else f'{cpu:.2f}'} |"
            for name, first, total, cpu in rows]
    return "\n".join(out)


def verdicts(results: dict) -> list[str]:
    return [f"Goal (issue 18): first output line in at most {results['goal_s']} s: new program "
            f"**{'met' if results['meets_goal_new'] else 'NOT met'}** "
            f"({results['omp2gpu_new']['first_line_s']:.2f} s), re-run "
            f"**{'met' if results['meets_goal_rerun'] else 'NOT met'}** "
            f"({results['omp2gpu_rerun']['first_line_s']:.2f} s).",
            f"Output identical to gcc's (both cases, and the cold cache's): **{results.get('output_matches_gcc')}**."]


def _git_commit() -> str | None:
    """HEAD of the tree being measured, with "+dirty" when omp2gpu/ has local changes."""
    try:
        head = subprocess.run(["git", "-C", str(REPO_ROOT), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(REPO_ROOT), "status", "--porcelain", "--",
                                "omp2gpu", "runtime"], capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return head + ("+dirty" if dirty else "")


def _machine() -> dict:
    return {"python": platform.python_version(), "platform": platform.platform(),
            "cpus": os.cpu_count(), "load_average": [round(x, 2) for x in os.getloadavg()]}


def write_reports(results: dict | None, profile_data: dict | None, large: dict | None = None) -> None:
    """results.json and results.md for the start-up case (`results`) and the large-file
    case (`large`); a case passed as None keeps its figures from the last results.json."""
    try:
        previous = json.loads((HERE / "results.json").read_text())
    except (OSError, ValueError):
        previous = {}
    if results is None:
        clean = {k: v for k, v in previous.items() if k != "large_file"}
    else:
        clean = {k: ({kk: vv for kk, vv in v.items() if kk not in ("stdout", "stderr")}
                     if isinstance(v, dict) else v) for k, v in results.items()}
        clean["machine"] = _machine()
        clean["omp2gpu_commit"] = _git_commit()
        if profile_data:
            clean["profile"] = {k: v for k, v in profile_data.items() if k != "cprofile_cumulative"}
    if large is not None:
        clean["large_file"] = {**large, "machine": _machine(), "omp2gpu_commit": _git_commit()}
    elif "large_file" in previous:
        clean["large_file"] = previous["large_file"]
    (HERE / "results.json").write_text(json.dumps(clean, indent=2) + "\n")

    md = ["# omp2gpu start-up benchmark", ""]
    if "omp2gpu_rerun" in clean:
        md += _startup_markdown(clean)
    if "large_file" in clean:
        found = clean["large_file"]
        md += ["", *large_file.markdown(found, GCC_FLAGS), "",
               f"omp2gpu at {found['omp2gpu_commit'] or 'an unknown commit'}; "
               f"{found['machine']['cpus']} CPUs, load average {found['machine']['load_average']} "
               "when it ended."]
    (HERE / "results.md").write_text("\n".join(md) + "\n")


def _startup_markdown(clean: dict) -> list[str]:
    program = clean["program"]
    machine = clean["machine"]
    md = [f"A generated {program['lines']}-line C program (gen_program.py, seed {program['seed']}, "
          f"{program['openmp_regions']} OpenMP pragmas), run with `omp2gpu run`; "
          f"gcc {' '.join(GCC_FLAGS)} for reference. "
          f"Python {machine['python']}, {machine['cpus']} CPUs (load average "
          f"{clean.get('load_average_at_start', '?')} when it started, "
          f"{machine['load_average']} when it ended), "
          f"omp2gpu at {clean.get('omp2gpu_commit') or 'an unknown commit'}.", "",
          table(clean), "", *verdicts(clean)]
    profile_data = clean.get("profile")
    if profile_data:
        stages = profile_data["stages_s"]
        names = list(dict.fromkeys([*stages["new"], *stages["rerun"]]))
        md += ["", "## Where the time goes (`OMP2GPU_TIME_STAGES=1`, best of 3 runs each)", "",
               "| stage | new program (s) | re-run (s) |", "|---|---:|---:|"]
        md += [f"| {name} | {stages['new'].get(name, '')} | {stages['rerun'].get(name, '')} |"
               for name in names]
        md += ["", "Slowest imports (cumulative, `python -X importtime`):", "",
               "| module | ms |", "|---|---:|"]
        md += [f"| {row['module'].strip()} | {row['us'] / 1000:.1f} |"
               for row in profile_data["import_cumulative_us_top"][:8]]
    return md


def _run_startup(args, work: Path) -> tuple[dict, dict | None]:
    results, source, caches = bench(args.lines, args.seed, args.repeat, work)
    profile_data = profile(source, caches) if args.profile else None
    print(table(results))
    for case, name in CASES:
        o = results[f"omp2gpu_{case}"]
        print(f"\n{name}: first line, each run: {o['first_line_all_s']} s; total: {o['total_all_s']} s")
    print("\n" + "\n".join(verdicts(results)))
    if profile_data:
        print("\nstages (s):", json.dumps(profile_data["stages_s"]))
        print("\n" + profile_data["cprofile_cumulative"])
    return results, profile_data


def _run_large(args, work: Path) -> dict:
    omp2gpu = [sys.executable, "-m", "omp2gpu"]
    # The code cache off: every repeat compiles (a kept PTX or machine code would not).
    large = large_file.bench(args.large_lines, args.seed, args.repeat, work, omp2gpu,
                             _env(OMP2GPU_CODE_CACHE="0"), shutil.which("gcc"), GCC_FLAGS)
    print(f"\nlarge file: {large['program']['lines']} lines")
    print(large_file.table(large))
    verdict = large_file.meets_goal(large)
    print(f"goal (<= {large_file.TIME_GOAL_RATIO:g}x gcc's CPU time, <= "
          f"{large_file.MEMORY_GOAL_RATIO:g}x its peak memory): "
          f"{'met' if verdict else 'NOT met' if verdict is not None else 'no gcc'}")
    return large


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--case", choices=("startup", "large", "all", "native"), default="startup",
                        help="the 2,000-line start-up case, the large file, or both; native: the "
                             "native executable's time to its first line beside gcc's (native.py)")
    parser.add_argument("--lines", type=int, default=gen_program.DEFAULT_LINES)
    parser.add_argument("--large-lines", type=int, default=large_file.DEFAULT_LINES)
    parser.add_argument("--seed", type=int, default=gen_program.DEFAULT_SEED)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true",
                        help="also profile one compilation (imports, stages, cProfile)")
    parser.add_argument("--keep", metavar="DIR", help="generate into DIR and keep it")
    args = parser.parse_args(argv)
    if args.case == "native":
        repeat = str(max(args.repeat, 10))        # milliseconds: more runs than for seconds
        return native.main(["--lines", str(args.lines), "--seed", str(args.seed), "--repeat", repeat])

    results = profile_data = large = None
    with tempfile.TemporaryDirectory(prefix="omp2gpu-startup-") as temporary:
        work = Path(args.keep or temporary)
        work.mkdir(parents=True, exist_ok=True)
        if args.case in ("startup", "all"):
            results, profile_data = _run_startup(args, work)
        if args.case in ("large", "all"):
            large = _run_large(args, work)
    write_reports(results, profile_data, large)
    print(f"wrote {HERE / 'results.json'} and {HERE / 'results.md'}")
    if results and results.get("output_matches_gcc") is False:
        print("ERROR: omp2gpu's output differs from gcc's", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
