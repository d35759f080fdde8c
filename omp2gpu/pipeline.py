"""What every compilation shares, the driver's and the runtimes' alike: the options,
`--dump` of a stage's artefact, OMP2GPU_TIME_STAGES timing (and the profile's compile spans), and steps 1-3 for one
file (preprocess, parse, attach the OpenMP directives).
"""

from __future__ import annotations

import ctypes
import io
import json
import re
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from omp2gpu import config, trace_events
from omp2gpu.codegen.code_rules import DEFAULT as DEFAULT_RULES
from omp2gpu.codegen.code_rules import CodeRules
from omp2gpu.codegen.openmp.schemes import AUTO
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.pragmas import attach_pragmas
from omp2gpu.frontend.parse import parse
from omp2gpu.frontend.preprocess import DEFAULT_STD, preprocess
from omp2gpu.frontend.scan_lowering import lower_scans
from omp2gpu.sema.atomic_forms import check_atomic_forms
from omp2gpu.sema.concurrent_races import check_concurrent_races
from omp2gpu.sema.concurrent_regions import check_concurrent_regions
from omp2gpu.sema.default_clause import check_default_clause
from omp2gpu.sema.imperfect_nests import make_nests_perfect
from omp2gpu.sema.linear_on_distribute import check_linear_on_distribute
from omp2gpu.sema.loop_construct import lower_loop_constructs
from omp2gpu.sema.loop_transformations import apply_loop_transformations
from omp2gpu.sema.nesting import check_nesting
from omp2gpu.sema.non_rectangular_rules import check_non_rectangular_clauses
from omp2gpu.sema.requires import apply_requires
from omp2gpu.sema.task_reduction_operators import check_task_reduction_operators
from omp2gpu.sema.team_loop_jumps import structure_team_loop_jumps
from omp2gpu.sema.uses_allocators import check_allocator_traits
from omp2gpu.sema.worksharing_privates import check_worksharing_privates
from omp2gpu.targets import mpi

# Stages that --dump can show, in pipeline order, with what each shows (the CLI's help
# lists them); a new stage is one entry here and one `dump` call where its artefact appears.
DUMP_STAGES = {
    "ast": "the file's own declarations as pycparser parsed them",
    "ir": "the host module's LLVM IR, before optimisation",
    "opt-ir": "the host module's LLVM IR, optimised",
    "regions": "each target region's GPU scheme, and why",
    "device-ir": "the GPU kernels' LLVM IR (needs no GPU: without one, made for the dump)",
    "ptx": "the PTX of the GPU kernels (llvmlite's NVPTX target: needs no GPU, nor ptxas)",
    "kernel-ptx": "each kernel's .entry of that PTX alone, under its name",
    "cpu-regions": "each target region's CPU-device scheme",
    "cpu-ir": "the CPU device's work-group functions' LLVM IR (made for the dump where that "
              "device is not used)",
    "cpu-opt-ir": "the same, optimised",
}


@dataclass(frozen=True)
class CompileOptions:
    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()        # "NAME" or "NAME=VALUE", as after -D
    undefines: tuple[str, ...] = ()
    forced_includes: tuple[tuple[str, str], ...] = ()   # ("-imacros" | "-include", FILE), in gcc's order
    opt_level: int = 2
    std: str = DEFAULT_STD          # gcc's default, gnu17
    warnings_enabled: bool = True
    dump: frozenset[str] = field(default_factory=frozenset)
    scheme: str = AUTO                   # --scheme: one of codegen/openmp/schemes.REQUESTS
    offload_arch: str | None = None      # sm_XX; None: the GPU present, else sm_90
    offload: bool = True                 # compile target regions for the GPU at all
    libraries: tuple[str, ...] = ()      # -l NAME: libraries the program is linked with
    library_dirs: tuple[str, ...] = ()   # -L DIR: where to find them first
    debug_info: bool = False             # -g: DWARF for host and CPU-device code (codegen/debug_info.py)
    code_rules: CodeRules = DEFAULT_RULES   # -fwrapv, -ffast-math, -fno-math-errno (codegen/code_rules.py)
    openmp: bool = True                  # False (-fno-openmp): no _OPENMP, `#pragma omp` lines ignored
    march: str = "native"                # -march: the processor of host and CPU-device code (targets/host/machine.py)

    def __post_init__(self):
        if not 0 <= self.opt_level <= 3:
            raise ValueError(f"opt_level must be 0-3, not {self.opt_level}")
        unknown = set(self.dump) - set(DUMP_STAGES)
        if unknown:
            raise ValueError(f"unknown dump stage(s): {', '.join(sorted(unknown))}")


# The stages dumped so far in this process (the CLI warns of those asked for and never reached).
dumped_stages: set[str] = set()


def dump(options: CompileOptions, stage: str, source: str, render) -> None:
    """Print `render()` to stderr under a banner when `stage` is dumped."""
    if stage not in options.dump:
        return
    dumped_stages.add(stage)
    flush_stdio()
    sys.stderr.write(f"===== omp2gpu dump: {stage} ({source}) =====\n")
    text = render()
    sys.stderr.write(text if text.endswith("\n") else text + "\n")
    sys.stderr.write(f"===== end of {stage} =====\n")
    sys.stderr.flush()


def flush_stdio() -> None:
    """Flush C stdio (a loaded library's printf: omp2gpu.load) and Python's streams, so
    that what the compiler writes comes after what was written before it."""
    ctypes.CDLL(None).fflush(None)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass


def _render_ast(ast, source: Path) -> str:
    """The tree of the file's own top-level declarations; the included
    headers' hundreds of declarations would bury them."""
    buffer = io.StringIO()
    show = dict(attrnames=True, nodenames=True, showcoord=True)
    declarations = getattr(ast, "ext", None)
    if declarations is None:
        ast.show(buf=buffer, **show)
        return buffer.getvalue()
    own = [node for node in declarations if _is_file(getattr(node.coord, "file", None), source)]
    buffer.write(f"FileAST: {len(own)} declarations from {source.name} "
                 f"({len(declarations) - len(own)} from headers not shown)\n")
    for node in own:
        node.show(buf=buffer, offset=2, **show)
    return buffer.getvalue()


def _is_file(name, source: Path) -> bool:
    if not name:
        return False
    try:
        return name == str(source) or Path(name).resolve() == source.resolve()
    except OSError:
        return False


def _check_input(path) -> Path:
    source = Path(path)
    if not source.is_file():
        raise CompileError(f"no such file: {path}")
    return source


def parse_file(path, options: CompileOptions):
    """Steps 1-3: preprocess, parse, attach the OpenMP directives."""
    source = _check_input(path)
    with stage("preprocess"):
        text = preprocess_file(source, options)
    with stage("parse"):
        ast = parse(text, str(source))
    with stage("attach_pragmas"):
        ast = attach_openmp(ast)
    dump(options, "ast", str(source), lambda: _render_ast(ast, source))
    return ast


def preprocess_file(source: Path, options: CompileOptions) -> str:
    """Step 1: the file preprocessed, with line markers. A header that only an MPI
    brings (<mpi.h>) is looked up in the MPI in use (targets/mpi.py)."""
    undefines = [*options.undefines, *([] if options.openmp else ["_OPENMP"])]
    arguments = (str(source), list(options.include_dirs), list(options.defines), undefines, options.std)
    try:
        text = preprocess(*arguments, forced=options.forced_includes)
    except CompileError as error:
        if not any(error.message == f"{header}: No such file or directory" for header in mpi.HEADERS):
            raise
        found = mpi.find()
        if found is None:
            raise CompileError(error.message, error.location, hint=mpi.missing_message()) from None
        text = preprocess(*arguments, forced=options.forced_includes, fallback_dirs=found.include_dirs)
    return text if options.openmp else _without_openmp_pragmas(text)


def _without_openmp_pragmas(text: str) -> str:
    """-fno-openmp: the program as gcc compiles it then, its `#pragma omp` lines ignored (each
    left as an empty line, so the lines after keep their numbers)."""
    return OPENMP_PRAGMA_LINE.sub("", text)


OPENMP_PRAGMA_LINE = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+omp\b.*$", re.MULTILINE)


def attach_openmp(ast, lowering_checks: bool = True):
    """Step 3: the OpenMP directives attached to their statements, checked, and each
    `loop` lowered to the construct it means (sema/loop_construct.py); without
    `lowering_checks`, not the checks gcc makes only after reading the whole file
    (nesting, default(none): error_order.py)."""
    words: set[str] = set()
    ast = attach_pragmas(ast, check_default_clause if lowering_checks else None, words)

    def step(needs: tuple[str, ...], run, *arguments) -> None:
        """`run` a step that has work only at directives or clauses named `needs`: a file
        whose pragmas name none of them skips its walk of the whole tree (a few tenths of
        a second each on 50,000 lines)."""
        if not words.isdisjoint(needs):
            run(ast, *arguments)

    step(("tile", "unroll"), apply_loop_transformations)                # 5.1 tile, unroll -> loops
    step(("collapse", "tile", "unroll"), make_nests_perfect)            # 5.0 intervening code -> innermost body
    step(("collapse", "tile", "unroll"), check_non_rectangular_clauses)
    if lowering_checks:
        step(("linear",), check_linear_on_distribute)
        step(("loop", "order"), check_concurrent_regions)
        step(("loop", "order"), check_concurrent_races)
        step(("omp",), check_nesting)
        step(("in_reduction",), check_task_reduction_operators)
        step(("reduction", "firstprivate", "lastprivate"), check_worksharing_privates)
    step(("loop",), lower_loop_constructs, lowering_checks)             # 5.0 `loop` -> a 4.5 construct
    step(("atomic",), check_atomic_forms)
    step(("requires", "atomic", "ancestor"), apply_requires)
    step(("uses_allocators",), check_allocator_traits)                  # 5.0 uses_allocators(a(traits))
    step(("scan", "inscan"), lower_scans, lowering_checks)
    step(("parallel",), structure_team_loop_jumps)                     # SPMDizes team loops that jump
    return ast


# --- OMP2GPU_TIME_STAGES=1: how long each step of `run` took, on stderr -------

stage_times: dict[str, float] = {}
timing_requested = False        # set by omp2gpu-cc -v, which prints each step's time
current_stage = ""              # the step begun last


@contextmanager
def stage(name: str):
    """Time a step for OMP2GPU_TIME_STAGES, and trace it in the profile (OMP2GPU_PROFILE);
    `current_stage` names it meanwhile (omp2gpu-cc's progress line)."""
    global current_stage
    current_stage = name
    with trace_events.span(name, "compile"):
        if not (timing_requested or config.settings().time_stages):
            yield
            return
        start = time.perf_counter()
        try:
            yield
        finally:
            stage_times[name] = stage_times.get(name, 0.0) + time.perf_counter() - start


def report_stage_times() -> None:
    """One line, `omp2gpu: stage times (s): {json}`, before main starts."""
    if config.settings().time_stages:
        times = {name: round(seconds, 4) for name, seconds in stage_times.items()}
        flush_stdio()
        print(f"omp2gpu: stage times (s): {json.dumps(times)}", file=sys.stderr, flush=True)
