"""Where a struct's or union's members lie, as gcc lays them out on x86-64 (System V
psABI 3.1.2, "Bit-Fields"); NVPTX64 uses the same layout, so host and device agree.

- An ordinary member goes at the next offset that is a multiple of its alignment.
- A bit-field of declared type T goes at the next free bit unless it would then cross
  a boundary of a T-aligned unit of sizeof(T) bytes; then it starts that next unit.
- A zero-width bit-field pads to the next T-aligned unit.
- Named bit-fields give the record T's alignment; unnamed ones (zero-width too) do not.
- The size is the end of the last bit used, in bytes, rounded up to the alignment.

The IR body of a struct with bit-fields is laid out explicitly (`storage`): its
ordinary members, then byte arrays for the bytes bit-fields occupy and for padding
LLVM would not insert itself, and a zero-length integer array first where the
record is more aligned than its IR elements are (a named `int x:3` in an otherwise
byte-sized struct), so that LLVM's layout of the body (its offsets, size and
alignment, which nesting and arrays of the record use) is exactly the C one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:                     # struct_types builds its records with lay_out
    from omp2gpu.sema import ctypes as ct


@dataclass(frozen=True)
class Member:
    """A declared member: `width` is None for an ordinary member, else the bit-field's."""
    name: str | None
    ctype: ct.CType
    width: int | None = None


@dataclass(eq=False)
class Field:
    """A laid-out member (struct_types.StructType.fields holds them)."""
    name: str | None
    ctype: ct.CType          # a bit-field's declared type
    offset: int = 0          # bytes; a bit-field's: the byte holding its first bit
    index: int = 0           # LLVM struct element index (structs); unused for unions and bit-fields
    bit_offset: int | None = None     # a bit-field's first bit, from the record's start
    bit_width: int | None = None

    @property
    def is_bit_field(self) -> bool:
        return self.bit_width is not None


@dataclass(frozen=True)
class ByteRun:
    """An IR body element of `length` raw bytes at `offset`: bit-field storage or padding."""
    offset: int
    length: int


@dataclass(frozen=True)
class AlignmentAnchor:
    """A zero-length `[0 x iN]` first in an IR body: gives the record `align` bytes'
    alignment in LLVM's layout without taking any room."""
    align: int


@dataclass
class Layout:
    fields: list           # Field, in declaration order
    size: int
    align: int
    storage: list          # IR body elements, in order: Field, ByteRun, AlignmentAnchor


def lay_out(members: list[Member], is_union: bool) -> Layout:
    if is_union:
        return _union(members)
    return _struct(members)


def _struct(members: list[Member]) -> Layout:
    fields, bit, align = [], 0, 1
    for member in members:
        ctype = member.ctype
        if member.width is None:
            offset = _round_up(_bytes(bit), ctype.align)
            fields.append(Field(member.name, ctype, offset))
            bit = (offset + ctype.size) * 8
            align = max(align, ctype.align)
            continue
        unit = ctype.align * 8
        if member.width == 0:
            bit = _round_up(bit, unit)
            continue
        if bit % unit + member.width > ctype.size * 8:      # would cross its unit
            bit = _round_up(bit, unit)
        if member.name is not None:
            fields.append(Field(member.name, ctype, bit // 8, bit_offset=bit,
                                   bit_width=member.width))
            align = max(align, ctype.align)
        bit += member.width
    size = _round_up(_bytes(bit), align)
    if not any(f.is_bit_field for f in fields) and all(m.width is None for m in members):
        for index, field in enumerate(fields):
            field.index = index
        return Layout(fields, size, align, list(fields))
    return Layout(fields, size, align, _explicit_storage(fields, size, align))


def _explicit_storage(fields, size: int, align: int) -> list:
    """The IR body elements that make LLVM's natural layout the C layout."""
    segments = []          # (offset, length, element or None for bit-field bytes)
    for field in fields:
        if field.is_bit_field:
            first = field.bit_offset // 8
            end = _bytes(field.bit_offset + field.bit_width)
            if segments and segments[-1][2] is None and segments[-1][0] + segments[-1][1] >= first:
                start = segments[-1][0]
                segments[-1] = (start, max(segments[-1][0] + segments[-1][1], end) - start, None)
            else:
                segments.append((first, end - first, None))
        else:
            segments.append((field.offset, field.ctype.size, field))
    storage, position = [], 0
    if align > max((f.ctype.align for f in fields if not f.is_bit_field), default=1):
        storage.append(AlignmentAnchor(align))
    for offset, length, element in segments:
        element_align = 1 if element is None else element.ctype.align
        if _round_up(position, element_align) != offset:
            storage.append(ByteRun(position, offset - position))
        if element is None:
            storage.append(ByteRun(offset, length))
        else:
            element.index = len(storage)
            storage.append(element)
        position = offset + length
    if position < size:
        storage.append(ByteRun(position, size - position))
    return storage


def _union(members: list[Member]) -> Layout:
    fields, size, align = [], 0, 1
    for member in members:
        if member.width is None:
            fields.append(Field(member.name, member.ctype, 0))
            size = max(size, member.ctype.size)
            align = max(align, member.ctype.align)
        elif member.name is not None:
            fields.append(Field(member.name, member.ctype, 0, bit_offset=0, bit_width=member.width))
            size = max(size, _bytes(member.width))
            align = max(align, member.ctype.align)
        else:
            size = max(size, _bytes(member.width))
    return Layout(fields, _round_up(size, align), align, [])


def _bytes(bits: int) -> int:
    return (bits + 7) // 8


def _round_up(value: int, align: int) -> int:
    return (value + align - 1) // align * align
