"""Wide-register twins of kernels with nested loops: the same `.entry` under another
name, with a register budget (`.maxnreg`) ptxas may spend on keeping loads in flight.

Without a budget, ptxas schedules a kernel for full occupancy: 32 registers a thread
on sm_90, so a thread's inner loop issues its loads a few at a time, each group
waiting for the last. Rodinia backprop's layerforward (16 threads, each summing 1,025
products) took 54 us so on the H200; given 128 registers, ptxas hoists all 32 loads of
its 16-times-unrolled loop and the same PTX takes about a third of the time, as Clang's
build does (its loop is a function of its own, which ptxas schedules so).

More registers cost occupancy only where the grid could fill the device, so the
runtime (cuda_device.c, policy.c `wide_twin_fits`) launches the twin only when the
launch's blocks per multiprocessor fit beside each other at the twin's register count.
A kernel gets a twin when its PTX has a loop inside a loop (a thread's iteration that
loops); straight grid-stride kernels, which gain nothing, do not."""

from __future__ import annotations

import re

from omp2gpu.offload.abi import WIDE_TWIN_SUFFIX
from omp2gpu.targets.nvptx.fusion import FUSED_KERNEL
from omp2gpu.targets.nvptx.ptx_text import entry_sections

TWIN_REGISTERS = 128        # a 512-thread block still launches (128 x 512 = 64K registers)
_LABEL = re.compile(r"^(\$L__\w+):", re.MULTILINE)
_BRANCH = re.compile(r"\bbra(?:\.uni)?\s+(\$L__\w+);")


def has_nested_loops(entry: str) -> bool:
    """Whether a kernel's PTX (its `.entry` section) has a loop inside a loop: a backward
    branch whose span [target label, branch] holds another backward branch's span."""
    labels = {match.group(1): match.start() for match in _LABEL.finditer(entry)}
    loops = [(labels[match.group(1)], match.start()) for match in _BRANCH.finditer(entry)
             if labels.get(match.group(1), match.start()) < match.start()]
    return any(outer != inner and outer[0] <= inner[0] and inner[1] <= outer[1]
               for outer in loops for inner in loops)


def twin(name: str, entry: str) -> str:
    """The twin of one kernel's `.entry` section: renamed (its parameters too, not the
    module's globals named after the kernel), with the register budget before its body."""
    renamed = re.sub(rf"(?<![\w$.]){re.escape(name)}(?=\(|_param_\d)", name + WIDE_TWIN_SUFFIX, entry)
    body = renamed.index("\n{")
    return f"{renamed[:body]}\n.maxnreg {TWIN_REGISTERS}{renamed[body:]}"


def with_wide_twins(ptx: str) -> str:
    """The module's PTX with a wide twin after each kernel that has nested loops (the
    fused kernel excepted: its launches are already batches of others). PTX with debug
    sections has none: their labels name each function's code once."""
    if "\t.loc\t" in ptx or ".section .debug" in ptx:
        return ptx
    twins = [twin(name, entry) for name, entry in entry_sections(ptx).items()
             if name != FUSED_KERNEL and not name.endswith(WIDE_TWIN_SUFFIX) and has_nested_loops(entry)]
    return ptx + "".join("\n" + text for text in twins)
