"""bench/overhead: what a target region costs the host (issue 15), in one run.

    omp2gpu on the GPU (its native executable, the C offload runtime) | CUDA C doing the
    same (nvcc) | omp2gpu on the CPU device

overhead.c times, from the host (omp_get_wtime around REGIONS regions, best of 5),
an empty `target` region, `target map(tofrom: counter)` of an int, and the vector add
on data a `target data` region keeps on the device; overhead.cu does the same in
CUDA C (an empty kernel + synchronise; a 4-byte copy each way + a launch; the vector
add + synchronise) and times the vector add's kernel with events. omp2gpu's own
vector-add kernel time comes from a run with the launcher's profile (CUDA events).

    python bench/overhead/run.py [--regions N] [--n N] [--reps R] [--out DIR] [--no-gpu]
    python bench/overhead/run.py --report results.json     (results.md again)

Writes results.json and results.md here (and overhead_results.* in --out).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import common  # noqa: E402  (bench/common.py)

GOALS = {("cpu", "empty_us"): 2.0, ("cpu", "scalar_us"): 5.0}
RATIO_GOAL = 1.05                     # the empty region and the scalar map against CUDA C's, same run
ROUNDS = 3
VADD_GOAL = 1.05                      # host-timed vector add / its kernel time, on the GPU
CUDA_SHAPE = (16384, 512)             # the launcher's own shape for n = 8M on an H100/H200


parse = common.name_values


def omp2gpu(devices: str, args, profile: Path | None = None) -> dict[str, float]:
    env = common.omp2gpu_env(profile)
    env.update(OMP2GPU_DEVICES=devices)
    done = subprocess.run([sys.executable, "-m", "omp2gpu", "run", str(HERE / "overhead.c"), "--",
                           *map(str, args)], env=env, capture_output=True, text=True, timeout=900)
    values = parse(done.stdout)
    if done.returncode != 0 or values.get("errors") != 0:
        raise RuntimeError(f"overhead.c on {devices} failed:\n{done.stdout}\n{done.stderr}")
    return values


def omp2gpu_vadd_kernel_us(args) -> tuple[float, str]:
    """The vector add's kernel time from the launcher's profile, and the device it names."""
    with tempfile.TemporaryDirectory(prefix="omp2gpu-overhead-") as tmp:
        profile = Path(tmp) / "profile.json"
        omp2gpu("gpu", args, profile=profile)
        data = json.loads(profile.read_text())["otherData"]   # the trace's launch summary (trace_events.py)
    best = {name: min(launch["us"] for launch in entry["launches"])
            for name, entry in data["kernels"].items() if entry["launches"]}
    return max(best.values()), data.get("device") or "?"


def cuda_c(binary: Path, args) -> dict[str, float]:
    done = subprocess.run([str(binary), *map(str, (*args, *CUDA_SHAPE))], capture_output=True,
                          text=True, timeout=600, check=True)
    return parse(done.stdout)


def fastest(runs: list[dict[str, float]]) -> dict[str, float]:
    """Each figure's smallest over the rounds (the error count's largest)."""
    return {key: (max if key == "errors" else min)(run[key] for run in runs) for key in runs[0]}


def measure(regions: int, n: int, reps: int, gpu: bool, rounds: int = ROUNDS) -> dict:
    """On the GPU, omp2gpu and CUDA C take turns `rounds` times, each figure the best of
    its rounds: a lent host's speed drifts by tens of percent from minute to minute, and
    a ratio of runs minutes apart measures the drift."""
    results: dict = {"regions": regions, "n": n, "reps": reps, "cpu": common.cpu_name(), "rounds": rounds}
    cpu_args = (regions, max(n // 8, 1), max(reps // 10, 1))
    results["cpu_device"] = {"native": omp2gpu("cpu", cpu_args)}
    if gpu:
        args = (regions, n, reps)
        kernel_us, device = omp2gpu_vadd_kernel_us((max(regions // 10, 1), n, reps))
        results["device"] = device
        natives, references = [], []
        with tempfile.TemporaryDirectory(prefix="omp2gpu-overhead-") as tmp:
            try:
                binary = common.build_cuda(HERE / "overhead.cu", Path(tmp) / "overhead_cuda", libraries=("cuda",))
            except (OSError, subprocess.CalledProcessError) as error:
                binary, results["cuda_c"] = None, {"error": str(error)}
            for _ in range(rounds):
                natives.append(omp2gpu("gpu", args))
                if binary:
                    references.append(cuda_c(binary, args))
        results["gpu"] = {"native": fastest(natives), "vadd_kernel_us": kernel_us}
        if references:
            results["cuda_c"] = fastest(references)
    return results


def verdict(value: float, goal: float, unit: str = "") -> str:
    return f"{'met' if value <= goal else 'NOT met'} (<= {goal:g}{' ' + unit if unit else ''})"


def markdown(results: dict) -> str:
    lines = [f"# bench/overhead on {results.get('device', 'no GPU')}", "",
             f"Host: {results['cpu']}. Host-timed (omp_get_wtime around {results['regions']} regions, "
             f"best of 5); vector add: n = {results['n']} doubles, {results['reps']} regions on "
             "present data. Microseconds per region." + (
                 f" On the GPU, omp2gpu and CUDA C took turns {results['rounds']} times, each figure the "
                 "best of its turns." if results.get("rounds", 1) > 1 else ""), ""]
    gpu = results.get("gpu")
    if gpu:
        cuda = results.get("cuda_c", {})
        lines += ["| GPU | omp2gpu | CUDA C | omp2gpu / CUDA C | goal |",
                  "|---|---|---|---|---|"]
        for key, label in (("empty_us", "empty region"), ("scalar_us", "map(tofrom:) of an int"),
                           ("vadd_us", "vector add, present data")):
            native, reference = gpu["native"][key], cuda.get(key)
            ratio = f"{native / reference:.2f}" if reference else "-"
            # the vector add against the kernel alone: CUDA C's event time where there is one
            # (the launcher's profile has a launch's latency inside)
            kernel_alone = cuda.get("vadd_kernel_us") or gpu["vadd_kernel_us"]
            goal = (f"{native / kernel_alone:.3f} x kernel: " + verdict(native / kernel_alone, VADD_GOAL)
                    if key == "vadd_us" else verdict(native / reference, RATIO_GOAL, "x CUDA C")
                    if reference else "-")
            lines.append(f"| {label} | {native:.2f} | "
                         f"{reference if reference is not None else '-'} | {ratio} | {goal} |")
        native_vadd, reference_kernel = gpu["native"]["vadd_us"], cuda.get("vadd_kernel_us")
        lines += ["", f"Vector add kernel time: omp2gpu {gpu['vadd_kernel_us']:.2f} us (the launcher's "
                  "profile: CUDA events around each launch, so a launch's latency falls inside); CUDA C "
                  f"{reference_kernel if reference_kernel is not None else '-'} us at {CUDA_SHAPE} (events "
                  "with the stream kept busy: the kernel alone). Host-timed native / omp2gpu's profiled "
                  f"kernel: {native_vadd / gpu['vadd_kernel_us']:.3f}"]
        if reference_kernel:
            lines[-1] += (f"; host-timed native / CUDA C's kernel alone: {native_vadd / reference_kernel:.3f} "
                          f"(CUDA C's own host-timed launch + synchronise: "
                          f"{cuda['vadd_us'] / reference_kernel:.3f}).")
        if "empty_fastest_us" in cuda and reference_kernel:
            lines += ["", "The floor of a launch + wait on this host: CUDA C's fastest way to learn that a "
                      "launch finished (synchronising the device, a non-blocking stream, spinning on an "
                      "event, or spinning on a host word the stream writes after the kernel) takes "
                      f"{cuda['empty_fastest_us']:.2f} us for the empty kernel and "
                      f"{cuda['vadd_fastest_us']:.2f} us for the vector add "
                      f"({cuda['vadd_fastest_us'] / reference_kernel:.3f} x its kernel)."]
            waits = {"a non-blocking stream synchronised": "wait_stream_sync_us",
                     "spinning on an event": "wait_event_spin_us", "spinning on a host word": "wait_flag_spin_us"}
            for kernel in ("empty", "vadd"):
                if f"{kernel}_{waits['spinning on an event']}" in cuda:
                    lines[-1] += (f" {kernel}: " + ", ".join(f"{how} {cuda[f'{kernel}_{key}']:.2f} us"
                                                          for how, key in waits.items()) + ".")
        lines.append("")
    cpu = results["cpu_device"]
    lines += ["| CPU device | omp2gpu | goal |", "|---|---|---|"]
    for key, label in (("empty_us", "empty region"), ("scalar_us", "map(tofrom:) of an int"),
                       ("vadd_us", "vector add, present data (n/8)")):
        goal = verdict(cpu["native"][key], GOALS[("cpu", key)]) if ("cpu", key) in GOALS else "-"
        lines.append(f"| {label} | {cpu['native'][key]:.3f} | {goal} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--regions", type=int, default=2000)
    parser.add_argument("--n", type=int, default=512 * 512 * 32)
    parser.add_argument("--reps", type=int, default=200)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--no-gpu", action="store_true")
    parser.add_argument("--report", type=Path, help="only write results.md again from this results.json")
    options = parser.parse_args()
    if options.report:
        results = json.loads(options.report.read_text())
    else:
        results = measure(options.regions, options.n, options.reps, gpu=not options.no_gpu)
    text = markdown(results)
    for folder, prefix in ((HERE, ""), (options.out, "overhead_")):
        if folder is None:
            continue
        os.makedirs(folder, exist_ok=True)
        (folder / f"{prefix}results.json").write_text(json.dumps(results, indent=1) + "\n")
        (folder / f"{prefix}results.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
