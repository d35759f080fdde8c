"""`omp2gpu report --run`: the program run once per launch configuration, each
kernel's launches timed, the fastest kept.

Each run is `python -m omp2gpu run` in a subprocess with OMP2GPU_LAUNCH=teams,threads
(every kernel but serial ones launched so, over its clauses: runtime/offload/policy.c),
OMP2GPU_PROFILE (the runtime's CUDA-event time of every launch) and
OMP_TARGET_OFFLOAD=MANDATORY, so that a configuration the GPU refuses fails
instead of quietly running on the host.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import omp2gpu
from omp2gpu import config
from omp2gpu.diagnostics import CompileError
from omp2gpu.targets.nvptx import arch_for_compute_capability
from omp2gpu.tools.doctor import gpu_facts

# The default sweep: 25 runs of the program per scheme; 0 teams = the launcher's choice.
SWEEP_TEAMS = (0, 256, 1024, 4096, 16384)
SWEEP_THREADS = (64, 128, 256, 512, 1024)
RUN_TIMEOUT_S = 600


@dataclass
class RunResult:
    """The fastest launch of one kernel over the sweep."""
    grid: int
    block: int
    us: float
    registers: int | None            # as the driver JIT-compiled it
    shared_bytes: int | None
    default_us: float | None = None  # the launcher's own choice (teams 0, threads 0)
    gbs: float | None = None
    occupancy: float | None = None   # theoretical, at the best block
    grid_occupancy: float | None = None
    device: str = ""
    timings: list = field(default_factory=list)   # [teams, threads, grid, block, us] per config


def progress(total: int):
    """A progress bar from rich or tqdm when installed, else one line per step on stderr."""
    try:
        from rich.console import Console  # lazy: rich is optional, for the progress display
        from rich.progress import Progress  # lazy: rich is optional, for the progress display
        bar = Progress(transient=False, console=Console(stderr=True))   # stdout carries the report
        bar.start()
        task = bar.add_task("sweep", total=total)
        return (lambda text: bar.update(task, advance=1, description=text)), bar.stop
    except ImportError:
        pass
    try:
        from tqdm import tqdm  # lazy: tqdm is optional, for the progress display
        bar = tqdm(total=total, file=sys.stderr)
        return (lambda text: (bar.set_description(text), bar.update(1))), bar.close
    except ImportError:
        pass
    done = [0]

    def step(text):
        done[0] += 1
        print(f"[{done[0]}/{total}] {text}", file=sys.stderr, flush=True)
    return step, lambda: None


def compile_flags(args) -> list[str]:
    """The command-line options of `args` that shape compilation, for `omp2gpu run`."""
    flags = [f"-I{d}" for d in args.include_dirs] + [f"-D{d}" for d in args.defines]
    flags += [f"-U{u}" for u in args.undefines] + [f"-O{args.opt_level}", f"-std={args.std}"]
    if args.offload_arch:
        flags.append(f"--offload-arch={args.offload_arch}")
    return flags + (["-w"] if args.no_warnings else [])


def run_once(path: str, scheme: str, flags: list[str], program_args: list[str],
             teams: int, threads: int) -> tuple[dict | None, str]:
    """(the launch profile of one run with OMP2GPU_LAUNCH=teams,threads, or None; why not)."""
    package_root = str(Path(omp2gpu.__file__).resolve().parent.parent)
    with tempfile.TemporaryDirectory(prefix="omp2gpu-report-") as tmp:
        profile = Path(tmp, "profile.json")
        env = config.child_environment(OMP2GPU_PROFILE=str(profile), OMP2GPU_LAUNCH=f"{teams},{threads}",
                                       OMP_TARGET_OFFLOAD="MANDATORY", prepend_paths={"PYTHONPATH": package_root})
        command = [sys.executable, "-m", "omp2gpu", "run", path, f"--scheme={scheme}", *flags,
                   "--", *program_args]
        try:
            done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return None, f"timed out after {RUN_TIMEOUT_S} s"
        if not profile.is_file():
            lines = [line for line in (done.stderr or done.stdout).splitlines() if line.strip()]
            return None, lines[-1] if lines else f"exit status {done.returncode}"
        return json.loads(profile.read_text())["otherData"], ""     # the trace's launch summary


def sweep(path: str, scheme: str, flags: list[str], program_args: list[str], configs,
          step) -> tuple[dict[str, RunResult], list[str]]:
    """Kernel -> its fastest launch over `configs` [(teams, threads)]; failures, one line each."""
    results: dict[str, RunResult] = {}
    failures = []
    for teams, threads in configs:
        profile, why = run_once(path, scheme, flags, program_args, teams, threads)
        label = f"{scheme} {teams or 'auto'}x{threads or 'auto'}"
        if profile is None:
            failures.append(f"{scheme} (teams {teams}, threads {threads}): {why}")
            step(f"{label}: failed")
            continue
        for kernel, entry in profile.get("kernels", {}).items():
            launches = [launch for launch in entry.get("launches", ()) if launch.get("us") is not None]
            if not launches:
                continue
            fastest = min(launches, key=lambda launch: launch["us"])
            result = results.get(kernel)
            if result is None or fastest["us"] < result.us:
                timings = result.timings if result else []
                result = results[kernel] = RunResult(
                    fastest["grid"], fastest["block"], fastest["us"], entry.get("registers"),
                    entry.get("shared_bytes"), result.default_us if result else None,
                    device=profile.get("device") or "", timings=timings)
            result.timings.append([teams, threads, fastest["grid"], fastest["block"], fastest["us"]])
            if (teams, threads) == (0, 0):
                result.default_us = fastest["us"]
        step(label)
    return results, failures


def device_facts() -> tuple[str, int]:
    """(architecture, multiprocessor count) of GPU 0, as the offload runtime sees it."""
    facts = gpu_facts(0)
    if facts is None:
        raise CompileError("--run needs a CUDA GPU; none is usable here (`omp2gpu doctor` says why)")
    return arch_for_compute_capability(*facts.compute_capability), facts.multiprocessors


def parse_list(text: str, what: str) -> tuple[int, ...]:
    try:
        values = tuple(int(part) for part in text.split(",") if part.strip())
    except ValueError:
        values = ()
    if not values or any(v < 0 for v in values):
        raise CompileError(f"--{what} takes a comma-separated list of integers >= 0, not '{text}'")
    return values
