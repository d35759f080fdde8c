"""A program's device image as an object file for a native link (docs/native-executables.md).

The image is what libomp2gpu (runtime/offload/) reads at start-up: a table of the
program's kernels (launch information, the CPU device's work-group function), the CPU
device's copies of the `declare target` globals, and the GPU's PTX as data. It is one
host object: the CPU device's module (work-group functions with the CPU device runtime
linked in, optimised at the CPU device's level, KERNEL_OPT_LEVEL), the table, and a
constructor that registers the table (`__omp2gpu_register_image`) before main. Every
symbol in it is internal, so the device's copies of functions and globals never meet the
host's of the same name, and two images (two omp2gpu objects linked by another
compiler) never clash. The table's layout is runtime/offload/offload.h's `image_desc`. With
`--offload-arch sm_XY` the PTX is also assembled by ptxas into a cubin for that
architecture, which a GPU of that compute capability loads instead of JIT-compiling the
PTX at start-up.
"""

from __future__ import annotations

import re
import sys

import llvmlite.binding as llvm

from omp2gpu import cpu_driver, device_driver
from omp2gpu.diagnostics import CompileError
from omp2gpu.linker import link_into
from omp2gpu.offload import abi
from omp2gpu.pipeline import stage
from omp2gpu.targets import host, nvptx
from omp2gpu.targets.nvptx.libdevice import LibdeviceNotFound

IMAGE_VERSION = 7                     # runtime/offload/offload.h IMAGE_VERSION
REGISTER = "__omp2gpu_register_image"
SCHEME_CODES = {abi.GPU_COMBINED: 1, abi.GPU_CONTROL_LOOP: 2, abi.GPU_SERIAL: 3, abi.GPU_SPMDIZED: 4,
                abi.CPU_COMBINED: 10, abi.CPU_SEQUENTIAL: 11, abi.CPU_TEAMS: 12}
_TYPES = """
%kernel_desc = type { ptr, ptr, i64, i64, i32, i32, i32, i32, ptr, i64, i64, ptr, ptr, i32, i32 }
%global_desc = type { ptr, ptr, i64 }
%image_desc = type { i64, i64, ptr, i64, ptr, ptr, ptr, i64, i64 }
"""


# byte -> its spelling in an LLVM IR c"..." string: printable ASCII as itself, `"`, `\` and
# every other byte as \XX; one str.translate per string (the PTX and the cubin are MBs)
_IR_STRING_BYTES = {b: f"\\{b:02X}" for b in range(256) if not (32 <= b < 127 and b not in (34, 92))}


def _bytes(data: bytes) -> str:
    """An LLVM IR c"..." string of `data` (NUL-terminated by the caller)."""
    return data.decode("latin-1").translate(_IR_STRING_BYTES)


def _quoted(name: str) -> str:
    return '"' + _bytes(name.encode()) + '"'


class _Strings:
    """Private NUL-terminated string constants of the table module."""

    def __init__(self):
        self.lines: list[str] = []

    def add(self, data: bytes) -> str:
        name = f"@.omp2gpu.str.{len(self.lines)}"
        self.lines.append(f'{name} = private unnamed_addr constant [{len(data) + 1} x i8] '
                          f'c"{_bytes(data)}\\00"')
        return name


def param_writes(info: abi.KernelInfo) -> bytes | None:
    """For a kernel that writes memory only through its pointer parameters (the GPU build's
    effects, device_driver.with_effects): one letter a parameter, `r` only read, `w` maybe
    written; None otherwise. The runtime's automatic concurrency reads it (docs/async.md)."""
    if not info.args_only:
        return None
    return "".join("r" if i in info.read_only_params else "w" for i in range(len(info.params))).encode()


def param_bytes(info: abi.KernelInfo) -> bytes | None:
    """One byte a parameter, the bytes its launch passes (runtime/offload/offload.h
    kernel_desc.param_bytes); None where the build did not say (8 each)."""
    if not info.param_bytes:
        return None
    if len(info.param_bytes) != len(info.params) or not all(0 < size < 256 for size in info.param_bytes):
        raise ValueError(f"kernel {info.name}: parameter sizes {info.param_bytes} for {len(info.params)} parameters")
    return bytes(info.param_bytes)


def table_ir(kernels: dict, gpu_names: set, cpu_kernels: dict, cpu_globals: dict[str, int],
             ptx: str | None, triple: str, data_layout: str, cubin: tuple[bytes, int] | None = None) -> str:
    """The image table and its constructor as IR text. `kernels`: name -> the launch
    information (offload.abi.KernelInfo); `gpu_names`: the kernels the PTX holds;
    `cpu_kernels`: name -> the CPU device's KernelInfo (its work-group function has the
    kernel's name); `cpu_globals`: name -> bytes of the CPU device module's globals;
    `cubin`: the PTX assembled for one architecture (bytes, major * 10 + minor) or None."""
    strings = _Strings()
    declarations, rows, global_rows = [], [], []
    for name, info in sorted(kernels.items()):
        params = "".join("b" if kind == abi.BYTES else "p" for kind in info.params).encode()
        cpu = cpu_kernels.get(name)
        if cpu is not None:
            declarations.append(f"declare void @{_quoted(name)}(ptr, i64, i64, i32)")
        team_stack = -1 if info.team_stack_bytes is None else info.team_stack_bytes
        rows.append(
            f"%kernel_desc {{ ptr {strings.add(name.encode())}, ptr {strings.add(params)}, "
            f"i64 {info.default_block_size or 0}, i64 {team_stack}, i32 {SCHEME_CODES.get(info.scheme, 0)}, "
            f"i32 {int(info.one_team)}, i32 {int(name in gpu_names)}, "
            f"i32 {SCHEME_CODES.get(cpu.scheme, 0) if cpu else 0}, "
            f"ptr {'@' + _quoted(name) if cpu else 'null'}, "
            f"i64 {(cpu.default_block_size or 0) if cpu else 0}, i64 {int(cpu.one_team) if cpu else 0}, "
            f"ptr {strings.add(writes) if (writes := param_writes(info)) else 'null'}, "
            f"ptr {strings.add(sizes) if (sizes := param_bytes(info)) else 'null'}, "
            f"i32 {info.fused_slot if name in gpu_names else -1}, i32 {int(info.spreads and name in gpu_names)} }}")
    for name, size in sorted(cpu_globals.items()):
        declarations.append(f"@{_quoted(name)} = external global i8")
        global_rows.append(f"%global_desc {{ ptr {strings.add(name.encode())}, ptr @{_quoted(name)}, i64 {size} }}")
    ptx_ref = strings.add(ptx.encode()) if ptx else "null"
    cubin_ref, cubin_size, cubin_arch = (strings.add(cubin[0]), len(cubin[0]), cubin[1]) if cubin else ("null", 0, 0)
    lines = [f'target triple = "{triple}"', f'target datalayout = "{data_layout}"', _TYPES, *declarations]
    lines.append(f"@.omp2gpu.kernels = private constant [{len(rows)} x %kernel_desc] [{', '.join(rows)}]")
    lines.append(f"@.omp2gpu.globals = private constant [{len(global_rows)} x %global_desc] "
                 f"[{', '.join(global_rows)}]")
    lines += strings.lines
    lines.append(f"@.omp2gpu.image = private constant %image_desc {{ i64 {IMAGE_VERSION}, i64 {len(rows)}, "
                 f"ptr @.omp2gpu.kernels, i64 {len(global_rows)}, ptr @.omp2gpu.globals, ptr {ptx_ref}, "
                 f"ptr {cubin_ref}, i64 {cubin_size}, i64 {cubin_arch} }}")
    lines.append(f"declare void @{REGISTER}(ptr)")
    lines.append("define internal void @.omp2gpu.register_image() {\n"
                 f"  call void @{REGISTER}(ptr @.omp2gpu.image)\n  ret void\n}}")
    lines.append("@llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] "
                 "[{ i32, ptr, ptr } { i32 65535, ptr @.omp2gpu.register_image, ptr null }]")
    return "\n".join(lines) + "\n"


def gpu_ptx(gpu, options, dump=None) -> str | None:
    """The GPU build's PTX, None without GPU kernels or where it cannot be made (then the
    GPU runs none of this program's regions: they run on another device or the host)."""
    if gpu is None or not gpu.needed:
        return None
    try:
        with stage("ptx"):
            return device_driver.device_ptx(gpu, options, dump)
    except CompileError as error:
        print(f"omp2gpu: warning: device code generation failed ({error.message}); "
              "the program's target regions will not run on a GPU", file=sys.stderr)
        return None
    except LibdeviceNotFound as error:       # no CUDA toolkit here: a program for the CPU device and the host
        print(f"omp2gpu: warning: no GPU code in this program: {error}", file=sys.stderr)
        return None


def gpu_cubin(ptx: str | None, options) -> tuple[bytes, int] | None:
    """The PTX assembled by ptxas for --offload-arch (sm_XY), with XY; None without one (the
    driver then compiles the PTX when the program loads it)."""
    arch = options.offload_arch
    digits = re.fullmatch(r"sm_(\d+)a?", arch or "")
    if ptx is None or digits is None or nvptx.find_ptxas() is None:
        return None
    try:
        with stage("ptxas"):
            return nvptx.assemble(ptx, arch), int(digits.group(1))
    except (nvptx.PtxasError, nvptx.PtxasNotFound) as error:
        print(f"omp2gpu: warning: no cubin for {arch} ({error}); the GPU compiles the PTX when the program "
              "starts", file=sys.stderr)
        return None


def image_module(gpu, cpu, options, dump=None) -> llvm.ModuleRef | None:
    """The image as one host module (every definition internal), None when the program
    has no kernels. `gpu`, `cpu`: the linked device code (linker.DeviceCode) or None.
    `dump(stage, render)`: --dump's device-ir, ptx, cpu-ir and cpu-opt-ir."""
    has_gpu = gpu is not None and gpu.needed
    has_cpu = cpu is not None and cpu.needed
    if not (has_gpu or has_cpu):
        return None
    ptx = gpu_ptx(gpu, options, dump)
    kernels = dict(cpu.kernels) if has_cpu else {}
    if has_gpu:                            # the GPU's launch information wins, as in the launcher
        kernels.update(device_driver.with_effects(gpu.kernels, ptx) if ptx else gpu.kernels)
    if has_cpu:
        module = cpu_driver.CpuImage(cpu, dump).linked()
    else:
        module = host.prepare(llvm.parse_assembly(""))
    module.name = "omp2gpu-device-image"
    target_data = llvm.create_target_data(module.data_layout)
    cpu_globals = {variable.name: target_data.get_abi_size(variable.global_value_type)
                   for variable in module.global_variables
                   if not variable.is_declaration and variable.linkage == llvm.Linkage.external}
    table = table_ir(kernels, set(gpu.kernels) if has_gpu and ptx else set(),
                     dict(cpu.kernels) if has_cpu else {}, cpu_globals, ptx, module.triple, module.data_layout,
                     gpu_cubin(ptx, options))
    link_into(module, llvm.parse_assembly(table), "the device image table")
    for value in (*module.functions, *module.global_variables):
        if not value.is_declaration and not value.name.startswith("llvm.") \
                and value.linkage not in (llvm.Linkage.internal, llvm.Linkage.private):
            value.linkage = llvm.Linkage.internal
    host.optimise(module, image_opt_level(options), options.march, interleaving=options.opt_level >= 3)
    if dump and has_cpu:
        dump("cpu-opt-ir", lambda: str(module))
    return module


def image_opt_level(options) -> int:
    """The CPU device's code is optimised at -O3, but not at all under -O0 (where
    a debugger is to see every variable of a region, as in the host's code). Below the
    program's -O3 its vectorised loops are not interleaved (image_module): as gcc -O2
    neither unrolls nor interleaves, and on bench/startup's 50,000-line file the image's
    -O3 and code generation took 6.4 s instead of 8.6. Kernels of a matmul and an n-body
    step came out the same; an L1-resident integer reduction's time did not change beyond
    the noise (1.8-2.2 against 2.2-2.5 ms)."""
    return cpu_driver.KERNEL_OPT_LEVEL if options.opt_level > 0 else 0


def large_globals(module: llvm.ModuleRef) -> list:
    """The image's large static objects (targets.host.StaticObject, no location): the CPU
    device's copies of the program's `declare target` objects, not the image's own data."""
    return [item for item in host.module_objects(module) if not item.name.startswith(".omp2gpu.")]


def image_object(gpu, cpu, options, dump=None) -> bytes | None:
    """image_module as an ELF object, None when the program has no kernels."""
    module = image_module(gpu, cpu, options, dump)
    return None if module is None else host.object_code(module, image_opt_level(options),
                                                         options.code_rules.fast_math, options.march)
