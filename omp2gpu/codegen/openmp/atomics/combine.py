"""Combining a value into a shared variable atomically: `*address = *address op value`,
as the reductions of every device scheme do (one per team or work-group, or per thread
where a team has no reduction tree).
"""

from __future__ import annotations

from omp2gpu.codegen.openmp.atomics.compare_and_swap import compare_and_swap_loop
from omp2gpu.codegen.openmp.data.data_sharing import combine

# Reductions an atomicrmw instruction does in one step: (op, integer?) -> atomicrmw op.
_ATOMIC_RMW = {("+", True): "add", ("-", True): "add", ("&", True): "and", ("|", True): "or",
               ("^", True): "xor", ("+", False): "fadd", ("-", False): "fadd"}


def atomic_combine(cg, op: str, ctype, address, value) -> None:
    """*address = *address <op> value, atomically (one instruction, else a compare-and-swap loop)."""
    b = cg.builder
    rmw = _ATOMIC_RMW.get((op, ctype.is_integer))
    if op in ("max", "min") and ctype.is_integer:
        rmw = op if ctype.signed else "u" + op
    if rmw is not None:
        b.atomic_rmw(rmw, address, value, "monotonic")
        return
    # A fold that leaves the value as it is writes nothing (relaxed): a team's `&&` that stays
    # true, or a max already reached, makes no compare-and-swap, where each used to contend
    # with the others' (barrier_phases).
    compare_and_swap_loop(cg, address, ctype, lambda old: combine(cg, op, ctype, old, value), skip_unchanged=True)
