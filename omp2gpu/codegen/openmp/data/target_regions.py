"""What a target region takes with it to the device (OpenMP 4.5 2.15.1.1, 2.15.5).

`region_captures` decides, in the host function's scope, how each variable
the region uses reaches the kernel:
- "object":  the kernel gets the device address of the mapped object
             (map clauses, implicit tofrom of arrays and structs, reductions);
- "pointer": the kernel gets a pointer value translated to the device
             (`p[lo:len]` sections, pointers used without a map, is_device_ptr);
- "literal": the kernel gets the value itself (firstprivate scalars, by value —
             the paper's Section 5.3 improvement over reference-to-pointer; and a
             struct named firstprivate, of at most BY_VALUE_BYTES).
Each capture is one kernel parameter and one map entry for the launcher.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I8P, I64
from omp2gpu.codegen.openmp.data import mappers, region_allocators
from omp2gpu.codegen.openmp.data.data_sharing import clauses_named
from omp2gpu.codegen.openmp.data.map_iterators import check_item, iterated_extent
from omp2gpu.codegen.openmp.data.member_maps import member_entries
from omp2gpu.codegen.variable_arrays import variable_array_types
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.clause_types import ListItem
from omp2gpu.offload.abi import MapType
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.captures import free_identifiers, type_names

MAP_TYPE_BITS = {"to": MapType.TO, "from": MapType.FROM, "tofrom": MapType.TO | MapType.FROM,
             "alloc": MapType.NONE, "release": MapType.NONE, "delete": MapType.DELETE}


@dataclass
class Capture:
    name: str
    ctype: ct.CType
    kind: str                       # "object", "pointer" or "literal"
    map_type: MapType
    item: object = None             # the clause ListItem, if any
    symbol: object = None
    members: list = field(default_factory=list)   # member_maps.MemberMap: parts of a struct mapped
    mappers: list = field(default_factory=list)   # mappers.RuntimeMapper: arrays of structs it maps
    iterators: list = field(default_factory=list)  # map(iterator(...), ...): one section over them all

    def param_ir_type(self) -> ir.Type:
        if self.kind == "object":
            return self.ctype.ir_type().as_pointer()
        if self.ctype.is_struct:        # its bytes in words of its alignment: a type fusion.py's text can name
            word = min(self.ctype.align, 8)
            return ir.ArrayType(ir.IntType(8 * word), self.ctype.size // word)
        return self.ctype.ir_type()

    @property
    def runtime_kind(self) -> str:
        """How the launcher passes the parameter (offload.abi.KernelInfo)."""
        return "bytes" if self.kind == "literal" else "pointer"


def _symbol(cg, name, coord):
    symbol = cg.scope.lookup(name)
    if symbol is None or symbol.kind != "object":
        raise CompileError(f"'{name}' is not a variable", coord)
    return symbol


def _duplicate(name: str, coord):
    raise CompileError(f"variable '{name}' appears in more than one data clause "
                       "of the target construct", coord)


def _add(captures: dict, capture: Capture, coord) -> None:
    if capture.name in captures:
        _duplicate(capture.name, coord)
    captures[capture.name] = capture


def _is_pointer(cg, name: str) -> bool:
    symbol = cg.scope.lookup(name)
    return symbol is not None and symbol.ctype.is_pointer


def region_captures(cg, construct, declare_target_names=frozenset()) -> tuple[Capture, ...]:
    """Every variable the region uses from outside, in the host function's scope, and how
    it reaches the kernel (the module docstring)."""
    directive = construct.directive
    captures: dict[str, Capture] = {}
    for clause in clauses_named(directive, "map"):
        make = clause_capture(cg, clause)
        for item in clause.items:
            mappers.add_mapped_item(cg, captures, item, map_bits(clause), clause.mapper, make, _duplicate)
    for clause in clauses_named(directive, "is_device_ptr"):
        for item in clause.items:
            symbol = _symbol(cg, item.name, item.coord)
            if not symbol.ctype.is_pointer:
                raise CompileError(f"'{item.name}' in is_device_ptr is not a pointer", item.coord)
            _add(captures, Capture(item.name, symbol.ctype, "pointer", MapType.IS_DEVICE_PTR, item,
                                   symbol), item.coord)
    # has_device_addr(x) (OpenMP 5.1): x's address is a device address already (inside a
    # use_device_addr region): the kernel gets it as it is.
    for clause in clauses_named(directive, "has_device_addr"):
        for item in clause.items:
            symbol = _symbol(cg, item.name, item.coord)
            _add(captures, Capture(item.name, symbol.ctype, "object", MapType.IS_DEVICE_PTR, item, symbol),
                 item.coord)
    # uses_allocators(a(traits)): the host's new allocator, its record mapped for the region
    # and its device address passed by value (region_allocators.py)
    for used in region_allocators.made_allocators(directive):
        symbol = _symbol(cg, used.name, used.coord)
        _add(captures, Capture(used.name, symbol.ctype, "literal", MapType.TO | MapType.ALLOCATOR, None, symbol),
             used.coord)
    firstprivate = {item.name for clause in clauses_named(directive, "firstprivate") for item in clause.items}
    private = {item.name for clause in clauses_named(directive, "private") for item in clause.items}
    # Reduction and lastprivate results must reach the host: these are mapped tofrom.
    by_reference = {item.name for clause in clauses_named(directive, "reduction")
                    for item in clause.items}
    by_reference |= {item.name for clause in clauses_named(directive, "lastprivate")
                     for item in clause.items}
    # So must linear's (a pointer stays a device address, looked up: its value after the
    # loop would be one on the device).
    by_reference |= {item.name for clause in clauses_named(directive, "linear") for item in clause.items
                     if not _is_pointer(cg, item.name)}
    # The body and the clauses evaluated on the device (num_threads, if, schedule chunks...).
    for name in free_identifiers(construct) + [i.name for c in directive.clauses
                                                     for i in getattr(c, "items", ())
                                                     if c.name in ("private", "firstprivate",
                                                                   "lastprivate", "reduction", "linear")]:
        if name in captures or (name in declare_target_names and name not in firstprivate):
            continue                # a declare target variable is the device's own, but a firstprivate
                                    # copy of one starts from the host's value
        symbol = cg.scope.lookup(name)
        if symbol is None or symbol.kind != "object":
            continue                                   # functions, enum constants, typedefs
        scalar = symbol.ctype.is_scalar or symbol.ctype.is_complex    # C's scalars: complex too
        if not scalar and mappers.has_default_mapper(cg, symbol.ctype) and name not in by_reference:
            item = ListItem(name, c_ast.ID(name, coord=construct.coord), [], construct.coord, name)
            mappers.add_mapped_item(cg, captures, item, _implicit_tofrom(symbol), None,
                                    lambda i, bits: mapped_capture(cg, i, bits), _duplicate)
        elif name in by_reference:
            captures[name] = Capture(name, symbol.ctype, "object", _implicit_tofrom(symbol), None, symbol)
        elif symbol.ctype.is_pointer and symbol.ctype.pointee.is_function:
            # A function's address is no data to look up: passed as it is (a device
            # calls it only where it can: `declare target indirect`, kernels.py).
            captures[name] = Capture(name, symbol.ctype, "literal", MapType.LITERAL, None, symbol)
        elif symbol.ctype.is_pointer:
            captures[name] = Capture(name, symbol.ctype, "pointer",
                                     MapType.POINTER_LOOKUP | MapType.IMPLICIT, None, symbol)
        elif scalar:            # firstprivate (OpenMP 4.5 2.15.5): its value, by copy
            captures[name] = Capture(name, symbol.ctype, "literal", MapType.LITERAL, None, symbol)
        elif name in firstprivate and _passed_by_value(symbol.ctype):
            # a small struct named firstprivate: its bytes too, a parameter, not a mapping
            # (which was copied there and back, and kept its launch from running ahead)
            captures[name] = Capture(name, symbol.ctype, "literal", MapType.LITERAL, None, symbol)
        else:                                          # arrays and structs: tofrom
            if not symbol.ctype.is_complete:           # `extern double h[];`: no size to copy
                raise CompileError(f"'{name}' has incomplete type '{symbol.ctype}' at the target "
                                   "region: mapping it implicitly is not supported (map an array "
                                   "section of it)", construct.coord)
            # one named firstprivate: the host's bytes in device storage of its own, not the
            # mapping (whose device copy may differ from the host's), never copied back; one
            # named private: storage of its own, nothing copied (the kernel makes its copy)
            if name in firstprivate:
                bits = MapType.TO | MapType.PRIVATE
            elif name in private:
                bits = MapType.PRIVATE
            else:
                bits = _implicit_tofrom(symbol)
            captures[name] = Capture(name, symbol.ctype, "object", bits, None, symbol)
    _capture_variable_lengths(cg, captures, construct)
    return tuple(captures.values())


BY_VALUE_BYTES = 64     # a firstprivate struct this small is a kernel parameter (4 KB is all of them)


def _passed_by_value(ctype) -> bool:
    """A complete struct or union of at most BY_VALUE_BYTES with nothing of variable length."""
    return (ctype.is_struct and ctype.is_complete and 0 < ctype.size <= BY_VALUE_BYTES
            and not variable_array_types(ctype))


def _implicit_tofrom(symbol) -> MapType:
    """An implicit tofrom map; a const object is only copied to the device: the region may
    not change it, and it may live in read-only memory (`__func__`, a `static const`
    table), which copying back would write."""
    if symbol.const:
        return MapType.TO | MapType.IMPLICIT
    return MapType.TO | MapType.FROM | MapType.IMPLICIT


def _capture_variable_lengths(cg, captures: dict, construct) -> None:
    """A variable-length array (or a pointer to one) brings its lengths, by value: the
    kernel's subscripts and sizes read them (codegen/variable_arrays.py). So does a
    VLA typedef the region uses: its length is the one fixed where it was declared."""
    typedefs = [symbol for symbol in map(cg.scope.lookup, sorted(type_names(construct)))
                if symbol is not None and symbol.kind == "typedef"]
    for ctype in [capture.ctype for capture in captures.values()] + [t.ctype for t in typedefs]:
        for vla in variable_array_types(ctype):
            symbol = cg.scope.lookup(vla.length_name)
            if vla.length_name not in captures and symbol is not None:
                captures[vla.length_name] = Capture(vla.length_name, ct.SIZE_T, "literal",
                                                    MapType.LITERAL, None, symbol)


def map_bits(clause) -> MapType:
    """The launcher's bits for a map clause's map type and its `always` and `present`
    modifiers (`close` is a hint: device memory is the only memory a device has here).
    A map a defaultmap clause made is implicit (its object may lie in a larger mapping)."""
    bits = MAP_TYPE_BITS[clause.map_type]
    if clause.always:
        bits |= MapType.ALWAYS
    if clause.present:
        bits |= MapType.PRESENT
    if clause.implicit:
        bits |= MapType.IMPLICIT
    return bits


def clause_capture(cg, clause):
    """make_capture(item, bits) for add_map_item: a map clause's item, with its iterators
    (each item checked first: map_iterators.check_item)."""
    for item in clause.items if getattr(clause, "iterators", None) else ():
        check_item(item, clause.iterators, "map")

    def make(item, bits: MapType) -> Capture:
        capture = mapped_capture(cg, item, bits)
        if not clause.iterators:
            return capture
        first = capture.ctype.pointee if capture.ctype.is_pointer else capture.ctype.element
        if len(item.sections) > 1 and first.is_pointer:
            raise CompileError(f"'{item.spelling}': an iterator map through the pointers '{item.name}[...]' (one "
                               "section per pointed-to row) is not supported: map one array", item.coord)
        return dataclasses.replace(capture, iterators=clause.iterators)
    return make


def mapped_capture(cg, item, bits: MapType) -> Capture:
    """The capture of a variable or a section of one (struct parts: member_maps)."""
    symbol = _symbol(cg, item.name, item.coord)
    ctype = symbol.ctype
    if item.sections:
        if not (ctype.is_pointer or ctype.is_array):
            raise CompileError(f"array section of '{item.name}', which is neither an array nor "
                               "a pointer", item.coord)
        if ctype.is_pointer:
            return Capture(item.name, ctype, "pointer", bits, item, symbol)
        return Capture(item.name, ctype, "object", bits, item, symbol)
    return Capture(item.name, ctype, "object", bits, item, symbol)


# ----------------------------------------------------------------- host-side entries
def map_entry(cg, capture: Capture) -> tuple[ir.Value, ir.Value, ir.Value]:
    """(base, begin, size in bytes) of one capture, evaluated on the host now."""
    b = cg.builder
    address = capture.symbol.address
    ctype = capture.ctype
    if capture.map_type & MapType.ALLOCATOR:
        return region_allocators.map_entry(cg, capture.symbol)
    if capture.kind == "literal":
        return b.bitcast(address, I8P), b.bitcast(address, I8P), ir.Constant(I64, ctype.size)
    if capture.kind == "pointer":
        pointer = b.load(address)
        base = b.bitcast(pointer, I8P)
        if capture.item is None or not capture.item.sections:
            return base, base, ir.Constant(I64, 0)
        begin, size = _item_extent(cg, capture, lambda: section_extent(cg, capture.item, ctype, pointer,
                                                                       ctype.pointee))
        return base, begin, size
    base = b.bitcast(address, I8P)
    if capture.item is None or not capture.item.sections:
        if not ctype.is_complete:
            raise CompileError(f"cannot map '{capture.name}' of incomplete type '{ctype}'",
                               capture.item.coord if capture.item else None)
        return base, base, cg.runtime_size(ctype)
    begin, size = _item_extent(cg, capture, lambda: section_extent(cg, capture.item, ctype, address,
                                                                   ctype.element))
    return base, begin, size


def _item_extent(cg, capture: Capture, extent):
    """extent()'s (begin, size), or over the capture's iterators (map_iterators.py)."""
    return iterated_extent(cg, capture.iterators, extent) if capture.iterators else extent()


def capture_entries(cg, capture: Capture, first_index: int, param_bits: MapType,
                    update: bool = False) -> list[tuple]:
    """The launcher entries (base, begin, size, bits) of one capture, the kernel parameter's
    first; a struct mapped in parts has several (member_maps)."""
    if capture.members:
        entries = member_entries(cg, capture, first_index, param_bits, lambda c: map_entry(cg, c),
                                 section_extent, update)
    else:
        entries = [(*map_entry(cg, capture), capture.map_type | param_bits)]
    return entries + [mappers.runtime_entry(cg, runtime, section_extent) for runtime in capture.mappers]


def section_extent(cg, item, ctype: ct.CType, first_element: ir.Value, element: ct.CType):
    """Begin address and byte size of `x[lo:len]...` (only the first dimension may be partial),
    where x (the list item `item`, of type `ctype`) is an array or a pointer and
    `first_element` points at x[0] (or at the array x)."""
    b = cg.builder
    section = item.sections[0]
    lower = cg.expr_as(section.lower, ct.LONG) if section.lower is not None else ir.Constant(I64, 0)
    if section.length is not None:
        length = cg.expr_as(section.length, ct.LONG)
    elif ctype.is_variable:
        length = b.sub(cg.array_length(ctype), lower)
    elif ctype.is_array and ctype.length is not None:
        length = b.sub(ir.Constant(I64, ctype.length), lower)
    else:
        name = item.spelling.split("[")[0].strip() or item.name
        raise CompileError(f"the length of the array section of '{name}' is needed "
                           "(the size of a pointed-to array is unknown)", section.coord or item.coord)
    if not element.is_complete:
        raise CompileError(f"array section of incomplete type '{element}'", item.coord)
    element_size = cg.runtime_size(element)
    # In bytes: x's elements may be variable-length arrays.
    begin = b.gep(b.bitcast(first_element, ir.IntType(8).as_pointer()), [b.mul(lower, element_size)])
    return begin, b.mul(length, element_size)


def evaluate_clause(cg, directive, name: str, default: int = 0) -> ir.Value:
    """An integer clause argument (num_teams, thread_limit, device) as i32 on the host."""
    clause = next(iter(clauses_named(directive, name)), None)
    if clause is None:
        return ir.Constant(ir.IntType(32), default)
    return integer_operand(cg, clause.expr, name, clause.coord)


def integer_operand(cg, expr, name: str, coord) -> ir.Value:
    """One integer expression of clause `name` (num_teams' lower bound too), as i32."""
    value = cg.expr(expr)
    if not value.ctype.is_integer:
        raise CompileError(f"'{name}' needs an integer expression", coord)
    return convert(cg.builder, value.value, value.ctype, ct.INT)
