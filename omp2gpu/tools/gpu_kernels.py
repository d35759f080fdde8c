"""A target region's GPU kernel as a Python object: `lib.kernels` (omp2gpu/api/kernels.py)
and `omp2gpu report` (report.py measures with these, report_render.py prints them).

What the region's plan says -- source location, construct, scheme and why, the block
size it launches with, the bytes its own map clauses move -- is known at once. What
ptxas and the occupancy calculator say -- registers, spills, shared, local and constant
memory, barriers, occupancy at that block size and the block size with the best -- and
the PTX and optimised LLVM IR are made when first asked for, once per device module.
Without ptxas those figures are None and `unavailable` says why: never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property

import llvmlite.binding as llvm
from pycparser import c_ast

from omp2gpu import device_driver
from omp2gpu.diagnostics import SourceLocation
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.openmp.pragma_syntax import constant_int
from omp2gpu.offload.abi import WIDE_TWIN_SUFFIX, MapType
from omp2gpu.sema.ctypes import variably_modified
from omp2gpu.targets import nvptx
from omp2gpu.tools import occupancy as occ
from omp2gpu.tools.report_render import kernel_summary, kernel_tables

PTXAS_MISSING = ("ptxas not found (PATH, CUDA_HOME, /usr/local/cuda or the nvidia-cuda-nvcc wheel): "
                 "it gives the registers and memory figures")


class DeviceModule:
    """One GPU build's device code (a linker.DeviceCode) for one architecture: its PTX, its
    optimised LLVM IR and ptxas -v's figures, each made when first asked for."""

    def __init__(self, code, options, maxrregcount: int | None = None):
        self.code = code
        self.options = options
        self.arch = options.offload_arch or nvptx.default_arch()
        self.maxrregcount = maxrregcount

    @cached_property
    def ptx(self) -> str:
        """The module's PTX: every kernel, what they call, the device runtime."""
        return device_driver.device_ptx(self.code, self.options)

    @cached_property
    def _optimised(self) -> llvm.ModuleRef:
        return llvm.parse_assembly(device_driver.compile_device(self.code, self.arch).optimised_ir)

    def kernel_ptx(self, name: str) -> str:
        """One kernel's `.entry` of the module's PTX (what --dump=kernel-ptx shows)."""
        return nvptx.entry_sections(self.ptx).get(name, "")

    def function_ir(self, name: str) -> str:
        """The optimised LLVM IR of one function (a kernel: what ptxas got of it)."""
        return str(self._optimised.get_function(name))

    @cached_property
    def _usage(self) -> tuple[dict[str, nvptx.KernelResources], str | None]:
        """(kernel -> ptxas's figures, None), or ({}, why there are none)."""
        if nvptx.find_ptxas() is None:
            return {}, PTXAS_MISSING
        try:
            return nvptx.resource_usage(self.ptx, self.arch, maxrregcount=self.maxrregcount), None
        except nvptx.PtxasNotFound as error:       # here: nvlink, for code with recursion (relocatable.py)
            return {}, str(error)
        except nvptx.PtxasError as error:
            first = next((line for line in error.message.splitlines() if line.strip()), "")
            return {}, f"ptxas failed for {self.arch}: {first.strip()}"

    @property
    def unavailable(self) -> str | None:
        """Why ptxas gave no figures (None: it gave them)."""
        return self._usage[1]

    def resources(self, kernel: str) -> nvptx.KernelResources | None:
        usage, why = self._usage
        return None if why else usage.get(kernel) or nvptx.KernelResources(kernel)

    def wide_twin(self, kernel: str) -> nvptx.KernelResources | None:
        """ptxas's figures for the kernel's wide-register twin (targets/nvptx/wide_twins.py),
        None where the PTX has none or ptxas gave no figures."""
        twin = kernel + WIDE_TWIN_SUFFIX
        return self.resources(twin) if self.kernel_ptx(twin) else None

    @cached_property
    def _fused_parts(self) -> dict[str, int]:
        return nvptx.fusion.from_ptx(self.ptx)

    def fused(self, kernel: str) -> nvptx.KernelResources | None:
        """ptxas's figures for the image's fused kernel (targets/nvptx/fusion.py) when it runs
        this kernel's launches (a `nowait` target task that may run ahead), else None."""
        return self.resources(nvptx.fusion.FUSED_KERNEL) if kernel in self._fused_parts else None

    @cached_property
    def linked_recursion(self) -> list[str]:
        """The recursive functions for which the module is compiled relocatable and linked
        (targets/nvptx/relocatable.py); empty: a whole-program build."""
        if not nvptx.relocatable.links_relocatable(self.ptx):
            return []
        return sorted(nvptx.relocatable.recursive_functions(self.ptx))

    @cached_property
    def maxntid(self) -> dict[str, int]:
        """Kernel -> its .maxntid (x only) where the PTX gives one."""
        found = {}
        for match in re.finditer(r"\.entry\s+([\w$.]+)\s*\(([^{]*)", self.ptx):
            if limit := re.search(r"\.maxntid\s+(\d+)", match[2]):
                found[match[1]] = int(limit[1])
        return found


@dataclass(eq=False)
class Kernel:
    """One target region's GPU kernel. The figures are ptxas's (per thread: registers,
    spill stores/loads and stack frame, i.e. local memory; per block: static shared
    memory, constant memory, named barriers) and the occupancy calculator's for `arch`."""
    name: str                                    # the PTX entry
    location: str                                # file:line:column of the target construct
    construct: str                               # "#pragma omp target ...", macros expanded
    scheme: str
    reason: str                                  # why the scheme was chosen
    module: DeviceModule = field(repr=False)
    block_size: int = 0                          # threads per block for `occupancy`
    block_size_from: str = ""
    fixed_launch: bool = False                   # the scheme launches one shape (serial): no best block
    team_stack_bytes: int = 0                    # global memory per team (control loop)
    bytes: int | None = None                     # bytes the construct's map clauses move per launch
    bytes_from: str = ""

    @classmethod
    def of(cls, built, module: DeviceModule, block_size: int | None = None) -> Kernel:
        """The kernel a GPU build made of a region (a codegen BuiltKernel); `block_size`
        (else the region's own) is the one its occupancy is given at."""
        threads, threads_from = launch_block_size(built, block_size)
        moved, moved_from = mapped_bytes(built)
        text = built.construct.directive.text
        return cls(name=built.kernel_name, location=str(SourceLocation.of(built.construct.coord)),
                   construct=f"#pragma {text}" if text else "", scheme=built.scheme.name,
                   reason=built.reason, module=module, block_size=threads, block_size_from=threads_from,
                   fixed_launch=built.scheme.fixed_launch is not None and not block_size,
                   team_stack_bytes=built.team_stack_bytes or 0, bytes=moved, bytes_from=moved_from)

    @property
    def arch(self) -> str:
        return self.module.arch

    @property
    def unavailable(self) -> str | None:
        """Why the figures are None (ptxas missing or failing), else None."""
        return self.module.unavailable

    @property
    def resources(self) -> nvptx.KernelResources | None:
        return self.module.resources(self.name)

    def _figure(self, name: str) -> int | None:
        resources = self.resources
        return None if resources is None else getattr(resources, name)

    registers = property(lambda self: self._figure("registers"), doc="registers per thread")
    spill_store_bytes = property(lambda self: self._figure("spill_store_bytes"))
    spill_load_bytes = property(lambda self: self._figure("spill_load_bytes"))
    stack_frame_bytes = property(lambda self: self._figure("stack_frame_bytes"), doc="local memory per thread")
    constant_bytes = property(lambda self: self._figure("constant_bytes"))
    barriers = property(lambda self: self._figure("barriers"))

    @property
    def shared_bytes(self) -> int | None:
        """Static shared memory per block. A relocatable build's is nvlink's, less the driver's
        per-block reserve that nvlink counts in (ptxas -c leaves out what the link places)."""
        resources = self.resources
        if resources is None:
            return None
        if resources.linked_shared_bytes is None:
            return resources.shared_bytes
        try:
            reserved = occ.multiprocessor(self.arch).reserved_shared_per_block
        except occ.UnsupportedArchitecture:
            reserved = 0
        return max(resources.linked_shared_bytes - reserved, 0)

    @property
    def stack_unbounded(self) -> bool:
        """Whether the kernel calls a recursive function: its stack has no bound nvlink can
        work out (each thread gets 1 KiB unless LIBOMPTARGET_STACK_SIZE says more)."""
        return bool(self.resources and self.resources.stack_unbounded)

    @property
    def wide_twin_registers(self) -> int | None:
        """Registers per thread of its wide-register twin, which the runtime launches where
        the grid is too small for them to cost occupancy; None: it has none."""
        twin = self.module.wide_twin(self.name)
        return None if twin is None else twin.registers

    @property
    def fused_registers(self) -> int | None:
        """Registers per thread of the fused kernel that runs this kernel's launches batched
        with others (OMP2GPU_FUSE_LAUNCHES); None: its launches are never fused."""
        fused = self.module.fused(self.name)
        return None if fused is None else fused.registers

    @property
    def fused_occupancy(self) -> occ.Occupancy | None:
        """The fused kernel's occupancy at this kernel's block size (a batch's parts share
        one block size: fused_launches.c), None where there is none or no figures."""
        fused = self.module.fused(self.name)
        if fused is None or fused.registers is None:
            return None
        try:
            return occ.occupancy(self.arch, fused.registers, self.block_size, fused.shared_bytes or 0,
                                 barriers=fused.barriers or 0)
        except occ.UnsupportedArchitecture:
            return None

    @property
    def device_link(self) -> str:
        """How its module's machine code is built: whole program, or relocatable and linked."""
        recursive = self.module.linked_recursion
        return f"relocatable, linked (recursion: {', '.join(recursive)})" if recursive else "whole program"

    @property
    def entry_ptx(self) -> str:
        """This kernel's `.entry` of its module's PTX alone (`ptx`: the module's)."""
        return self.module.kernel_ptx(self.name)

    @cached_property
    def _occupancy(self) -> tuple[int | None, occ.Occupancy | None, occ.Occupancy | None, str]:
        """(max threads per block, occupancy at block_size, the best, a note on why not)."""
        if self.resources is None:
            return None, None, None, ""
        regs, shared, bars = self.registers, self.shared_bytes, self.barriers
        try:
            largest = occ.max_threads_per_block(self.arch, regs, shared, bars, self.module.maxntid.get(self.name))
            best = None if self.fixed_launch else occ.best_block_size(self.arch, regs, shared, bars, largest)
            return largest, occ.occupancy(self.arch, regs, self.block_size, shared, barriers=bars), best, ""
        except occ.UnsupportedArchitecture as error:
            return None, None, None, str(error)

    max_threads_per_block = property(lambda self: self._occupancy[0], doc="the largest block it can launch")
    occupancy = property(lambda self: self._occupancy[1], doc="occ.Occupancy at block_size")
    best = property(lambda self: self._occupancy[2], doc="occ.Occupancy at the best block size (None for a "
                                                          "scheme with one launch shape)")
    note = property(lambda self: self._occupancy[3], doc="why there is no occupancy for arch")

    @property
    def limiter(self) -> str | None:
        """What limits the occupancy at block_size (warps, blocks, registers, ...)."""
        return None if self.occupancy is None else self.occupancy.limiter

    @property
    def ptx(self) -> str:
        """The PTX of the module holding the kernel, as ptxas assembles it."""
        return self.module.ptx

    @property
    def llvm_ir(self) -> str:
        """The kernel function's optimised LLVM IR (device runtime inlined)."""
        return self.module.function_ir(self.name)

    def __repr__(self) -> str:
        return f"<omp2gpu.Kernel {kernel_summary(self)}>"

    def __str__(self) -> str:
        """Its table, as `omp2gpu report` prints it."""
        return kernel_tables([self])

    def _repr_markdown_(self) -> str:
        return kernel_tables([self], "markdown")


def kernels_of(built_kernels, module: DeviceModule, block_size: int | None = None) -> list[Kernel]:
    return [Kernel.of(built, module, block_size) for built in built_kernels]


# ----------------------------------------------------------------- from the plan
def launch_block_size(built, block_size: int | None = None) -> tuple[int, str]:
    """(threads per block, where that comes from): `block_size` when given, else the
    scheme's fixed launch, the constant thread_limit clause, the scheme's default."""
    scheme = built.scheme
    if block_size:
        return block_size, "--block-size"
    if scheme.fixed_launch is not None:
        threads = scheme.fixed_launch[1]
        return threads, f"{scheme.name}: {'one thread' if threads == 1 else f'{threads} threads'}"
    clause = _constant_clause(built.construct, "thread_limit")
    if clause and clause > 0:
        return min(clause, 1024), "thread_limit clause"
    return scheme.block_size, "scheme default"


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
