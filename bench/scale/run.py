"""bench/scale: beyond one GPU (issue 17).

- weak scaling across MPI ranks: examples/mpi/stencil3d.c with a fixed slab per rank
  (N x N x PLANES), 1, 2, 4 ranks as far as the GPUs go, each rank on its node-local
  GPU; efficiency = time of the time-step loop at 1 rank / at R ranks (goals: >= 95% at
  2, >= 90% at 4); the end-to-end time (mapping the slabs in and the result out too) and
  its efficiency beside it; for each --planes, with the halo exchange hidden behind the
  interior's kernel (the example's way) and plain (exchange, then the kernel);
- strong scaling of device(n): vadd_devices.c, one array split over 1, 2, 4 GPUs from
  as many host threads, speed-up = time on 1 / time on D.

    python bench/scale/run.py [--out DIR] [--n 256] [--planes 128 1024] [--steps 200]

Writes results.json and results.md (here and in --out) with the GPUs named.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from common import REPO, cpu_name, omp2gpu_env  # noqa: E402

HERE = Path(__file__).resolve().parent
STENCIL = REPO / "examples" / "mpi" / "stencil3d.c"
VADD = HERE / "vadd_devices.c"


def gpus() -> list[str]:
    out = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                         text=True).stdout
    return [line.strip() for line in out.splitlines() if line.strip()]


def _seconds(stdout: str) -> float:
    return float(re.search(r"^time: ([0-9.]+) s", stdout, re.M).group(1))


def _total(stdout: str) -> float | None:
    found = re.search(r"^total: ([0-9.]+) s", stdout, re.M)
    return float(found.group(1)) if found else None


def _checksum(stdout: str) -> str:
    return re.search(r"^checksum: (\S+)", stdout, re.M).group(1)


def _env() -> dict:
    env = omp2gpu_env()
    env["OMP2GPU_DEVICES"] = "gpu"          # only the GPUs are devices
    env.pop("OMP_DEFAULT_DEVICE", None)
    return env


def _mpiexec() -> str:
    from omp2gpu.targets import mpi
    found = mpi.find()
    if found is None:
        raise SystemExit(mpi.missing_message())
    return str(Path(found.wrapper).with_name("mpiexec"))


def _best_of(command: list[str], trials: int, what: str) -> dict:
    """The fastest of `trials` runs of a program that prints "time:" and "checksum:"."""
    runs = []
    for _ in range(trials):
        done = subprocess.run(command, capture_output=True, text=True, env=_env(), timeout=600)
        if done.returncode != 0:
            raise SystemExit(f"{what} failed:\n{done.stdout}{done.stderr}")
        runs.append((_seconds(done.stdout), _checksum(done.stdout), _total(done.stdout)))
    best = min(runs)
    totals = [run[2] for run in runs if run[2] is not None]
    return {"seconds": best[0], "all_s": [run[0] for run in runs], "checksum": best[1],
            **({"total_s": min(totals)} if totals else {})}


def weak_scaling(counts, n: int, planes: int, steps: int, trials: int, overlap: bool) -> dict:
    rows = []
    for ranks in counts:
        command = [_mpiexec(), "-n", str(ranks), sys.executable, "-m", "omp2gpu", "run", str(STENCIL), "--",
                   str(n), str(steps), str(planes), str(int(overlap))]
        rows.append({"ranks": ranks, **_best_of(command, trials, f"stencil3d with {ranks} ranks")})
        print(f"stencil3d {n}x{n}x{planes * ranks}, overlap {int(overlap)}, {ranks} rank(s): "
              f"{rows[-1]['seconds']:.4f} s", flush=True)
    for row in rows:
        row["efficiency"] = rows[0]["seconds"] / row["seconds"]
        if "total_s" in row and "total_s" in rows[0]:
            row["total_efficiency"] = rows[0]["total_s"] / row["total_s"]
    return {"planes": planes, "overlap": overlap, "rows": rows}


def strong_scaling(counts, n: int, trials: int) -> list[dict]:
    rows = []
    for devices in counts:
        command = [sys.executable, "-m", "omp2gpu", "run", str(VADD), "--", str(n), str(devices), "20"]
        rows.append({"devices": devices, **_best_of(command, trials, f"vadd_devices on {devices} GPUs")})
        print(f"vadd_devices n={n}, {devices} GPU(s): {rows[-1]['seconds']:.5f} s", flush=True)
    for row in rows:
        row["speedup"] = rows[0]["seconds"] / row["seconds"]
    return rows


def render(result: dict) -> str:
    lines = [f"# bench/scale on {result['gpu_count']} x {result['gpu']}", "",
             f"Host: {result['cpu']}; {result['date']}; omp2gpu `run` (the native launch path on each "
             "rank's default device). Best of the trials.", "",
             "## Weak scaling: examples/mpi/stencil3d.c, one rank per GPU", "",
             f"{result['n']} x {result['n']} x PLANES per rank, {result['steps']} steps. Time: the time-step "
             "loop, the slowest rank's; end to end adds mapping the slabs in and the result out. "
             "Exchange hidden: the halo exchange runs beside the interior's `nowait` kernel (the example's "
             "default); plain: the exchange, then one kernel over the slab.", ""]
    goals = {2: 0.95, 4: 0.90}
    for study in result["weak"]:
        way = "exchange hidden" if study["overlap"] else "plain"
        lines += [f"### PLANES = {study['planes']}, {way}", "",
                  "| ranks | time (s) | efficiency | goal | end to end (s) | its efficiency | checksum |",
                  "|---:|---:|---:|---:|---:|---:|---|"]
        for row in study["rows"]:
            goal = goals.get(row["ranks"])
            verdict = "" if goal is None else f"{goal:.0%} ({'met' if row['efficiency'] >= goal else 'NOT met'})"
            total = (f"{row['total_s']:.4f} | {row['total_efficiency']:.1%}" if "total_efficiency" in row
                     else "n/a | n/a")
            lines.append(f"| {row['ranks']} | {row['seconds']:.4f} | {row['efficiency']:.1%} | {verdict} "
                         f"| {total} | {row['checksum']} |")
        lines.append("")
    lines += [f"## Strong scaling of device(n): bench/scale/vadd_devices.c, n = {result['vadd_n']} doubles",
              "", "| GPUs | time (s) | speed-up | checksum |", "|---:|---:|---:|---|"]
    for row in result["strong"]:
        lines.append(f"| {row['devices']} | {row['seconds']:.5f} | {row['speedup']:.2f}x | {row['checksum']} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--n", type=int, default=256)
    parser.add_argument("--planes", type=int, nargs="+", default=[128, 1024])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--vadd-n", type=int, default=1 << 27)
    parser.add_argument("--trials", type=int, default=3)
    args = parser.parse_args()
    names = gpus()
    if not names:
        raise SystemExit("bench/scale needs GPUs (nvidia-smi lists none)")
    counts = [c for c in (1, 2, 4) if c <= len(names)]
    result = {"gpu": names[0], "gpu_count": len(names), "cpu": cpu_name(), "date": time.strftime("%Y-%m-%d %H:%M"),
              "n": args.n, "planes": args.planes, "steps": args.steps, "vadd_n": args.vadd_n,
              "weak": [weak_scaling(counts, args.n, planes, args.steps, args.trials, overlap)
                       for planes in args.planes for overlap in (True, False)],
              "strong": strong_scaling(counts, args.vadd_n, args.trials)}
    text = render(result)
    print(text)
    for folder in filter(None, (HERE, args.out)):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "results.json").write_text(json.dumps(result, indent=1) + "\n")
        (folder / "results.md").write_text(text)


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
