"""Room for a program's static data before the JIT loads it: MCJIT allocates every
section at once, and a failed allocation is LLVM's fatal "Unable to allocate section
memory!" (SIGABRT), which names nothing. So the large static objects' total is first
reserved and released here (an anonymous private mapping, as the JIT's own); where that
fails, a located error names the largest object and its size."""

from __future__ import annotations

import mmap
import resource
from dataclasses import dataclass

import llvmlite.binding as llvm

from omp2gpu.diagnostics import CompileError

# Objects from this size on are listed by codegen (smaller ones cannot exhaust memory
# alone) and reserved together here.
LARGE_OBJECT_BYTES = 16 << 20


@dataclass(frozen=True)
class StaticObject:
    name: str          # the C name
    size: int          # bytes
    coord: object      # where it is defined


def check_room(objects: list[StaticObject]) -> None:
    """Raise a CompileError at the largest object when the process cannot map them all."""
    total = sum(item.size for item in objects)
    if total == 0:
        return
    try:
        reservation = mmap.mmap(-1, total, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS,
                                prot=mmap.PROT_READ | mmap.PROT_WRITE)
    except (OSError, OverflowError, ValueError):
        largest = max(objects, key=lambda item: item.size)
        others = f" (with the other large static objects, {_amount(total)})" if len(objects) > 1 else ""
        raise CompileError(f"static object '{largest.name}' of {_amount(largest.size)}{others} cannot be "
                           f"allocated: {_limit()}", largest.coord) from None
    reservation.close()


def module_objects(module, min_bytes: int = LARGE_OBJECT_BYTES) -> list[StaticObject]:
    """The large global variables a module defines (a device module's copies of the
    program's `declare target` objects), named by their LLVM names, without location."""
    layout = llvm.create_target_data(module.data_layout)
    found = []
    for variable in module.global_variables:
        if variable.is_declaration:
            continue
        size = layout.get_abi_size(variable.global_value_type)
        if size >= min_bytes:
            found.append(StaticObject(variable.name, size, None))
    return found


def _amount(size: int) -> str:
    return f"{size} bytes ({size / (1 << 30):.1f} GiB)" if size >= 1 << 30 else \
        f"{size} bytes ({size / (1 << 20):.1f} MiB)"


def _limit() -> str:
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        return f"the address space is limited to {_amount(soft)} (ulimit -v)"
    return "the system refuses to map that much memory (RAM, swap and its overcommit policy)"
