"""The CPU device's half of the driver: the CPU build -> optimised host IR.

The CPU device runtime (runtime/cpu_device/*.c) is C compiled by omp2gpu for
the host with GCC's __atomic_* builtins (codegen/atomic_builtins.py), cached on
disk like the host runtime:
- pool.c, launch.c  the worker pool and the native launch path, JIT-compiled
              once per process (pool_engine) and handed to the launcher
              (offload/devices/cpu_pool.py), which compiles nothing itself;
- omp_device.c the omp_* answers inside target regions, linked into every CPU
              module before optimisation, so that its calls inline.
A CpuImage is what the launcher hands the CPU device: the work-group functions
of one program, optimised (-O3, for the host CPU's vector units) only when the
device first loads them.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import llvmlite.binding as llvm

from omp2gpu.codegen.builtins import Builtins
from omp2gpu.codegen.module import ModuleEmitter
from omp2gpu.codegen.openmp.host import HostOpenMP
from omp2gpu.codegen.openmp.kernels import kernel_table
from omp2gpu.diagnostics import CompileError
from omp2gpu.disk_cache import (
    cache_dir,
    cached_text,
    code_cache_enabled,
    compiler_key,
    entry_path,
    read_entry,
    write_entry,
)
from omp2gpu.linker import DeviceCode, link_into, yield_to_program
from omp2gpu.offload.devices.base import DeviceError
from omp2gpu.pipeline import CompileOptions, parse_file
from omp2gpu.runtime_files import include_files, runtime_root
from omp2gpu.targets import host
from omp2gpu.targets.host.machine_code_cache import entry_key

KERNEL_RUNTIME_SOURCE = "cpu_device/omp_device.c"
# the native launch path's device-independent half (runtime/native_launch/native_launch.h)
NATIVE_LAUNCH_SOURCES = ("native_launch/mirror.c", "native_launch/native_lock.c", "native_launch/present_mirror.c",
                         "native_launch/loans.c", "native_launch/block_cache.c",
                         "native_launch/target_tasks.c", "native_launch/footprints.c",
                         "native_launch/pinned_ranges.c")
POOL_SOURCES = ("cpu_device/pool.c", "cpu_device/launch.c", *NATIVE_LAUNCH_SOURCES)
# device: the GPU runtime's omp_settings.c, which the CPU device's omp_device.c includes
RUNTIME_FOLDERS = ("cpu_device", "native_launch", "device")
KERNEL_OPT_LEVEL = 3
POOL_OPT_LEVEL = 2


def cpu_runtime_dir() -> Path:
    return runtime_root() / "cpu_device"


def compile_runtime_source(source: Path, extra_include_dirs: tuple[str, ...] = ()) -> str:
    """One runtime/cpu_device/*.c or runtime/native_launch/*.c file (or another runtime C
    file, with the folders of headers it needs) as LLVM IR text (no triple)."""
    emitter = ModuleEmitter(source.name, HostOpenMP(), Builtins())
    options = CompileOptions(include_dirs=tuple(str(runtime_root() / folder) for folder in RUNTIME_FOLDERS)
                             + tuple(extra_include_dirs))
    emitter.emit_translation_unit(parse_file(source, options))
    return str(emitter.module)


@lru_cache(maxsize=None)
def runtime_ir(name: str) -> str:
    """The compiled runtime/<name> (a file of RUNTIME_FOLDERS), from the disk cache when it
    is current."""
    source = runtime_root() / name
    # host: the files omp_device.c includes from there (error_directive.c, omp_allocators.c)
    sources = [path for folder in (*RUNTIME_FOLDERS, "host") for path in sorted((runtime_root() / folder).iterdir())]
    key = compiler_key([*sources, *include_files()], salt=source.name)
    cached = cache_dir() / f"cpu-{source.stem}-{key}.ll"
    return cached_text(cached, lambda: compile_runtime_source(source))


class CpuImage:
    """One program's work-group functions (a linker.DeviceCode), compiled for the host
    when first needed."""

    def __init__(self, code, dump=None):
        self.code = code
        self.kernels = {name: info.scheme for name, info in code.kernels.items()}
        # The launch information of the CPU device's own build (a region whose metadirective
        # chose differently there than on the GPU is shaped differently: one team, say).
        self.infos = dict(code.kernels)
        self._dump = dump
        self._module = None

    def module(self) -> llvm.ModuleRef:
        """Optimised, the CPU device runtime linked in, only kernel entries external."""
        if self._module is None:
            self._module = self.linked()
            host.optimise(self._module, KERNEL_OPT_LEVEL)
            if self._dump:
                self._dump("cpu-opt-ir", lambda: str(self._module))
        return self._module

    def linked(self) -> llvm.ModuleRef:
        """Unoptimised, the CPU device runtime linked in, only kernel entries external."""
        if self._dump:
            self._dump("cpu-ir", lambda: self.code.module_text)
        module = host.prepare(self.code.parse())
        module.name = "omp2gpu-cpu-device"
        runtime = host.prepare(llvm.parse_assembly(runtime_ir(KERNEL_RUNTIME_SOURCE)))
        yield_to_program(runtime, module)
        link_into(module, runtime, "the CPU device runtime")
        for function in module.functions:
            if not function.is_declaration and function.name not in self.kernels:
                function.linkage = llvm.Linkage.internal
        return module

    def engine(self):
        """(MCJIT engine, module): the image JIT-compiled in this process, its machine code
        from the disk cache when the same IR was compiled before (jit). The launcher's
        CpuDevice calls it; a CompileError becomes its DeviceError (a host fallback)."""
        try:
            return self._engine()
        except CompileError as error:
            raise DeviceError(error.message) from None

    def _engine(self):
        module = self.linked()
        key = str(module)
        check_resolved(module)
        if self._dump:
            self._dump("cpu-opt-ir", lambda: str(host.optimise(llvm.parse_assembly(key), KERNEL_OPT_LEVEL)))
        host.check_room(host.module_objects(module))     # its declare-target copies, before MCJIT's abort
        return jit(module, key, KERNEL_OPT_LEVEL), module

    def __repr__(self) -> str:
        return f"<CpuImage {len(self.kernels)} kernels>"


def cpu_code(build):
    """A CpuBuild as the linker and the launcher take it (linker.DeviceCode), or None."""
    if build is None:
        return None
    return DeviceCode(str(build.module), kernel_table(build))


def cpu_image(code, dump=None) -> CpuImage | None:
    """The CPU device's image of a linker.DeviceCode (or of a CpuBuild), None without kernels."""
    if code is not None and not isinstance(code, DeviceCode):
        code = cpu_code(code)
    if code is None or not code.kernels:
        return None
    return CpuImage(code, dump)


def unresolved_symbols(module: llvm.ModuleRef, known=()) -> list[str]:
    """Declarations the JIT could not resolve (MCJIT aborts the process on one)."""
    missing = []
    for value in (*module.functions, *module.global_variables):
        if not value.is_declaration or value.name.startswith("llvm.") or value.name in known:
            continue
        if llvm.address_of_symbol(value.name) is None:
            missing.append(value.name)
    return missing


def check_resolved(module: llvm.ModuleRef, known=()) -> None:
    missing = unresolved_symbols(module, known)
    if missing:
        raise CompileError(f"the CPU device module calls {', '.join(sorted(missing))}, "
                           "which nothing defines")


# --- JIT compilation for the CPU device ----------------------------------------------

@lru_cache(maxsize=None)
def pool_engine():
    """The worker pool's native code and its native launch path (POOL_SOURCES)
    JIT-compiled, once per process; cpu_pool.provide_runtime takes this function."""
    return native_engine("omp2gpu-cpu-pool", POOL_SOURCES)


def native_engine(name: str, sources: tuple[str, ...]):
    """Runtime C files (runtime/<source>) compiled, linked into one module and
    JIT-compiled: native code the launcher calls through ctypes."""
    return native_engine_of_ir(name, [(source, runtime_ir(source)) for source in sources])


def native_engine_of_ir(name: str, units: list[tuple[str, str]]):
    """Compiled runtime C files, (source name, IR text) each, linked into one module
    named `name` and JIT-compiled."""
    module = host.prepare(llvm.parse_assembly(units[0][1]))
    module.name = name
    for source, text in units[1:]:
        link_into(module, host.prepare(llvm.parse_assembly(text)), source)
    return jit(module, "\0".join(text for _, text in units), POOL_OPT_LEVEL)


def jit(module, key_text: str, opt_level: int):
    """An MCJIT engine for `module` (unoptimised), its machine code from the disk cache
    when the same IR was compiled for this CPU before; else optimised and compiled now,
    and cached. Start-up time: a program run again skips both."""
    path = entry_path("cpu-object", entry_key(key_text, opt_level)) if code_cache_enabled() else None
    entry = read_entry(path) if path else None
    cached = entry[1][0] if entry and len(entry[1]) == 1 else None
    if cached is None:
        host.optimise(module, opt_level)
    engine = llvm.create_mcjit_compiler(module, jit_target_machine(opt_level))
    if path:
        engine.set_object_cache(lambda _module, data: write_entry(path, {}, (data,)),
                                lambda _module: cached)
    engine.finalize_object()
    return engine


def jit_target_machine(opt_level: int):
    """A target machine for one MCJIT engine, which takes ownership of it (so never the
    cached targets.host.target_machine(), which a collected engine would free)."""
    host.initialise()
    return llvm.Target.from_default_triple().create_target_machine(
        cpu=llvm.get_host_cpu_name(), features=llvm.get_host_cpu_features().flatten(),
        opt=opt_level, reloc="default", codemodel="jitdefault", jit=True)
