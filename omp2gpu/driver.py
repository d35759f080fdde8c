"""The compile driver: runs the stages in order for one C file.

    preprocess -> parse -> attach pragmas -> emit LLVM IR (host OpenMP scheme)
    -> link the host runtime -> optimise -> write .ll / an object (native_link.py links)

`--dump=STAGES` prints each named stage's artefact to stderr under a banner.
The host runtime (runtime/host/*.c, the omp_* functions) goes through the
same front end and codegen once, and its IR is cached on disk.
"""

from __future__ import annotations

import functools
import gc
import hashlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import llvmlite.binding as llvm

from omp2gpu import cpu_driver, device_driver, linker, object_file
from omp2gpu.codegen import code_rules
from omp2gpu.codegen.code_rules import mark_math_functions
from omp2gpu.codegen.module import ModuleEmitter
from omp2gpu.codegen.openmp.cpu.workgroup import build_cpu_module, describe
from omp2gpu.codegen.openmp.gpu.kernels import build_device_module, describe_regions
from omp2gpu.codegen.openmp.host.threads import ThreadedHostOpenMP
from omp2gpu.codegen.openmp.offload_host import OffloadHostOpenMP
from omp2gpu.codegen.openmp.plan.region_facts import UnitFacts
from omp2gpu.codegen.prototypes import external_prototypes
from omp2gpu.diagnostics import warnings_switched
from omp2gpu.disk_cache import cache_dir, cached_text, compiler_key
from omp2gpu.linker import CompiledUnit, exported_values, link_into, yield_to_program
from omp2gpu.offload import abi
from omp2gpu.pipeline import (
    CompileOptions,
    dump,
    parse_file,
    stage,
)
from omp2gpu.runtime_files import host_runtime_dir, include_files
from omp2gpu.sema.loop_construct import loop_lowering_remarks
from omp2gpu.sema.requires import USM_HEAP_FUNCTIONS, requirements_of
from omp2gpu.sema.speculation import speculate_mapped_loads, speculation_remarks
from omp2gpu.targets import host, shared_libraries


@dataclass
class Translation:
    """Steps 1-4 for one C file: its host module and, for its target regions, the device build."""
    host: object                 # llvmlite ir.Module
    device: object = None        # codegen.openmp.kernels.DeviceBuild, or None
    cpu: object = None           # codegen.openmp.cpu_workgroup.CpuBuild (the CPU device), or None
    prototypes: dict = field(default_factory=dict)   # codegen.prototypes.Prototype of each external function
    host_loop_remarks: list = field(default_factory=list)   # how each `loop` of host code was lowered
    large_objects: list = field(default_factory=list)       # (name, bytes, coord): ModuleEmitter.large_static_objects
    requirements: object = None  # sema.requires.FileRequirements: `requires unified_shared_memory`...
    speculated_loads: list = field(default_factory=list)    # --explain's line for each statement rewritten


def _with_its_warnings(compile_file):
    """`compile_file(path, options, ...)` printing warnings unless its options say -w
    (options.warnings_enabled: per compilation, not per process)."""
    @functools.wraps(compile_file)
    def compiled(path, options: CompileOptions, *args, **kwargs):
        with warnings_switched(options.warnings_enabled):
            return compile_file(path, options, *args, **kwargs)
    return compiled


@_with_its_warnings
def translate(path, options: CompileOptions, offload: bool = True, cpu: bool = False,
              unit_id: str | None = None) -> Translation:
    """Steps 1-4; with `offload`, target regions also become launches and kernels
    (with `cpu`, also the CPU device's work-group functions). `unit_id`: the file is
    to be linked with others (compile_unit). A region's fate is decided once, from its
    facts, before any code exists (region_facts.py, choose.py)."""
    ast = parse_file(path, options)
    offloading = offload and options.offload
    speculated = []
    required = requirements_of(ast)
    # under `requires unified_shared_memory` a region may read past what it maps
    if (offloading and options.code_rules.speculate_loads and options.opt_level > 0
            and not (required and required.unified_shared_memory)):
        with stage("speculate_loads"):
            speculated = speculation_remarks(speculate_mapped_loads(ast, options.code_rules.fast_math))
    facts = UnitFacts(ast) if offloading else None      # every target region's, before codegen
    scheme = OffloadHostOpenMP(options.scheme, unit_id, facts) if offloading else ThreadedHostOpenMP()
    emitter = ModuleEmitter(Path(path).name, scheme, debug_source=str(path) if options.debug_info else None,
                            optimised=options.opt_level > 0, code_rules=options.code_rules)
    with stage("codegen"):
        emitter.emit_translation_unit(ast)
        mark_math_functions(emitter.module, options.code_rules)
    dump(options, "ir", str(path), lambda: str(emitter.module))
    device = cpu_build = None
    # a device build: for the kernels, and for the device copies of the declare target
    # variables (target update, omp_target_is_present), in a file with no target region too
    if isinstance(scheme, OffloadHostOpenMP) and (scheme.regions or scheme.declare_target_globals
                                                  or unit_id and scheme.declare_target_functions):
        with stage("device_codegen"):
            device, cpu_build = _device_builds(emitter, scheme, options, path, cpu)
    emitter.finish_debug_info()
    return Translation(emitter.module, device, cpu_build, external_prototypes(emitter),
                       loop_lowering_remarks(ast, outside_target=True),
                       emitter.large_static_objects(host.LARGE_OBJECT_BYTES),
                       required if isinstance(scheme, OffloadHostOpenMP) else None,
                       speculated_loads=speculated)


def _device_builds(emitter, scheme, options: CompileOptions, path, cpu: bool):
    """The target regions' kernels (and, with `cpu`, the CPU device's work-group functions),
    each build reading the regions' plans."""
    cpu_build = None
    if cpu:
        cpu_build = build_cpu_module(emitter, scheme)
        dump(options, "cpu-regions", str(path), lambda: describe(cpu_build))
    device = build_device_module(emitter, scheme)
    dump(options, "regions", str(path), lambda: describe_regions(device))
    return device, cpu_build


def emit_ir(path, options: CompileOptions):
    """Steps 1-4 without offloading: the C file as an `llvmlite.ir.Module`."""
    return translate(path, options, offload=False).host


@dataclass
class CompiledProgram:
    host: llvm.ModuleRef         # with the host runtime linked in, unoptimised
    device: object = None        # linker.DeviceCode: the GPU kernels of the target regions, or None
    cpu: object = None           # linker.DeviceCode: work-group functions for the CPU device, or None
    name: str = ""               # the first input, for messages
    referenced_in: dict = field(default_factory=dict)   # symbol -> the first unit using it
    large_objects: list = field(default_factory=list)   # host.StaticObject: room checked before `run` execs it


def compile_to_host_module(path, options: CompileOptions | None = None) -> llvm.ModuleRef:
    """The program with the host runtime linked in, unoptimised, with the host
    triple and data layout set."""
    return compile_program(path, options).host


def compile_program(path, options: CompileOptions | None = None,
                    whole_program: bool = False) -> CompiledProgram:
    """One C file as a program. `whole_program`: the module is to be run as it is
    (host.internalise follows)."""
    options = options or CompileOptions()
    program = link_program([compile_unit(path, options, whole_program=whole_program)])
    free_front_end_objects()
    return program


def unit_id(path) -> str:
    """A file's id in kernel names (Clang's file id): unique per file on this machine."""
    return hashlib.sha1(str(Path(path).resolve()).encode()).hexdigest()[:8]


def compile_unit(path, options: CompileOptions, separate: bool = False,
                 whole_program: bool = False, kernel_id: str | None = None):
    """One C file compiled, not linked. `separate`: it is one file of several (its kernel
    names carry its id and its device modules all its `declare target` definitions).
    `kernel_id`: the id its kernel names carry instead (a file loaded again in this
    process must not reuse the kernel names the launcher knows)."""
    translation = translate(path, options, cpu=True,
                            unit_id=kernel_id or (unit_id(path) if separate else None))
    with stage("inlining_limits"):
        host.limit_inlining_growth(translation.host, whole_program)
    with stage("llvm_parse_ir"):
        module = host.prepare(translation.host)
    module.name = Path(path).name  # not "<string>", in messages and the .ll
    if translation.requirements is not None and translation.requirements.unified_shared_memory:
        _route_heap_calls(module)
    gpu = translation.device
    return CompiledUnit(str(path), module, device_driver.device_code(gpu), cpu_driver.cpu_code(translation.cpu),
                        translation.prototypes, gpu_kernels=list(gpu.kernels) if gpu else [],
                        gpu_remarks=list(gpu.remarks) if gpu else [],
                        large_objects=[host.StaticObject(*item) for item in translation.large_objects])


def _route_heap_calls(module: llvm.ModuleRef) -> None:
    """A unified_shared_memory file's malloc, free... become the offload runtime's, which
    hand out memory every device reaches (runtime/offload/usm_heap.c): renamed where the
    file declares them, so that calls and their addresses taken alike go there."""
    for name in USM_HEAP_FUNCTIONS:
        try:
            function = module.get_function(name)
        except NameError:
            continue
        if function.is_declaration:
            function.name = abi.USM_HEAP_PREFIX + name


def link_program(units: list) -> CompiledProgram:
    """Units joined (linker.py), the host runtime linked in."""
    referenced_in: dict[str, str] = {}
    for unit in units:
        for name in linker.references(unit.host):
            referenced_in.setdefault(name, unit.name)
    definitions = {name: unit.name for unit in units for name in linker.external_definitions(unit.host)}
    with stage("link"):
        program = linker.link_host(units)       # first: its multiple definitions are the C ones
        gpu = linker.link_device(units, "gpu", definitions)
        cpu = linker.link_device(units, "cpu", definitions)
    with stage("host_runtime_link"):
        runtime_ir = host_runtime_ir()
        if runtime_ir:
            runtime = host.prepare(llvm.parse_assembly(runtime_ir))
            yield_to_program(runtime, program)
            link_into(program, runtime, "the omp2gpu host runtime")
        host.verify(program)
    return CompiledProgram(program, gpu, cpu, units[0].name, referenced_in,
                           [item for unit in units for item in unit.large_objects])


def build_host_module(path, options: CompileOptions | None = None) -> llvm.ModuleRef:
    """compile_to_host_module, then optimised at options.opt_level."""
    options = options or CompileOptions()
    return _optimise(compile_to_host_module(path, options), path, options)


def _optimise(module: llvm.ModuleRef, path, options: CompileOptions) -> llvm.ModuleRef:
    host.optimise(module, options.opt_level, options.march)
    dump(options, "opt-ir", str(path), lambda: str(module))
    return module


@contextmanager
def collector_paused():
    """Pause Python's cyclic garbage collector while compiling. The front end builds
    hundreds of thousands of objects (syntax tree, llvmlite IR) that stay alive until
    the end, so each collection scans them for nothing: a fifth of the front end's time
    on a 2,000-line program, half of it on 8,000 lines (the oldest generation's
    collections rescan everything)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def free_front_end_objects() -> None:
    """A file's syntax tree and llvmlite IR are garbage once its program is linked (which
    keeps LLVM's modules and the device code as text), but in cycles, which only the
    collector frees, and collector_paused holds it off: one collection here, so that
    LLVM's optimiser and code generation reuse that memory instead of adding to it."""
    if not gc.isenabled():
        gc.collect()


def compile_object(path, options: CompileOptions) -> bytes:
    """`omp2gpu compile -c`: an omp2gpu object (object_file.py): the file's host code with
    the host runtime as weak definitions, and the offload bundle in a section."""
    return unit_object(compile_unit(path, options, separate=True), path, options)


def unit_object(unit, path, options: CompileOptions) -> bytes:
    """compile_object's object of a compiled unit (its host module becomes the object's)."""
    data = object_file.bundle(unit)
    module = unit.host
    runtime_ir = host_runtime_ir()
    if runtime_ir:
        runtime = host.prepare(llvm.parse_assembly(runtime_ir))
        for value in exported_values(runtime).values():
            value.linkage = llvm.Linkage.weak_any     # one copy per object, merged by ld
        link_into(module, runtime, "the omp2gpu host runtime")
    _optimise(module, path, options)
    return host.object_code(object_file.embed(module, data), options.opt_level,
                            options.code_rules.fast_math, options.march)


def link_inputs(paths: list, options: CompileOptions) -> list:
    """The files a link takes: the inputs, then the archives `-l` names in the -L
    directories (as ld takes them, after the inputs)."""
    return [*paths, *shared_libraries.archives(options.libraries, options.library_dirs)]


def load_program(paths: list, options: CompileOptions) -> CompiledProgram:
    """The inputs of `run` linked: one C file alone is compiled as a whole program;
    otherwise each C file separately, with the objects and archives given (link_inputs)."""
    paths = link_inputs(paths, options)
    if len(paths) == 1 and not object_file.is_object_or_archive(paths[0]):
        return compile_program(paths[0], options, whole_program=True)
    units = object_file.load_units(paths, lambda path: compile_unit(path, options, separate=True))
    return link_program(units)


# --- the host runtime, compiled once and cached ------------------------------

def _runtime_sources() -> list[Path]:
    return sorted(host_runtime_dir().glob("*.c"))


def compile_host_runtime() -> str:
    """Every runtime/host/*.c through the pipeline, linked into one module's IR
    text (no triple: it is set when linked into a program)."""
    sources = _runtime_sources()
    if not sources:
        return ""
    options = CompileOptions(code_rules=code_rules.RUNTIME)
    combined = llvm.parse_assembly(str(emit_ir(sources[0], options)))
    combined.name = "omp2gpu_host_runtime"
    for source in sources[1:]:
        link_into(combined, llvm.parse_assembly(str(emit_ir(source, options))), source.name)
    return str(combined)


def host_runtime_ir() -> str:
    """The compiled host runtime's IR text, from the disk cache when it is
    current; an unwritable cache only costs the recompilation."""
    sources = _runtime_sources()
    if not sources:
        return ""
    cached = cache_dir() / f"host-runtime-{compiler_key([*sources, *include_files()])}.ll"
    return cached_text(cached, compile_host_runtime)
