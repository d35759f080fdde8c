"""Start-up of a native executable (docs/native-executables.md): time from exec to the
first line of output of the ~2,000-line program (gen_program.py) built by
`omp2gpu compile --native`, on the CPU device and on the host, beside gcc's binary of
the same program in the same run (issue 27's goal: <= 20 ms on the CPU device). On a GPU
machine the GPU row is the same binary on the GPU: its time includes CUDA's own
initialisation (cuInit and the context), reported beside the others, not against the goal.

    python bench/startup/native.py [--repeat 20] [--lines 2000]

Prints a table and writes native_results.json and native_results.md next to this script.
The first line of the program is printed before its first target region, so the device
row also includes nothing of the device's start: the second line, after the first target
region has run (and the device started: the CPU device's worker threads, the GPU's module
load), is timed too.
"""

from __future__ import annotations

import argparse
import json
import os
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

GOAL_MS = 20.0
GCC_FLAGS = ["-std=c99", "-O2", "-fopenmp", "-foffload=disable", "-ffp-contract=off"]
DEVICES = {
    "cpu": {"OMP2GPU_DEVICES": "cpu", "OMP_TARGET_OFFLOAD": "MANDATORY"},
    "host": {"OMP_TARGET_OFFLOAD": "DISABLED"},
    "gpu": {"OMP2GPU_DEVICES": "gpu", "OMP_TARGET_OFFLOAD": "MANDATORY"},
}


def time_lines(command: list[str], env: dict, cwd: Path) -> dict:
    """Milliseconds from the start of `command` to its first and second stdout lines and to
    its exit, and its whole output."""
    start = time.perf_counter()
    process = subprocess.Popen(command, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, bufsize=0)
    first = process.stdout.readline()
    first_ms = (time.perf_counter() - start) * 1000
    second = process.stdout.readline()
    second_ms = (time.perf_counter() - start) * 1000
    rest, errors = process.communicate()
    total_ms = (time.perf_counter() - start) * 1000
    return {"first_line_ms": first_ms, "second_line_ms": second_ms, "total_ms": total_ms,
            "status": process.returncode, "stdout": (first + second + rest).decode(errors="replace"),
            "stderr": errors.decode(errors="replace")}


def best(repeat: int, run) -> dict:
    runs = [run() for _ in range(repeat)]
    chosen = min(runs, key=lambda r: r["first_line_ms"])
    return {**chosen, "first_line_all_ms": [round(r["first_line_ms"], 2) for r in runs]}


def bench(lines: int, seed: int, repeat: int, work: Path) -> dict:
    source = work / "startup_prog.c"
    source.write_text(gen_program.generate(lines, seed))
    native = work / "native_prog"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")])))
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "omp2gpu", "compile", "--native", str(source), "-o", str(native)],
                   env=env, check=True)
    build_s = time.perf_counter() - start
    gcc = shutil.which("gcc")
    reference = work / "gcc_prog"
    subprocess.run([gcc, *GCC_FLAGS, str(source), "-o", str(reference), "-lm"], check=True)
    bare = {"PATH": "/usr/bin:/bin", "OMP_NUM_THREADS": "4"}
    results = {"program": {"lines": source.read_text().count("\n"), "seed": seed},
               "native_build_s": round(build_s, 2), "goal_ms": GOAL_MS,
               "load_average": [round(x, 2) for x in os.getloadavg()],
               "gcc": best(repeat, lambda: time_lines([str(reference)], bare, work))}
    for device, settings in DEVICES.items():
        figures = best(repeat, lambda settings=settings: time_lines([str(native)], {**bare, **settings}, work))
        if figures["status"] != 0:
            results[device] = {"unavailable": figures["stderr"].strip()[:300]}
            continue
        figures["output_matches_gcc"] = figures["stdout"] == results["gcc"]["stdout"]
        results[device] = figures
    cpu = results.get("cpu", {})
    results["meets_goal_cpu"] = bool(cpu.get("first_line_ms") is not None and cpu["first_line_ms"] <= GOAL_MS)
    return results


def table(results: dict) -> str:
    rows = ["| binary | first line (ms) | second line (ms) | exit (ms) | output = gcc's |",
            "|---|---:|---:|---:|---|"]
    gcc = results["gcc"]
    rows.append(f"| gcc -O2 | {gcc['first_line_ms']:.2f} | {gcc['second_line_ms']:.2f} | {gcc['total_ms']:.2f} | - |")
    for device in DEVICES:
        figures = results.get(device, {})
        if "unavailable" in figures:
            rows.append(f"| omp2gpu native, {device} | not run here: {figures['unavailable'].splitlines()[0]} | | | |")
            continue
        rows.append(f"| omp2gpu native, {device} | {figures['first_line_ms']:.2f} | {figures['second_line_ms']:.2f} "
                    f"| {figures['total_ms']:.2f} | {'yes' if figures['output_matches_gcc'] else 'NO'} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lines", type=int, default=gen_program.DEFAULT_LINES)
    parser.add_argument("--seed", type=int, default=gen_program.DEFAULT_SEED)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="omp2gpu-native-startup-") as work:
        results = bench(args.lines, args.seed, args.repeat, Path(work))
    text = table(results)
    verdict = (f"goal (first line <= {GOAL_MS:.0f} ms on the CPU device): "
               f"{'met' if results['meets_goal_cpu'] else 'NOT met'}")
    print(text + "\n\n" + verdict)
    for device in ("gcc", *DEVICES):
        for key in ("stdout", "stderr"):
            results.get(device, {}).pop(key, None)
    (HERE / "native_results.json").write_text(json.dumps(results, indent=1) + "\n")
    (HERE / "native_results.md").write_text(
        f"# Native executable start-up ({results['program']['lines']}-line program, best of {args.repeat}; "
        f"load average {results['load_average']})\n\n{text}\n\n{verdict}\n\n"
        f"`omp2gpu compile --native` took {results['native_build_s']} s (wall).\n")
    print(f"wrote {HERE / 'native_results.md'}")
    ok = all(results.get(d, {}).get("output_matches_gcc", True) for d in DEVICES)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
