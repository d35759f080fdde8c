"""Initialisers (C99 6.7.8): brace elision, designators, strings for char arrays.

Both kinds of object share one walk that turns an initialiser into leaves,
`(path, node)`, where `path` indexes array elements and struct fields:
- static storage: the leaves become one ir.Constant (address constants allowed);
- automatic storage: the object is zeroed, then each leaf is stored.
"""

from __future__ import annotations

import math

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.bit_fields import bit_field_lvalue
from omp2gpu.codegen.constant_bytes import bit_field_constant, struct_constant, union_constant
from omp2gpu.codegen.ir_types import I32, I64
from omp2gpu.codegen.values import LValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import complex_constants
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.constant_eval import evaluate, evaluate_integer, wrap
from omp2gpu.sema.expression_types import type_of_expression
from omp2gpu.sema.literals import string_literal
from omp2gpu.sema.x86_fp80 import round_to_fp80

# The most elements of a static array's constant that are written out one by one.
MAX_SPELLED_ELEMENTS = 1 << 24


def _all_zero(tree) -> bool:
    """Whether an initializer tree (dicts of ir.Constants) sets nothing but zero bits."""
    if isinstance(tree, dict):
        return all(_all_zero(value) for value in tree.values())
    value = tree.constant if isinstance(tree, ir.Constant) else tree
    if value is None:
        return True
    if isinstance(value, (list, tuple)):
        return all(_all_zero(item) for item in value)
    if isinstance(value, float):
        return value == 0.0 and math.copysign(1.0, value) > 0      # not -0.0
    if isinstance(value, int):
        return value == 0
    return False           # addresses, strings (bytearray), constant expressions


def _is_string(node) -> bool:
    return isinstance(node, c_ast.Constant) and node.type == "string"


def _is_char_array(ctype) -> bool:
    return ctype.is_array and ctype.element.is_integer and ctype.element.size == 1


class _Flattener:
    """Walks an initialiser against a type; records leaves and the top array length."""

    def __init__(self, scope, resolver):
        self.scope, self.resolver = scope, resolver
        self.leaves: list[tuple[tuple[int, ...], ct.CType, object]] = []
        self.top_length = 0

    def members(self, ctype):
        if ctype.is_array:
            return None if ctype.length is None else ctype.length
        return 1 if ctype.is_union else len(ctype.fields)

    def member_type(self, ctype, index):
        return ctype.element if ctype.is_array else ctype.fields[index].ctype

    def initialize(self, ctype, node, path):
        """Initialise the object at `path` (of `ctype`) with one initialiser `node`."""
        _check_initializable(ctype, node, path)
        if isinstance(node, c_ast.InitList):
            if ctype.is_scalar or ctype.is_complex:
                if not node.exprs:
                    raise CompileError("scalar initializer cannot be empty", node.coord)
                self.initialize(ctype, node.exprs[0], path)
                return
            if _is_char_array(ctype) and node.exprs and _is_string(node.exprs[0]):
                if len(node.exprs) > 1:         # `{"abc", "d"}`: the string is the whole array
                    raise CompileError("excess elements in char array initializer", node.exprs[1].coord)
                self.initialize(ctype, node.exprs[0], path)
                return
            position = self.aggregate(ctype, node.exprs, 0, path, braced=True)
            if position < len(node.exprs):
                raise CompileError("excess elements in initializer", node.exprs[position].coord)
            return
        if _is_char_array(ctype) and _is_string(node):
            length = len(string_literal(node.value, node.coord)) + 1
            if not path:
                self.top_length = max(self.top_length, length)
            self.leaves.append((path, ctype, node))
            return
        self.leaves.append((path, ctype, node))

    def aggregate(self, ctype, items, position, path, braced) -> int:
        """Consume items for aggregate `ctype` (brace elision when not braced); return next position."""
        if position < len(items):
            _check_initializable(ctype, items[position], path)
        if ctype.is_scalar or ctype.is_complex:
            self.initialize(ctype, items[position], path)
            return position + 1
        count = self.members(ctype)
        index = 0
        while position < len(items):
            item = items[position]
            if isinstance(item, c_ast.NamedInitializer):
                if not braced:
                    return position          # a designator belongs to the enclosing braces
                index = self.designated(ctype, item.name, item.expr, path)
                position += 1
                continue
            if count is not None and index >= count:
                if braced:
                    raise CompileError("excess elements in initializer", item.coord)
                return position
            position = self.element(ctype, index, items, position, path)
            index += 1
        return position

    def element(self, ctype, index, items, position, path) -> int:
        self.note_index(ctype, index, path)
        member = self.member_type(ctype, index)
        item = items[position]
        if member.is_scalar or member.is_complex or isinstance(item, c_ast.InitList) or (
                _is_char_array(member) and _is_string(item)):
            self.initialize(member, item, path + (index,))
            return position + 1
        if member.is_struct and not isinstance(item, c_ast.InitList):
            # A struct-valued expression initialises the whole member.
            if not isinstance(item, c_ast.Constant) and not _looks_scalar(item) and not self._scalar_name(item):
                self.leaves.append((path + (index,), member, item))
                return position + 1
        return self.aggregate(member, items, position, path + (index,), braced=False)

    def _scalar_name(self, node) -> bool:
        """An enumerator or a scalar variable: the first of a struct's elided elements
        (`omp_alloctrait_t t[1] = {omp_atk_alignment, 64}`), not the whole struct."""
        symbol = self.scope.lookup(node.name) if isinstance(node, c_ast.ID) and self.scope is not None else None
        return symbol is not None and (symbol.kind == "enum-constant" or
                                       (symbol.kind == "object" and symbol.ctype.is_scalar))

    def designated(self, ctype, designators, expr, path) -> int:
        first, rest = designators[0], designators[1:]
        if isinstance(first, c_ast.ID):
            if not ctype.is_struct:
                raise CompileError("field designator used for a non-struct type", first.coord)
            index = next((i for i, f in enumerate(ctype.fields) if f.name == first.name), None)
            if index is None:
                # A member of an anonymous struct/union: designate it through
                # the anonymous member that holds it (C11 6.7.2.1p13).
                index = next((i for i, f in enumerate(ctype.fields) if f.name is None
                              and f.ctype.is_struct and f.ctype.field(first.name) is not None), None)
                rest = [first] + list(rest)
            if index is None:
                raise CompileError(f"field designator '{first.name}' does not refer to any field",
                                   first.coord)
        else:
            if not ctype.is_array:
                raise CompileError("array designator used for a non-array type", first.coord)
            index_node = getattr(first, "expr", first)     # pycparser 3 wraps [i] in ArrayDesignator
            index = evaluate_integer(index_node, self.scope, self.resolver)
            if index < 0 or (ctype.length is not None and index >= ctype.length):
                raise CompileError("array designator index exceeds array bounds", first.coord)
        self.note_index(ctype, index, path)
        member = self.member_type(ctype, index)
        if rest:
            self.designated(member, rest, expr, path + (index,))
        else:
            self.initialize(member, expr, path + (index,))
        return index + 1

    def note_index(self, ctype, index, path):
        if not path and ctype.is_array:
            self.top_length = max(self.top_length, index + 1)


def _check_initializable(ctype, node, path) -> None:
    """An object of known layout: not an undefined struct, not a flexible array member."""
    if ctype.is_array and ctype.length is None and path:
        # gcc takes one for a static object (a GNU extension), not for an automatic one
        raise CompileError("initialization of a flexible array member is not supported", node.coord)
    if ctype.is_struct and not ctype.is_complete:
        raise CompileError(f"invalid use of undefined type '{ctype}'", node.coord)


def _looks_scalar(node) -> bool:
    return isinstance(node, (c_ast.BinaryOp, c_ast.UnaryOp, c_ast.Cast))


class Initializers:
    def __init__(self, module):
        self.module = module

    def flatten(self, ctype, init, scope) -> _Flattener:
        walker = _Flattener(scope, self.module.resolver)
        walker.initialize(ctype, init, ())
        return walker

    def complete_array_type(self, ctype, init, scope):
        """`int a[] = {1, 2, 3}` and `char s[] = "abc"` take their length from the initialiser."""
        if ctype.is_array and ctype.length is None and init is not None:
            walker = self.flatten(ct.ArrayType(ctype.element, None), init, scope)
            return ct.ArrayType(ctype.element, walker.top_length)
        return ctype

    # ----------------------------------------------------------------- automatic storage
    def store(self, emitter, target: LValue, init) -> None:
        ctype = target.ctype
        if ctype.is_scalar or ctype.is_complex or (ctype.is_struct and not isinstance(init, c_ast.InitList)):
            value = init
            if isinstance(init, c_ast.InitList) and (ctype.is_scalar or ctype.is_complex):
                if not init.exprs:
                    raise CompileError("scalar initializer cannot be empty", init.coord)
                value = init.exprs[0]
            emitter.store(target, emitter.expr_as(value, ctype))
            return
        walker = self.flatten(ctype, init, emitter.scope)
        emitter.builder.store(ir.Constant(ctype.ir_type(), None), target.address)   # zero the rest
        for path, leaf_type, node in walker.leaves:
            leaf = self._lvalue_of_path(emitter, target, path)
            if _is_char_array(leaf_type) and _is_string(node):
                self._store_string(emitter, leaf_type, leaf.address, node)
            else:
                emitter.store(leaf, emitter.expr_as(node, leaf_type))

    def _lvalue_of_path(self, emitter, target: LValue, path) -> LValue:
        ctype, address = target.ctype, target.address
        for index in path:
            if ctype.is_array:
                address = emitter.builder.gep(address, [ir.Constant(I64, 0), ir.Constant(I64, index)],
                                              inbounds=True)
                ctype = ctype.element
            else:
                member = ctype.fields[index]
                if member.is_bit_field:         # a leaf: bit-fields are scalars
                    return bit_field_lvalue(emitter.builder, LValue(ctype, address), member, False)
                if ctype.is_union:
                    address = emitter.builder.bitcast(address, member.ctype.ir_type().as_pointer())
                else:
                    address = emitter.builder.gep(address, [ir.Constant(I32, 0),
                                                            ir.Constant(I32, member.index)],
                                                  inbounds=True)
                ctype = member.ctype
        return LValue(ctype, address)

    def _store_string(self, emitter, ctype, address, node):
        emitter.builder.store(self.string_constant(ctype, node), address)

    def string_constant(self, ctype, node) -> ir.Constant:
        data = string_literal(node.value, node.coord) + b"\0"
        if len(data) - 1 > ctype.length:
            raise CompileError("initializer-string for char array is too long", node.coord)
        data = data[:ctype.length].ljust(ctype.length, b"\0")
        return ir.Constant(ctype.ir_type(), bytearray(data))

    # ----------------------------------------------------------------- static storage
    def constant(self, ctype, init, scope) -> ir.Constant:
        if init is None:
            return ir.Constant(ctype.ir_type(), None)
        if (ctype.is_scalar or ctype.is_complex) and not isinstance(init, c_ast.InitList):
            return self.scalar_constant(ctype, init, scope)
        walker = self.flatten(ctype, init, scope)
        tree = {}
        for path, leaf_type, node in walker.leaves:
            if _is_char_array(leaf_type) and _is_string(node):
                value = self.string_constant(leaf_type, node)
            elif leaf_type.is_struct:
                raise CompileError("initializer element is not a compile-time constant", node.coord)
            else:
                value = self.scalar_constant(leaf_type, node, scope)
            cursor = tree
            for index in path[:-1]:
                cursor = cursor.setdefault(index, {})
            if path:
                cursor[path[-1]] = value
            else:
                return value
        if ctype.is_array and ctype.length > MAX_SPELLED_ELEMENTS and not _all_zero(tree):
            # llvmlite spells every element of a constant array: gigabytes of text
            raise CompileError(f"a static array of more than {MAX_SPELLED_ELEMENTS} elements with "
                               "non-zero initial values is not supported",
                               init.exprs[0].coord if isinstance(init, c_ast.InitList) else init.coord)
        return self._build(ctype, tree, init.coord)

    def _build(self, ctype, tree, coord=None) -> ir.Constant:
        if not isinstance(tree, dict):
            return tree
        if ctype.is_array:
            if _all_zero(tree):         # `double big[1 << 24] = {0};`: one zeroinitializer
                return ir.Constant(ctype.ir_type(), None)
            elements = [self._build(ctype.element, tree[i], coord) if i in tree
                        else ir.Constant(ctype.element.ir_type(), None) for i in range(ctype.length)]
            return ir.Constant(ctype.ir_type(), elements)
        if ctype.is_union:
            if not tree:
                return ir.Constant(ctype.ir_type(), None)
            index = list(tree)[-1]          # the member named last is the one initialised
            field = ctype.fields[index]
            value = self._build(field.ctype, tree[index], coord)
            if field.is_bit_field:
                value = bit_field_constant(value, field)
            return union_constant(ctype, field.ctype, value, coord)
        return struct_constant(ctype, {i: self._build(ctype.fields[i].ctype, value, coord)
                                       for i, value in tree.items()})

    def scalar_constant(self, ctype, node, scope) -> ir.Constant:
        if isinstance(node, c_ast.InitList):
            node = node.exprs[0]
        if ctype.is_pointer:
            return self.address_constant(ctype, node, scope)
        try:
            value, vtype = evaluate(node, scope, self.module.resolver)
        except CompileError as error:
            raise CompileError("initializer element is not a compile-time constant",
                               node.coord) from error
        if ctype.is_complex:
            value = complex_constants.as_complex(value, vtype, ctype, node.coord)
            real = ctype.real.ir_type()
            return ir.Constant(ctype.ir_type(), [ir.Constant(real, value.real), ir.Constant(real, value.imag)])
        if isinstance(value, complex):          # complex to real: its real part (C99 6.3.1.7)
            value = value != 0 if ctype.is_integer and ctype.is_bool else value.real
        if ctype.is_integer:
            value = wrap(int(value), ctype)
        elif ctype == ct.LONG_DOUBLE:
            value = round_to_fp80(value)
        else:
            value = float(value)
        return ir.Constant(ctype.ir_type(), value)

    def address_constant(self, ctype, node, scope) -> ir.Constant:
        """Address constants (C99 6.6p9): null, &object, array and function names, strings."""
        target_type = ctype.ir_type()
        if isinstance(node, c_ast.Cast):
            return self.address_constant(ctype, node.expr, scope)
        if _is_string(node):
            data = string_literal(node.value, node.coord)
            glob = self.module.string_global(data)
            return glob.gep([ir.Constant(I64, 0), ir.Constant(I64, 0)]).bitcast(target_type)
        if isinstance(node, c_ast.ID):
            symbol = scope.lookup(node.name)
            if symbol is not None and symbol.kind == "function":
                return symbol.address.bitcast(target_type)
            if symbol is not None and symbol.kind == "object" and symbol.ctype.is_array \
                    and isinstance(symbol.address, ir.GlobalValue):
                return symbol.address.gep([ir.Constant(I64, 0), ir.Constant(I64, 0)]).bitcast(target_type)
        if isinstance(node, c_ast.UnaryOp) and node.op == "&":
            return self._address_of(node.expr, scope).bitcast(target_type)
        if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-"):
            return self._offset_address(ctype, node, scope).bitcast(target_type)
        try:
            value, vtype = evaluate(node, scope, self.module.resolver)
            if value == 0:
                return ir.Constant(target_type, None)
            if vtype.is_integer:
                # `(void *)-1`: the integer widened by its own signedness (6.3.2.3).
                return ir.Constant(I64, wrap(wrap(int(value), vtype), ct.LONG)).inttoptr(target_type)
        except CompileError:
            pass
        raise CompileError("initializer element is not a compile-time constant", node.coord)

    def _offset_address(self, ctype, node, scope) -> ir.Constant:
        """`array + 3`, `&x + 1`, `"abc" + 1`: an address constant plus an integer constant."""
        pointer_type = ct.decay(type_of_expression(node.left, scope, self.module.resolver))
        if not pointer_type.is_pointer:
            raise CompileError("initializer element is not a compile-time constant", node.coord)
        base = self.address_constant(pointer_type, node.left, scope)
        offset = evaluate_integer(node.right, scope, self.module.resolver)
        return base.gep([ir.Constant(I64, -offset if node.op == "-" else offset)])

    def _address_of(self, node, scope) -> ir.Constant:
        if isinstance(node, c_ast.ID):
            symbol = scope.lookup(node.name)
            if symbol is not None and isinstance(symbol.address, (ir.GlobalValue,)):
                return symbol.address
        if isinstance(node, c_ast.ArrayRef):
            base = self._address_of(node.name, scope)
            index = evaluate_integer(node.subscript, scope, self.module.resolver)
            return base.gep([ir.Constant(I64, 0), ir.Constant(I64, index)])
        if isinstance(node, c_ast.StructRef) and node.type == ".":
            base = self._address_of(node.name, scope)
            struct = self._static_type(node.name, scope)
            member = struct.field(node.field.name) if struct.is_struct else None
            if member is not None and member.is_bit_field:
                raise CompileError(f"cannot take address of bit-field '{node.field.name}'", node.coord)
            if member is not None and not struct.is_union:
                return base.gep([ir.Constant(I32, 0), ir.Constant(I32, member.index)])
        raise CompileError("initializer element is not a compile-time constant", node.coord)

    def _static_type(self, node, scope):
        return type_of_expression(node, scope, self.module.resolver)

