"""bench/vadd: the paper's Fig. 6 vector add, timed side by side in one run.

    omp2gpu (combined construct, control loop) | CUDA C (nvcc) | Numba CUDA
    and the paper's Fig. 1 program (team-shared pi, distribute parallel for),
    each also spelt with OpenMP 5.0's `loop` (-DLOOP: `target teams loop`, `loop`)

Each kernel runs REPS times on device-resident data; the best time counts.
The omp2gpu rows are `omp2gpu run vadd.c` (the native executable), each launch timed
by the offload runtime's CUDA-event profile (OMP2GPU_PROFILE); CUDA C's launches are
timed with events around a kernel queued behind another (no launch latency inside).
One method for both as well: CUPTI's kernel records (bench/peers/kernel_log.c) of the
same runs, the "kernel us" and "kernel ratio" columns (Numba's runs are in this process,
which CUPTI is not injected into: no figure).
Valuable bandwidth = 4 arrays x 8 bytes x n / time (a read+written, b, c read).

    python bench/vadd/run.py [--n N] [--reps R] [--out DIR]

Needs a GPU, nvcc and numba-cuda; writes results.json and results.md here
(and vadd_results.* in --out).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))
import common  # noqa: E402  (bench/common.py)

# (teams, threads); (0, 0) lets the launcher choose. (16384, 512) was CUDA C's best on the H100.
# Every implementation runs every shape and keeps its best: one element a thread at 256 and
# 512 threads (32768 x 256, 16384 x 512), two (16384 x 256, 8192 x 512), four (8192 x 256),
# and grids of a few blocks a multiprocessor (the H200's 132 x 32, 16, 8 blocks' threads).
CONFIGS = [(0, 0), (16384, 512), (32768, 256), (16384, 256), (8192, 512), (8192, 256), (8192, 1024),
           (4224, 256), (2112, 512), (1056, 1024)]


def cupti_env(kernel_log: Path | None, log: Path) -> dict:
    return {"CUDA_INJECTION64_PATH": str(kernel_log), "PEERS_KERNEL_LOG": str(log)} if kernel_log else {}


def fastest(durations: list[float]) -> float | None:
    return min(durations) if durations else None


def omp2gpu_best(n: int, reps: int, teams: int, threads: int, scheme: str = "combined",
                 source: str = "vadd.c", defines: tuple = (), kernel_log: Path | None = None) -> dict:
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "kernels"
        done, data = common.run_omp2gpu(HERE / source, scheme, (n, reps),
                                        (f"TEAMS={teams}", f"THREADS={threads}", *defines),
                                        extra_env=cupti_env(kernel_log, log))
        cupti = fastest(common.kernel_log_durations(log, "__omp_offloading_main"))
    if done.returncode != 0 or "errors=0" not in done.stdout or data is None:
        raise RuntimeError(f"omp2gpu {source} failed:\n{done.stdout}\n{done.stderr}")
    (kernel,) = [k for k in data["kernels"].values() if k["launches"]]
    best = min(kernel["launches"], key=lambda launch: launch["us"])
    return {"us": best["us"], "grid": best["grid"], "block": best["block"], "cupti_us": cupti,
            "registers": kernel.get("registers"), "device": data.get("device")}


def cuda_best(binary: Path, n: int, reps: int, teams: int, threads: int, kernel: str = "",
              kernel_log: Path | None = None) -> dict:
    blocks = teams or (n + 511) // 512
    threads = threads or 512
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / "kernels"
        done = subprocess.run([str(binary), str(n), str(blocks), str(threads), str(reps), *filter(None, [kernel])],
                              capture_output=True, text=True, timeout=600,
                              env={**os.environ, **cupti_env(kernel_log, log)})
        cupti = fastest(common.kernel_log_durations(log))
    if done.returncode != 0:
        raise RuntimeError(f"CUDA C vadd failed:\n{done.stdout}\n{done.stderr}")
    us, registers, _errors = done.stdout.split()
    return {"us": float(us), "grid": blocks, "block": threads, "registers": int(registers), "cupti_us": cupti}


def numba_best(n: int, reps: int, teams: int, threads: int) -> dict:
    import numpy as np
    if not hasattr(np, "row_stack"):      # numba-cuda of the GPU image predates NumPy 2.5
        np.row_stack = np.vstack
    from numba import cuda

    @cuda.jit
    def vector_add(count, a, b, c):
        i = cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x
        stride = cuda.blockDim.x * cuda.gridDim.x
        while i < count:
            a[i] += b[i] + c[i]
            i += stride

    blocks = teams or (n + 511) // 512
    threads = threads or 512
    host = (np.arange(n) % 1000).astype(np.float64)
    a = cuda.to_device(np.zeros(n))
    b, c = cuda.to_device(host), cuda.to_device(host)
    vector_add[blocks, threads](n, a, b, c)
    cuda.synchronize()
    start, stop = cuda.event(), cuda.event()
    best = float("inf")
    for _ in range(reps):
        vector_add[blocks, threads](n, a, b, c)      # untimed: keeps the stream busy
        start.record()
        vector_add[blocks, threads](n, a, b, c)
        stop.record()
        stop.synchronize()
        best = min(best, cuda.event_elapsed_time(start, stop) * 1e3)
    expected = (2 * reps + 1) * 2.0 * host
    if not np.array_equal(a.copy_to_host(), expected):
        raise RuntimeError("Numba vadd computed a wrong result")
    registers = vector_add.get_regs_per_thread()
    if isinstance(registers, dict):
        registers = next(iter(registers.values()), None)
    return {"us": best, "grid": blocks, "block": threads, "registers": registers}


def IMPLEMENTATIONS(binary, n, reps, teams, threads, kernel_log=None):
    """(row name, how to measure it): vadd (Fig. 6) and Fig. 1, each as CUDA C and
    through omp2gpu's schemes."""
    log = {"kernel_log": kernel_log}
    return (
        ("omp2gpu combined", lambda: omp2gpu_best(n, reps, teams, threads, **log)),
        ("omp2gpu control loop", lambda: omp2gpu_best(n, reps, teams, threads, "control-loop", **log)),
        # OpenMP 5.0's spelling, `target teams loop`: the same combined kernel
        ("omp2gpu teams loop", lambda: omp2gpu_best(n, reps, teams, threads, "auto", defines=("LOOP",), **log)),
        ("CUDA C", lambda: cuda_best(binary, n, reps, teams, threads, **log)),
        ("Numba CUDA", lambda: numba_best(n, reps, teams, threads)),
        ("Fig. 1: omp2gpu control loop",
         lambda: omp2gpu_best(n, reps, teams, threads, "control-loop", "fig1.c", **log)),
        # auto: the region's declaration runs in every thread, the loop as the combined scheme's
        ("Fig. 1: omp2gpu auto", lambda: omp2gpu_best(n, reps, teams, threads, "auto", "fig1.c", **log)),
        ("Fig. 1: omp2gpu combined",
         lambda: omp2gpu_best(n, reps, teams, threads, "auto", "fig1.c", ("COMBINED",), **log)),
        ("Fig. 1: omp2gpu loop",         # `loop` in the teams region, pi declared before it
         lambda: omp2gpu_best(n, reps, teams, threads, "auto", "fig1.c", ("LOOP",), **log)),
        ("Fig. 1: omp2gpu teams loop",
         lambda: omp2gpu_best(n, reps, teams, threads, "auto", "fig1.c", ("COMBINED", "LOOP"), **log)),
        ("Fig. 1: CUDA C", lambda: cuda_best(binary, n, reps, teams, threads, "fig1", **log)),
    )


def build_cuda(tmp: Path) -> Path:
    return common.build_cuda(HERE / "vadd.cu", tmp / "vadd_cuda", "sm_90")


def markdown(rows: list[dict], meta: dict) -> str:
    lines = [f"# bench/vadd on {meta['device']}", "",
             f"n = {meta['n']} doubles, best of {meta['reps']} launches, data resident. "
             f"Ratio = time / best CUDA C time of the same program (lower is better). Time: omp2gpu's "
             "launches timed by its profile's CUDA events, CUDA C's by events around a kernel queued behind "
             "another; kernel us: CUPTI's kernel records for both (one method), kernel ratio its ratio.", "",
             "| implementation | (#blocks, #threads) | registers | time (us) | valuable GB/s | ratio | kernel us "
             "| kernel ratio |",
             "|---|---|---|---|---|---|---|---|"]
    for row in rows:
        cupti = ("n/a", "n/a") if row.get("cupti_us") is None else (f"{row['cupti_us']:.1f}",
                                                                       f"{row['cupti_ratio']:.3f}")
        lines.append(f"| {row['impl']} | ({row['grid']}, {row['block']}) | {row['registers']} | "
                     f"{row['us']:.1f} | {row['gbs']:.0f} | {row['ratio']:.3f} | {cupti[0]} | {cupti[1]} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=512 * 512 * 32)
    parser.add_argument("--reps", type=int, default=100)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        binary = build_cuda(Path(tmp))
        kernel_log = common.build_kernel_log(Path(tmp))
        for teams, threads in CONFIGS:
            for impl, run in IMPLEMENTATIONS(binary, args.n, args.reps, teams, threads, kernel_log):
                if not impl.startswith("omp2gpu") and (teams, threads) == (0, 0):
                    continue            # "launcher's choice" exists only for omp2gpu
                result = run()
                result["impl"] = impl
                rows.append(result)
                print(f"{impl:18s} ({result['grid']:6d}, {result['block']:5d}) "
                      f"{result['us']:9.1f} us  regs {result['registers']}", flush=True)
    # vadd reads a, b, c and writes a (4 arrays); Fig. 1 reads b, c and writes a (3).
    best_cuda = {"vadd": min(r["us"] for r in rows if r["impl"] == "CUDA C"),
                 "fig1": min(r["us"] for r in rows if r["impl"] == "Fig. 1: CUDA C")}
    best_cupti = {program: min((r["cupti_us"] for r in rows if r["impl"] == impl and r.get("cupti_us")),
                               default=None)
                  for program, impl in (("vadd", "CUDA C"), ("fig1", "Fig. 1: CUDA C"))}
    for row in rows:
        program = "fig1" if row["impl"].startswith("Fig. 1") else "vadd"
        row["gbs"] = (3 if program == "fig1" else 4) * 8 * args.n / row["us"] / 1e3
        row["ratio"] = row["us"] / best_cuda[program]
        if row.get("cupti_us") and best_cupti[program]:
            row["cupti_ratio"] = row["cupti_us"] / best_cupti[program]
        else:
            row["cupti_us"] = None
    device = next((r.get("device") for r in rows if r.get("device")), "unknown GPU")
    meta = {"device": device, "n": args.n, "reps": args.reps, "host": platform.node()}
    summary = {impl: min((r for r in rows if r["impl"] == impl), key=lambda r: r["us"])
               for impl in sorted({r["impl"] for r in rows})}
    document = {"meta": meta, "rows": rows, "best": summary}
    table = markdown(sorted(rows, key=lambda r: (r["impl"], r["us"])), meta)
    print(table)
    for path in [HERE / "results"] + ([args.out / "vadd_results"] if args.out else []):
        path.parent.mkdir(parents=True, exist_ok=True)
        path.with_suffix(".json").write_text(json.dumps(document, indent=2))
        path.with_suffix(".md").write_text(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
