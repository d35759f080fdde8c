"""An atomic construct's memory order (OpenMP 5.0/5.1) as LLVM orderings, and the
atomic instructions that carry them on each device.

    relaxed -> monotonic, acquire, release, acq_rel, seq_cst -> the same names

A construct without a memory-order clause takes the file's `requires
atomic_default_mem_order` (sema.requires), relaxed by default; acq_rel as a default
means acquire for a read, release for a write or update, acq_rel for a capture.
A load cannot release nor a store acquire: acq_rel becomes the half that applies.

The instructions that carry them on each device (device-scoped on the GPU) are
codegen/atomic_instructions.py's, re-exported here.
"""

from __future__ import annotations

from omp2gpu.codegen.atomic_instructions import cmpxchg, load, rmw, scoped, store  # noqa: F401 (re-exported)

LLVM_ORDERING = {"relaxed": "monotonic", "acquire": "acquire", "release": "release",
                 "acq_rel": "acq_rel", "seq_cst": "seq_cst"}
_LOAD = {"release": "monotonic", "acq_rel": "acquire"}          # a load has no release half
_STORE = {"acquire": "monotonic", "acq_rel": "release"}         # a store has no acquire half
_FAILURE = {"release": "monotonic", "acq_rel": "acquire"}       # cmpxchg's failure is a load
_DEFAULT_ACQ_REL = {"read": "acquire", "write": "release", "update": "release",
                    "capture": "acq_rel"}


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
