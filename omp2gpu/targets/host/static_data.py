"""Large static data: the code model that links it, and room for it before a program runs.

A module whose static objects come near the small code model's 2 GiB (code and data
within 32-bit offsets) is compiled in the medium code model, as `gcc -mcmodel=medium`:
objects over 64 KiB go to the large sections (.lbss, .ldata) addressed with 64-bit
offsets, so the program links whatever their size.

The kernel maps a program's static data when it execs it, and where that fails the
process is killed, naming nothing. So `run` first checks that the large static objects fit:
under an address-space limit (ulimit -v) beside what the process needs besides them, else
by reserving and releasing their total (an anonymous private mapping, as the kernel's);
where they do not, a located error names the largest object and its size."""

from __future__ import annotations

import mmap
import os
import resource
from dataclasses import dataclass

import llvmlite.binding as llvm

from omp2gpu.diagnostics import CompileError

# Objects from this size on are listed by codegen (smaller ones cannot exhaust memory
# alone) and reserved together here.
LARGE_OBJECT_BYTES = 16 << 20
# A module with this much static data is compiled in the medium code model: the small
# model's 2 GiB also hold the code, the other modules' data and the libraries'.
MEDIUM_MODEL_BYTES = 512 << 20
# What a program's process maps besides its large static objects, under an address-space
# limit: code and libraries (a CPU device program maps ~20 MiB on 2 processors), and per
# processor a thread's stack (8 MiB, ulimit -s) and its share of malloc's arenas.
PROCESS_BYTES = 64 << 20
PROCESSOR_BYTES = 16 << 20


@dataclass(frozen=True)
class StaticObject:
    name: str          # the C name
    size: int          # bytes
    coord: object      # where it is defined


def check_room(objects: list[StaticObject], beside: int = 0, copy_of: str = "") -> None:
    """Raise a CompileError at the largest object when a new process cannot map them all
    beside `beside` bytes of other large objects (a device's copies beside the host's
    objects); `copy_of`: whose copies they are ("the CPU device's copy of ")."""
    total = sum(item.size for item in objects)
    if total == 0 or _fits(beside + total):
        return
    largest = max(objects, key=lambda item: item.size)
    others = f" (with the other large static objects, {_amount(total)})" if len(objects) > 1 else ""
    raise CompileError(f"{copy_of}static object '{largest.name}' of {_amount(largest.size)}{others} cannot be "
                       f"allocated: {_limit(beside + total)}", largest.coord)


def code_model(module) -> str:
    """"medium" for a module (llvmlite ModuleRef, data layout set) with MEDIUM_MODEL_BYTES
    of static data or more, else "small"."""
    return "medium" if sum(item.size for item in module_objects(module, 1)) >= MEDIUM_MODEL_BYTES else "small"


def _fits(total: int) -> bool:
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        return total + PROCESS_BYTES + PROCESSOR_BYTES * (os.cpu_count() or 1) <= soft
    try:
        reservation = mmap.mmap(-1, total, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS,
                                prot=mmap.PROT_READ | mmap.PROT_WRITE)
    except (OSError, OverflowError, ValueError):
        return False
    reservation.close()
    return True


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


def _limit(total: int) -> str:
    soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    if soft != resource.RLIM_INFINITY:
        return f"the program's large static objects take {_amount(total)} and the address space is limited " \
               f"to {_amount(soft)} (ulimit -v)"
    return "the system refuses to map that much memory (RAM, swap and its overcommit policy)"
