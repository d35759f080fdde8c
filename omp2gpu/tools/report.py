"""`omp2gpu report`: what each kernel costs the GPU, per scheme (the paper's Tables 1 and 2).

    omp2gpu report prog.c [--scheme S | --compare-schemes] [--offload-arch sm_XX]
                          [--maxrregcount N] [--block-size N] [--format table|json|markdown]
                          [--run [--teams LIST] [--threads LIST] [--bytes N]] [-- args...]

Without a GPU: for every kernel its source location, the scheme that runs it and
why, ptxas -v's figures (registers, spills, static shared, local and constant
memory, barriers), the largest block it can run and its theoretical occupancy at
the block size given (--block-size), else its constant thread_limit clause, else
the scheme's default, with the factor that limits it, and the block size with
the best theoretical occupancy (omp2gpu.tools.occupancy). Only ptxas is needed
(PATH, CUDA_HOME or the nvidia-cuda-nvcc wheel).

--run (a GPU): the program runs once per (teams, threads) of the sweep, with
OMP2GPU_LAUNCH forcing that configuration on every kernel and OMP2GPU_PROFILE
timing each launch with CUDA events; per kernel the fastest launch wins
(omp2gpu.tools.launch_sweep). Its occupancy is given per SM and averaged over
the GPU's SMs for the winning grid.
Valuable bandwidth = bytes the kernel must move / its time, the bytes being
--bytes N when given (per launch), else computed from the target construct's own
map clauses when their sizes are compile-time constants: `to` and `from` count
once, `tofrom` twice (read and written); n/a when some array reaches the kernel
without such a map (e.g. mapped by an enclosing `target data`).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from omp2gpu import device_driver, driver
from omp2gpu.codegen.openmp.schemes import CombinedConstruct, ControlLoop, SpmdizedControlLoop
from omp2gpu.diagnostics import CompileError
from omp2gpu.targets import nvptx
from omp2gpu.tools import doctor, gpu_kernels, launch_sweep
from omp2gpu.tools import occupancy as occ
from omp2gpu.tools.gpu_kernels import Kernel
from omp2gpu.tools.launch_sweep import RunResult
from omp2gpu.tools.report_render import render

FORMATS = ("table", "json", "markdown")
# the combined kernel, the control loop SPMDized (its guards and barriers, no state machine), the state machine
COMPARED_SCHEMES = (CombinedConstruct.name, SpmdizedControlLoop.name, ControlLoop.name)


# ----------------------------------------------------------------- what is reported
@dataclass
class KernelRun:
    """A kernel's fastest launch of the --run sweep, and the bytes its bandwidth counts."""
    result: RunResult
    bytes: int | None
    bytes_from: str


@dataclass
class SchemeReport:
    requested: str
    kernels: dict[str, Kernel]                   # by PTX name (gpu_kernels.Kernel)
    remarks: list[str]                           # regions that run on the host, and why
    runs: dict[str, KernelRun] = field(default_factory=dict)    # --run: by PTX name


# ----------------------------------------------------------------- static analysis
def analyse(path: str, options, maxrregcount: int | None = None,
            block_size: int | None = None) -> SchemeReport:
    """Compile `path` with `options` (its scheme and architecture) and measure each kernel."""
    build = driver.translate(path, options).device
    remarks = [r for r in (build.remarks if build else ()) if " runs on the host" in r]
    if build is None or not build.kernels:
        return SchemeReport(options.scheme, {}, remarks)
    if nvptx.find_ptxas() is None:
        raise CompileError(gpu_kernels.PTXAS_MISSING)
    module = gpu_kernels.DeviceModule(device_driver.device_code(build), options, maxrregcount)
    kernels = {}
    for kernel in gpu_kernels.kernels_of(build.kernels, module, block_size):
        if kernel.unavailable:
            raise CompileError(kernel.unavailable)
        if block_size and kernel.max_threads_per_block is not None \
                and block_size > kernel.max_threads_per_block:
            raise CompileError(f"block size {block_size} is over the limit of kernel {kernel.name} "
                               f"({kernel.max_threads_per_block} threads per block with "
                               f"{kernel.registers} registers on {kernel.arch})")
        kernels[kernel.name] = kernel
    return SchemeReport(options.scheme, kernels, remarks)


# ----------------------------------------------------------------- --run
def attach_runs(kernel: Kernel, result: RunResult, arch: str, multiprocessors: int,
                bytes_per_launch: int | None) -> KernelRun:
    """The run's figures, with bandwidth and occupancy at its best configuration."""
    nbytes, nbytes_from = (bytes_per_launch, "--bytes") if bytes_per_launch is not None \
        else (kernel.bytes, kernel.bytes_from)
    if nbytes is not None and result.us > 0:
        result.gbs = nbytes / result.us / 1e3
    registers = result.registers if result.registers is not None else kernel.registers
    shared = result.shared_bytes if result.shared_bytes is not None else kernel.shared_bytes
    try:
        at_best = occ.occupancy(arch, registers, result.block, shared, barriers=kernel.barriers)
    except occ.UnsupportedArchitecture:
        at_best = None
    if at_best is not None:
        result.occupancy = at_best.occupancy
        result.grid_occupancy = at_best.grid_limited(result.grid, multiprocessors)
    return KernelRun(result, nbytes, nbytes_from)


# ----------------------------------------------------------------- the command
def add_arguments(parser) -> None:
    parser.add_argument("--maxrregcount", type=int, metavar="N",
                        help="cap registers per thread in ptxas (the paper capped them at 64)")
    parser.add_argument("--block-size", dest="block_size", type=int, metavar="N",
                        help="threads per block for the occupancy figure (default: the constant "
                             "thread_limit clause, else the scheme's default)")
    parser.add_argument("--format", choices=FORMATS, default="table", help="output format")
    parser.add_argument("--compare-schemes", dest="compare_schemes", action="store_true",
                        help=f"report each kernel under the {', '.join(COMPARED_SCHEMES)} schemes "
                             "side by side")
    parser.add_argument("--run", action="store_true",
                        help="(GPU) run the program over a sweep of (teams, threads) and report the "
                             "fastest launch of each kernel")
    parser.add_argument("--teams", default=",".join(map(str, launch_sweep.SWEEP_TEAMS)), metavar="LIST",
                        help="--run: numbers of teams to try (0: the launcher's choice)")
    parser.add_argument("--threads", default=",".join(map(str, launch_sweep.SWEEP_THREADS)), metavar="LIST",
                        help="--run: threads per team to try (0: the launcher's choice)")
    parser.add_argument("--bytes", dest="bytes_per_launch", type=int, metavar="N",
                        help="--run: bytes each launch must read and write, for valuable bandwidth "
                             "(default: from the construct's constant-size map clauses)")


def main(args, program_args: list[str], options) -> int:
    """The `report` subcommand: `options` are the CompileOptions of the command line."""

    if args.maxrregcount is not None and not 16 <= args.maxrregcount <= 255:
        raise CompileError(f"--maxrregcount {args.maxrregcount} is not between 16 and 255")
    if args.block_size is not None and not 1 <= args.block_size <= 1024:
        raise CompileError(f"block size {args.block_size} is over the limit of 1024 threads per block"
                           if args.block_size > 1024 else f"block size {args.block_size} is not positive")
    if args.bytes_per_launch is not None and args.bytes_per_launch < 0:
        raise CompileError("--bytes must not be negative")
    schemes = COMPARED_SCHEMES if args.compare_schemes else (args.scheme,)
    if args.run:
        configs = [(t, n) for t in launch_sweep.parse_list(args.teams, "teams")
                   for n in launch_sweep.parse_list(args.threads, "threads")]
        if doctor.gpu_status()[0] == 0:
            raise CompileError(f"--run needs a CUDA GPU; none is usable here: {doctor.gpu_status()[1]}")
    reports = [analyse(args.input, replace(options, scheme=scheme), args.maxrregcount, args.block_size)
               for scheme in schemes]
    if not any(report.kernels for report in reports):
        raise CompileError(f"{args.input}: no target region runs on the GPU, so there is no kernel to report")
    notes = []
    if args.run:
        notes += _run_sweeps(args, program_args, reports, configs)
        if args.maxrregcount:
            notes.append("--maxrregcount changes ptxas's figures only: the driver JIT-compiles the "
                         "launched kernels without it")
    text = render(reports, args.format, args.input, args.run, notes)
    if args.output and args.output != "-":
        try:
            Path(args.output).write_text(text)
        except OSError as err:
            raise CompileError(f"cannot write {args.output}: {err.strerror or err}") from None
    else:
        sys.stdout.write(text)
    return 0


def _run_sweeps(args, program_args, reports: list[SchemeReport], configs) -> list[str]:
    arch, multiprocessors = launch_sweep.device_facts()
    flags = launch_sweep.compile_flags(args)
    step, close = launch_sweep.progress(len(configs) * len(reports))
    notes = []
    try:
        for report in reports:
            results, failures = launch_sweep.sweep(args.input, report.requested, flags, program_args,
                                                   configs, step)
            notes += [f"run failed: {failure}" for failure in failures]
            for name, kernel in report.kernels.items():
                if name in results:
                    report.runs[name] = attach_runs(kernel, results[name], arch, multiprocessors,
                                                    args.bytes_per_launch)
    finally:
        close()
    notes.append(f"runs on {arch} with {multiprocessors} SMs; occupancy is theoretical (per SM) "
                 "and averaged over the grid's SMs")
    return notes
