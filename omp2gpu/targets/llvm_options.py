"""LLVM's process-wide options that the host and device pipelines set for themselves."""

from __future__ import annotations

import llvmlite.binding as llvm


def partial_unrolling(on: bool) -> None:
    """Whether LLVM's loop unroller may unroll a loop part way, with a constant trip count
    or not (runtime unrolling: a remainder loop for the iterations left over); full
    unrolling of a loop with a small constant trip count is always on. gcc -O2 does
    neither (it unrolls only the loops it removes); LLVM's O2 does both, on x86 as on
    NVPTX. At -O2 the host leaves them out, as gcc: on bench/startup's 50,000-line program
    partial unrolling was 6 of the 34 s of -O2 and code generation, for a 17% larger
    object, and runtime unrolling then 3 s of the 40 left (the object 2.21 MB instead of
    2.11). -O3 and device modules keep them (`on`: what the targets choose themselves).
    Process-wide LLVM options, so set before each pipeline: once set they override the
    target's choice for every later one."""
    setting = "true" if on else "false"
    llvm.set_option("", f"-unroll-allow-partial={setting}")
    llvm.set_option("", f"-unroll-runtime={setting}")


def barriers_kept_whole() -> None:
    """LLVM's call-site splitting copies a call, and the instructions before it in its
    block, into the block's predecessors; it refuses a convergent call but not a convergent
    instruction before one. A `#pragma omp barrier` after a `master` block, whose join also
    held a runtime call, was so copied into the master's branch and the others': the
    aligned bar.sync, met by one warp's lanes at two places, hung the team (the OpenMP
    Examples' reduction.3 shape, aomp's smoke test `reduction`, on the H200). With no
    instruction copied (a threshold of 0) the pass splits only calls that begin their block.
    Process-wide, so the host pipelines have it too: they lose nothing they need."""
    llvm.set_option("", "-callsite-splitting-duplication-threshold=0")
