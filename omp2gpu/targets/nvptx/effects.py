"""What each kernel may write, from the attributes LLVM infers on the optimised device
module (FunctionAttrs): whether it writes memory only through its pointer parameters
(`memory(argmem: ...)` with no write to other memory) and which of them it may write
(a parameter not marked `readonly`/`readnone`). The GPU's native launch path uses this
to let synchronous launches whose device footprints do not conflict run at once
(docs/async.md, "Automatic concurrency"); anything not proven is assumed written.

The facts travel with the PTX they were found for, as comment lines at its top (the
PTX is cached on disk; the optimised IR is not):
    // omp2gpu-effects KERNEL args-only|any WRITES   (WRITES: one w/r per parameter)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import llvmlite.binding as llvm

from omp2gpu.targets.nvptx.ptx_text import header_records

PTX_TAG = "// omp2gpu-effects"
# locations whose writes do not reach another kernel's data: memory the module cannot
# name (a printf buffer) and the parameters' own, which the footprint covers
_UNSHARED = {"argmem", "inaccessiblemem"}
_MEMORY = re.compile(r"\bmemory\(([^)]*)\)")


@dataclass(frozen=True)
class KernelEffects:
    args_only: bool               # writes nothing but through its pointer parameters
    writes: tuple[bool, ...]      # per parameter: may write through it (False: read-only)


def writes_only_through_arguments(function_attributes: str) -> bool:
    """Whether a function's `memory(...)` attribute allows no write outside its pointer
    arguments' memory (and memory the module cannot name); no attribute: any write."""
    match = _MEMORY.search(function_attributes)
    if match is None:
        return False
    for part in match.group(1).split(","):
        location, _, effect = part.strip().rpartition(":")
        location, effect = location.strip(), effect.strip()
        if location in _UNSHARED:
            continue
        if "write" in effect:         # the default (no location) or a named one: globals, shared
            return False
    return True


def _may_write(argument) -> bool:
    return not ({b"readonly", b"readnone"} & set(argument.attributes))


def kernel_effects(optimised_ir: str, kernels) -> dict[str, KernelEffects]:
    """The effects of each of `kernels` (names) defined in the optimised module."""
    module = llvm.parse_assembly(optimised_ir)
    found = {}
    for function in module.functions:
        if function.name in kernels and not function.is_declaration:
            attributes = " ".join(a.decode() for a in function.attributes)
            found[function.name] = KernelEffects(writes_only_through_arguments(attributes),
                                                 tuple(_may_write(a) for a in function.arguments))
    return found


def as_ptx_comments(effects: dict[str, KernelEffects]) -> str:
    return "".join(f"{PTX_TAG} {name} {'args-only' if e.args_only else 'any'} "
                   f"{''.join('w' if w else 'r' for w in e.writes) or '-'}\n"
                   for name, e in sorted(effects.items()))


def from_ptx(ptx: str) -> dict[str, KernelEffects]:
    """The effects recorded at the top of `ptx` (none for PTX made without them)."""
    return {name: KernelEffects(scope == "args-only", tuple(c == "w" for c in writes.strip("-")))
            for name, scope, writes in header_records(ptx, PTX_TAG)}
