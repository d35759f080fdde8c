"""Map list items that name parts of a struct (OpenMP 4.5 2.15.5), as the ANL proxy
apps write them: `SD.num_nucs[:SD.length_num_nucs]`, `s.x`, `s.t.a[0:n]`,
`p->a[0:n]`, and a struct mapped with its pointer members' pointees
(`map(to: s) map(to: s.a[0:n])`).

Every list item of one variable joins that variable's capture (one kernel
parameter, as for a whole struct); its parts become launcher entries laid out as
Clang lays them out (offload/abi.py): the struct's entry over the members' extent,
each member an entry MEMBER_OF it, and each pointer member's pointee an entry of
its own followed by an ATTACH entry, so that inside the region the pointer member
points at the device copy of its pointee.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.ir_types import I8P, I64
from omp2gpu.diagnostics import CompileError
from omp2gpu.offload.abi import MapType, member_of
from omp2gpu.sema.expression_types import bit_field_member


@dataclass
class MemberMap:
    """One list item naming part of a struct."""
    item: object                    # the clause's ListItem (expr: a StructRef chain)
    bits: MapType
    through_pointer: bool           # the section is of a pointer member's pointee


def add_map_item(cg, captures: dict, item, bits: MapType, make_capture, duplicate) -> None:
    """Put one map list item into `captures` (name -> Capture): a variable or a section of
    one through make_capture(item, bits), a part of a struct into its variable's capture.
    duplicate(name, coord) says what a variable named twice is (an error, or a key to keep
    both under)."""
    if isinstance(item.expr, c_ast.ID):
        existing = captures.get(item.name)
        if existing is not None and existing.item is None and existing.members:
            _check_whole_and_parts(item.spelling, existing.members, item.coord)
            existing.item, existing.map_type = item, bits
            return
        if existing is not None and existing.item is not None and _same_item(existing.item, item):
            existing.map_type = combined_bits(existing.map_type, bits)
            return
        key = item.name if existing is None else duplicate(item.name, item.coord)
        captures[key] = make_capture(item, bits)
        return
    member = _member_map(cg, item, bits)
    capture = captures.get(item.name)
    if capture is None:
        root = _root(cg, item)
        capture = make_capture(_root_item(item), MapType.NONE)
        capture.item, capture.kind = None, "pointer" if root.ctype.is_pointer else "object"
        captures[item.name] = capture
    elif capture.item is not None:
        _check_whole_and_parts(capture.item.spelling, [member], item.coord)
    capture.members.append(member)


def _same_item(first, second) -> bool:
    return "".join(first.spelling.split()) == "".join(second.spelling.split())


def combined_bits(first: MapType, second: MapType) -> MapType:
    """One list item in several map clauses of a construct (OpenMP 5.0): mapped once, with
    the union of the copies (`alloc` and `to` is `to`; `to` and `from` is `tofrom`) and every
    modifier; implicit only if both were."""
    implicit = first & second & MapType.IMPLICIT
    return MapType((first | second) & ~MapType.IMPLICIT) | implicit


def _check_whole_and_parts(whole: str, members, coord) -> None:
    for member in members:
        if not member.through_pointer:
            raise CompileError(f"'{member.item.spelling}' is part of '{whole}', which the same "
                               "construct maps: map the struct or its members, not both", coord)


def _root(cg, item):
    symbol = cg.scope.lookup(item.name)
    if symbol is None or symbol.kind != "object":
        raise CompileError(f"'{item.name}' is not a variable", item.coord)
    return symbol


def _root_item(item):
    """The list item of the root variable alone (for the capture's symbol and coord)."""
    return dataclasses.replace(item, expr=c_ast.ID(item.name, coord=item.expr.coord), sections=[])


def _member_chain(expr) -> list:
    """The StructRef nodes of `a.b->c.d`, root first."""
    chain = []
    while isinstance(expr, c_ast.StructRef):
        chain.append(expr)
        expr = expr.name
    return chain[::-1]


def _member_map(cg, item, bits: MapType) -> MemberMap:
    """Check the item's form (members reached from the variable without going through a
    pointer member; one section at most, of an array or pointer member)."""
    root = _root(cg, item)
    chain = _member_chain(item.expr)
    if chain[0].type == "->" and not (root.ctype.is_pointer and root.ctype.pointee.is_struct):
        raise CompileError(f"'{item.name}' in '{item.spelling}' is not a pointer to a struct", item.coord)
    if chain[0].type == "." and not root.ctype.is_struct:
        raise CompileError(f"'{item.name}' in '{item.spelling}' is not a struct", item.coord)
    for ref in chain[1:]:
        if ref.type == "->":
            raise CompileError(f"mapping '{item.spelling}' through a pointer member is not "
                               "supported: map that member's pointee as a section "
                               "('s.p[0:n]') instead", item.coord)
    if bit_field_member(item.expr, cg.scope, cg.resolver) is not None:
        raise CompileError(f"bit-field '{item.spelling}' in 'map' clause", item.coord)
    ctype = cg.type_of(item.expr)
    if not item.sections:
        return MemberMap(item, bits, through_pointer=False)
    if len(item.sections) > 1:
        raise CompileError(f"'{item.spelling}': only one array section is supported on a struct "
                           "member", item.sections[1].coord or item.coord)
    if not (ctype.is_array or ctype.is_pointer):
        raise CompileError(f"array section of '{_spelled(item.expr)}', which is neither an array "
                           "nor a pointer", item.coord)
    return MemberMap(item, bits, through_pointer=ctype.is_pointer)


def _spelled(expr) -> str:
    if isinstance(expr, c_ast.StructRef):
        return f"{_spelled(expr.name)}{expr.type}{expr.field.name}"
    return expr.name


# ----------------------------------------------------------------- launcher entries
def member_entries(cg, capture, first_index: int, param_bits: MapType, whole_entry, section_extent,
                   update: bool = False) -> list[tuple]:
    """The (base, begin, size, bits) entries of a capture with struct parts; the first is
    the capture's own (the kernel parameter). `whole_entry(capture)` gives a whole
    variable's (base, begin, size); `section_extent(cg, item, ctype, first, element)` a
    section's (begin, size). For `update` only the parts' own ranges are copied."""
    b = cg.builder
    storage = [m for m in capture.members if not m.through_pointer]
    pointees = [_pointee(cg, m, section_extent) for m in capture.members if m.through_pointer]
    parts = [(_storage_range(cg, m, section_extent), m.bits) for m in storage]
    if update:
        entries = [(begin, begin, size, bits) for (begin, size), bits in parts]
        if capture.item is not None:
            entries.insert(0, (*whole_entry(capture), capture.map_type))
        return entries + [(base, begin, size, bits) for _, base, begin, size, bits in pointees]
    if capture.item is not None:
        parent = (*whole_entry(capture), capture.map_type | param_bits)
        members = []
    else:
        ranges = [r for r, _ in parts] + [(b.bitcast(slot, I8P), ir.Constant(I64, 8))
                                          for slot, *_ in pointees]
        begin, size = _extent(cg, ranges)
        struct = capture.symbol.address if capture.kind == "object" else b.load(capture.symbol.address)
        # The struct's entry maps, counts and releases; its members copy (ALWAYS, DELETE
        # apply to the struct as a whole).
        whole_bits = MapType.NONE
        for _, bits in parts:
            whole_bits |= bits & (MapType.ALWAYS | MapType.DELETE)
        for *_, bits in pointees:
            whole_bits |= bits & MapType.DELETE
        parent = (b.bitcast(struct, I8P), begin, size, whole_bits | param_bits)
        members = [(begin, begin, size, MapType(int(bits) | member_of(first_index)))
                   for (begin, size), bits in parts]
    entries = [parent, *members]
    for slot, base, begin, size, bits in pointees:
        entries.append((base, begin, size, bits))
        entries.append((b.bitcast(slot, I8P), begin, size, MapType.ATTACH))
    return entries


def _storage_range(cg, member: MemberMap, section_extent):
    """(begin, size) of the member's own storage (or of a section of an array member)."""
    lvalue = cg.lvalue(member.item.expr)
    if not member.item.sections:
        return cg.builder.bitcast(lvalue.address, I8P), cg.runtime_size(lvalue.ctype)
    return section_extent(cg, member.item, lvalue.ctype, lvalue.address, lvalue.ctype.element)


def _pointee(cg, member: MemberMap, section_extent):
    """(slot, base, begin, size, bits) for a pointer member's section: the pointer's host
    address, its value, and the section's extent."""
    lvalue = cg.lvalue(member.item.expr)
    pointer = cg.builder.load(lvalue.address)
    begin, size = section_extent(cg, member.item, lvalue.ctype, pointer, lvalue.ctype.pointee)
    return lvalue.address, cg.builder.bitcast(pointer, I8P), begin, size, member.bits


def _extent(cg, ranges) -> tuple[ir.Value, ir.Value]:
    """The smallest (begin, size) holding every (begin, size) of `ranges`."""
    b = cg.builder
    low = high = None
    for begin, size in ranges:
        start = b.ptrtoint(begin, I64)
        end = b.add(start, size)
        low = start if low is None else b.select(b.icmp_unsigned("<", start, low), start, low)
        high = end if high is None else b.select(b.icmp_unsigned(">", end, high), end, high)
    return b.inttoptr(low, I8P), b.sub(high, low)
