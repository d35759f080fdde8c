"""LLVM's process-wide options that the host and device pipelines set for themselves."""

from __future__ import annotations

import llvmlite.binding as llvm


def partial_unrolling(on: bool) -> None:
    """Whether LLVM's loop unroller may unroll a loop part way (full unrolling of a loop
    with a small constant trip count is always on). gcc -O2 never does (it unrolls only
    the loops it removes); LLVM's O2 does, on x86 as on NVPTX. At -O2 the host leaves it
    out, as gcc: on bench/startup's 50,000-line program it was 6 of the 34 s of -O2 and
    code generation, for a 17% larger object. -O3 and device modules keep it (`on`: what
    the targets choose themselves). A process-wide LLVM option, so set before each
    pipeline: once set it overrides the target's choice for every later one."""
    llvm.set_option("", f"-unroll-allow-partial={'true' if on else 'false'}")
