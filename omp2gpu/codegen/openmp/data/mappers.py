"""`#pragma omp declare mapper` in codegen (OpenMP 5.0 2.19.7.3).

A mapper is registered in the scope where it appears, under a name no C identifier can
spell, one entry per identifier and struct type. A map list item (map, target update's
to/from, an implicitly mapped struct) whose struct type has a mapper (its `mapper(id)`
modifier's, else the type's default one) becomes the list items the mapper's map clauses
give with the mapper's variable bound to the item, each with the map type the two
combine to (the spec's decay: the TO/FROM bits both allow), recursively: a listed item of
a struct type with a mapper of its own goes through that one (the mapper's own variable,
`map(v)`, does not). So the present table sees ordinary entries: the struct, its members,
its pointer members' sections attached to it (member_maps.py).

An array of structs (a section `p[0:n]`, a pointer member's section `m.cells[0:m.n]`, an
array) whose mapper maps more than each element's own storage needs the element count,
known when the program runs: its own entry is followed by a MAPPER entry (offload/abi.py)
naming a function made here from the mapper, which the runtime calls with the elements
(runtime/offload/mappers.c); for each element it pushes the element's pointer members'
sections and their ATTACH entries, and calls the nested mappers' functions for their
own arrays of structs. The elements' own storage is the array's entry's (mapped with the
clause's map type).

A mapper that reaches itself (through its items' types' mappers) is an error, as is a
mapper of a type that is not a struct or union and an unknown mapper identifier.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.function import FunctionEmitter
from omp2gpu.codegen.ir_types import I8P, I64
from omp2gpu.codegen.openmp.data import strided_sections
from omp2gpu.codegen.openmp.data.member_maps import add_map_item
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.clause_types import ListItem
from omp2gpu.frontend.openmp.declare_mapper import DEFAULT_MAPPER
from omp2gpu.offload.abi import MapType
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.scopes import Scope, Symbol

_KEY = "#omp declare mapper {}"         # a '#' keeps it apart from every C name
SYMBOL_KIND = "omp declare mapper"
_COPIES = MapType.TO | MapType.FROM
_FROM_THE_CLAUSE = MapType.DELETE | MapType.IMPLICIT | MapType.PRESENT


@dataclass(eq=False)
class Mapper:
    identifier: str
    ctype: ct.CType
    variable: str
    items: list                         # (ListItem in the variable, MapType of its clause)
    scope: Scope                        # where it was declared
    coord: object
    functions: list = field(default_factory=list)    # (ir.Module, its element function)

    @property
    def spelled(self) -> str:
        return f"mapper '{self.identifier}' for '{self.ctype}'"


def _clause_bits(clause) -> MapType:
    bits = {"to": MapType.TO, "from": MapType.FROM, "tofrom": _COPIES}.get(clause.map_type, MapType.NONE)
    return bits | (MapType.ALWAYS if clause.always else MapType.NONE)


def combined(outer: MapType, inner: MapType) -> MapType:
    """The map type of a mapper's item under the clause that invoked the mapper: a copy
    happens where both allow it (5.0's table: tofrom under to is to, from under to is
    alloc...), always from either, delete (exit data), present and implicit from the clause."""
    return MapType((outer & inner & _COPIES) | ((outer | inner) & MapType.ALWAYS) | (outer & _FROM_THE_CLAUSE))


# ----------------------------------------------------------------- declarations
def declare(resolver, scope: Scope, directive) -> None:
    """Register `directive` (a `declare mapper`) in `scope`."""
    declaration = directive.declared_mapper
    ctype = resolver.resolve(declaration.type_name, scope)
    where = declaration.type_coord or directive.coord
    if not ctype.is_struct:
        raise CompileError(f"'#pragma omp declare mapper' for type '{ctype}': a mapper maps a struct or union "
                           "type", where)
    key = _KEY.format(declaration.identifier)
    visible = scope.lookup(key)
    entries = list(visible.address) if visible is not None else []
    if any(m.scope is scope and m.ctype is ctype for m in entries):
        raise CompileError(f"redeclaration of mapper '{declaration.identifier}' for type '{ctype}'", where)
    items = []
    for clause in directive.clauses:
        for item in clause.items:
            if item.name != declaration.variable:
                raise CompileError(f"'{item.spelling}' in '#pragma omp declare mapper': its map clauses map "
                                   f"'{declaration.variable}' and parts of it", item.coord)
            items.append((item, _clause_bits(clause)))
    mapper = Mapper(declaration.identifier, ctype, declaration.variable, items, scope, directive.coord)
    entries = [m for m in entries if m.ctype is not ctype] + [mapper]
    scope.declare(Symbol(key, ct.VOID, SYMBOL_KIND, tuple(entries), coord=directive.coord))
    element_work(mapper, scope, ())           # a mapper that reaches itself: an error now


def find(scope: Scope, identifier: str, ctype: ct.CType) -> Mapper | None:
    symbol = scope.lookup(_KEY.format(identifier))
    if symbol is None or symbol.kind != SYMBOL_KIND:
        return None
    return next((m for m in symbol.address if m.ctype is ctype), None)


def mapper_for(scope: Scope, ctype: ct.CType, identifier: str | None, coord) -> Mapper | None:
    """The mapper a list item of type `ctype` maps with: `mapper(identifier)`'s (an
    error when there is none), else the type's default mapper, if any."""
    if identifier is None or identifier == DEFAULT_MAPPER:
        found = find(scope, DEFAULT_MAPPER, ctype) if ctype.is_struct else None
        if identifier is not None and found is None and not ctype.is_struct:
            raise CompileError(f"'mapper(default)' on a list item of type '{ctype}', which is not a struct", coord)
        return found
    found = find(scope, identifier, ctype) if ctype.is_struct else None
    if found is None:
        raise CompileError(f"no '#pragma omp declare mapper' named '{identifier}' for type '{ctype}'", coord)
    return found


# ----------------------------------------------------------------- types of a mapper's items
def _member_type(ctype: ct.CType, ref: c_ast.StructRef, coord) -> ct.CType:
    if ref.type == "->":
        if not ctype.is_pointer:
            raise CompileError(f"'->' applied to '{ctype}', which is not a pointer", coord)
        ctype = ctype.pointee
    member = ctype.named_field(ref.field.name) if ctype.is_struct else None
    if member is None:
        raise CompileError(f"'{ctype}' has no member named '{ref.field.name}'", coord)
    return member.ctype


def item_types(mapper: Mapper, item: ListItem) -> tuple[ct.CType, ct.CType]:
    """(the type the item names before its sections, its elements' after them)."""
    chain, expr = [], item.expr
    while isinstance(expr, c_ast.StructRef):
        chain.append(expr)
        expr = expr.name
    ctype = mapper.ctype
    for ref in reversed(chain):
        ctype = _member_type(ctype, ref, item.coord)
    element = ctype
    for _ in item.sections:
        if not (element.is_array or element.is_pointer):
            raise CompileError(f"array section of '{item.spelling}', which is neither an array nor a pointer",
                               item.coord)
        element = element.element if element.is_array else element.pointee
    return ctype, element


def _is_variable(mapper: Mapper, item: ListItem) -> bool:
    return isinstance(item.expr, c_ast.ID) and not item.sections


def _is_storage(item: ListItem) -> bool:
    """A member reached with '.' only, no section: storage inside the struct itself."""
    expr = item.expr
    while isinstance(expr, c_ast.StructRef) and expr.type == ".":
        expr = expr.name
    return isinstance(expr, c_ast.ID) and not item.sections


def element_work(mapper: Mapper, scope: Scope, stack: tuple) -> list:
    """What the mapper maps of one element beyond its storage: a list of (item, bits, kind,
    nested mapper), kind "section" (a pointer member's section, with the nested mapper of
    its elements or None), "array" (an array member of structs whose mapper has work) or
    "member" (a struct member whose mapper has work). Raises at a mapper cycle."""
    stack = (*stack, mapper)
    work = []
    for item, bits in mapper.items:
        if _is_variable(mapper, item):
            continue
        named, element = item_types(mapper, item)
        while element.is_array:         # an array member of structs (`p.st`, st[2]): its elements'
            element = element.element
        nested = find(scope, DEFAULT_MAPPER, element) if element.is_struct else None
        if nested in stack:
            names = " -> ".join(m.spelled for m in (*stack[stack.index(nested):], nested))
            raise CompileError(f"mapper cycle: {names} (through '{item.spelling}')", item.coord)
        nested_work = element_work(nested, scope, stack) if nested is not None else []
        if named.is_pointer and item.sections:
            work.append((item, bits, "section", nested if nested_work else None))
        elif named.is_array and nested_work:
            work.append((item, bits, "array", nested))
        elif not item.sections and nested_work:
            work.append((item, bits, "member", nested))
    return work


# ----------------------------------------------------------------- expansion of list items
@dataclass
class RuntimeMapper:
    """An array of structs whose elements the runtime maps through `mapper`'s function."""
    item: ListItem
    mapper: Mapper
    bits: MapType


def _substitute(node, variable: str, replacement: c_ast.Node):
    """A copy of the expression `node` with the identifier `variable` replaced."""
    if isinstance(node, c_ast.ID):
        return replacement if node.name == variable else node
    if isinstance(node, c_ast.StructRef):           # the member name is no variable
        return c_ast.StructRef(_substitute(node.name, variable, replacement), node.type, node.field, node.coord)
    if not isinstance(node, c_ast.Node):
        return node
    copy = type(node).__new__(type(node))
    for slot in node.__slots__:
        if slot == "__weakref__":
            continue
        value = getattr(node, slot, None)
        if isinstance(value, list):
            value = [_substitute(v, variable, replacement) for v in value]
        elif isinstance(value, c_ast.Node):
            value = _substitute(value, variable, replacement)
        setattr(copy, slot, value)
    return copy


def bound_item(mapper: Mapper, item: ListItem, target: ListItem) -> ListItem:
    """The mapper's item `item` with its variable standing for the list item `target`."""
    def sub(node):
        return _substitute(node, mapper.variable, target.expr) if node is not None else None
    sections = [dataclasses.replace(s, lower=sub(s.lower), length=sub(s.length)) for s in item.sections]
    # the variable's name where it stands (not a member of the same name after '.' or '->')
    spelling = re.sub(rf"(?<![.\w>]){re.escape(mapper.variable)}\b", lambda _: target.spelling, item.spelling)
    return ListItem(target.name, sub(item.expr), sections, target.coord, spelling)


def expand(cg, item: ListItem, bits: MapType, identifier: str | None, stack: tuple = ()):
    """The (list item, bits) pairs and RuntimeMappers that map `item` (module docstring)."""
    if item.shape:                                      # map(([n][m])p): p[0:n*m]
        item = strided_sections.as_section(item)
    ctype = cg.type_of(item.expr)
    element = ctype
    for _ in item.sections:
        element = element.element if element.is_array else element.pointee if element.is_pointer else element
    if not item.sections and ctype.is_array:
        element = ctype.element
        while element.is_array:
            element = element.element
    mapper = mapper_for(cg.scope, element, identifier, item.coord)
    if mapper is None:
        return [(item, bits)], []
    if item.sections or element is not ctype:           # an array of structs
        work = element_work(mapper, cg.scope, stack)
        return [(item, bits)], ([RuntimeMapper(item, mapper, bits)] if work else [])
    pairs, runtime = [], []
    for inner, inner_bits in mapper.items:
        bound = bound_item(mapper, inner, item)
        if _is_variable(mapper, inner):
            pairs.append((bound, combined(bits, inner_bits)))
            continue
        more, more_runtime = expand(cg, bound, combined(bits, inner_bits), None, (*stack, mapper))
        pairs += more
        runtime += more_runtime
    return pairs, runtime


# ----------------------------------------------------------------- the element function
def _first_and_count(cg, item: ListItem, section_extent) -> tuple[ir.Value, ir.Value]:
    """The first element of an array of structs and how many (an array, or a section)."""
    b = cg.builder
    lvalue = cg.lvalue(item.expr)
    ctype = lvalue.ctype
    if not item.sections:
        count = ir.Constant(I64, 1)
        while ctype.is_array:
            count = b.mul(count, cg.array_length(ctype) if ctype.is_variable else ir.Constant(I64, ctype.length))
            ctype = ctype.element
        return b.bitcast(lvalue.address, I8P), count
    base = b.load(lvalue.address) if ctype.is_pointer else lvalue.address
    element = ctype.pointee if ctype.is_pointer else ctype.element
    begin, size = section_extent(cg, item, ctype, base, element)
    while element.is_array:
        element = element.element
    return begin, b.udiv(size, cg.runtime_size(element))


def runtime_entry(cg, runtime: RuntimeMapper, section_extent) -> tuple:
    """(base, begin, size, bits) of the MAPPER entry for `runtime`'s array of structs."""
    first, count = _first_and_count(cg, runtime.item, section_extent)
    function = element_function(cg, runtime.mapper, section_extent)
    return first, cg.builder.bitcast(function, I8P), count, runtime.bits | MapType.MAPPER


_PUSH_TYPE = ir.FunctionType(ir.VoidType(), [I8P, I8P, I8P, I64, I64])
_ELEMENT_TYPE = ir.FunctionType(ir.VoidType(), [I8P, _PUSH_TYPE.as_pointer(), I8P, I64, I64])


def element_function(cg, mapper: Mapper, section_extent) -> ir.Function:
    """`void f(void *list, push, void *first, int64 count, int64 type)`: for each element,
    push the entries of the mapper's work on it (runtime/offload/mappers.c calls it)."""
    module = cg.module.module
    for made_in, function in mapper.functions:
        if made_in is module:
            return function
    tag = "".join(c if c.isalnum() else "_" for c in str(mapper.ctype))
    name = module.get_unique_name(f"omp2gpu.mapper.{tag}.{mapper.identifier}")
    function = ir.Function(module, _ELEMENT_TYPE, name=name)
    function.linkage = "internal"
    mapper.functions.append((module, function))
    inner = FunctionEmitter(cg.module, function, ct.FunctionType(ct.VOID, ()), Scope(parent=mapper.scope))
    inner.openmp = cg.openmp
    list_, push, first, count, type_ = function.args
    b = inner.builder
    index_slot = inner.alloca(ct.LONG, "element")
    b.store(ir.Constant(I64, 0), index_slot)
    test, body, done = (function.append_basic_block(n) for n in ("test", "body", "done"))
    b.branch(test)
    b.position_at_end(test)
    index = b.load(index_slot)
    b.cbranch(b.icmp_signed("<", index, count), body, done)
    b.position_at_end(body)
    element = b.gep(first, [b.mul(index, ir.Constant(I64, mapper.ctype.size))])
    _emit_work(inner, mapper, b.bitcast(element, mapper.ctype.ir_type().as_pointer()),
               (list_, push, type_), section_extent)
    inner.builder.store(inner.builder.add(inner.builder.load(index_slot), ir.Constant(I64, 1)), index_slot)
    inner.builder.branch(test)
    inner.builder.position_at_end(done)
    inner.finish()
    return function


def _emit_work(inner, mapper: Mapper, address: ir.Value, call, section_extent) -> None:
    """The entries of one element at `address` (the mapper's variable)."""
    list_, push, outer = call
    scope = Scope(parent=mapper.scope)
    scope.declare(Symbol(mapper.variable, mapper.ctype, "object", address))
    saved, inner.scope = inner.scope, scope
    b = inner.builder
    for item, bits, kind, nested in element_work(mapper, mapper.scope, ()):
        # combined() at run time: the clause's bits arrive in `outer`
        kept = MapType.ALWAYS | _FROM_THE_CLAUSE
        copies = b.and_(outer, ir.Constant(I64, int(bits & _COPIES)))
        type_ = b.or_(copies, ir.Constant(I64, int(bits & MapType.ALWAYS)))
        type_ = b.or_(type_, b.and_(outer, ir.Constant(I64, int(kept))))
        if kind == "member":
            member = inner.lvalue(item.expr)
            _emit_work(inner, nested, member.address, (list_, push, type_), section_extent)
            inner.scope = scope
            continue
        if kind == "array":
            first, count = _first_and_count(inner, item, section_extent)
            b.call(element_function(inner, nested, section_extent), [list_, push, first, count, type_])
            continue
        slot = inner.lvalue(item.expr)
        pointer = b.load(slot.address)
        begin, size = section_extent(inner, item, slot.ctype, pointer, slot.ctype.pointee)
        b.call(push, [list_, b.bitcast(pointer, I8P), begin, size, type_])
        b.call(push, [list_, b.bitcast(slot.address, I8P), begin, size, ir.Constant(I64, int(MapType.ATTACH))])
        if nested is not None:
            element_size = ir.Constant(I64, nested.ctype.size)
            b.call(element_function(inner, nested, section_extent), [list_, push, begin, b.udiv(size, element_size),
                                                                      type_])
    inner.scope = saved


# ----------------------------------------------------------------- into captures
def add_mapped_item(cg, captures: dict, item: ListItem, bits: MapType, identifier: str | None, make_capture,
                    duplicate) -> None:
    """member_maps.add_map_item for each list item the item's mapper gives (itself when its
    type has none); an array of structs' RuntimeMapper rides with its variable's capture."""
    pairs, runtime = expand(cg, item, bits, identifier)
    whole = next((b for i, b in pairs if isinstance(i.expr, c_ast.ID) and not i.sections), None)
    if whole is not None:           # a member the whole struct's entry copies adds nothing
        pairs = [(i, b) for i, b in pairs if isinstance(i.expr, c_ast.ID) or not _is_storage(i) or b & ~whole]
    for one, one_bits in pairs:
        add_map_item(cg, captures, one, one_bits, make_capture, duplicate)
    for extra in runtime:
        captures[extra.item.name].mappers.append(extra)


def has_default_mapper(cg, ctype: ct.CType) -> bool:
    while ctype.is_array:
        ctype = ctype.element
    return ctype.is_struct and find(cg.scope, DEFAULT_MAPPER, ctype) is not None
