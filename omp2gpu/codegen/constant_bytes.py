"""Static initial values as bytes, and back into IR constants of another type.

A union is stored as its widest-aligned member (struct_types.StructType._set_body);
a static union initialised through another member (`union { char c; double d; }
u = { 'x' };`) holds that member's bytes, padded with zeros, as gcc lays it out.
The member's constant is turned into those bytes and the bytes are read back as
a constant of the stored member's type.

A struct with bit-fields is stored as its ordinary members and byte arrays
(sema/record_layout.py); its bit-fields' values become the bits of those bytes."""

from __future__ import annotations

import struct

from llvmlite import ir

from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.record_layout import AlignmentAnchor, ByteRun, Field
from omp2gpu.sema.struct_types import StructType, storage_ir_type
from omp2gpu.sema.x86_fp80 import decode, encode

_FLOAT_FORMATS = {32: "<f", 64: "<d"}


class NotBytes(Exception):
    """The constant holds an address: its bytes are not known before linking."""


def constant_bytes(constant: ir.Constant, ctype: ct.CType) -> bytes:
    """The bytes of `constant` (of C type `ctype`) in memory, little-endian."""
    if ctype.is_pointer:
        if type(constant) is ir.Constant and constant.constant is None:
            return bytes(ctype.size)
        raise NotBytes
    raw = constant.constant
    if raw is None or isinstance(raw, ir.values._Undefined):
        return bytes(ctype.size)
    if ctype.is_integer:
        return (int(raw) & ((1 << (8 * ctype.size)) - 1)).to_bytes(ctype.size, "little")
    if ctype == ct.LONG_DOUBLE:             # 10 bytes of x86_fp80, padded to 16
        return encode(raw).to_bytes(10, "little").ljust(ctype.size, b"\0")
    if ctype.is_floating:
        return struct.pack(_FLOAT_FORMATS[ctype.bits], float(raw))
    if ctype.is_array:
        if isinstance(raw, (bytes, bytearray)):
            return bytes(raw)
        return b"".join(constant_bytes(element, ctype.element) for element in raw)
    if ctype.is_union:
        stored = stored_member(ctype)
        return constant_bytes(raw[0], stored).ljust(ctype.size, b"\0")
    data = bytearray(ctype.size)
    for member, element in zip(ctype.storage, raw):
        if isinstance(member, ByteRun):
            data[member.offset:member.offset + member.length] = constant_bytes(
                element, ct.ArrayType(ct.UCHAR, member.length))
        elif not isinstance(member, AlignmentAnchor):
            data[member.offset:member.offset + member.ctype.size] = constant_bytes(element, member.ctype)
    return bytes(data)


def constant_from_bytes(data: bytes, ctype: ct.CType) -> ir.Constant:
    """An IR constant of `ctype` whose memory holds `data`."""
    if ctype.is_pointer:
        address = int.from_bytes(data[:8], "little")
        if address == 0:
            return ir.Constant(ctype.ir_type(), None)
        return ir.Constant(ct.ULONG.ir_type(), address).inttoptr(ctype.ir_type())
    if ctype.is_integer:
        return ir.Constant(ctype.ir_type(), int.from_bytes(data[:ctype.size], "little"))
    if ctype == ct.LONG_DOUBLE:
        return ir.Constant(ctype.ir_type(), decode(int.from_bytes(data[:10], "little")))
    if ctype.is_floating:
        return ir.Constant(ctype.ir_type(), struct.unpack(_FLOAT_FORMATS[ctype.bits],
                                                          data[:ctype.size])[0])
    if ctype.is_array:
        size = ctype.element.size
        return ir.Constant(ctype.ir_type(), [constant_from_bytes(data[i * size:(i + 1) * size],
                                                                 ctype.element)
                                             for i in range(ctype.length)])
    if ctype.is_union:
        stored = stored_member(ctype)
        parts = [constant_from_bytes(data, stored)]
        if ctype.size > stored.size:
            parts.append(ir.Constant(ir.ArrayType(ir.IntType(8), ctype.size - stored.size),
                                     bytearray(data[stored.size:ctype.size])))
        return ir.Constant(ctype.ir_type(), parts)
    return ir.Constant(ctype.ir_type(), [_element_from_bytes(data, element)
                                         for element in ctype.storage])


def _element_from_bytes(data: bytes, element) -> ir.Constant:
    if isinstance(element, ByteRun):
        return ir.Constant(storage_ir_type(element),
                           bytearray(data[element.offset:element.offset + element.length]))
    if isinstance(element, AlignmentAnchor):
        return ir.Constant(storage_ir_type(element), None)
    return constant_from_bytes(data[element.offset:element.offset + element.ctype.size], element.ctype)


def stored_member(union: StructType) -> ct.CType:
    """The member type a union's IR body holds (see struct_types.StructType._set_body)."""
    return union.stored_member


def bit_field_constant(value: ir.Constant, field: Field) -> ir.Constant:
    """The constant of a bit-field's declared type holding only the bits it keeps."""
    raw = 0 if value.constant is None else value.constant
    if not isinstance(raw, int):         # an address converted to an integer
        raise CompileError(f"initializer element for bit-field '{field.name}' is not a "
                           "compile-time constant")
    return ir.Constant(value.type, raw & ((1 << field.bit_width) - 1))


def struct_constant(struct: StructType, members: dict[int, ir.Constant]) -> ir.Constant:
    """The struct's constant whose members (by index in `fields`) hold `members`, the
    rest zero."""
    bits = 0           # every bit-field's bits, from the struct's first bit
    for index, value in members.items():
        field = struct.fields[index]
        if field.is_bit_field:
            bits |= int(bit_field_constant(value, field).constant) << field.bit_offset
    data = bits.to_bytes(struct.size, "little")
    index_of = {id(field): index for index, field in enumerate(struct.fields)}
    elements = []
    for element in struct.storage:
        if isinstance(element, (ByteRun, AlignmentAnchor)):
            elements.append(_element_from_bytes(data, element))
        else:
            index = index_of[id(element)]
            elements.append(members[index] if index in members
                            else ir.Constant(element.ctype.ir_type(), None))
    return ir.Constant(struct.ir_type(), elements)


def union_constant(union: StructType, member: ct.CType, value: ir.Constant, coord) -> ir.Constant:
    """The union's constant when `member` (holding `value`) is the one initialised."""
    stored = stored_member(union)
    if member.ir_type() == stored.ir_type():
        parts = [value] + [ir.Constant(t, None) for t in union.ir_type().elements[1:]]
        return ir.Constant(union.ir_type(), parts)
    try:
        data = constant_bytes(value, member)
    except NotBytes:
        raise CompileError("static initialisation of a union with an address through a member "
                           "other than its widest is not supported", coord) from None
    return constant_from_bytes(data.ljust(union.size, b"\0"), union)
