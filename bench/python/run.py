"""The cost of calling a target region through the Python API (omp2gpu.load) over
calling it from C, in one process on one device (bench/python/README.md):
bench/python/call_cost.c's functions from Python against the same calls made by a C loop
in the same library:

    empty3    an empty target region mapping three arrays: the call's own cost
    add_one   a small kernel on one array

with host arrays (NumPy: each call's maps copy them; C: the same host data) and with
device arrays (CuPy on a GPU; on the CPU device, its memory behind a
__cuda_array_interface__, lent as a CuPy array is; C: the data resident in a target data
region). Goal (issue 27): at most 5 us per call over C, NumPy and CuPy.

    python bench/python/run.py [--n N] [--reps R] [--trials T] [--out DIR] [--breakdown]

Target regions run where omp2gpu.load puts them (the GPU, else the CPU device;
OMP2GPU_DEVICES=cpu picks the CPU device where there is a GPU). Writes results.md and
results.json to --out (default: this folder), results-cpu.md/.json on the CPU device;
with --breakdown, breakdown.md and breakdown.json instead: the phases of a device-array
call (phases.py).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE.parent))

from common import cpu_name  # noqa: E402
from phases import breakdown, device_array, device_array_kind  # noqa: E402

import omp2gpu  # noqa: E402 (after the checkout is on the path)

CLOCK_HEADERS = {"wall": "us per call", "cpu": "CPU us per call"}


def per_call_us(calls: dict, reps: int, trials: int) -> dict[str, dict[str, float]]:
    """clock ("wall"; "cpu": the calling thread's CPU time, what a busy machine's other
    work does not add to) -> name -> the median over `trials` of the mean time of one
    call, in microseconds; calls[name](reps) makes reps calls. The trials of all the calls
    take turns, so that a busy moment of the machine is shared among them."""
    for call in calls.values():
        call(max(reps // 10, 1))                     # warm: images loaded, buffers cached
    times: dict = {clock: {name: [] for name in calls} for clock in CLOCK_HEADERS}
    for _ in range(trials):
        for name, call in calls.items():
            wall, cpu = time.perf_counter_ns(), time.thread_time_ns()
            call(reps)
            times["cpu"][name].append(time.thread_time_ns() - cpu)
            times["wall"][name].append(time.perf_counter_ns() - wall)
    return {clock: {name: statistics.median(values) / reps / 1e3 for name, values in by_name.items()}
            for clock, by_name in times.items()}


def python_loop(function, *args):
    def calls(reps: int) -> None:
        for _ in range(reps):
            function(*args)
    return calls


def measure(n: int, reps: int, trials: int) -> dict:
    library = omp2gpu.load(HERE / "call_cost.c", flags=("-O2",))
    device = omp2gpu.target_device()
    kind = device_array_kind(device)
    host = [np.zeros(n) for _ in range(3)]
    on_device = [device_array(n, device) for _ in range(3)]
    calls = {
        "Python -> C, no region (nothing(1))": python_loop(library.nothing, 1),
        "C: empty3, host data": lambda r: library.from_c_empty3(n, *host, r),
        "Python: empty3, NumPy": python_loop(library.empty3, n, *host),
        "C: empty3, data resident": lambda r: library.from_c_empty3_resident(n, *host, r),
        f"Python: empty3, {kind}": python_loop(library.empty3, n, *on_device),
        "C: add_one, host data": lambda r: library.from_c(n, host[0], r),
        "Python: add_one, NumPy": python_loop(library.add_one, n, host[0]),
        "C: add_one, data resident": lambda r: library.from_c_resident(n, host[0], r),
        f"Python: add_one, {kind}": python_loop(library.add_one, n, on_device[0]),
    }
    rows = per_call_us(calls, reps, trials)
    overheads: dict = {clock: {} for clock in rows}
    for clock, row in rows.items():
        for function in ("empty3", "add_one"):
            overheads[clock][f"{function}: NumPy over C (host data)"] = (
                row[f"Python: {function}, NumPy"] - row[f"C: {function}, host data"])
            overheads[clock][f"{function}: {kind} over C (data resident)"] = (
                row[f"Python: {function}, {kind}"] - row[f"C: {function}, data resident"])
    return {"device": device, "cpu": cpu_name(), "cores": os.cpu_count(), "n": n, "reps": reps,
            "trials": trials, "per_call_us": rows, "overhead_us": overheads}


def measure_phases(n: int, reps: int, trials: int) -> dict:
    library = omp2gpu.load(HERE / "call_cost.c", flags=("-O2",))
    device = omp2gpu.target_device()
    rows = breakdown(library.add_one, (n, device_array(n, device)), reps, trials)
    rows["C: add_one, data resident"] = per_call_us(
        {"C": lambda r: library.from_c_resident(n, np.zeros(n), r)}, reps, trials)["wall"]["C"]
    overheads = {"whole call over C (data resident)": rows["whole call"] - rows["C: add_one, data resident"]}
    return {"device": device, "cpu": cpu_name(), "cores": os.cpu_count(), "n": n, "reps": reps,
            "trials": trials, "per_call_us": {"wall": rows}, "overhead_us": {"wall": overheads}}


def table(results: dict) -> str:
    lines = ["# Calling a target region from Python (bench/python)\n",
             f"Device: {results['device']} (processor: {results['cpu']}, {results.get('cores', '?')} cores); "
             f"n = {results['n']} doubles, median of {results['trials']} trials of {results['reps']} calls; "
             f"load average {' then '.join(f'{load:.1f}' for load in results.get('load_average', []))}.\n"]
    for title, by_clock in (("call", results["per_call_us"]), ("API overhead", results["overhead_us"])):
        header = " | ".join(CLOCK_HEADERS[clock] for clock in by_clock)
        lines += [f"| {title} | {header} |", "| --- |" + " ---: |" * len(by_clock)]
        for name in by_clock["wall"]:
            lines.append(f"| {name} | " + " | ".join(f"{rows[name]:.2f}" for rows in by_clock.values()) + " |")
        lines.append("")
    return "\n".join(lines)


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
    load_before = os.getloadavg()[0]
    results = measured(args.n, args.reps, args.trials)
    results["load_average"] = [load_before, os.getloadavg()[0]]      # a busy machine's wall time grows
    stem = "breakdown" if args.breakdown else "results"
    if results["device"] in ("cpu", "host"):
        stem += f"-{results['device']}"             # the GPU's tables stay the lead's
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"{stem}.json").write_text(json.dumps(results, indent=1) + "\n")
    text = table(results)
    (args.out / f"{stem}.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
