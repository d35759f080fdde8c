"""bench/usm: unified shared memory against explicit maps on the GPU, for a 2-D stencil
(issue 28), beside CUDA C's managed memory and its explicit copies, in one run.

    omp2gpu: stencil.c built with -DUSM (`requires unified_shared_memory`, no maps) and
             without (target enter data + maps that find the grids present)
    CUDA C:  stencil.cu with cudaMallocManaged, and with -DEXPLICIT (cudaMalloc + cudaMemcpy)

Each prints the first sweep's time (first touch: pages migrating, or the copy in) and the
steady state (mean of the later sweeps); the checksums must agree.

    python bench/usm/run.py [--n N] [--sweeps S] [--out DIR] [--device gpu|cpu]

Writes results.json and results.md to --out (default: this folder).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import common  # noqa: E402  (bench/common.py)


def run(command: list[str], env=None) -> dict[str, float]:
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return common.name_values(done.stdout)


def omp2gpu_build(tmp: Path, usm: bool) -> Path:
    binary = tmp / ("stencil_usm" if usm else "stencil_maps")
    subprocess.run([sys.executable, "-m", "omp2gpu", "compile", "-O3", *(["-DUSM"] if usm else []),
                    str(HERE / "stencil.c"), "-o", str(binary)], check=True)
    return binary


def measure(n: int, sweeps: int, device: str) -> dict:
    env = common.omp2gpu_env()
    env.update(OMP_TARGET_OFFLOAD="MANDATORY", OMP2GPU_DEVICES=device)
    results: dict = {"n": n, "sweeps": sweeps, "device": device}
    with tempfile.TemporaryDirectory(prefix="omp2gpu-usm-") as tmp:
        tmp = Path(tmp)
        for usm, key in ((True, "omp2gpu_usm"), (False, "omp2gpu_maps")):
            results[key] = run([str(omp2gpu_build(tmp, usm)), str(n), str(sweeps)], env)
        if device == "gpu" and shutil.which(common.nvcc()):
            for flags, key in (((), "cuda_managed"), (("-DEXPLICIT",), "cuda_explicit")):
                binary = tmp / key
                subprocess.run([common.nvcc(), "-O3", "-arch=sm_90", *flags, str(HERE / "stencil.cu"),
                                "-o", str(binary)], check=True)
                results[key] = run([str(binary), str(n), str(sweeps)])
    return results


def markdown(results: dict) -> str:
    rows = [("omp2gpu, requires unified_shared_memory", "omp2gpu_usm"),
            ("omp2gpu, explicit maps", "omp2gpu_maps"),
            ("CUDA C, cudaMallocManaged", "cuda_managed"),
            ("CUDA C, cudaMalloc + cudaMemcpy", "cuda_explicit")]
    managed = results.get("cuda_managed", {})
    lines = [f"# Unified shared memory vs explicit maps: {results['n']}x{results['n']} stencil, "
             f"{results['sweeps']} sweeps, {results.get('device_name', results['device'])}", "",
             "| build | first sweep (ms) | steady sweep (ms) | first / CUDA managed | steady / CUDA managed "
             "| checksum |",
             "|---|---|---|---|---|---|"]
    for label, key in rows:
        if key not in results:
            continue
        r = results[key]
        ratios = [f"{r[k] / managed[k]:.2f}" if managed.get(k) else "-" for k in ("first_ms", "steady_ms")]
        lines.append(f"| {label} | {r['first_ms']:.2f} | {r['steady_ms']:.3f} | {ratios[0]} | {ratios[1]} | "
                     f"{r['checksum']:.10e} |")
    sums = {results[k]["checksum"] for _, k in rows if k in results}
    lines += ["", "Checksums agree." if len(sums) == 1 else "**Checksums differ.**"]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=4096)
    parser.add_argument("--sweeps", type=int, default=20)
    parser.add_argument("--device", default="gpu", choices=("gpu", "cpu"))
    parser.add_argument("--out", type=Path, default=HERE)
    args = parser.parse_args()
    results = measure(args.n, args.sweeps, args.device)
    results["device_name"] = common.first_line(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"]) \
        if args.device == "gpu" else common.cpu_name()
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    text = markdown(results)
    (args.out / "results.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
