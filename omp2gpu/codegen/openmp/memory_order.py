"""An atomic construct's memory order (OpenMP 5.0/5.1) as LLVM orderings, and the
atomic instructions that carry them on each device.

    relaxed -> monotonic, acquire, release, acq_rel, seq_cst -> the same names

A construct without a memory-order clause takes the file's `requires
atomic_default_mem_order` (sema.requires), relaxed by default; acq_rel as a default
means acquire for a read, release for a write or update, acq_rel for a capture.
A load cannot release nor a store acquire: acq_rel becomes the half that applies.

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

LLVM_ORDERING = {"relaxed": "monotonic", "acquire": "acquire", "release": "release",
                 "acq_rel": "acq_rel", "seq_cst": "seq_cst"}
_LOAD = {"release": "monotonic", "acq_rel": "acquire"}          # a load has no release half
_STORE = {"acquire": "monotonic", "acq_rel": "release"}         # a store has no acquire half
_FAILURE = {"release": "monotonic", "acq_rel": "acquire"}       # cmpxchg's failure is a load
_DEFAULT_ACQ_REL = {"read": "acquire", "write": "release", "update": "release",
                    "capture": "acq_rel"}
_RELEASES = frozenset({"release", "acq_rel", "seq_cst"})
_ACQUIRES = frozenset({"acquire", "acq_rel", "seq_cst"})


def construct_order(directive) -> str:
    """The OpenMP memory order of an atomic construct: its clause, else the file's default."""
    written = directive.memory_order_clause
    if written is not None:
        return written
    default = directive.default_memory_order
    if default == "acq_rel":
        return _DEFAULT_ACQ_REL[directive.atomic_kind]
    return default


def load_ordering(order: str) -> str:
    llvm = LLVM_ORDERING[order]
    return _LOAD.get(llvm, llvm)


def store_ordering(order: str) -> str:
    llvm = LLVM_ORDERING[order]
    return _STORE.get(llvm, llvm)


def failure_ordering(order: str, fail: str | None = None) -> str:
    """cmpxchg's ordering when it does not write: the `fail` clause's, else derived."""
    llvm = LLVM_ORDERING[fail or order]
    return _FAILURE.get(llvm, llvm)


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
