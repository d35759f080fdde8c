"""bench/lulesh: the paper's Table 3 (two LULESH kernels) on today's GPU.

    CUDA C (nvcc, examples/lulesh/cuda) | control loop (omp2gpu --scheme control-loop)
    | combined (omp2gpu's default for these loops)

For each mesh size (12, 30, 100, 150 elements per edge) and implementation it
reports, per kernel: registers, shared memory, the best (#blocks, #threads),
occupancy and the best time per sweep (ApplyAccelerationBoundaryConditionsForNodes:
one launch in OpenMP, three in CUDA; CalcMonotonicQRegionForElems: one launch
per region, 11 regions).

- omp2gpu rows: `omp2gpu run examples/lulesh/lulesh_kernels.c --scheme=S -- -s N`,
  timed by the launcher's CUDA-event profile (OMP2GPU_PROFILE: one pair of events
  around each launch); a sweep's time is the sum over its launches, the warm-up
  sweep is dropped, the best sweep counts. (#blocks, #threads) is swept through
  OMP2GPU_LAUNCH="teams,threads" (every kernel of the run gets it); "auto" is the
  launcher's own choice (no OMP2GPU_LAUNCH). A run whose launches do not have the
  asked configuration is marked not honoured, and the sweep stops asking.
- CUDA C rows: examples/lulesh/cuda/lulesh_cuda.cu, 128 threads per block and
  ceil(n/128) blocks as LULESH's CUDA port; each launch timed with its own events
  and summed the same way. Monotonic Q twice: per region (as the OpenMP code) and
  as one launch over all regions' lists (as the CUDA port).
- Occupancy: theoretical. CUDA C's from cudaOccupancyMaxActiveBlocksPerMultiprocessor;
  omp2gpu's from omp2gpu.tools.occupancy when that module exists (else empty).
  (The paper's are achieved occupancies from nvprof.)

Every run checks its results against the host reference (exit status 0 only
if they match); a failing omp2gpu run, e.g. a control-loop compile error, is
recorded as n/a with its message.

    python bench/lulesh/run.py [--sizes 12,30,100,150] [--budget 270] [--out DIR]

--budget (seconds) bounds the whole run: each (scheme, size) gets an equal share
of what is left for its configuration sweep (the launcher's choice always runs).
Needs a GPU and nvcc; writes results.json, results.md (and results.png when
matplotlib is importable) here and, with --out, lulesh_results.* there.
"""

from __future__ import annotations

import argparse
import json
import math
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
EXAMPLE = REPO / "examples" / "lulesh"
PROGRAM = EXAMPLE / "lulesh_kernels.c"
CUDA_SOURCE = EXAMPLE / "cuda" / "lulesh_cuda.cu"

SIZES = (12, 30, 100, 150)
ITERATIONS = 10                        # timed sweeps per run, after one warm-up sweep
ACCEL = "ApplyAccelerationBoundaryConditionsForNodes"
MONOQ = "CalcMonotonicQRegionForElems"
KERNELS = (ACCEL, MONOQ)
SCHEMES = {"control loop": "control-loop", "combined": "combined"}
IMPLS = ("CUDA C", "CUDA C one launch", "control loop", "combined")
# (teams, threads) tried after the launcher's choice, most promising first; a
# size's budget may end the list early. H100: 132 multiprocessors.
CONFIGS = [(132, 128), (528, 128), (264, 256), (1056, 256), (132, 64), (528, 64), (66, 256),
           (2112, 128), (264, 512), (4224, 256), (33, 128), (1056, 512)]
RUN_TIMEOUT_S = 120


# ----------------------------------------------------------------- omp2gpu runs
def kernel_lines() -> dict[str, int]:
    """The source line of each kernel's pragma: the launcher names kernels ..._l<line>."""
    lines = {}
    text = PROGRAM.read_text().splitlines()
    pragmas = [n for n, line in enumerate(text, 1)      # the synchronous versions (-n: the nowait one)
               if line.strip().startswith("#pragma omp target teams distribute parallel for")
               and "nowait" not in line]
    if len(pragmas) != 2:
        raise RuntimeError(f"expected two kernel pragmas in {PROGRAM}, found {len(pragmas)}")
    lines[ACCEL], lines[MONOQ] = pragmas
    return lines


def best_sweep(launches: list[dict], per_sweep: int) -> float | None:
    """Best sum over consecutive groups of per_sweep launches, the first (warm-up) group dropped."""
    times = [launch["us"] for launch in launches]
    if per_sweep <= 0 or not times or any(t is None for t in times):
        return None
    sweeps = [sum(times[k:k + per_sweep]) for k in range(0, len(times) - per_sweep + 1, per_sweep)]
    return min(sweeps[1:] or sweeps)


def omp2gpu_run(scheme: str, size: int, config: tuple[int, int] | None) -> dict:
    """One run of the example; per kernel its resources, configuration and best sweep."""
    with tempfile.TemporaryDirectory() as tmp:
        profile = Path(tmp) / "profile.json"
        path = os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")]))
        env = dict(os.environ, OMP2GPU_PROFILE=str(profile), OMP_TARGET_OFFLOAD="MANDATORY",
                   PYTHONPATH=path)
        env.pop("OMP2GPU_LAUNCH", None)
        if config is not None:
            env["OMP2GPU_LAUNCH"] = f"{config[0]},{config[1]}"
        cmd = [sys.executable, "-m", "omp2gpu", "run", str(PROGRAM), f"--scheme={scheme}",
               "--device", "gpu", "--", "-s", str(size), "-i", str(ITERATIONS)]
        try:
            done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return {"error": f"timed out after {RUN_TIMEOUT_S} s"}
        if done.returncode != 0 or "PASSED" not in done.stdout:
            message = (done.stderr.strip() or done.stdout.strip()).splitlines()
            return {"error": " | ".join(message[-6:]) or f"exit status {done.returncode}"}
        if not profile.exists():
            return {"error": "the launcher wrote no profile"}
        data = json.loads(profile.read_text())["otherData"]     # the trace's launch summary
    return parse_run(done.stdout, data, config)


def parse_run(stdout: str, data: dict, config: tuple[int, int] | None) -> dict:
    """The program's output and the launcher's profile -> per kernel its row fields."""
    launches_per_sweep = {ACCEL: 1, MONOQ: int(re.search(r"in (\d+) region launches", stdout).group(1))}
    result = {"device": data.get("device"), "kernels": {}}
    for kernel, line in kernel_lines().items():
        found = [entry for name, entry in data["kernels"].items() if name.endswith(f"_l{line}")]
        if not found:
            return {"error": f"no launches of {kernel} (line {line}) in the profile"}
        entry = found[0]
        grids = sorted({launch["grid"] for launch in entry["launches"]})
        blocks = sorted({launch["block"] for launch in entry["launches"]})
        honoured = config is None or (grids == [config[0]] and blocks == [config[1]])
        result["kernels"][kernel] = {
            "registers": entry.get("registers"), "shared_bytes": entry.get("shared_bytes"),
            "local_bytes": entry.get("local_bytes"),
            "grid": grids[0] if len(grids) == 1 else "*", "block": blocks[0] if len(blocks) == 1 else "*",
            "launches_per_sweep": launches_per_sweep[kernel],
            "us": best_sweep(entry["launches"], launches_per_sweep[kernel]),
            "honoured": honoured}
    return result


def occupancy_of(registers, shared_bytes, block) -> float | None:
    """Theoretical occupancy from omp2gpu.tools.occupancy, when it exists (else None)."""
    try:
        from omp2gpu.tools import occupancy
    except ImportError:
        return None
    if not isinstance(block, int) or registers is None:
        return None
    function = getattr(occupancy, "theoretical_occupancy", None) or getattr(occupancy, "occupancy", None)
    if function is None:
        return None
    try:
        value = function(registers=registers, shared_bytes=shared_bytes or 0, block=block)
    except Exception:           # an interface this script does not know yet
        return None
    return float(value) if isinstance(value, (int, float)) else None


def sweep_omp2gpu(impl: str, size: int, deadline: float, state: dict) -> list[dict]:
    """The launcher's choice, then CONFIGS until the deadline; one row per run and kernel."""
    scheme = SCHEMES[impl]
    rows = []
    for config in [None] + CONFIGS:
        if config is not None and (time.monotonic() > deadline or not state["launch_env_works"]):
            break
        started = time.monotonic()
        result = omp2gpu_run(scheme, size, config)
        seconds = time.monotonic() - started
        label = "auto" if config is None else f"({config[0]}, {config[1]})"
        if "error" in result:
            print(f"  {impl:12s} s={size:3d} {label:13s} n/a: {result['error'][:200]}", flush=True)
            rows.append({"impl": impl, "size": size, "config": config, "error": result["error"]})
            if config is None:
                break                               # the configurations would fail alike
            continue
        for kernel, info in result["kernels"].items():
            rows.append(dict(info, impl=impl, size=size, kernel=kernel, config=config,
                             device=result["device"],
                             occupancy=occupancy_of(info["registers"], info["shared_bytes"], info["block"])))
        if config is not None and not all(k["honoured"] for k in result["kernels"].values()):
            state["launch_env_works"] = False
            print("  OMP2GPU_LAUNCH was not honoured (launches kept the launcher's configuration); "
                  "sweeping no further", flush=True)
        times = "  ".join(f"{k[:12]} {v['us']:9.2f} us ({v['grid']}, {v['block']}) regs {v['registers']}"
                          for k, v in result["kernels"].items() if v["us"] is not None)
        print(f"  {impl:12s} s={size:3d} {label:13s} {times}  [{seconds:.1f} s]", flush=True)
    return rows


# ----------------------------------------------------------------- CUDA C runs
def build_cuda(tmp: Path) -> Path:
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    binary = tmp / "lulesh_cuda"
    subprocess.run([nvcc, "-O3", "-arch=sm_90", str(CUDA_SOURCE), "-o", str(binary)], check=True)
    return binary


RESULT_LINE = re.compile(r"^RESULT (.*)$", re.M)


def cuda_rows(binary: Path, size: int) -> list[dict]:
    done = subprocess.run([str(binary), "-s", str(size), "-i", str(ITERATIONS * 2)],
                          capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    rows = []
    for match in RESULT_LINE.finditer(done.stdout):
        fields = dict(item.split("=", 1) for item in match.group(1).split())
        impl = "CUDA C one launch" if fields["variant"] == "one-launch" else "CUDA C"
        rows.append({"impl": impl, "size": size, "kernel": fields["kernel"], "config": None,
                     "variant": fields["variant"], "launches_per_sweep": int(fields["launches"]),
                     "grid": fields["blocks"] if fields["blocks"] == "*" else int(fields["blocks"]),
                     "block": int(fields["threads"]), "registers": int(fields["registers"]),
                     "shared_bytes": int(fields["shared"]), "local_bytes": int(fields["local"]),
                     "occupancy": float(fields["occupancy"]), "us": float(fields["us"]),
                     "back_to_back_us": float(fields["sweep_us"]), "check": fields["check"]})
    if done.returncode != 0 or not rows:
        message = (done.stderr.strip() or done.stdout.strip()).splitlines()
        print(f"  CUDA C s={size:3d} n/a: {' | '.join(message[-6:])[:300]}", flush=True)
        return [{"impl": impl, "size": size, "config": None,
                 "error": " | ".join(message[-6:]) or f"exit status {done.returncode}"}
                for impl in ("CUDA C", "CUDA C one launch")]
    for row in rows:
        print(f"  {row['impl']:17s} s={size:3d} {row['kernel'][:12]} {row['us']:9.2f} us "
              f"({row['grid']}, {row['block']}) regs {row['registers']}", flush=True)
    return rows


# ----------------------------------------------------------------- report
def best_rows(rows: list[dict]) -> dict:
    """(kernel, size, impl) -> the fastest row (or the error row)."""
    best = {}
    for row in rows:
        if "error" in row:
            for kernel in (MONOQ,) if row["impl"] == "CUDA C one launch" else KERNELS:
                best.setdefault((kernel, row["size"], row["impl"]), row)
            continue
        if row.get("us") is None or not row.get("honoured", True):
            continue
        key = (row["kernel"], row["size"], row["impl"])
        if key not in best or "error" in best[key] or row["us"] < best[key]["us"]:
            best[key] = row
    return best


def cell(row: dict | None, what: str) -> str:
    if row is None:
        return ""
    if "error" in row:
        return "n/a"
    if what == "config":
        return f"({row['grid']}, {row['block']})" + (" auto" if row["impl"] in SCHEMES and row["config"] is None
                                                    else "")
    if what == "occupancy":
        return "" if row.get("occupancy") is None else f"{100 * row['occupancy']:.1f}%"
    if what == "us":
        return f"{row['us']:.2f}"
    value = row.get(what)
    return "" if value is None else str(value)


def markdown(best: dict, meta: dict, sizes: list[int]) -> str:
    lines = [f"# bench/lulesh on {meta['device']}", "",
             "The paper's Table 3 (Section 5.3) for two LULESH kernels. Time per sweep in us: the sum of "
             "the sweep's launches, each timed with CUDA events (boundary: 1 launch in OpenMP, 3 in CUDA; "
             f"monotonic Q: one launch per non-empty region, {meta['regions']} regions), best of "
             f"{ITERATIONS} sweeps (CUDA C: {2 * ITERATIONS}); (#blocks, #threads): the best configuration "
             "tried, * where the launches differ (one grid per region); occupancy: theoretical. "
             "\"CUDA C one launch\": monotonic Q over all regions' lists in one launch, as LULESH's CUDA "
             "port.", ""]
    if not meta["launch_env_works"]:
        lines += ["OMP2GPU_LAUNCH was not honoured by the launcher: omp2gpu rows are the launcher's "
                  "own configuration only.", ""]
    for kernel in KERNELS:
        impls = [i for i in IMPLS if any((kernel, s, i) in best for s in sizes)]
        lines += [f"## {kernel}", "", "| size | metric | " + " | ".join(impls) + " |",
                  "|---|---|" + "---|" * len(impls)]
        for size in sizes:
            for what, title in (("registers", "registers"), ("shared_bytes", "shared memory (bytes)"),
                                ("config", "(#blocks, #threads)"), ("occupancy", "occupancy"),
                                ("us", "time per sweep (us)")):
                cells = [cell(best.get((kernel, size, impl)), what) for impl in impls]
                lines.append(f"| {size}^3 | {title} | " + " | ".join(cells) + " |")
        lines.append("")
    errors = {(k[2], k[1]): r["error"] for k, r in best.items() if "error" in r}
    if errors:
        lines += ["n/a:", ""] + [f"- {impl}, s={size}: {message[:300]}"
                                 for (impl, size), message in sorted(errors.items())] + [""]
    return "\n".join(lines)


def plot(best: dict, sizes: list[int], path: Path) -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    figure, axes = plt.subplots(1, len(KERNELS), figsize=(12, 4.5))
    width = 0.8 / len(IMPLS)
    for axis, kernel in zip(axes, KERNELS):
        for k, impl in enumerate(IMPLS):
            values = [best.get((kernel, s, impl)) for s in sizes]
            heights = [r["us"] if r and "error" not in r else math.nan for r in values]
            if all(math.isnan(h) for h in heights):
                continue
            axis.bar([x + (k - (len(IMPLS) - 1) / 2) * width for x in range(len(sizes))], heights, width,
                     label=impl)
        axis.set_xticks(range(len(sizes)), [f"{s}^3" for s in sizes])
        axis.set_yscale("log")
        axis.set_ylabel("time per sweep (us)")
        axis.set_title(kernel, fontsize=10)
        axis.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--budget", type=float, default=270.0, help="seconds for the whole run")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    start = time.monotonic()
    rows: list[dict] = []
    state = {"launch_env_works": True}
    with tempfile.TemporaryDirectory() as tmp:
        binary = build_cuda(Path(tmp))
        print("CUDA C", flush=True)
        for size in sizes:
            rows += cuda_rows(binary, size)
    groups = [(impl, size) for impl in SCHEMES for size in sizes]
    for n, (impl, size) in enumerate(groups):
        left = args.budget - (time.monotonic() - start)
        deadline = time.monotonic() + max(left, 0.0) / (len(groups) - n)
        if n == 0 or groups[n - 1][0] != impl:
            print(impl, flush=True)
        rows += sweep_omp2gpu(impl, size, deadline, state)
    device = next((r.get("device") for r in rows if r.get("device")), None)
    if device is None:
        try:
            done = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                                  capture_output=True, text=True, timeout=30)
            device = done.stdout.strip().splitlines()[0] if done.stdout.strip() else None
        except (OSError, subprocess.SubprocessError):
            pass
        device = device or "an unknown GPU"
    meta = {"device": device, "sizes": sizes, "regions": 11, "iterations": ITERATIONS,
            "launch_env_works": state["launch_env_works"], "host": platform.node(),
            "seconds": round(time.monotonic() - start, 1)}
    best = best_rows(rows)
    document = {"meta": meta, "rows": rows,
                "best": [dict(row, kernel=k[0], size=k[1], impl=k[2]) for k, row in sorted(best.items())]}
    table = markdown(best, meta, sizes)
    print(table)
    targets = [HERE / "results"] + ([args.out / "lulesh_results"] if args.out else [])
    for path in targets:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.with_suffix(".json").write_text(json.dumps(document, indent=2))
        path.with_suffix(".md").write_text(table)
        if not plot(best, sizes, path.with_suffix(".png")):
            print(f"matplotlib not importable: no {path.with_suffix('.png').name}")
    print(f"done in {meta['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
