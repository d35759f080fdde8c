"""Fused launches (docs/async.md, "Fused launches"): one kernel that runs the blocks of
several target regions' launches at once, the regions' kernels side by side in one grid.

A region that may be fused (a `target ... nowait` with no `depend`, whose scheme takes no
hidden parameter: codegen/openmp/gpu/device_module.py) is emitted as a *body*,
`KERNEL__fusable`, that reads its block's number and the grid's size (ctaid.x, nctaid.x)
from its last parameters unless told to read the registers, and a kernel that calls it
so (intrinsics.PartGrid). Once
the device runtime is linked in, `fuse` keeps the bodies that nothing they reach reads
the grid through (omp_get_team_num, omp_get_num_teams, a lock's owner...) and links in
one more kernel, FUSED_KERNEL, whose one parameter is a descriptor of the launch:

    word 0                     the number of parts, n (at most MAX_PARTS)
    word 1 + i (i < n)         part i: bits 0-31 its first block, 32-47 its body's slot,
                               48-63 where its arguments start (a word index after the table)
    words 1 + MAX_PARTS ...    the arguments: each part's parameters in order, each the
                               bytes its launch passes (KernelInfo.param_bytes), 8-aligned

Block b of the fused grid runs part i's body as block b - first(i) of a grid of
first(i + 1) - first(i) blocks (the last part: to the end of the grid). Every part runs
with the fused launch's block size: the runtime fuses launches of one block size only.
The kernel's registers are the most any body needs and its shared memory all the bodies'
together (the bodies taken in are capped at SHARED_BYTES_CAP).

The kernels fused and their slots travel with the PTX as comment lines at its top
(`// omp2gpu-fused KERNEL SLOT`), as the effects do (effects.py); the image table gives
each kernel its slot (runtime/offload/fused_launches.c packs the descriptor).
"""

from __future__ import annotations

import re

import llvmlite.binding as llvm
from llvmlite import ir

from omp2gpu.targets.nvptx.intrinsics import I32, PART_GRID_ATTRIBUTE, SPECIAL_REGISTERS, PartGrid
from omp2gpu.targets.nvptx.ptx_text import header_records

BODY_SUFFIX = "__fusable"
FUSED_KERNEL = "__omp_offloading_fused_launch"
PTX_TAG = "// omp2gpu-fused"
MAX_PARTS = 32                 # launches one fused launch runs (runtime/offload/offload.h FUSED_MAX_PARTS)
DESCRIPTOR_WORDS = 512         # the kernel's parameter: 4096 bytes, what every CUDA GPU takes
SHARED_BYTES_CAP = 8192        # the bodies' static shared memory, all together
GRID_PARAMS = 3                # a body's last parameters: real grid (i1), its block, its blocks
_GRID_INTRINSICS = frozenset(SPECIAL_REGISTERS[f"{register}.{axis}"]
                             for register in ("ctaid", "nctaid") for axis in "xyz")
_SYMBOL = re.compile(r"@(\"[^\"]+\"|[-a-zA-Z$._][-a-zA-Z$._0-9]*)")


# ------------------------------------------------------------------ codegen: a region's body
def region_body(kernel: ir.Function) -> ir.Function:
    """The function `kernel`'s region is emitted into, with three more parameters: whether
    it reads the real grid, and else its block's number and its blocks (PartGrid: what
    read_sreg gives for ctaid.x and nctaid.x); `kernel` becomes a call of it that says
    "the real grid". The body is external until the device code is linked (the fused
    kernel's module names it), then internal and always inlined: the kernel's code is
    what it was, each register read where the region reads it."""
    module = kernel.module
    params = [*kernel.function_type.args, ir.IntType(1), I32, I32]
    body = ir.Function(module, ir.FunctionType(ir.VoidType(), params), name=kernel.name + BODY_SUFFIX)
    body.attributes.add("alwaysinline")
    real, block, blocks = body.args[-GRID_PARAMS:]
    real.name, block.name, blocks.name = "real.grid", "part.block", "part.blocks"
    setattr(body, PART_GRID_ATTRIBUTE, PartGrid(real, {"ctaid.x": block, "nctaid.x": blocks}))
    builder = ir.IRBuilder(kernel.append_basic_block("entry"))
    builder.call(body, [*kernel.args, ir.Constant(ir.IntType(1), 1), ir.Constant(I32, 0), ir.Constant(I32, 0)])
    builder.ret_void()
    return body


# ------------------------------------------------------------------ link time: the fused kernel
def fuse(module: llvm.ModuleRef, param_bytes: dict[str, tuple[int, ...]]) -> dict[str, int]:
    """Link the fused kernel into `module` (the device code with its runtime, before
    anything is internalised) for the kernels of `param_bytes` (name -> the bytes each
    parameter passes) that have a body the grid cannot reach; their slots."""
    target_data = llvm.create_target_data(module.data_layout)
    shared = {variable.name: target_data.get_abi_size(variable.global_value_type)
              for variable in module.global_variables if "addrspace(3)" in str(variable.type)}
    functions = {function.name: function for function in module.functions}
    taken, shared_taken = [], set()
    for name in sorted(param_bytes):
        body = functions.get(name + BODY_SUFFIX)
        if body is None or body.is_declaration:
            continue
        reached = _reached_shared(body, functions, shared)
        if reached is None or not _passes_as_laid_out(body, param_bytes[name], target_data):
            continue
        if sum(shared[s] for s in shared_taken | reached) > SHARED_BYTES_CAP:
            continue
        shared_taken |= reached
        taken.append((body, param_bytes[name]))
    if not taken:
        return {}
    module.link_in(llvm.parse_assembly(_fused_kernel_ir(module, taken)))
    return {body.name[:-len(BODY_SUFFIX)]: slot for slot, (body, _) in enumerate(taken)}


def _reached_shared(body, functions: dict, shared: dict) -> set[str] | None:
    """The shared-memory globals `body` and the functions it reaches name; None when one of
    those functions reads the grid's registers (the body's own reads are its PartGrid's)
    or one of them calls through a pointer (it might)."""
    seen, pending, named_shared = {body.name}, [body], set()
    while pending:
        function = pending.pop()
        for block in function.blocks:
            for instruction in block.instructions:
                callee = list(instruction.operands)[-1] if instruction.opcode == "call" else None
                if callee is not None and callee.value_kind != llvm.ValueKind.function:
                    return None                                       # through a pointer, or asm
                for symbol in _SYMBOL.findall(str(instruction)):
                    symbol = symbol.strip('"')
                    if symbol in shared:
                        named_shared.add(symbol)
                    elif symbol in _GRID_INTRINSICS:
                        if function is not body:
                            return None
                    elif symbol in functions and symbol not in seen:
                        seen.add(symbol)
                        if not functions[symbol].is_declaration:
                            pending.append(functions[symbol])
    return named_shared


def _passes_as_laid_out(body, param_bytes: tuple[int, ...], target_data) -> bool:
    """Whether the body's parameters (less the grid's) are what the runtime packs: each
    of its launch's size, and of a type the fused kernel's text can name."""
    params = list(body.arguments)[:-GRID_PARAMS]
    if len(params) != len(param_bytes):
        return False
    return all("%" not in str(p.type) and target_data.get_abi_size(p.type) == size
               for p, size in zip(params, param_bytes))


def argument_offsets(param_bytes) -> list[int]:
    """Each parameter's byte offset in a part's arguments (8-aligned, in order)."""
    offsets, at = [], 0
    for size in param_bytes:
        offsets.append(at)
        at += (size + 7) // 8 * 8
    return offsets


def _fused_kernel_ir(module, bodies) -> str:
    """FUSED_KERNEL as IR text: find the block's part, then call its body (see the top).
    `bodies`: (body, the bytes each of its parameters takes: _passes_as_laid_out's)."""
    table_end = 1 + MAX_PARTS
    lines = [f'target triple = "{module.triple}"', f'target datalayout = "{module.data_layout}"',
             "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()", "declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()"]
    for body, _ in bodies:
        lines.append(f"declare void @{body.name}({', '.join(str(a.type) for a in body.arguments)})")
    lines += [
        f"define ptx_kernel void @{FUSED_KERNEL}(ptr byval([{DESCRIPTOR_WORDS} x i64]) align 8 %descriptor) {{",
        "entry:",
        "  %block = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()",
        "  %grid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()",
        "  %parts = load i64, ptr %descriptor, align 8",
        "  br label %scan",
        "scan:                 ; the last part whose first block is at most this block's",
        "  %part = phi i64 [ 0, %entry ], [ %next, %later ]",
        "  %next = add i64 %part, 1",
        "  %more = icmp ult i64 %next, %parts",
        "  br i1 %more, label %look, label %found",
        "look:",
        "  %next.at = getelementptr i64, ptr %descriptor, i64 %next",
        "  %next.entry.at = getelementptr i64, ptr %next.at, i64 1",
        "  %next.entry = load i64, ptr %next.entry.at, align 8",
        "  %next.first = trunc i64 %next.entry to i32",
        "  %reached = icmp uge i32 %block, %next.first",
        "  br i1 %reached, label %later, label %found",
        "later:",
        "  br label %scan",
        "found:",
        "  %entry.base = getelementptr i64, ptr %descriptor, i64 %part",
        "  %entry.at = getelementptr i64, ptr %entry.base, i64 1",
        "  %part.entry = load i64, ptr %entry.at, align 8",
        "  %first = trunc i64 %part.entry to i32",
        "  %slot.wide = lshr i64 %part.entry, 32",
        "  %slot.bits = trunc i64 %slot.wide to i16",
        "  %slot = zext i16 %slot.bits to i32",
        "  %arguments.word = lshr i64 %part.entry, 48",
        "  %after.at = getelementptr i64, ptr %entry.at, i64 1",
        "  %after.entry = load i64, ptr %after.at, align 8",
        "  %after.first = trunc i64 %after.entry to i32",
        "  %last = icmp eq i64 %next, %parts",
        "  %end = select i1 %last, i32 %grid, i32 %after.first",
        "  %part.block = sub i32 %block, %first",
        "  %part.blocks = sub i32 %end, %first",
        f"  %arguments.index = add i64 %arguments.word, {table_end}",
        "  %arguments = getelementptr i64, ptr %descriptor, i64 %arguments.index",
        "  switch i32 %slot, label %done [" + " ".join(f"i32 {slot}, label %part{slot}"
                                                        for slot in range(len(bodies))) + "]",
    ]
    for slot, (body, sizes) in enumerate(bodies):
        params = list(body.arguments)[:-GRID_PARAMS]
        lines.append(f"part{slot}:")
        values = []
        for index, (param, offset) in enumerate(zip(params, argument_offsets(sizes))):
            lines.append(f"  %p{slot}.{index}.at = getelementptr i8, ptr %arguments, i64 {offset}")
            lines.append(f"  %p{slot}.{index} = load {param.type}, ptr %p{slot}.{index}.at, align 8")
            values.append(f"{param.type} %p{slot}.{index}")
        values += ["i1 false", "i32 %part.block", "i32 %part.blocks"]
        lines.append(f"  call void @{body.name}({', '.join(values)})")
        lines.append("  br label %done")
    lines += ["done:", "  ret void", "}"]
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ the PTX's header
def as_ptx_comments(slots: dict[str, int]) -> str:
    return "".join(f"{PTX_TAG} {name} {slot}\n" for name, slot in sorted(slots.items(), key=lambda item: item[1]))


def from_ptx(ptx: str) -> dict[str, int]:
    """The kernels the PTX's fused kernel runs, and their slots (as_ptx_comments)."""
    return {name: int(slot) for name, slot in header_records(ptx, PTX_TAG)}
