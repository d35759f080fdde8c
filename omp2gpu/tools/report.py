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

import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from pycparser import c_ast

from omp2gpu import device_driver, driver
from omp2gpu.codegen.openmp.schemes import CombinedConstruct, ControlLoop
from omp2gpu.diagnostics import CompileError, SourceLocation
from omp2gpu.frontend.omp_nodes import OmpConstruct
from omp2gpu.frontend.pragma_syntax import constant_int
from omp2gpu.offload.abi import MapType
from omp2gpu.offload.devices import cuda
from omp2gpu.sema.ctypes import variably_modified
from omp2gpu.targets import nvptx
from omp2gpu.tools import launch_sweep
from omp2gpu.tools import occupancy as occ
from omp2gpu.tools.launch_sweep import RunResult
from omp2gpu.tools.report_render import render

FORMATS = ("table", "json", "markdown")
COMPARED_SCHEMES = (CombinedConstruct.name, ControlLoop.name)


# ----------------------------------------------------------------- what is reported
@dataclass
class KernelFigures:
    """One kernel under one scheme."""
    kernel: str
    location: str
    scheme: str
    reason: str
    arch: str
    registers: int = 0
    spill_store_bytes: int = 0
    spill_load_bytes: int = 0
    shared_bytes: int = 0
    stack_frame_bytes: int = 0
    constant_bytes: int = 0
    team_stack_bytes: int = 0                    # global memory per team (control loop)
    barriers: int = 0
    max_threads_per_block: int | None = None
    block_size: int = 0
    block_size_from: str = ""
    occupancy: occ.Occupancy | None = None
    best: occ.Occupancy | None = None            # the block size with the best occupancy
    bytes: int | None = None                     # valuable bytes per launch
    bytes_from: str = ""
    note: str = ""
    run: RunResult | None = None


@dataclass
class SchemeReport:
    requested: str
    kernels: dict[str, KernelFigures]
    remarks: list[str]                           # regions that run on the host, and why


# ----------------------------------------------------------------- static analysis
def _launch_directive(construct):
    """The directive whose clauses shape the launch: the target construct's, or that of
    a teams construct making up its whole body."""

    body = construct.body
    while isinstance(body, c_ast.Compound) and len(body.block_items or ()) == 1:
        body = body.block_items[0]
    if isinstance(body, OmpConstruct) and body.directive.has("teams"):
        return body.directive
    return construct.directive


def _constant_clause(construct, name: str) -> int | None:
    for directive in {id(d): d for d in (construct.directive, _launch_directive(construct))}.values():
        for clause in directive.clauses:
            if clause.name == name:
                return constant_int(clause.expr)
    return None


def mapped_bytes(region) -> tuple[int | None, str]:
    """(bytes the kernel moves per launch by its own map clauses, how that was found), or
    (None, why not). `to`/`from` count once, `tofrom` twice."""
    total = 0
    for capture in region.captures:
        if capture.kind == "literal":
            continue                                   # by value: no memory traffic
        copies = bool(capture.map_type & MapType.TO) + bool(capture.map_type & MapType.FROM)
        if capture.map_type & (MapType.POINTER_LOOKUP | MapType.IS_DEVICE_PTR) or not copies:
            return None, f"'{capture.name}' has no to/from map clause on the construct"
        ctype, count = capture.ctype, 1
        for section in (capture.item.sections if capture.item else ()):
            if not (ctype.is_pointer or ctype.is_array):
                return None, f"the map of '{capture.name}' is not an array section"
            inner = ctype.pointee if ctype.is_pointer else ctype.element
            lower = constant_int(section.lower) if section.lower is not None else 0
            if section.length is not None:
                length = constant_int(section.length)
            elif ctype.is_array and ctype.length is not None and lower is not None:
                length = ctype.length - lower
            else:
                length = None
            if length is None:
                return None, f"the section of '{capture.name}' has no constant length"
            ctype, count = inner, count * length
        if variably_modified(ctype):
            return None, f"'{capture.name}' is a variable-length array: its size is known at run time"
        total += copies * count * ctype.size
    return total, "map clauses"


def _maxntid(ptx: str) -> dict[str, int]:
    """Kernel -> its .maxntid (x only) where the PTX gives one."""
    found = {}
    for match in re.finditer(r"\.entry\s+([\w$.]+)\s*\(([^{]*)", ptx):
        if limit := re.search(r"\.maxntid\s+(\d+)", match[2]):
            found[match[1]] = int(limit[1])
    return found


def analyse(path: str, options, maxrregcount: int | None = None,
            block_size: int | None = None) -> SchemeReport:
    """Compile `path` with `options` (its scheme and architecture) and measure each kernel."""
    arch = options.offload_arch or nvptx.default_arch()
    build = driver.translate(path, options).device
    remarks = [r for r in (build.remarks if build else ()) if " runs on the host" in r]
    if build is None or not build.kernels:
        return SchemeReport(options.scheme, {}, remarks)
    if nvptx.find_ptxas() is None:
        raise CompileError("ptxas not found (PATH, CUDA_HOME, /usr/local/cuda or the "
                           "nvidia-cuda-nvcc wheel): it gives the registers and memory figures")
    ptx = device_driver.device_ptx(build, options)
    try:
        usage = nvptx.resource_usage(ptx, arch, maxrregcount=maxrregcount)
    except nvptx.PtxasError as error:
        first = next((line for line in error.message.splitlines() if line.strip()), "")
        raise CompileError(f"ptxas failed for {arch}: {first.strip()}") from None
    maxntid = _maxntid(ptx)
    kernels = {}
    for kernel in build.kernels:
        name = kernel.kernel_name
        resources = usage.get(name) or nvptx.KernelResources(name)
        figures = KernelFigures(
            kernel=name, location=str(_location(kernel)), scheme=kernel.scheme.name, reason=kernel.reason,
            arch=arch, registers=resources.registers, spill_store_bytes=resources.spill_store_bytes,
            spill_load_bytes=resources.spill_load_bytes, shared_bytes=resources.shared_bytes,
            stack_frame_bytes=resources.stack_frame_bytes, constant_bytes=resources.constant_bytes,
            barriers=resources.barriers, team_stack_bytes=kernel.team_stack_bytes or 0)
        clause = _constant_clause(kernel.construct, "thread_limit")
        if block_size:
            figures.block_size, figures.block_size_from = block_size, "--block-size"
        elif kernel.scheme.fixed_launch is not None:
            threads = kernel.scheme.fixed_launch[1]
            figures.block_size = threads
            figures.block_size_from = f"{kernel.scheme.name}: {'one thread' if threads == 1 else f'{threads} threads'}"
        elif clause and clause > 0:
            figures.block_size, figures.block_size_from = min(clause, 1024), "thread_limit clause"
        else:
            figures.block_size, figures.block_size_from = kernel.scheme.block_size, "scheme default"
        figures.bytes, figures.bytes_from = mapped_bytes(kernel)
        try:
            _occupancy(figures, maxntid.get(name))
        except occ.UnsupportedArchitecture as error:
            figures.note = str(error)
        if block_size and figures.max_threads_per_block is not None \
                and block_size > figures.max_threads_per_block:
            raise CompileError(f"block size {block_size} is over the limit of kernel {name} "
                               f"({figures.max_threads_per_block} threads per block with "
                               f"{figures.registers} registers on {arch})")
        kernels[name] = figures
    return SchemeReport(options.scheme, kernels, remarks)


def _location(region):
    return SourceLocation.of(region.construct.coord)


def _occupancy(figures: KernelFigures, maxntid: int | None) -> None:
    arch, regs, shared, bars = figures.arch, figures.registers, figures.shared_bytes, figures.barriers
    figures.max_threads_per_block = occ.max_threads_per_block(arch, regs, shared, bars, maxntid)
    figures.occupancy = occ.occupancy(arch, regs, figures.block_size, shared, barriers=bars)
    figures.best = occ.best_block_size(arch, regs, shared, bars, figures.max_threads_per_block)


# ----------------------------------------------------------------- --run
def attach_runs(figures: KernelFigures, result: RunResult, arch: str, multiprocessors: int,
                bytes_per_launch: int | None) -> None:
    """The run's figures, with bandwidth and occupancy at its best configuration."""
    nbytes = bytes_per_launch if bytes_per_launch is not None else figures.bytes
    if bytes_per_launch is not None:
        figures.bytes, figures.bytes_from = bytes_per_launch, "--bytes"
    if nbytes is not None and result.us > 0:
        result.gbs = nbytes / result.us / 1e3
    registers = result.registers if result.registers is not None else figures.registers
    shared = result.shared_bytes if result.shared_bytes is not None else figures.shared_bytes
    try:
        at_best = occ.occupancy(arch, registers, result.block, shared, barriers=figures.barriers)
    except occ.UnsupportedArchitecture:
        at_best = None
    if at_best is not None:
        result.occupancy = at_best.occupancy
        result.grid_occupancy = at_best.grid_limited(result.grid, multiprocessors)
    figures.run = result


# ----------------------------------------------------------------- output
# ----------------------------------------------------------------- the command
def add_arguments(parser) -> None:
    parser.add_argument("--maxrregcount", type=int, metavar="N",
                        help="cap registers per thread in ptxas (the paper capped them at 64)")
    parser.add_argument("--block-size", dest="block_size", type=int, metavar="N",
                        help="threads per block for the occupancy figure (default: the constant "
                             "thread_limit clause, else the scheme's default)")
    parser.add_argument("--format", choices=FORMATS, default="table", help="output format")
    parser.add_argument("--compare-schemes", dest="compare_schemes", action="store_true",
                        help=f"report each kernel under the {' and '.join(COMPARED_SCHEMES)} schemes "
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
        if not cuda.available():
            raise CompileError("--run needs a CUDA GPU and cuda-python; none is available here")
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
            for name, figures in report.kernels.items():
                if name in results:
                    attach_runs(figures, results[name], arch, multiprocessors, args.bytes_per_launch)
    finally:
        close()
    notes.append(f"runs on {arch} with {multiprocessors} SMs; occupancy is theoretical (per SM) "
                 "and averaged over the grid's SMs")
    return notes
