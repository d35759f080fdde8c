"""The cost of calling a target region through the Python API (omp2gpu.load) over
calling it from C, in one process on one device: bench/python/call_cost.c's add_one
from Python (NumPy arrays, whose maps copy; CuPy arrays, which stay on the GPU) against
the same calls made by a C loop (host data; data resident in a target data region).
Goal (issue 16): at most 10 us per call over C on the GPU.

    python bench/python/run.py [--n N] [--reps R] [--trials T] [--out DIR] [--breakdown]

Target regions run where omp2gpu.load puts them (the GPU, else the CPU device).
Writes results.md and results.json to --out (default: this folder); with --breakdown,
breakdown.md and breakdown.json instead: the phases of a device-array call (phases.py).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE.parent))

from common import cpu_name  # noqa: E402
from phases import breakdown, device_array  # noqa: E402

import omp2gpu  # noqa: E402 (after the checkout is on the path)


def per_call_us(calls: dict, reps: int, trials: int) -> dict[str, float]:
    """name -> the median over `trials` of the mean time of one call, in microseconds;
    calls[name](reps) makes reps calls and returns their seconds. The trials of all the
    calls take turns, so that a busy moment of the machine is shared among them."""
    for call in calls.values():
        call(max(reps // 10, 1))                     # warm: images loaded, buffers cached
    seconds: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(trials):
        for name, call in calls.items():
            seconds[name].append(call(reps))
    return {name: statistics.median(times) / reps * 1e6 for name, times in seconds.items()}


def python_loop(function, *args):
    def calls(reps: int) -> float:
        start = time.perf_counter()
        for _ in range(reps):
            function(*args)
        return time.perf_counter() - start
    return calls


def measure(n: int, reps: int, trials: int) -> dict:
    library = omp2gpu.load(HERE / "call_cost.c", flags=("-O2",))
    device = omp2gpu.target_device()
    host = np.zeros(n)
    calls = {
        "Python -> C, no region (nothing(1))": python_loop(library.nothing, 1),
        "C: add_one, host data": lambda r: library.from_c(n, host, r),
        "Python: add_one, NumPy": python_loop(library.add_one, n, host),
        "C: add_one, data resident": lambda r: library.from_c_resident(n, host, r),
    }
    if device not in ("cpu", "host"):
        import cupy  # optional: the zero-copy path needs CuPy and a GPU
        calls["Python: add_one, CuPy"] = python_loop(library.add_one, n, cupy.zeros(n))
    rows = per_call_us(calls, reps, trials)
    overheads = {"NumPy over C (host data)": rows["Python: add_one, NumPy"] - rows["C: add_one, host data"]}
    if "Python: add_one, CuPy" in rows:
        overheads["CuPy over C (data resident)"] = rows["Python: add_one, CuPy"] - rows["C: add_one, data resident"]
    return {"device": device, "cpu": cpu_name(), "n": n, "reps": reps, "trials": trials,
            "per_call_us": rows, "overhead_us": overheads}


def measure_phases(n: int, reps: int, trials: int) -> dict:
    library = omp2gpu.load(HERE / "call_cost.c", flags=("-O2",))
    device = omp2gpu.target_device()
    rows = breakdown(library.add_one, (n, device_array(n, device)), reps, trials)
    rows["C: add_one, data resident"] = per_call_us(
        {"C": lambda r: library.from_c_resident(n, np.zeros(n), r)}, reps, trials)["C"]
    overheads = {"whole call over C (data resident)": rows["whole call"] - rows["C: add_one, data resident"]}
    return {"device": device, "cpu": cpu_name(), "n": n, "reps": reps, "trials": trials,
            "per_call_us": rows, "overhead_us": overheads}


def table(results: dict) -> str:
    lines = ["# Calling a target region from Python (bench/python)\n",
             f"Device: {results['device']} (processor: {results['cpu']}); n = {results['n']} doubles, "
             f"median of {results['trials']} trials of {results['reps']} calls.\n",
             "| call | us per call |", "| --- | ---: |"]
    lines += [f"| {name} | {us:.2f} |" for name, us in results["per_call_us"].items()]
    lines += ["", "| API overhead | us per call |", "| --- | ---: |"]
    lines += [f"| {name} | {us:.2f} |" for name, us in results["overhead_us"].items()]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1024, help="doubles per array (default 1024)")
    parser.add_argument("--reps", type=int, default=2000, help="calls per trial (default 2000)")
    parser.add_argument("--trials", type=int, default=5, help="trials (default 5)")
    parser.add_argument("--out", type=Path, default=HERE, help="where results.md/.json go")
    parser.add_argument("--breakdown", action="store_true",
                        help="time each phase of a call with a device array (breakdown.md/.json)")
    args = parser.parse_args()
    measured = measure_phases if args.breakdown else measure
    results = measured(args.n, args.reps, args.trials)
    stem = "breakdown" if args.breakdown else "results"
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"{stem}.json").write_text(json.dumps(results, indent=1) + "\n")
    text = table(results)
    (args.out / f"{stem}.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
