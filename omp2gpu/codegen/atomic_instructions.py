"""Atomic instructions with an LLVM ordering as each device needs them: the OpenMP
atomic constructs (openmp/memory_order.py) and GCC's atomic builtins (atomic_builtins.py)
both emit through here.

On the GPU (`openmp.atomic_syncscope` is "device") every instruction carries
syncscope("device"): a target region's threads are all on one device, so NVPTX
emits the .gpu scope (ld.acquire.gpu, st.release.gpu, atom.acq_rel.gpu.cas) rather
than .sys. LLVM 22's NVPTX back end keeps the ordering of loads, stores, cmpxchg
and fences but drops that of an atomicrmw (atom.add is emitted relaxed whatever
the ordering), so there an ordered read-modify-write is a relaxed one between
fences: fence.acq_rel.gpu (fence.sc.gpu for seq_cst) before it for the release
half, fence.acq_rel.gpu after it for the acquire half (PTX's fence-based release
and acquire patterns). The host and the CPU device use the orderings as they are.
"""

from __future__ import annotations

_RELEASES = frozenset({"release", "acq_rel", "seq_cst"})
_ACQUIRES = frozenset({"acquire", "acq_rel", "seq_cst"})


def scoped(cg, ordering: str) -> str:
    """`ordering` with the device's syncscope, as llvmlite writes it into the instruction."""
    scope = cg.openmp.atomic_syncscope
    return f'syncscope("{scope}") {ordering}' if scope else ordering


def load(cg, address, ordering: str, align: int):
    return cg.builder.load_atomic(address, scoped(cg, ordering), align)


def store(cg, value, address, ordering: str, align: int) -> None:
    cg.builder.store_atomic(value, address, scoped(cg, ordering), align)


def cmpxchg(cg, address, expected, new, ordering: str, failure: str):
    # The syncscope is written once, before the success ordering.
    return cg.builder.cmpxchg(address, expected, new, scoped(cg, ordering), failure)


def rmw(cg, op: str, address, value, ordering: str = "monotonic"):
    """`atomicrmw op` with `ordering`; on the GPU a relaxed one between fences (above)."""
    b, scope = cg.builder, cg.openmp.atomic_syncscope
    if scope is None or ordering == "monotonic":
        return b.atomic_rmw(op, address, value, scoped(cg, ordering))
    if ordering in _RELEASES:
        b.fence("seq_cst" if ordering == "seq_cst" else "release", scope)
    old = b.atomic_rmw(op, address, value, scoped(cg, "monotonic"))
    if ordering in _ACQUIRES:
        b.fence("acquire", scope)
    return old
