"""The compile driver: runs the stages in order for one C file.

    preprocess -> parse -> attach pragmas -> emit LLVM IR (host OpenMP scheme)
    -> link the host runtime -> optimise -> run `main` / write .ll / write .o

`--dump=STAGES` prints each named stage's artefact to stderr under a banner.
The host runtime (runtime/host/*.c, the omp_* functions) goes through the
same front end and codegen once, and its IR is cached on disk.
"""

from __future__ import annotations

import gc
import hashlib
import os
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import llvmlite
import llvmlite.binding as llvm

from omp2gpu import __version__
from omp2gpu.diagnostics import CompileError
from omp2gpu.targets import host

# Stages that --dump can show, in pipeline order; a new stage is one entry here
# and one `_dump` call where its artefact appears.
DUMP_STAGES = ("ast", "ir", "opt-ir", "regions", "device-ir", "ptx", "cpu-regions", "cpu-ir", "cpu-opt-ir")


@dataclass(frozen=True)
class CompileOptions:
    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()        # "NAME" or "NAME=VALUE", as after -D
    undefines: tuple[str, ...] = ()
    opt_level: int = 2
    std: str = "c99"
    warnings_enabled: bool = True
    dump: frozenset[str] = field(default_factory=frozenset)
    scheme: str = "auto"                 # GPU scheme: auto, combined, serial, host
    offload_arch: str | None = None      # sm_XX; None: the GPU present, else sm_90
    offload: bool = True                 # compile target regions for the GPU at all

    def __post_init__(self):
        if not 0 <= self.opt_level <= 3:
            raise ValueError(f"opt_level must be 0-3, not {self.opt_level}")
        unknown = set(self.dump) - set(DUMP_STAGES)
        if unknown:
            raise ValueError(f"unknown dump stage(s): {', '.join(sorted(unknown))}")


def _dump(options: CompileOptions, stage: str, source: str, render) -> None:
    """Print `render()` to stderr under a banner when `stage` is dumped."""
    if stage not in options.dump:
        return
    host.flush_stdio()
    sys.stderr.write(f"===== omp2gpu dump: {stage} ({source}) =====\n")
    text = render()
    sys.stderr.write(text if text.endswith("\n") else text + "\n")
    sys.stderr.write(f"===== end of {stage} =====\n")
    sys.stderr.flush()


def _render_ast(ast, source: Path) -> str:
    """The tree of the file's own top-level declarations; the included
    headers' hundreds of declarations would bury them."""
    import io
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


@dataclass
class Translation:
    """Steps 1-4 for one C file: its host module and, for its target regions, the device build."""
    host: object                 # llvmlite ir.Module
    device: object = None        # codegen.openmp.kernels.DeviceBuild, or None
    cpu: object = None           # codegen.openmp.cpu_workgroup.CpuBuild (the CPU device), or None


def parse_file(path, options: CompileOptions):
    """Steps 1-3: preprocess, parse, attach the OpenMP directives."""
    source = _check_input(path)
    from omp2gpu.frontend.parse import parse
    from omp2gpu.frontend.pragmas import attach_pragmas
    from omp2gpu.frontend.preprocess import preprocess
    from omp2gpu.sema.nesting import check_nesting

    with _stage("preprocess"):
        text = preprocess(str(source), list(options.include_dirs), list(options.defines),
                          list(options.undefines), options.std)
    with _stage("parse"):
        ast = parse(text, str(source))
    with _stage("attach_pragmas"):
        ast = attach_pragmas(ast)
        check_nesting(ast)
    _dump(options, "ast", str(source), lambda: _render_ast(ast, source))
    return ast


def translate(path, options: CompileOptions, offload: bool = True, cpu: bool = False) -> Translation:
    """Steps 1-4; with `offload`, target regions also become launches and kernels
    (with `cpu`, also the CPU device's work-group functions)."""
    from omp2gpu.codegen.module import ModuleEmitter
    from omp2gpu.codegen.openmp.host import HostOpenMP
    from omp2gpu.codegen.openmp.offload_host import OffloadHostOpenMP

    ast = parse_file(path, options)
    scheme = OffloadHostOpenMP(options.scheme) if offload and options.offload else HostOpenMP()
    emitter = ModuleEmitter(Path(path).name, scheme)
    with _stage("codegen"):
        emitter.emit_translation_unit(ast)
    _dump(options, "ir", str(path), lambda: str(emitter.module))
    device = cpu_build = None
    if isinstance(scheme, OffloadHostOpenMP) and scheme.regions:
        with _stage("device_codegen"):
            device, cpu_build = _device_builds(emitter, scheme, options, path, cpu)
    return Translation(emitter.module, device, cpu_build)


def _device_builds(emitter, scheme, options: CompileOptions, path, cpu: bool):
    """The target regions' kernels (and, with `cpu`, the CPU device's work-group functions)."""
    from omp2gpu.codegen.openmp.kernels import build_device_module, describe_regions
    cpu_build = None
    if cpu:     # first: it reads each region's scheme as chosen, before the GPU build may change it
        from omp2gpu.codegen.openmp.cpu_workgroup import build_cpu_module, describe
        cpu_build = build_cpu_module(emitter, scheme)
        _dump(options, "cpu-regions", str(path), lambda: describe(cpu_build))
    device = build_device_module(emitter, scheme)
    _dump(options, "regions", str(path), lambda: describe_regions(device))
    return device, cpu_build


def emit_ir(path, options: CompileOptions):
    """Steps 1-4 without offloading: the C file as an `llvmlite.ir.Module`."""
    return translate(path, options, offload=False).host


@dataclass
class CompiledProgram:
    host: llvm.ModuleRef         # with the host runtime linked in, unoptimised
    device: object = None        # DeviceBuild: kernels for the target regions, or None
    cpu: object = None           # CpuBuild: work-group functions for the CPU device, or None


def compile_to_host_module(path, options: CompileOptions | None = None) -> llvm.ModuleRef:
    """The program with the host runtime linked in, unoptimised, with the host
    triple and data layout set."""
    return compile_program(path, options).host


def compile_program(path, options: CompileOptions | None = None,
                    whole_program: bool = False) -> CompiledProgram:
    """`whole_program`: the module is to be run as it is (host.internalise follows)."""
    options = options or CompileOptions()
    translation = translate(path, options, cpu=True)
    with _stage("inlining_limits"):
        host.limit_inlining_growth(translation.host, whole_program)
    with _stage("llvm_parse_ir"):
        program = host.prepare(translation.host)
    program.name = Path(path).name  # not "<string>", in messages and the .ll
    with _stage("host_runtime_link"):
        runtime_ir = host_runtime_ir()
        if runtime_ir:
            runtime = host.prepare(llvm.parse_assembly(runtime_ir))
            _yield_to_program(runtime, program)
            _link(program, runtime, "the omp2gpu host runtime")
        host.verify(program)
    return CompiledProgram(program, translation.device, translation.cpu)


def build_host_module(path, options: CompileOptions | None = None) -> llvm.ModuleRef:
    """compile_to_host_module, then optimised at options.opt_level."""
    options = options or CompileOptions()
    return _optimise(compile_to_host_module(path, options), path, options)


def _optimise(module: llvm.ModuleRef, path, options: CompileOptions) -> llvm.ModuleRef:
    host.optimise(module, options.opt_level)
    _dump(options, "opt-ir", str(path), lambda: str(module))
    return module


def run_program(path, args: list[str] = (), options: CompileOptions | None = None) -> int:
    """Compile `path`, JIT it and return what its main returns."""
    options = options or CompileOptions()
    _stage_times.clear()
    with _collector_paused():
        module, code = _compile_for_run(path, options)
    with _stage("jit"):
        engine = host.jit(module, code)
    _report_stage_times()
    try:
        return host.run_main(module, [str(path), *args], engine=engine)
    finally:
        gc.unfreeze()


@contextmanager
def _collector_paused():
    """Pause Python's cyclic garbage collector while compiling. The front end builds
    hundreds of thousands of objects (syntax tree, llvmlite IR) that stay alive until
    the end, so each collection scans them for nothing: a fifth of the front end's time
    on a 2,000-line program. Afterwards they are frozen (gc.freeze), so that the first
    collection, as the program runs, does not scan them either; run_program unfreezes
    them once main returns."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
        gc.freeze()
    finally:
        if enabled:
            gc.enable()


def _compile_for_run(path, options: CompileOptions):
    """The optimised host module, and its machine code where host.precompile made it.
    The offload runtime is prepared last: the CPU device starts worker threads, and
    precompile forks only a single-threaded process."""
    program = compile_program(path, options, whole_program=True)
    module = program.host
    if host.find_main(module) is None:  # checked before the optimiser's time is spent
        raise CompileError(f"{path}: undefined reference to 'main'",
                           hint="`omp2gpu run` needs a program with a main function")
    with _stage("internalise"):
        host.internalise(module)         # main is the whole program's only entry point
    with _stage("optimise"):
        optimised = _optimise(module, path, options)
    with _stage("machine_code"):
        code = host.precompile(optimised)
    from omp2gpu import device_driver
    with _stage("offload_setup"):
        device_driver.prepare_offload(program.device, options, lambda stage, render: _dump(
            options, stage, str(path), render), cpu=program.cpu)
    _check_symbols_resolve(optimised, path)   # after prepare_offload binds the entry points
    return optimised, code


# --- OMP2GPU_TIME_STAGES=1: how long each step of `run` took, on stderr -------

_stage_times: dict[str, float] = {}


@contextmanager
def _stage(name: str):
    if not os.environ.get("OMP2GPU_TIME_STAGES"):
        yield
        return
    start = time.perf_counter()
    try:
        yield
    finally:
        _stage_times[name] = _stage_times.get(name, 0.0) + time.perf_counter() - start


def _report_stage_times() -> None:
    """One line, `omp2gpu: stage times (s): {json}`, before main starts."""
    if os.environ.get("OMP2GPU_TIME_STAGES"):
        import json
        times = {name: round(seconds, 4) for name, seconds in _stage_times.items()}
        host.flush_stdio()
        print(f"omp2gpu: stage times (s): {json.dumps(times)}", file=sys.stderr, flush=True)


def _check_symbols_resolve(module: llvm.ModuleRef, path) -> None:
    """A function the program declares and calls but nobody defines is a link error,
    as with a C linker, not a crash when the JIT'd code jumps to address 0."""
    host.initialise()
    for function in module.functions:
        name = function.name
        if function.is_declaration and not name.startswith("llvm.") \
                and not llvm.address_of_symbol(name):
            raise CompileError(f"{path}: undefined reference to '{name}'")


def _external_definitions(module: llvm.ModuleRef) -> dict[str, object]:
    local = (llvm.Linkage.internal, llvm.Linkage.private)
    return {value.name: value for value in (*module.functions, *module.global_variables)
            if not value.is_declaration and value.linkage not in local}


def _yield_to_program(runtime: llvm.ModuleRef, program: llvm.ModuleRef) -> None:
    """Like a C library, the runtime gives way where the program defines the
    same symbol (say its own omp_get_wtime): its copy becomes weak."""
    ours = _external_definitions(program)
    for name, value in _external_definitions(runtime).items():
        if name in ours:
            value.linkage = llvm.Linkage.weak_any


def _link(program: llvm.ModuleRef, other: llvm.ModuleRef, what: str) -> None:
    try:
        program.link_in(other)
    except RuntimeError as err:
        # The only way valid modules fail to link: one symbol defined twice.
        raise CompileError(f"cannot link {what} into {program.name}: {err}") from None


# --- the host runtime, compiled once and cached ------------------------------

def _runtime_sources() -> list[Path]:
    from omp2gpu.runtime_files import host_runtime_dir
    return sorted(host_runtime_dir().glob("*.c"))


def _cache_key(sources: list[Path]) -> str:
    """Changes whenever the runtime, its headers or the compiler itself change."""
    from omp2gpu.runtime_files import include_dir
    digest = hashlib.sha256(f"{__version__}|{llvmlite.__version__}".encode())
    package = Path(__file__).resolve().parent
    inputs = [*sources, *sorted(p for p in include_dir().rglob("*") if p.is_file()),
              *sorted(package.rglob("*.py"))]
    for path in inputs:
        digest.update(str(path.name).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:32]


def cache_dir() -> Path:
    """$OMP2GPU_CACHE_DIR, else $XDG_CACHE_HOME/omp2gpu, else ~/.cache/omp2gpu."""
    if os.environ.get("OMP2GPU_CACHE_DIR"):
        return Path(os.environ["OMP2GPU_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "omp2gpu"


def compile_host_runtime() -> str:
    """Every runtime/host/*.c through the pipeline, linked into one module's IR
    text (no triple: it is set when linked into a program)."""
    sources = _runtime_sources()
    if not sources:
        return ""
    options = CompileOptions()
    combined = llvm.parse_assembly(str(emit_ir(sources[0], options)))
    combined.name = "omp2gpu_host_runtime"
    for source in sources[1:]:
        _link(combined, llvm.parse_assembly(str(emit_ir(source, options))), source.name)
    return str(combined)


def host_runtime_ir() -> str:
    """The compiled host runtime's IR text, from the disk cache when it is
    current; an unwritable cache only costs the recompilation."""
    sources = _runtime_sources()
    if not sources:
        return ""
    cached = cache_dir() / f"host-runtime-{_cache_key(sources)}.ll"
    return cached_text(cached, compile_host_runtime)


def cached_text(cached: Path, make) -> str:
    """cached's text, else make()'s, written to cached for next time; an unwritable
    cache only costs the remaking."""
    try:
        return cached.read_text(encoding="utf-8")
    except OSError:
        pass
    text = make()
    try:
        cached.parent.mkdir(parents=True, exist_ok=True)
        # Write then rename, so a concurrent reader never sees half a file.
        fd, tmp = tempfile.mkstemp(dir=cached.parent, prefix=f".{cached.stem}-", suffix=".tmp")
    except OSError:
        return text
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(tmp, cached)
    except OSError:
        Path(tmp).unlink(missing_ok=True)
    return text
