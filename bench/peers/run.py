"""bench/peers, step 2 (on the GPU machine): each program built by gcc (the reference, its
target regions on the host), by omp2gpu and by Clang 19 (build_clang.py's folder, carried
here), run; for omp2gpu and Clang: whether the output is gcc's, the summed kernel time, the
kernels' registers and theoretical occupancy (time-weighted), and the end-to-end time.

    python bench/peers/run.py [--peers .peers] [--only SUBSTRING[,SUBSTRING...]] [--part K/N] [--jobs 16] [--out DIR]
    python bench/peers/run.py --report results.json [more.json ...] [--out DIR]   (the table and plot again)

The whole list takes about nine minutes on an H200's host, more than one lent-GPU command may
run: `--part 1/2` and `--part 2/2` run every other program each, and `--report` on both
results.json files makes the one table (a later file's row replaces an earlier one's).

Kernel time comes from one method for both compilers: kernel_log.c, a CUDA injection
library whose CUPTI activity records give each kernel's start and end on the GPU. The
end-to-end time is a second run's wall time, without the library. A run writes results.json,
results.md and omp2gpu_over_clang.png here (and in --out); `--report` writes them in --out
when given (a side table), else here.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from programs import REPO, Program, comparable

sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))
import common  # noqa: E402  (bench/common.py)

from omp2gpu.tools.occupancy import occupancy  # noqa: E402

HERE = Path(__file__).resolve().parent
REASONS = HERE / "slower_than_clang.json"   # why a program is slower than Clang (markdown)
THREADS = "4"
TIMEOUT_S = 30
COMPILERS = ("omp2gpu", "clang")


def build_gcc(program: Program, folder: Path) -> Path | None:
    output = folder / f"{program.name}.gcc"
    done = subprocess.run(["gcc", "-O2", "-fopenmp", "-foffload=disable", f"-std={program.std}", *program.flags,
                           str(program.source), "-o", str(output), "-lm"], capture_output=True, text=True)
    return output if done.returncode == 0 else None


def build_omp2gpu(program: Program, folder: Path) -> Path | None:
    output = folder / f"{program.name}.omp2gpu"
    done = subprocess.run([sys.executable, "-m", "omp2gpu", "compile", f"-std={program.std}", *program.flags,
                           str(program.source), "-o", str(output)], capture_output=True, text=True,
                          env=common.omp2gpu_env())
    if done.returncode != 0:
        (folder / f"{program.name}.omp2gpu.error").write_text(done.stderr[-4000:])
    return output if done.returncode == 0 else None


def run(binary: Path, program: Program, env: dict) -> tuple[subprocess.CompletedProcess | None, float]:
    start = time.perf_counter()
    try:
        done = subprocess.run([str(binary)], capture_output=True, text=True, timeout=TIMEOUT_S, cwd=binary.parent,
                              env={**os.environ, "OMP_NUM_THREADS": THREADS, **program.env, **env})
    except subprocess.TimeoutExpired:
        return None, TIMEOUT_S
    return done, time.perf_counter() - start


def summary(found: list[dict]) -> dict:
    total = sum(k["ns"] for k in found)
    if not found:
        return {"kernels": 0, "kernel_us": 0.0}
    weights = [k["ns"] or 1 for k in found]
    occupancies = [occupancy("sm_90", max(k["registers"], 1), max(k["threads"], 1), k["shared"]).occupancy
                   for k in found]
    return {"kernels": len(found), "kernel_us": total / 1e3,
            "registers": round(sum(w * k["registers"] for w, k in zip(weights, found)) / sum(weights), 1),
            "occupancy": round(sum(w * o for w, o in zip(weights, occupancies)) / sum(weights), 3)}


def reference_output(program: Program, binary: Path | None) -> tuple[int, str] | None:
    """gcc's exit status and output (timing lines left out), the expected ones."""
    done, _ = run(binary, program, {"OMP_TARGET_OFFLOAD": "DISABLED"}) if binary else (None, 0)
    return (done.returncode, comparable(done.stdout)) if done else None


def measure(program: Program, binaries: dict, expected, folder: Path, kernel_log: Path, runtime: Path) -> dict:
    """One program's runs by each compiler, one after another (kernels timed alone on the GPU)."""
    result: dict = {"name": program.name}
    for compiler in COMPILERS:
        binary = binaries.get(compiler)
        if binary is None:
            result[compiler] = {"status": "not built"}
            continue
        env = {"OMP_TARGET_OFFLOAD": "MANDATORY"}
        if compiler == "clang":
            env["LD_LIBRARY_PATH"] = os.pathsep.join(filter(None, [str(runtime), os.environ.get("LD_LIBRARY_PATH")]))
        log = folder / f"{program.name}.{compiler}.kernels"
        done, _ = run(binary, program, {**env, "CUDA_INJECTION64_PATH": str(kernel_log), "PEERS_KERNEL_LOG": str(log)})
        plain, seconds = run(binary, program, env)
        if done is None or plain is None:
            result[compiler] = {"status": "timeout"}
            continue
        same = expected is not None and (done.returncode, comparable(done.stdout)) == expected
        result[compiler] = {"status": "same as gcc" if same else "differs" if expected else "no reference",
                            "seconds": round(seconds, 4), **summary(common.kernel_log_records(log))}
        if not same:
            result[compiler]["stderr"] = done.stderr[-300:]
    return result


def geometric_mean(values: list[float]) -> float:
    return math.exp(statistics.fmean(math.log(v) for v in values)) if values else float("nan")


def compared(rows: list[dict]) -> list[dict]:
    """The programs both compilers ran right, with kernels on the GPU."""
    return [r for r in rows if all(r[c].get("status") == "same as gcc" and r[c].get("kernel_us", 0) > 0
                                   for c in COMPILERS)]


def markdown(results: dict) -> str:
    rows = results["programs"]
    both = compared(rows)
    ratios = [r["omp2gpu"]["kernel_us"] / r["clang"]["kernel_us"] for r in both]
    wall = [r["omp2gpu"]["seconds"] / r["clang"]["seconds"] for r in both]
    right = {c: sum(r[c].get("status") == "same as gcc" for r in rows) for c in COMPILERS}
    built = {c: sum(r[c].get("status") != "not built" for r in rows) for c in COMPILERS}
    lines = [f"# omp2gpu against Clang 19 on {results['device']} (bench/peers)", "",
             f"{len(rows)} programs (the corpus's single-file programs with target regions, and examples/vadd.c). "
             f"Clang 19.1 (Debian clang-19, libomp-19-dev) -O3 --offload-arch=sm_90, its device code by CUDA 12.9's "
             f"ptxas and nvJitLink; omp2gpu at its defaults; gcc -O2 with offloading disabled gives the expected "
             f"output. Kernel time: CUPTI's kernel records (kernel_log.c), the same for both; end-to-end: the "
             f"program's wall time. Host: {results['cpu']}.", "",
             "| | omp2gpu | Clang 19 |", "|---|---:|---:|",
             f"| built | {built['omp2gpu']} | {built['clang']} |",
             f"| output as gcc's | {right['omp2gpu']} | {right['clang']} |", "",
             f"Both right with GPU kernels: {len(both)} programs. omp2gpu / Clang, geometric mean: "
             f"**kernel time {geometric_mean(ratios):.2f}x**, end-to-end {geometric_mean(wall):.2f}x.", "",
             "| program | kernels (o / c) | kernel us omp2gpu | kernel us Clang | ratio | registers (o / c) | "
             "occupancy (o / c) | wall s (o / c) |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for r in sorted(both, key=lambda r: r["omp2gpu"]["kernel_us"] / r["clang"]["kernel_us"], reverse=True):
        o, c = r["omp2gpu"], r["clang"]
        lines.append(f"| {r['name']} | {o['kernels']} / {c['kernels']} | {o['kernel_us']:.1f} | {c['kernel_us']:.1f} | "
                     f"{o['kernel_us'] / c['kernel_us']:.2f} | {o['registers']} / {c['registers']} | "
                     f"{o['occupancy']:.2f} / {c['occupancy']:.2f} | {o['seconds']:.2f} / {c['seconds']:.2f} |")
    lines += slower_than_clang(both)
    others = [r for r in rows if r not in both]
    if others:
        lines += ["", "Not compared (one of them not built, not right, or no GPU kernel):", "",
                  "| program | omp2gpu | Clang 19 |", "|---|---|---|"]
        for r in others:
            lines.append(f"| {r['name']} | {r['omp2gpu'].get('status')} | {r['clang'].get('status')} |")
    return "\n".join(lines) + "\n"


def slower_than_clang(both: list[dict]) -> list[str]:
    """Each program whose kernel time is above Clang's, with its reason from
    slower_than_clang.json (or that it has none yet)."""
    reasons = json.loads(REASONS.read_text()) if REASONS.exists() else {}
    slower = sorted((r for r in both if r["omp2gpu"]["kernel_us"] > r["clang"]["kernel_us"]),
                    key=lambda r: r["omp2gpu"]["kernel_us"] / r["clang"]["kernel_us"], reverse=True)
    if not slower:
        return []
    lines = ["", "## Slower than Clang, and why", "", f"(from [{REASONS.name}]({REASONS.name}))", ""]
    for r in slower:
        ratio = r["omp2gpu"]["kernel_us"] / r["clang"]["kernel_us"]
        lines.append(f"- `{r['name']}` {ratio:.2f}x: {reasons.get(r['name'], 'not explained yet.')}")
    return lines


def plot(results: dict, path: Path) -> None:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    both = sorted(compared(results["programs"]), key=lambda r: r["omp2gpu"]["kernel_us"] / r["clang"]["kernel_us"])
    if not both:
        return
    ratios = [r["omp2gpu"]["kernel_us"] / r["clang"]["kernel_us"] for r in both]
    figure, axes = plt.subplots(figsize=(8, max(4, len(both) * 0.16)))
    axes.barh([r["name"] for r in both], ratios, color=["tab:green" if v <= 1 else "tab:red" for v in ratios])
    axes.axvline(1.0, color="black", linewidth=0.8)
    axes.set_xscale("log")
    axes.set_xlabel("summed kernel time, omp2gpu / Clang 19 (log scale; < 1: omp2gpu faster)")
    axes.tick_params(axis="y", labelsize=6)
    axes.set_title(f"{results['device']}: geometric mean {geometric_mean(ratios):.2f}x")
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def write(results: dict, *folders: Path | None) -> None:
    for folder in filter(None, folders):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "results.json").write_text(json.dumps(results, indent=1) + "\n")
        (folder / "results.md").write_text(markdown(results))
        plot(results, folder / "omp2gpu_over_clang.png")


def _part(text: str) -> tuple[int, int]:
    number, _, count = text.partition("/")
    if not (number.isdigit() and count.isdigit() and 1 <= int(number) <= int(count)):
        raise argparse.ArgumentTypeError(f"--part wants K/N with 1 <= K <= N, not {text!r}")
    return int(number), int(count)


def merged_results(runs: list[dict]) -> dict:
    """Several runs' results as one: each program's row from the last run that has it."""
    rows = {}
    for run in runs:
        rows.update({row["name"]: row for row in run["programs"]})
    return {**runs[0], "programs": sorted(rows.values(), key=lambda row: row["name"])}


def gpu_name() -> str:
    try:
        names = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                               text=True).stdout.split("\n")
    except OSError:
        return "no GPU"
    return names[0].strip() or "?"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", type=Path, default=REPO / ".peers")
    parser.add_argument("--only")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 4)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--part", type=_part, default=(1, 1), help="K/N: the K-th of N interleaved slices")
    parser.add_argument("--report", type=Path, nargs="+")
    options = parser.parse_args()
    if options.report:
        results = merged_results([json.loads(path.read_text()) for path in options.report])
        write(results, options.out or HERE)      # a side table (--out) leaves the full run's alone
        print(markdown(results))
        return 0
    wanted = options.only.split(",") if options.only else None
    programs = [Program.from_json(p) for p in json.loads((options.peers / "programs.json").read_text())
                if wanted is None or any(part in p["name"] for part in wanted)]
    slice_number, slices = options.part
    programs = programs[slice_number - 1::slices]
    work = Path(tempfile.mkdtemp(prefix="omp2gpu-peers-"))
    runtime = work / "runtime"
    with tarfile.open(options.peers / "runtime.tar.xz") as archive:
        archive.extractall(runtime)
    kernel_log = common.build_kernel_log(work)
    with ThreadPoolExecutor(options.jobs) as pool:
        gcc = list(pool.map(lambda p: build_gcc(p, work), programs))
        ours = list(pool.map(lambda p: build_omp2gpu(p, work), programs))
        expected = list(pool.map(reference_output, programs, gcc))
    rows = []
    for program, our_binary, reference in zip(programs, ours, expected):
        clang = options.peers / "bin" / program.name
        binaries = {"omp2gpu": our_binary, "clang": clang if clang.exists() else None}
        rows.append(measure(program, binaries, reference, work, kernel_log, runtime))
        print(json.dumps(rows[-1])[:300], flush=True)
        if len(rows) % 10 == 0 or len(rows) == len(programs):        # a cut-short run keeps what it has
            results = {"device": gpu_name(), "cpu": common.cpu_name(), "programs": rows}
            write(results, HERE, options.out)
    print(markdown(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
