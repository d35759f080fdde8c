"""The device half of the driver: the device build -> PTX (for a native program's
image, native_image.py, and `omp2gpu compile -S`). The device runtime
(runtime/device/*.c) is compiled for the device and linked into every device
module before optimisation, so its calls inline.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path

import llvmlite.binding as llvm

from omp2gpu.codegen import code_rules
from omp2gpu.codegen.builtins import Builtins
from omp2gpu.codegen.module import ModuleEmitter
from omp2gpu.codegen.openmp.gpu.device_module import nvptx_builtins
from omp2gpu.codegen.openmp.gpu.kernels import DeviceOpenMP, kernel_table
from omp2gpu.disk_cache import cache_dir, cached_entry_text, cached_text, code_cache_enabled, compiler_key
from omp2gpu.linker import DeviceCode
from omp2gpu.offload.abi import KernelInfo
from omp2gpu.pipeline import CompileOptions, parse_file
from omp2gpu.runtime_files import device_runtime_dir, host_runtime_dir, include_files
from omp2gpu.targets import nvptx
from omp2gpu.targets.nvptx import effects


def device_runtime_modules():
    """The device runtime as llvmlite ir.Modules (compiled by omp2gpu for nvptx64, with GCC's
    __atomic_* builtins for its locks)."""
    return [_runtime_module(source) for source in sorted(device_runtime_dir().glob("*.c"))]


def _runtime_module(source: Path):
    emitter = ModuleEmitter(source.name, DeviceOpenMP(), Builtins(nvptx_builtins()), code_rules=code_rules.RUNTIME)
    nvptx.configure_device_module(emitter.module)
    emitter.emit_translation_unit(parse_file(source, CompileOptions()))
    return emitter.module


def device_runtime_ir() -> list[str]:
    """device_runtime_modules' IR texts, from the disk cache when current (as the host and
    CPU device runtimes' are): compiling them from C took a second or two of every build
    with target regions."""
    sources = sorted(device_runtime_dir().glob("*.c"))
    inputs = [*sources, *sorted(host_runtime_dir().glob("*.c")), *include_files()]   # what they include
    return [cached_text(cache_dir() / f"device-{source.stem}-{compiler_key(inputs, salt=source.name)}.ll",
                        lambda source=source: str(_runtime_module(source)))
            for source in sources]


def device_code(build):
    """A DeviceBuild as the linker and the launcher take it (linker.DeviceCode), or None."""
    if build is None:
        return None
    return DeviceCode(str(build.module), kernel_table(build), build.variables)


def device_ptx(code, options, dump=None) -> str:
    """PTX for device code (a linker.DeviceCode, or a DeviceBuild): kernels + called
    functions + device runtime + libdevice; from the disk cache where the same code was
    compiled for `arch` with the same runtime and compiler before."""
    if not isinstance(code, DeviceCode):
        code = device_code(code)
    arch = options.offload_arch or nvptx.default_arch()
    if dump:
        dump("device-ir", lambda: code.module_text)
    if code_cache_enabled():     # the same device code compiled before: its PTX from disk
        key = compiler_key(ptx_inputs(code), salt="|".join([
            arch, hashlib.sha256(code.module_text.encode()).hexdigest(), *sorted(code.kernels)]))
        ptx = cached_entry_text("ptx", key, lambda: compile_ptx(code, arch))
    else:
        ptx = compile_ptx(code, arch)
    if dump:
        dump("ptx", lambda: ptx)
        dump("kernel-ptx", lambda: "\n".join(f"// ----- kernel {name}\n{text}"
                                              for name, text in nvptx.entry_sections(ptx).items()))
    return ptx


def ptx_inputs(code: DeviceCode) -> list[Path]:
    """The files besides `code` that its PTX follows from (cache keys read them):
    the device runtime (with the host runtime's files it includes: omp_allocators.c), the
    headers, and libdevice where the code calls it."""
    libdevice = nvptx.find_libdevice() if f"@{nvptx.LIBDEVICE_PREFIX}" in code.module_text else None
    return [*sorted(device_runtime_dir().glob("*.c")), *sorted(host_runtime_dir().glob("*.c")),
            *include_files(), *([libdevice] if libdevice else [])]


def compile_ptx(code: DeviceCode, arch: str) -> str:
    """The PTX, with what each kernel may write at its top (targets/nvptx/effects.py)."""
    compiled = compile_device(code, arch)
    return effects.as_ptx_comments(effects.kernel_effects(compiled.optimised_ir, code.kernels)) + compiled.ptx


def with_effects(kernels: dict[str, KernelInfo], ptx: str) -> dict[str, KernelInfo]:
    """The kernels' launch information with what the PTX's header says: what each may
    write (for the native path's automatic concurrency, docs/async.md) and the fused
    kernel's slot of each it runs; unchanged without it."""
    found = effects.from_ptx(ptx)
    annotated = dict(kernels)
    for name, effect in found.items():
        if name in annotated:
            read_only = tuple(i for i, writes in enumerate(effect.writes) if not writes)
            annotated[name] = replace(annotated[name], args_only=effect.args_only, read_only_params=read_only)
    for name, slot in nvptx.fusion.from_ptx(ptx).items():
        if name in annotated:
            annotated[name] = replace(annotated[name], fused_slot=slot)
    return annotated


def compile_device(code: DeviceCode, arch: str) -> nvptx.DeviceCode:
    """The device runtime linked in, optimised, PTX emitted: the optimised IR and the PTX
    (lib.kernels shows both; a run needs only the PTX, from device_ptx's cache)."""
    module = code.parse()
    for runtime_ir in device_runtime_ir():
        module.link_in(llvm.parse_assembly(runtime_ir))
    # The kernel that runs several launches as one, for the regions that may be fused
    fused = nvptx.fusion.fuse(module, {name: info.param_bytes or (8,) * len(info.params)
                                       for name, info in code.kernels.items()})
    # Only kernels are entry points: everything else may be inlined and dropped.
    kernels = set(code.kernels) | ({nvptx.fusion.FUSED_KERNEL} if fused else set())
    for function in module.functions:
        if not function.is_declaration and function.name not in kernels:
            function.linkage = llvm.Linkage.internal
    compiled = nvptx.compile_device(module, arch=arch, opt_level=3)
    # Records first (ptx_text.header_records reads the comment lines at the top)
    return replace(compiled, ptx=nvptx.fusion.as_ptx_comments(fused) + nvptx.relocatable.as_ptx_comment(compiled.ptx)
                   + nvptx.wide_twins.with_wide_twins(compiled.ptx))
