"""What the benchmarks share: running a program through omp2gpu with the launcher's
profile, building CUDA C references with nvcc, reading ptxas -v for them, and naming
the machine a table was measured on.

Import from a bench/<name>/run.py with `sys.path.insert(0, str(Path(__file__).parents[1]))`.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def omp2gpu_env(profile: Path | None = None, launch: tuple[int, int] | None = None) -> dict:
    """The environment for `python -m omp2gpu run` from this checkout: the GPU is
    mandatory (no silent host fallback), the profile written to `profile`, and
    every kernel launched as `launch` (teams, threads) when given."""
    env = dict(os.environ, OMP_TARGET_OFFLOAD="MANDATORY",
               PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    env.pop("OMP2GPU_LAUNCH", None)
    if profile is not None:
        env["OMP2GPU_PROFILE"] = str(profile)
    if launch is not None:
        env["OMP2GPU_LAUNCH"] = f"{launch[0]},{launch[1]}"
    return env


def run_omp2gpu(source: Path, scheme: str, program_args=(), defines=(), launch=None,
                timeout: int = 600, extra_env: dict | None = None) -> tuple[subprocess.CompletedProcess, dict | None]:
    """Run `source` on the GPU with `scheme` (and `extra_env`); (the process, the
    launcher's profile or None)."""
    with tempfile.TemporaryDirectory(prefix="omp2gpu-bench-") as tmp:
        profile = Path(tmp) / "profile.json"
        command = [sys.executable, "-m", "omp2gpu", "run", str(source), f"--scheme={scheme}",
                   *[f"-D{d}" for d in defines], "--", *map(str, program_args)]
        done = subprocess.run(command, env={**omp2gpu_env(profile, launch), **(extra_env or {})},
                              capture_output=True, text=True, timeout=timeout)
        # the trace's "otherData": the launcher's per-kernel summary (omp2gpu/trace_events.py)
        data = json.loads(profile.read_text())["otherData"] if profile.is_file() else None
    return done, data


def fastest_by_configuration(entry: dict) -> dict[tuple[int, int], float]:
    """(grid, block) -> the fastest launch in microseconds, from one kernel's profile entry."""
    best: dict[tuple[int, int], float] = {}
    for launch in entry.get("launches", ()):
        if launch.get("us") is None:
            continue
        key = (launch["grid"], launch["block"])
        best[key] = min(best.get(key, float("inf")), launch["us"])
    return best


def build_kernel_log(folder: Path) -> Path:
    """bench/peers/kernel_log.c built into `folder`: the CUPTI injection library that logs
    every kernel a program runs (CUDA_INJECTION64_PATH, PEERS_KERNEL_LOG)."""
    cuda = Path(os.environ.get("CUDA_HOME", "/usr/local/cuda"))
    library = folder / "libkernel_log.so"
    include = next(p for p in (cuda / "include", cuda / "extras" / "CUPTI" / "include") if (p / "cupti.h").exists())
    libdir = next(p for p in (cuda / "lib64", cuda / "lib", cuda / "extras" / "CUPTI" / "lib64")
                  if any(p.glob("libcupti.so*")))
    source = REPO / "bench" / "peers" / "kernel_log.c"
    subprocess.run(["gcc", "-shared", "-fPIC", "-O2", "-o", str(library), str(source),
                    f"-I{include}", f"-L{libdir}", "-lcupti", f"-Wl,-rpath,{libdir}"], check=True)
    return library


KERNEL_LOG_FIELDS = ("ns", "registers", "blocks", "threads", "shared")


def kernel_log_records(log: Path) -> list[dict]:
    """The kernels build_kernel_log's library logged, one dict each: ns, registers, blocks,
    threads, shared, name, and start (ns) where PEERS_KERNEL_STARTS asked for it."""
    found = []
    if not log.is_file():
        return found
    for line in log.read_text(errors="replace").splitlines():
        fields = line.split("\t")
        if line.startswith("#") or len(fields) not in (6, 7):
            continue
        record = dict(zip(KERNEL_LOG_FIELDS, map(int, fields[-6:-1])), name=fields[-1])
        if len(fields) == 7:
            record["start"] = int(fields[0])
        found.append(record)
    return found


def api_call_records(log: Path) -> list[tuple[int, int, str]]:
    """The driver and runtime API calls build_kernel_log's library logged (PEERS_API_CALLS):
    (start ns, end ns, name), in the log's order."""
    if not log.is_file():
        return []
    return [(int(fields[1]), int(fields[2]), fields[3]) for fields in
            (line.split("\t") for line in log.read_text(errors="replace").splitlines())
            if len(fields) == 4 and fields[0] == "api"]


def kernel_log_durations(log: Path, name_holds: str = "") -> list[float]:
    """The durations (us) build_kernel_log's library logged for the kernels whose name
    holds `name_holds`."""
    return [record["ns"] / 1e3 for record in kernel_log_records(log) if name_holds in record["name"]]


def nvcc() -> str:
    return shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"


def build_cuda(source: Path, binary: Path, arch: str = "sm_90", libraries: tuple[str, ...] = ()) -> Path:
    """nvcc -O3 for `arch`, as the paper built its CUDA versions (linked with -l`libraries`)."""
    subprocess.run([nvcc(), "-O3", f"-arch={arch}", str(source), "-o", str(binary),
                    *(f"-l{library}" for library in libraries)], check=True)
    return binary


def cuda_resources(source: Path, arch: str = "sm_90") -> dict:
    """Kernel -> KernelResources from nvcc -Xptxas -v (no GPU needed); {} without nvcc."""
    from omp2gpu.targets.nvptx import parse_verbose_output
    if not shutil.which(nvcc()) and not Path(nvcc()).is_file():
        return {}
    with tempfile.TemporaryDirectory(prefix="omp2gpu-bench-") as tmp:
        done = subprocess.run([nvcc(), "-O3", f"-arch={arch}", "-cubin", "-Xptxas", "-v", str(source),
                               "-o", str(Path(tmp) / "kernels.cubin")], capture_output=True, text=True)
    return parse_verbose_output(done.stdout + done.stderr) if done.returncode == 0 else {}


def name_values(text: str) -> dict[str, float]:
    """The `NAME VALUE` lines a benchmark program prints, as numbers."""
    values = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2:
            try:
                values[parts[0]] = float(parts[1])
            except ValueError:
                pass
    return values


def first_line(command) -> str:
    """The first line `command` prints (a tool's version), or "?"."""
    try:
        return subprocess.run(command, capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        return "?"


def cpu_name() -> str:
    """The processor's model name, for a results table's heading."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "?"
