"""ptxas: PTX to cubin, and the resources each kernel needs (ptxas -v)."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

from omp2gpu.targets.nvptx.cubin import kernel_constant_banks
from omp2gpu.targets.nvptx.relocatable import links_relocatable
from omp2gpu.targets.nvptx.toolkit import find_file

PTX_FILE_NAME = "device.ptx"  # what ptxas's messages call the input


class PtxasError(RuntimeError):
    """ptxas rejected the PTX; `message` is what it said."""

    def __init__(self, message: str):
        super().__init__(f"ptxas failed:\n{message}")
        self.message = message


class PtxasNotFound(FileNotFoundError):
    pass


@dataclass
class KernelResources:
    """What one kernel needs per thread and per block, as ptxas reports it."""
    name: str
    registers: int = 0
    spill_store_bytes: int = 0
    spill_load_bytes: int = 0
    shared_bytes: int = 0           # static __shared__ per block
    stack_frame_bytes: int = 0      # local memory per thread
    barriers: int = 0
    constant_banks: dict[int, int] = field(default_factory=dict)   # cmem[N] bytes
    # a relocatable build's (relocatable.py), from nvlink -v: its shared memory per block,
    # which counts the driver's per-block reserve (1 KB from sm_80) and the `.weak .shared`
    # the link placed, and whether its stack has no bound (a call of a recursive function)
    linked_shared_bytes: int | None = None
    stack_unbounded: bool = False

    @property
    def constant_bytes(self) -> int:
        return sum(self.constant_banks.values())


def _find_tool(name: str) -> Path | None:
    """A toolkit program from PATH, a CUDA installation, or the nvidia-cuda-nvcc wheel."""
    on_path = shutil.which(name)
    return Path(on_path) if on_path else find_file(f"bin/{name}")


def find_ptxas() -> Path | None:
    """ptxas from PATH, a CUDA installation, or the nvidia-cuda-nvcc wheel."""
    return _find_tool("ptxas")


def find_nvlink(ptxas: Path) -> Path | None:
    """nvlink beside `ptxas` (one toolkit's pair), else as find_ptxas looks."""
    beside = ptxas.with_name("nvlink")
    return beside if beside.is_file() else _find_tool("nvlink")


def _check(command: list[str], directory: str) -> str:
    """Run one tool of the toolkit; its messages, or PtxasError with them."""
    result = subprocess.run(command, cwd=directory, capture_output=True, text=True)
    messages = (result.stdout + result.stderr).strip()
    if result.returncode != 0:
        raise PtxasError(messages)
    return messages


def _run(ptx: str, arch: str, opt_level: int, verbose: bool,
         maxrregcount: int | None = None) -> tuple[bytes, str]:
    """(cubin, ptxas's messages); `maxrregcount` caps registers per thread (ptxas spills past it).
    PTX that asks for it (relocatable.py) is compiled relocatable (`-c`) and linked by nvlink;
    then the messages end with nvlink's, which give each kernel's registers after the link."""
    ptxas = find_ptxas()
    if ptxas is None:
        raise PtxasNotFound("ptxas not found on PATH, under CUDA_HOME or /usr/local/cuda, "
                            "or in the nvidia-cuda-nvcc wheel")
    relocatable = links_relocatable(ptx)
    nvlink = find_nvlink(ptxas) if relocatable else None
    if relocatable and nvlink is None:
        raise PtxasNotFound("nvlink not found beside ptxas, on PATH or in the nvidia-cuda-nvcc wheel: "
                            "device code with recursion is linked")
    with tempfile.TemporaryDirectory(prefix="omp2gpu-ptxas-") as directory:
        source, target = Path(directory, PTX_FILE_NAME), Path(directory, "device.cubin")
        source.write_text(ptx)
        assembled = "device.o" if relocatable else target.name
        command = [str(ptxas), f"-arch={arch}", f"-O{opt_level}", "-o", assembled, source.name]
        if maxrregcount:
            command.append(f"--maxrregcount={maxrregcount}")
        if "\t.loc\t" in ptx:                # built with -g: keep its lines (compute-sanitizer, ncu)
            command.append("-lineinfo")
        messages = _check(command + (["-c"] if relocatable else []) + (["-v"] if verbose else []), directory)
        if relocatable:
            linked = _check([str(nvlink), f"-arch={arch}", "-o", target.name, assembled]
                            + (["-v"] if verbose else []), directory)
            messages = f"{messages}\n{linked}"
        return target.read_bytes(), messages


def assemble(ptx: str, arch: str, opt_level: int = 3, maxrregcount: int | None = None) -> bytes:
    """The cubin for `ptx` on `arch`."""
    return _run(ptx, arch, opt_level, verbose=False, maxrregcount=maxrregcount)[0]


def resource_usage(ptx: str, arch: str, opt_level: int = 3,
                   maxrregcount: int | None = None) -> dict[str, KernelResources]:
    """Kernel (PTX name) -> its resources."""
    cubin, messages = _run(ptx, arch, opt_level, verbose=True, maxrregcount=maxrregcount)
    usage = parse_verbose_output(messages)
    for kernel, banks in kernel_constant_banks(cubin).items():
        if kernel in usage and not usage[kernel].constant_banks:
            usage[kernel] = replace(usage[kernel], constant_banks=banks)
    return usage


# ptxas -v lines, e.g.
#   ptxas info    : Compiling entry function 'k' for 'sm_90'
#   ptxas info    : Function properties for k
#       40 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
#   ptxas info    : Used 26 registers, used 1 barriers, 40 bytes cumulative stack size, 1024 bytes smem
# (before CUDA 13 the "Used" line also listed "368 bytes cmem[0]"); and after a relocatable
# build, nvlink -v's, whose registers count the functions the kernel calls:
#   nvlink info    : Function properties for 'k':
#   nvlink info    : used 26 registers, used 0 barriers, 0 stack, 1040 bytes smem, 536 bytes cmem[0], 0 bytes lmem
#   nvlink warning : Stack size for entry function 'k' cannot be statically determined
_LINKED = re.compile(r"Function properties for '([^']+)':")
_LINKED_USED = re.compile(r"^nvlink info\s*: used (\d+) registers")
_UNBOUNDED_STACK = re.compile(r"^nvlink warning\s*: Stack size for entry function '([^']+)' cannot be statically")
_ENTRY = re.compile(r"Compiling entry function '([^']+)'")
_PROPERTIES = re.compile(r"Function properties for (\S+)")
_FRAME = re.compile(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads")
_USED = re.compile(r"Used (\d+) registers")
_BARRIERS = re.compile(r"used (\d+) barriers")
_SMEM = re.compile(r"(\d+) bytes smem")
_CMEM = re.compile(r"(\d+) bytes cmem\[(\d+)\]")


def parse_verbose_output(text: str) -> dict[str, KernelResources]:
    """Kernel -> resources from ptxas -v's messages (kernels only: the
    properties of non-entry functions are skipped), registers, shared memory and unbounded
    stacks from nvlink -v's where they follow."""
    kernels: dict[str, dict] = {}
    entry = properties_of = linked = None
    for line in text.splitlines():
        if match := _LINKED.search(line):
            linked = match[1]
        elif (match := _LINKED_USED.search(line)) and linked in kernels:
            kernels[linked]["registers"] = int(match[1])
            if smem := _SMEM.search(line):
                kernels[linked]["linked_shared_bytes"] = int(smem[1])
        elif (match := _UNBOUNDED_STACK.search(line)) and match[1] in kernels:
            kernels[match[1]]["stack_unbounded"] = True
        elif match := _ENTRY.search(line):
            entry = match[1]
            kernels[entry] = {"name": entry, "constant_banks": {}}
        elif match := _PROPERTIES.search(line):
            properties_of = match[1]
        elif match := _FRAME.search(line):
            if properties_of in kernels:
                frame, stores, loads = (int(group) for group in match.groups())
                kernels[properties_of].update(stack_frame_bytes=frame, spill_store_bytes=stores,
                                              spill_load_bytes=loads)
        elif (match := _USED.search(line)) and entry is not None:
            fields = kernels[entry]
            fields["registers"] = int(match[1])
            if barriers := _BARRIERS.search(line):
                fields["barriers"] = int(barriers[1])
            if smem := _SMEM.search(line):
                fields["shared_bytes"] = int(smem[1])
            fields["constant_banks"] = {int(bank): int(size) for size, bank in _CMEM.findall(line)}
    return {name: KernelResources(**fields) for name, fields in kernels.items()}
