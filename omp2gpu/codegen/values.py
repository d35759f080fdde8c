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
