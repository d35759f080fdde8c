"""The CPU device's half of the driver: the CPU build -> host IR for a native program's
image (native_image.py).

The CPU device's kernel runtime, runtime/cpu_device/omp_device.c (the omp_* answers
inside target regions), is C compiled by omp2gpu for the host with GCC's __atomic_*
builtins (codegen/atomic_builtins.py), cached on disk like the host runtime, and linked
into every CPU module before optimisation, so that its calls inline. (The worker pool,
pool.c and launch.c, is part of libomp2gpu, built by cc: targets/native_runtime.py.)
A CpuImage is the work-group functions of one program, the runtime linked in.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import llvmlite.binding as llvm

from omp2gpu.codegen import code_rules
from omp2gpu.codegen.builtins import Builtins
from omp2gpu.codegen.module import ModuleEmitter
from omp2gpu.codegen.openmp.gpu.kernels import kernel_table
from omp2gpu.codegen.openmp.host.scheme import HostOpenMP
from omp2gpu.disk_cache import (
    cache_dir,
    cached_text,
    compiler_key,
)
from omp2gpu.linker import DeviceCode, link_into, yield_to_program
from omp2gpu.pipeline import CompileOptions, parse_file
from omp2gpu.runtime_files import include_files, runtime_root
from omp2gpu.targets import host

KERNEL_RUNTIME_SOURCE = "cpu_device/omp_device.c"
# device: the GPU runtime's omp_settings.c, which the CPU device's omp_device.c includes
RUNTIME_FOLDERS = ("cpu_device", "device")
KERNEL_OPT_LEVEL = 3


def cpu_runtime_dir() -> Path:
    return runtime_root() / "cpu_device"


def compile_runtime_source(source: Path, extra_include_dirs: tuple[str, ...] = ()) -> str:
    """One runtime/cpu_device/*.c file (or another runtime C file, with the folders of
    headers it needs) as LLVM IR text (no triple)."""
    emitter = ModuleEmitter(source.name, HostOpenMP(), Builtins(), code_rules=code_rules.RUNTIME)
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
        self._dump = dump

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

    def __repr__(self) -> str:
        return f"<CpuImage {len(self.kernels)} kernels>"


def cpu_code(build):
    """A CpuBuild as the linker and native_image take it (linker.DeviceCode), or None."""
    if build is None:
        return None
    return DeviceCode(str(build.module), kernel_table(build), build.variables)
