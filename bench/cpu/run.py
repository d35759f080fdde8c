"""bench/cpu: the CPU device side by side with host OpenMP and PoCL, in one run.

Kernels (each program times itself, launch costs included):
- vadd       bench/cpu/vadd.c: a[i] += b[i] + c[i], n = 2^24 doubles; "single" is one
             target region with its maps (copies in and out), "x100" one launch of the
             100 inside a target data region (data resident);
- monoq      examples/lulesh CalcMonotonicQRegionForElems, one sweep = 11 region
             launches over s^3 elements (s = 30 and 100), data resident;
- empty      bench/cpu/empty.c: one empty target region (and a combined construct over
             1024 present elements): the per-region launch overhead.
Implementations:
- gcc host OpenMP   the same C with every `target teams distribute parallel for` made
                    `parallel for` and `target data` dropped, gcc -O3 -fopenmp;
- gcc target        the C as written, gcc -O3 -fopenmp -foffload=disable (libgomp runs
                    the target constructs on the host: its "host fallback");
- omp2gpu cpu/<policy>  `omp2gpu run --device cpu --cpu-schedule <policy>` (copies into
                    device buffers, as on a GPU); "unified" adds OMP2GPU_CPU_UNIFIED=1;
- PoCL              the kernels as OpenCL C (bench/cpu/opencl) on PoCL's CPU device
                    through pyopencl (bench/cpu/pocl_run.py), local size auto and 256.
Every configuration runs TRIALS times, interleaved; a time is the best over trials of
the program's best (and, separately, mean) per launch or sweep. Bandwidth: vadd 32 bytes
per element; monoq a nominal 176 bytes per element (its index, mask, six neighbour
indices, nine own and six neighbour doubles read, two written).

    python bench/cpu/run.py [--quick] [--trials T] [--out DIR] [--opencl-python PY]

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
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))
import common  # noqa: E402  (bench/common.py)

LULESH = REPO / "examples" / "lulesh"
POLICIES = ("static", "dynamic", "guided", "steal")
MONOQ_BYTES_PER_ELEMENT = 176
VADD_BYTES_PER_ELEMENT = 32


# ----------------------------------------------------------------- building
def host_openmp_source(source: Path, target: Path) -> Path:
    """The program as plain host OpenMP: combined target constructs become `parallel for`
    (their map clauses go with them), `target data` goes."""
    text = re.sub(r"\\\n", " ", source.read_text())
    lines = []
    for line in text.split("\n"):
        stripped = line.strip()
        if stripped.startswith("#pragma omp target data"):
            lines.append("")
        elif stripped.startswith("#pragma omp target teams distribute parallel for"):
            lines.append(line[:line.index("#")] + "#pragma omp parallel for")
        else:
            lines.append(line)
    target.write_text("\n".join(lines))
    return target


def gcc_build(source: Path, output: Path, extra=()) -> Path:
    command = ["gcc", "-std=gnu99", "-O3", "-fopenmp", "-foffload=disable", f"-I{LULESH}", *extra,
               str(source), "-o", str(output), "-lm"]
    subprocess.run(command, check=True, capture_output=True, text=True)
    return output


# ----------------------------------------------------------------- running
def _run(command, env=None, timeout=900) -> str:
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, **(env or {})))
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, command))} failed ({done.returncode}):\n"
                           f"{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return done.stdout


def omp2gpu_command(source: Path, policy: str, args, defines=()) -> list[str]:
    return [sys.executable, "-m", "omp2gpu", "run", "--device", "cpu", "--cpu-schedule", policy,
            f"-I{LULESH}", *[f"-D{d}" for d in defines], str(source), "--", *map(str, args)]


def parse_vadd(text: str) -> dict:
    assert "errors=0" in text, text
    single = float(re.search(r"time: single ([\d.]+) us", text).group(1))
    best, mean = map(float, re.search(r"time: reps best ([\d.]+) us mean ([\d.]+) us", text).groups())
    return {"single_us": single, "best_us": best, "mean_us": mean}


def parse_lulesh(text: str) -> dict:
    assert "PASSED" in text, text
    monoq = re.search(r"CalcMonotonicQRegionForElems per sweep: best ([\d.]+) us, mean ([\d.]+) us", text)
    accel = re.search(r"ApplyAccelerationBoundaryConditionsForNodes per sweep: best ([\d.]+) us, "
                      r"mean ([\d.]+) us", text)
    return {"best_us": float(monoq.group(1)), "mean_us": float(monoq.group(2)),
            "boundary_best_us": float(accel.group(1)), "boundary_mean_us": float(accel.group(2))}


def parse_empty(text: str) -> dict:
    return {"per_region_us": float(re.search(r"per region: ([\d.]+) us", text).group(1))}


def opencl_python(requested: str | None) -> str | None:
    """A Python with pyopencl and a PoCL platform, or None."""
    candidates = [requested] if requested else [sys.executable, os.environ.get("OMP2GPU_OPENCL_PYTHON"),
                                                "/tmp/ocl-venv/bin/python"]
    probe = "import pyopencl as cl; assert any('Portable' in p.name for p in cl.get_platforms())"
    for candidate in filter(None, candidates):
        if shutil.which(candidate) or Path(candidate).is_file():
            if subprocess.run([candidate, "-c", probe], capture_output=True).returncode == 0:
                return candidate
    return None


def best_of(trials: list[dict]) -> dict:
    """Per field, the best (smallest) value over trials."""
    merged = dict(trials[0])
    for trial in trials[1:]:
        for key, value in trial.items():
            if isinstance(value, float) and key.endswith("_us"):
                merged[key] = min(merged[key], value)
    merged["trials"] = len(trials)
    return merged


# ----------------------------------------------------------------- the benchmark
def measure(args) -> dict:
    quick = args.quick
    n = 1 << (22 if quick else 24)
    reps = 100
    sizes = [30] if quick else [30, 100]
    iterations = {30: 50, 100: 10}
    empty_reps = 20000
    trials = args.trials
    ocl = opencl_python(args.opencl_python)
    results = {"machine": {"cpu": common.cpu_name(), "cores": os.cpu_count(), "python": platform.python_version(),
                           "gcc": common.first_line(["gcc", "--version"])},
               "parameters": {"vadd_n": n, "vadd_reps": reps, "lulesh_sizes": sizes,
                              "trials": trials, "policies": list(POLICIES)},
               "runs": {}}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        binaries = {
            "gcc host OpenMP": {
                "vadd": gcc_build(host_openmp_source(HERE / "vadd.c", tmp / "vadd_host.c"), tmp / "vadd_host"),
                "lulesh": gcc_build(host_openmp_source(LULESH / "lulesh_kernels.c", tmp / "lulesh_host.c"),
                                    tmp / "lulesh_host")},
            "gcc target": {
                "vadd": gcc_build(HERE / "vadd.c", tmp / "vadd_target"),
                "lulesh": gcc_build(LULESH / "lulesh_kernels.c", tmp / "lulesh_target"),
                "empty": gcc_build(HERE / "empty.c", tmp / "empty_target"),
                "empty-combined": gcc_build(HERE / "empty.c", tmp / "empty_combined", ["-DCOMBINED"])}}
        data = {}
        if ocl:
            dumper = gcc_build(HERE / "lulesh_data.c", tmp / "lulesh_data")
            for s in sizes:
                data[s] = tmp / f"domain{s}.bin"
                _run([str(dumper), "-s", str(s), "dump", str(data[s])])

        jobs = []            # (implementation, kernel, command, env, parser)
        for name, built in binaries.items():
            jobs.append((name, "vadd", [str(built["vadd"]), n, reps], {}, parse_vadd))
            for s in sizes:
                jobs.append((name, f"monoq s={s}", [str(built["lulesh"]), "-s", s, "-i", iterations[s]], {},
                             parse_lulesh))
            if "empty" in built:        # libgomp's host teams cost ~0.1-1 ms a region: fewer
                jobs.append((name, "empty", [str(built["empty"]), empty_reps], {}, parse_empty))
                jobs.append((name, "empty combined", [str(built["empty-combined"]), empty_reps // 20], {},
                             parse_empty))
        for policy in POLICIES:
            name = f"omp2gpu cpu/{policy}"
            jobs.append((name, "vadd", omp2gpu_command(HERE / "vadd.c", policy, [n, reps]), {}, parse_vadd))
            for s in sizes:
                jobs.append((name, f"monoq s={s}", omp2gpu_command(LULESH / "lulesh_kernels.c", policy,
                                                                    ["-s", s, "-i", iterations[s]]), {},
                             parse_lulesh))
            jobs.append((name, "empty", omp2gpu_command(HERE / "empty.c", policy, [empty_reps]), {},
                         parse_empty))
            jobs.append((name, "empty combined", omp2gpu_command(HERE / "empty.c", policy, [empty_reps],
                                                                  ["COMBINED"]), {}, parse_empty))
        jobs.append(("omp2gpu cpu/steal unified", "vadd", omp2gpu_command(HERE / "vadd.c", "steal", [n, reps]),
                     {"OMP2GPU_CPU_UNIFIED": "1"}, parse_vadd))
        jobs.append(("omp2gpu cpu/steal Python launches", "empty",
                     omp2gpu_command(HERE / "empty.c", "steal", [2000]), {"OMP2GPU_CPU_FAST_PATH": "0"},
                     parse_empty))
        if ocl:
            pocl = [sys.executable if ocl is None else ocl, str(HERE / "pocl_run.py")]
            for local in (0, 256):
                name = f"PoCL local={'auto' if local == 0 else local}"
                jobs.append((name, "vadd", pocl + ["vadd", str(n), str(reps), str(local)], {}, json.loads))
                for s in sizes:
                    out = tmp / f"qq{s}_{local}.bin"
                    jobs.append((name, f"monoq s={s}", pocl + ["monoq", str(data[s]), str(iterations[s]),
                                                                str(local), str(out)], {}, json.loads))
            jobs.append(("PoCL local=auto", "empty", pocl + ["empty", "5000"], {}, json.loads))

        collected: dict[tuple, list] = {}
        for trial in range(trials):
            for name, kernel, command, env, parser in jobs:
                print(f"[{trial + 1}/{trials}] {name}: {kernel}", file=sys.stderr, flush=True)
                result = parser(_run([str(c) for c in command], env))
                if kernel.startswith("monoq") and name.startswith("PoCL"):
                    s = int(kernel.split("=")[1])
                    local = 0 if name.endswith("auto") else 256
                    _run([str(tmp / "lulesh_data"), "-s", str(s), "check", str(tmp / f"qq{s}_{local}.bin")])
                collected.setdefault((name, kernel), []).append(result)
        for (name, kernel), trial_results in collected.items():
            results["runs"].setdefault(name, {})[kernel] = best_of(trial_results)
    results["pocl"] = "ran" if ocl else ("not run: no Python with pyopencl and a PoCL platform "
                                          "(apt-get install pocl-opencl-icd; pip install pyopencl)")
    derive(results)
    return results


def derive(results: dict) -> None:
    """Bandwidths and the ratios the goals name: omp2gpu throughput / gcc host OpenMP and / PoCL."""
    n = results["parameters"]["vadd_n"]
    runs = results["runs"]
    for kernels in runs.values():
        for kernel, result in kernels.items():
            if kernel == "vadd":
                result["GBps"] = VADD_BYTES_PER_ELEMENT * n / (result["best_us"] * 1e3)
                result["single_GBps"] = VADD_BYTES_PER_ELEMENT * n / (result["single_us"] * 1e3)
            elif kernel.startswith("monoq"):
                s = int(kernel.split("=")[1])
                result["GBps"] = MONOQ_BYTES_PER_ELEMENT * s ** 3 / (result["best_us"] * 1e3)
    comparisons = {}
    pocl_names = [name for name in runs if name.startswith("PoCL")]
    for name in runs:
        if not name.startswith("omp2gpu"):
            continue
        for kernel, result in runs[name].items():
            if "best_us" not in result:
                continue
            entry = {}
            gcc = runs.get("gcc host OpenMP", {}).get(kernel)
            if gcc:
                entry["vs_gcc_host_openmp"] = gcc["best_us"] / result["best_us"]
            pocl_times = [runs[p][kernel]["best_us"] for p in pocl_names if kernel in runs[p]]
            if pocl_times:
                entry["vs_best_pocl"] = min(pocl_times) / result["best_us"]
            comparisons.setdefault(name, {})[kernel] = entry
    results["throughput_ratios"] = comparisons


# ----------------------------------------------------------------- reporting
def markdown(results: dict) -> str:
    p = results["parameters"]
    m = results["machine"]
    out = ["# bench/cpu: the CPU device against host OpenMP and PoCL", "",
           f"Machine: {m['cpu']}, {m['cores']} cores (shared with other work: indicative only); {m['gcc']}. "
           f"vadd n = {p['vadd_n']} doubles, {p['vadd_reps']} launches; monotonic Q for s = "
           f"{', '.join(map(str, p['lulesh_sizes']))} (11 regions); best of {p['trials']} trials. "
           f"PoCL: {results['pocl']}.", "",
           "Times per launch (vadd x100) or per sweep (monoq, 11 launches), best / mean of the program's "
           "own repetitions; GB/s from the best. `single` is one target region with its maps.", ""]
    runs = results["runs"]
    kernels = ["vadd"] + [f"monoq s={s}" for s in p["lulesh_sizes"]]
    out += ["| implementation | " + " | ".join(
        f"{k} best / mean us | {k} GB/s" for k in kernels) + " | vadd single us |",
            "|---|" + "---:|---:|" * len(kernels) + "---:|"]
    for name, measured in runs.items():
        cells = []
        for kernel in kernels:
            r = measured.get(kernel)
            cells += ["" , ""] if r is None else [f"{r['best_us']:.1f} / {r['mean_us']:.1f}", f"{r['GBps']:.1f}"]
        single = measured.get("vadd", {}).get("single_us")
        cells.append("" if single is None else f"{single:.0f}")
        if any(cells):
            out.append(f"| {name} | " + " | ".join(cells) + " |")
    out += ["", "Throughput ratios (reference time / omp2gpu time, best times; goals: >= 0.9 against "
            "gcc host OpenMP, >= 1.0 against the better PoCL local size):", "",
            "| omp2gpu | " + " | ".join(f"{k} vs gcc | {k} vs PoCL" for k in kernels) + " |",
            "|---|" + "---:|---:|" * len(kernels)]
    for name, ratios in results["throughput_ratios"].items():
        cells = []
        for kernel in kernels:
            entry = ratios.get(kernel, {})
            cells += [f"{entry[key]:.2f}" if key in entry else "" for key in ("vs_gcc_host_openmp", "vs_best_pocl")]
        if any(cells):
            out.append(f"| {name} | " + " | ".join(cells) + " |")
    out += ["", "Launch overhead of one region (us; goal for omp2gpu: under 20):", "",
            "| implementation | empty target region | combined, 1024 present elements |", "|---|---:|---:|"]
    for name, measured in runs.items():
        empty, combined = measured.get("empty", {}), measured.get("empty combined", {})
        alone = empty.get("per_region_us", empty.get("per_launch_us"))     # PoCL: an empty kernel
        together = combined.get("per_region_us")
        if alone is not None or together is not None:
            out.append(f"| {name} | {_format(alone)} | {_format(together)} |")
    out += ["", "Boundary kernel (ApplyAccelerationBoundaryConditionsForNodes, one launch per sweep), best us:",
            "", "| implementation | " + " | ".join(f"s={s}" for s in p["lulesh_sizes"]) + " |",
            "|---|" + "---:|" * len(p["lulesh_sizes"])]
    for name, measured in runs.items():
        cells = [f"{measured[f'monoq s={s}']['boundary_best_us']:.1f}"
                 if "boundary_best_us" in measured.get(f"monoq s={s}", {}) else "" for s in p["lulesh_sizes"]]
        if any(cells):
            out.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


def _format(value, digits: int = 3) -> str:
    return "" if value is None else f"{value:.{digits}f}"




def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, for a smoke test")
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--out", type=Path, help="also write the results here")
    parser.add_argument("--opencl-python", help="a Python with pyopencl (default: this one, "
                        "$OMP2GPU_OPENCL_PYTHON, /tmp/ocl-venv/bin/python)")
    args = parser.parse_args()
    results = measure(args)
    text = markdown(results)
    for folder in filter(None, [HERE, args.out]):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "results.json").write_text(json.dumps(results, indent=1) + "\n")
        (folder / "results.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
