"""Start-up benchmark: how long `omp2gpu run` takes to start a ~2,000-line program.

    python bench/startup/run.py [--lines 2000] [--seed 1] [--repeat 3] [--profile]

Generates the program (gen_program.py) into a temporary folder and times, best
of --repeat runs:

- omp2gpu: `python -m omp2gpu run prog.c`, wall clock from process start to
  the program's first output line (the program prints and flushes it before
  any work, so this is compile + JIT start-up), and to process exit;
- omp2gpu with a cold cache: the same, once, with an empty OMP2GPU_CACHE_DIR
  (the host runtime is compiled again);
- gcc -O2 for reference: compile, then run (first line, exit).

omp2gpu's output must equal gcc's. Prints a table and writes results.json
and results.md next to this script. --profile adds `python -X importtime` and
cProfile summaries of one omp2gpu compilation.
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

GOAL_S = 3.0
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
            "stdout": (first + rest).decode(errors="replace")}


def best_of(repeat: int, run) -> dict:
    runs = [run() for _ in range(repeat)]
    best = min(runs, key=lambda r: r["first_line_s"])
    return {**best, "first_line_all_s": [round(r["first_line_s"], 3) for r in runs],
            "total_all_s": [round(r["total_s"], 3) for r in runs]}


def bench(lines: int, seed: int, repeat: int, work: Path) -> dict:
    source = work / "startup_prog.c"
    source.write_text(gen_program.generate(lines, seed))
    line_count = source.read_text().count("\n")
    omp2gpu = [sys.executable, "-m", "omp2gpu", "run", str(source)]

    results: dict = {"program": {"lines": line_count, "seed": seed,
                                 "openmp_regions": source.read_text().count("#pragma omp")}}
    # Warm the host-runtime cache first: the timed runs measure the usual case.
    timed_run(omp2gpu, _env(), work)
    results["omp2gpu"] = best_of(repeat, lambda: timed_run(omp2gpu, _env(), work))
    cold_cache = work / "cold-cache"
    results["omp2gpu_cold_cache"] = timed_run(
        omp2gpu, _env(OMP2GPU_CACHE_DIR=str(cold_cache)), work)

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
        run = best_of(repeat, lambda: timed_run([str(binary)], _env(), work))
        results["gcc"] = {"compile_s": compile_s, "run_first_line_s": run["first_line_s"],
                          "run_total_s": run["total_s"],
                          "first_line_s": compile_s + run["first_line_s"],
                          "total_s": compile_s + run["total_s"], "stdout": run["stdout"]}
        results["output_matches_gcc"] = results["omp2gpu"]["stdout"] == run["stdout"]
    results["goal_s"] = GOAL_S
    results["meets_goal"] = results["omp2gpu"]["first_line_s"] < GOAL_S
    return results, source


def profile(source: Path, top: int = 25) -> dict:
    """Where one compilation spends its time: imports and cProfile, in-process stages."""
    env = _env()
    imports = subprocess.run([sys.executable, "-X", "importtime", "-c", "import omp2gpu.driver, "
                              "omp2gpu.codegen.module, omp2gpu.frontend.parse, "
                              "omp2gpu.frontend.pragmas, omp2gpu.codegen.openmp.host"],
                             env=env, capture_output=True, text=True)
    rows = []
    for line in imports.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[1].strip().isdigit():
            rows.append((int(parts[1]), parts[2].strip()))
    rows.sort(reverse=True)

    stages = _stage_times(source)
    sys.path.insert(0, str(REPO_ROOT))
    from omp2gpu import driver
    profiler = cProfile.Profile()
    profiler.enable()
    driver.build_host_module(str(source), driver.CompileOptions())
    profiler.disable()
    buffer = io.StringIO()
    pstats.Stats(profiler, stream=buffer).sort_stats("cumulative").print_stats(top)
    return {"import_cumulative_us_top": [{"us": us, "module": name} for us, name in rows[:15]],
            "stages_s": stages, "cprofile_cumulative": buffer.getvalue()}


def _stage_times(source: Path) -> dict:
    """Each pipeline stage, timed in a fresh process (`import` is omp2gpu's and
    llvmlite's imports; `jit_codegen` is MCJIT making machine code, which
    `omp2gpu run` does before main starts)."""
    script = f"""
import json, sys, time
t0 = time.perf_counter()
from omp2gpu import driver
from omp2gpu.codegen.module import emit_module
from omp2gpu.codegen.openmp.host import HostOpenMP
from omp2gpu.frontend.parse import parse
from omp2gpu.frontend.pragmas import attach_pragmas
from omp2gpu.frontend.preprocess import preprocess
from omp2gpu.targets import host
import llvmlite.binding as llvm
t = {{"import": time.perf_counter() - t0}}
def step(name, f):
    start = time.perf_counter(); value = f(); t[name] = time.perf_counter() - start; return value
path = {str(source)!r}
text = step("preprocess", lambda: preprocess(path, [], [], [], "c99"))
ast = step("parse", lambda: parse(text, path))
ast = step("attach_pragmas", lambda: attach_pragmas(ast))
module = step("codegen", lambda: emit_module(ast, "prog", HostOpenMP()))
program = step("llvm_parse_ir", lambda: host.prepare(module))
runtime = step("host_runtime_load", lambda: host.prepare(llvm.parse_assembly(driver.host_runtime_ir())))
step("link", lambda: program.link_in(runtime))
step("optimise_O2", lambda: host.optimise(program, 2))
def jit():
    engine = llvm.create_mcjit_compiler(program, host.target_machine(jit=True))
    engine.finalize_object()
    return engine
engine = step("jit_codegen", jit)
print(json.dumps({{k: round(v, 3) for k, v in t.items()}}))
"""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], env=_env(), check=True)
    python_startup = time.perf_counter() - start
    done = subprocess.run([sys.executable, "-c", script], env=_env(), capture_output=True,
                          text=True)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1:]}
    return {"python_startup": round(python_startup, 3), **json.loads(done.stdout)}


def table(results: dict) -> str:
    o, cold, g = results["omp2gpu"], results["omp2gpu_cold_cache"], results["gcc"]
    rows = [("omp2gpu run (best of %d)" % len(o["first_line_all_s"]), o["first_line_s"], o["total_s"]),
            ("omp2gpu run, cold cache (1 run)", cold["first_line_s"], cold["total_s"])]
    if g:
        rows.append(("gcc -O2 compile + run", g["first_line_s"], g["total_s"]))
        rows.append(("  of which gcc compile", g["compile_s"], g["compile_s"]))
    out = ["| | to first output line (s) | total (s) |", "|---|---:|---:|"]
    out += [f"| {name} | {first:.3f} | {total:.3f} |" for name, first, total in rows]
    return "\n".join(out)


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


def write_reports(results: dict, profile_data: dict | None) -> None:
    clean = {k: ({kk: vv for kk, vv in v.items() if kk != "stdout"} if isinstance(v, dict) else v)
             for k, v in results.items()}
    clean["machine"] = {"python": platform.python_version(), "platform": platform.platform(),
                        "cpus": os.cpu_count(), "load_average": list(os.getloadavg())}
    clean["omp2gpu_commit"] = _git_commit()
    if profile_data:
        clean["profile"] = {k: v for k, v in profile_data.items() if k != "cprofile_cumulative"}
    (HERE / "results.json").write_text(json.dumps(clean, indent=2) + "\n")

    program = results["program"]
    md = [f"# omp2gpu start-up benchmark", "",
          f"A generated {program['lines']}-line C program (gen_program.py, seed {program['seed']}, "
          f"{program['openmp_regions']} OpenMP pragmas), run with `omp2gpu run`; "
          f"gcc {' '.join(GCC_FLAGS)} for reference. "
          f"Python {platform.python_version()}, {os.cpu_count()} CPUs, "
          f"omp2gpu at {_git_commit() or 'an unknown commit'}.", "",
          table(results), "",
          f"Goal: first output line in under {GOAL_S:.0f} s: "
          f"**{'met' if results['meets_goal'] else 'NOT met'}** "
          f"({results['omp2gpu']['first_line_s']:.2f} s).",
          f"Output identical to gcc's: **{results.get('output_matches_gcc')}**."]
    if profile_data:
        stages = profile_data["stages_s"]
        md += ["", "## Where the time goes (one compilation, warm cache)", "",
               "| stage | s |", "|---|---:|"]
        md += [f"| {name} | {seconds} |" for name, seconds in stages.items()]
        md += ["", "Slowest imports (cumulative, `python -X importtime`):", "",
               "| module | ms |", "|---|---:|"]
        md += [f"| {row['module'].strip()} | {row['us'] / 1000:.1f} |"
               for row in profile_data["import_cumulative_us_top"][:8]]
    (HERE / "results.md").write_text("\n".join(md) + "\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=gen_program.DEFAULT_LINES)
    parser.add_argument("--seed", type=int, default=gen_program.DEFAULT_SEED)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--profile", action="store_true",
                        help="also profile one compilation (imports, stages, cProfile)")
    parser.add_argument("--keep", metavar="DIR", help="generate into DIR and keep it")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="omp2gpu-startup-") as temporary:
        work = Path(args.keep or temporary)
        work.mkdir(parents=True, exist_ok=True)
        results, source = bench(args.lines, args.seed, args.repeat, work)
        profile_data = profile(source) if args.profile or not results["meets_goal"] else None

    print(table(results))
    o = results["omp2gpu"]
    print(f"\nomp2gpu first line, each run: {o['first_line_all_s']} s; total: {o['total_all_s']} s")
    print(f"goal < {GOAL_S:.1f} s to first line: {'met' if results['meets_goal'] else 'NOT met'}")
    print(f"output identical to gcc: {results.get('output_matches_gcc')}")
    if profile_data:
        print("\nstages (s):", json.dumps(profile_data["stages_s"]))
        print("\n" + profile_data["cprofile_cumulative"])
    write_reports(results, profile_data)
    print(f"wrote {HERE / 'results.json'} and {HERE / 'results.md'}")
    if results.get("output_matches_gcc") is False:
        print("ERROR: omp2gpu's output differs from gcc's", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
