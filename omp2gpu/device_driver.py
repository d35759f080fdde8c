"""The device half of the driver: the device build -> PTX -> the launcher.

At `run` time PTX is only produced when the launcher has a GPU to run it on;
`omp2gpu compile -S` produces it regardless. The device runtime
(runtime/device/*.c) is compiled for the device and linked into every device
module before optimisation, so its calls inline.
"""

from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import replace
from pathlib import Path

import llvmlite.binding as llvm

from omp2gpu import cpu_driver
from omp2gpu.codegen.builtins import Builtins
from omp2gpu.codegen.module import ModuleEmitter
from omp2gpu.codegen.openmp.device_module import nvptx_builtins
from omp2gpu.codegen.openmp.kernels import DeviceOpenMP, kernel_table
from omp2gpu.diagnostics import CompileError
from omp2gpu.disk_cache import cached_entry_text, code_cache_enabled, compiler_key
from omp2gpu.linker import DeviceCode
from omp2gpu.offload import entry_points, runtime
from omp2gpu.offload.abi import KernelInfo
from omp2gpu.offload.devices import cpu_pool, cuda_native
from omp2gpu.offload.devices.base import DeviceError
from omp2gpu.offload.native_launch import wanted
from omp2gpu.pipeline import CompileOptions, parse_file
from omp2gpu.runtime_files import device_runtime_dir, host_runtime_dir, include_files
from omp2gpu.targets import nvptx
from omp2gpu.targets.nvptx import effects


def device_runtime_modules():
    """The device runtime as llvmlite ir.Modules (compiled by omp2gpu for nvptx64, with GCC's
    __atomic_* builtins for its locks)."""
    modules = []
    for source in sorted(device_runtime_dir().glob("*.c")):
        emitter = ModuleEmitter(source.name, DeviceOpenMP(), Builtins(nvptx_builtins()))
        nvptx.configure_device_module(emitter.module)
        emitter.emit_translation_unit(parse_file(source, CompileOptions()))
        modules.append(emitter.module)
    return modules


def device_code(build):
    """A DeviceBuild as the linker and the launcher take it (linker.DeviceCode), or None."""
    if build is None:
        return None
    return DeviceCode(str(build.module), kernel_table(build))


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
    """The kernels' launch information with what the PTX's header says each may write
    (for the native path's automatic concurrency, docs/async.md); unchanged without it."""
    found = effects.from_ptx(ptx)
    annotated = dict(kernels)
    for name, effect in found.items():
        if name in annotated:
            read_only = tuple(i for i, writes in enumerate(effect.writes) if not writes)
            annotated[name] = replace(annotated[name], args_only=effect.args_only, read_only_params=read_only)
    return annotated


def compile_device(code: DeviceCode, arch: str) -> nvptx.DeviceCode:
    """The device runtime linked in, optimised, PTX emitted: the optimised IR and the PTX
    (lib.kernels shows both; a run needs only the PTX, from device_ptx's cache)."""
    module = code.parse()
    for runtime_module in device_runtime_modules():
        module.link_in(llvm.parse_assembly(str(runtime_module)))
    # Only kernels are entry points: everything else may be inlined and dropped.
    kernels = set(code.kernels)
    for function in module.functions:
        if not function.is_declaration and function.name not in kernels:
            function.linkage = llvm.Linkage.internal
    return nvptx.compile_device(module, arch=arch, opt_level=3)


def gpu_launch_engine():
    """The GPU's native launch path (runtime/native_launch/cuda_launch.c) JIT-compiled,
    once per process; cuda_native.provide_runtime takes this function."""
    return cpu_driver.native_engine("omp2gpu-gpu-launch",
                                    (*cpu_driver.NATIVE_LAUNCH_SOURCES, "native_launch/cuda_launch.c",
                                     "native_launch/completion_poller.c", "native_launch/run_ahead.c"))


def prepare_offload(gpu, options, dump=None, cpu=None) -> None:
    """Bind the launcher's entry points for the JIT, and give it the kernels for the
    devices there (linker.DeviceCode each): PTX when there is a GPU, the CPU device's
    module for the CPU device."""
    entry_points.install()
    cpu_pool.provide_runtime(cpu_driver.pool_engine)
    cuda_native.provide_runtime(gpu_launch_engine)
    gpu_kernels = gpu is not None and bool(gpu.kernels)
    cpu_kernels = cpu is not None and bool(cpu.kernels)
    kinds = set()
    if (gpu_kernels or cpu_kernels) and runtime.has_devices():
        kinds = {getattr(state.device, "kind", "gpu") for state in runtime.runtime().states}
    if dump:
        dump_code_not_run(gpu if not kinds - {"cpu"} else None, cpu if "cpu" not in kinds else None,
                          options, dump)
    if not kinds:
        return
    ptx = None
    if gpu_kernels and kinds - {"cpu"}:
        try:
            ptx = device_ptx(gpu, options, dump)
        except CompileError as error:
            print(f"omp2gpu: warning: device code generation failed ({error.message}); "
                  "target regions run on the host", file=sys.stderr)
            if not cpu_kernels:
                return
    infos = dict(cpu.kernels) if cpu_kernels else {}
    if gpu_kernels:
        infos.update(with_effects(gpu.kernels, ptx) if ptx else gpu.kernels)
    image = cpu_driver.cpu_image(cpu, dump) if "cpu" in kinds else None
    runtime.register_image(ptx, infos, cpu=image)
    install_fast_path(runtime.runtime(), cpu_image=image, ptx=ptx)


def install_fast_path(launcher, cpu_image, ptx) -> None:
    """Launches skip Python when they can (offload/native_launch.py): set up for the
    default device only (a GPU run does not start the CPU device's workers)."""
    states = launcher.states
    if not 0 <= launcher.default_device < len(states):
        return
    device = states[launcher.default_device].device
    if getattr(device, "kind", "") == "cpu":
        if cpu_image is not None and device.fast_path:
            entry_points.install_fast_path(device.pool.native)
    elif ptx is not None and wanted(os.environ, "OMP2GPU_GPU_FAST_PATH"):
        try:
            native = cuda_native.start()
        except (DeviceError, CompileError) as error:
            print(f"omp2gpu: warning: no native launch path for the GPU ({error}); "
                  "target regions launch through Python", file=sys.stderr)
            return
        entry_points.install_fast_path(native)
        cuda_native.relink()


def program_returned() -> None:
    """main returned: target tasks whose kernels ran ahead of the host are complete at the
    end of the program's implicit parallel region (docs/async.md)."""
    cuda_native.wait_run_ahead()


GPU_STAGES, CPU_STAGES = {"device-ir", "ptx", "kernel-ptx"}, {"cpu-ir", "cpu-opt-ir"}


def dump_code_not_run(gpu, cpu, options, dump) -> None:
    """--dump of device code that this run does not build, made for the dump alone: the GPU's
    (`gpu`) where there is no GPU, the CPU device's (`cpu`) where it is not used."""
    if gpu is not None and gpu.kernels and GPU_STAGES & options.dump:
        try:
            device_ptx(gpu, options, dump)
        except CompileError as error:
            print(f"omp2gpu: warning: no PTX to dump ({error.message})", file=sys.stderr)
    image = cpu_driver.cpu_image(cpu, dump) if CPU_STAGES & options.dump else None
    if image is not None:
        image.module()
