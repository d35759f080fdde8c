"""Typed values the code generator passes around: every ir.Value keeps its C type."""

from __future__ import annotations

from dataclasses import dataclass

from llvmlite import ir

from omp2gpu.sema.ctypes import CType


@dataclass(frozen=True)
class RValue:
    """A value in a register: scalars, struct aggregates, or no value (void)."""

    ctype: CType
    value: ir.Value | None


@dataclass(frozen=True)
class LValue:
    """An object in memory: `address` points at `ctype`'s IR type; a bit-field's
    (`bit_field`: a codegen.bit_fields.BitFieldPlace) at the bytes holding its bits,
    read and written only through codegen.bit_fields."""

    ctype: CType
    address: ir.Value
    const: bool = False       # designates a const-qualified object (not assignable)
    bit_field: object = None
    volatile: bool = False    # designates a volatile-qualified object: loads and stores kept
    may_alias: bool = False   # reached through a union member: no type-based alias tag (alias_types.py)


class _VolatileLoad(ir.LoadInstr):
    def descr(self, buf):
        text: list[str] = []
        super().descr(text)
        buf.append("".join(text).replace("load ", "load volatile ", 1))


class _VolatileStore(ir.StoreInstr):
    def descr(self, buf):
        text: list[str] = []
        super().descr(text)
        buf.append("".join(text).replace("store ", "store volatile ", 1))


def volatile_access(instruction: ir.Instruction) -> None:
    """Make a load or store (just built) volatile: LLVM neither removes, merges nor reorders
    it among volatile accesses, as C99 6.7.3p6 asks of a volatile object's. llvmlite's
    builder has no volatile flag, so the instruction prints itself with one."""
    instruction.__class__ = _VolatileLoad if isinstance(instruction, ir.LoadInstr) else _VolatileStore
