"""Objects that expressions designate (C99 6.3.2.1, 6.5.2.1-6.5.2.5): lvalues, their
loads and stores, subscripts, struct and union members, compound literals.
Mixed into FunctionEmitter through ExpressionEmitter (expressions.py).
"""

from __future__ import annotations

from dataclasses import replace

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.bit_fields import bit_field_lvalue, load_bit_field, store_bit_field
from omp2gpu.codegen.ir_types import I32, I64
from omp2gpu.codegen.values import LValue, RValue, volatile_access
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.operator_locations import operator_coord
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.expression_types import subscripted_type
from omp2gpu.sema.literals import string_literal


def no_long_double_here(where) -> CompileError:
    """NVPTX has no 80-bit floating type (Clang refuses long double in device code):
    a kernel using one is refused, and its target region runs on the host."""
    return CompileError("long double (the host's x86 80-bit type) has no GPU equivalent",
                        getattr(where, "coord", where))


def _pointee(pointer: ct.PointerType, address) -> LValue:
    """The object a pointer (of C type `pointer`, at `address`) points at, with its qualifiers."""
    return LValue(pointer.pointee, address, pointer.pointee_const, volatile=pointer.pointee_volatile)


def _has_const_member(struct: ct.CType) -> bool:
    """A member (of a member, of an array member's elements) declared const."""
    if struct.const_fields:
        return True
    for member in struct.fields or ():
        ctype = member.ctype
        while ctype.is_array:
            ctype = ctype.element
        if ctype.is_struct and _has_const_member(ctype):
            return True
    return False


class LValueEmitter:
    """lvalue(node) and what reads, writes and reaches into the object it designates."""

    def lvalue(self, node, operator=None) -> LValue:
        """The object `node` designates; `operator`, the node of the operator that
        needs one (`=`, `++`, `&`), is where a non-lvalue is reported, as gcc does."""
        if isinstance(node, c_ast.ID):
            symbol = self.lookup_symbol(node)
            if symbol.kind == "function":
                return LValue(symbol.ctype, symbol.address)
            if symbol.kind != "object":
                raise CompileError(f"'{node.name}' is not an object", node.coord)
            return LValue(symbol.ctype, symbol.address, symbol.const, volatile=symbol.volatile)
        if isinstance(node, c_ast.ArrayRef):
            return self._subscript(node)
        if isinstance(node, c_ast.StructRef):
            return self._member(node)
        if isinstance(node, c_ast.UnaryOp) and node.op == "*":
            pointer = self.expr(node.expr)
            if not pointer.ctype.is_pointer:
                raise CompileError("indirection requires pointer operand", node.coord)
            if pointer.ctype.pointee.is_void:
                raise CompileError("dereferencing a 'void *' pointer", node.coord)
            return _pointee(pointer.ctype, pointer.value)
        if isinstance(node, c_ast.Constant) and node.type == "string":
            data = string_literal(node.value, node.coord)
            ctype = ct.ArrayType(ct.CHAR, len(data) + 1)
            return LValue(ctype, self.module.string_global(data))
        if isinstance(node, c_ast.CompoundLiteral):
            return self._compound_literal(node)
        if isinstance(node, c_ast.UnaryOp) and node.op in ("__real__", "__imag__"):
            return self.part_lvalue(node)
        raise CompileError("expression is not assignable (not an lvalue)",
                           operator_coord(operator) if operator else node.coord)

    def modifiable_lvalue(self, node, operator) -> LValue:
        """The lvalue an assignment or ++/-- (`operator`, where errors go) writes: not a
        function, an array or a const-qualified object."""
        target = self.lvalue(node, operator)
        if target.ctype.is_function:        # a function designator is no object (C11 6.3.2.1p1)
            raise CompileError("lvalue required: a function cannot be assigned or incremented",
                               operator_coord(operator))
        if target.ctype.is_array:           # nor is an array a modifiable lvalue
            raise CompileError("array type is not assignable", operator_coord(operator))
        if target.const:
            what = f"variable '{node.name}'" if isinstance(node, c_ast.ID) else "an object"
            qualified = f"{target.ctype} const" if target.ctype.is_pointer else f"const {target.ctype}"
            raise CompileError(f"cannot assign to {what} with const-qualified type '{qualified}'",
                               operator_coord(operator))
        if target.ctype.is_struct and _has_const_member(target.ctype):    # C99 6.3.2.1p1
            raise CompileError(f"cannot assign to an object of type '{target.ctype}' with a "
                               "const-qualified member", operator_coord(operator))
        return target

    def load(self, lvalue: LValue) -> RValue:
        """Lvalue conversion with decay: arrays and functions become pointers."""
        ctype = lvalue.ctype
        if ctype.is_array:
            zero = ir.Constant(I64, 0)
            address = lvalue.address
            decayed = ct.PointerType(ctype.element, pointee_const=lvalue.const, pointee_volatile=lvalue.volatile)
            if ctype.is_variable:         # a VLA is stored as a run of its fixed elements
                return RValue(decayed, address)
            if not ctype.is_complete:     # extern int a[]; stored as [0 x T]
                return RValue(decayed, self.builder.bitcast(address, ctype.element.ir_type().as_pointer()))
            return RValue(decayed, self.builder.gep(address, [zero, zero], inbounds=True))
        if ctype.is_function:
            return RValue(ct.PointerType(ctype), lvalue.address)
        if ctype.is_void:
            return RValue(ct.VOID, None)
        if ctype.is_struct and not ctype.is_complete:
            raise CompileError(f"incomplete type '{ctype}'")
        if lvalue.bit_field is not None:
            return load_bit_field(self.builder, lvalue)
        loaded = self.builder.load(lvalue.address)
        if lvalue.volatile:
            volatile_access(loaded)
        self._alias_tag(loaded, lvalue)
        return RValue(ctype, loaded)

    def store(self, lvalue: LValue, value: ir.Value) -> RValue:
        """Store `value` (of the lvalue's type); gives the value the object then holds."""
        if lvalue.bit_field is not None:
            return store_bit_field(self.builder, lvalue, value)
        stored = self.builder.store(value, lvalue.address)
        if lvalue.volatile:
            volatile_access(stored)
        self._alias_tag(stored, lvalue)
        state = self.openmp_state
        if state.assigned_iteration and id(lvalue.address) in state.assigned_iteration:    # lastprivate(conditional:)
            now = ir.Constant(I64, 0) if state.running_iteration is None else \
                self.builder.load(state.running_iteration)
            self.builder.store(now, state.assigned_iteration[id(lvalue.address)])
        return RValue(lvalue.ctype, value)

    def _alias_tag(self, access, lvalue: LValue) -> None:
        if self.module.alias_tags is not None and not lvalue.may_alias:
            self.module.alias_tags.mark(access, lvalue.ctype)

    # ----------------------------------------------------------------- postfix
    def _subscript(self, node) -> LValue:
        # An array member's element keeps its member's union access (`u.words[i]`)
        array = self._member(node.name) if isinstance(node.name, c_ast.StructRef) else \
            self._subscript(node.name) if isinstance(node.name, c_ast.ArrayRef) else None
        base = self.load(array) if array is not None else self.expr(node.name)
        index = self.expr(node.subscript)
        if index.ctype.is_pointer and base.ctype.is_integer:
            base, index = index, base
        subscripted_type(base.ctype, node)
        if not index.ctype.is_integer:
            raise CompileError("array subscript is not an integer", operator_coord(node))
        if base.ctype.pointee.is_void:
            raise CompileError("subscript of a 'void *' pointer", operator_coord(node))
        element = _pointee(base.ctype, self.pointer_offset(base, index, node))
        if array is not None and array.may_alias and array.ctype.is_array:
            element = replace(element, may_alias=True)
        return element

    def _expr_ArrayRef(self, node):
        return self.load(self._subscript(node))

    def _member(self, node) -> LValue:
        if node.type == "->":
            pointer = self.expr(node.name)
            if not pointer.ctype.is_pointer or not pointer.ctype.pointee.is_struct:
                raise CompileError("member reference base type is not a pointer to a struct or union",
                                   node.coord)
            owner = _pointee(pointer.ctype, pointer.value)
        else:
            owner = self.lvalue_or_temporary(node.name)
            if not owner.ctype.is_struct:
                raise CompileError("member reference base type is not a struct or union", node.coord)
        return self.member_of(owner, node.field.name, node.field.coord or node.coord)

    def member_of(self, owner: LValue, name: str, coord) -> LValue:
        struct = owner.ctype
        if not struct.is_complete:
            raise CompileError(f"incomplete definition of type '{struct}'", coord)
        if not self.module.has_x86_fp80 and ct.holds_long_double(struct):
            raise no_long_double_here(coord)       # its layout is the host's x86 one
        member = struct.field(name)
        if member is None:
            raise CompileError(f"no member named '{name}' in '{struct}'", coord)
        const = owner.const or member.name in struct.const_fields
        volatile = owner.volatile or member.name in struct.volatile_fields
        may_alias = owner.may_alias or struct.is_union
        if member.is_bit_field:
            return bit_field_lvalue(self.builder, owner, member, const)
        if struct.is_union:
            address = self.builder.bitcast(owner.address, member.ctype.ir_type().as_pointer())
        else:
            address = self.builder.gep(owner.address, [ir.Constant(I32, 0),
                                                        ir.Constant(I32, member.index)], inbounds=True)
        if member.name != name:       # anonymous struct/union member
            return self.member_of(LValue(member.ctype, address, const, volatile=volatile, may_alias=may_alias),
                                  name, coord)
        return LValue(member.ctype, address, const, volatile=volatile, may_alias=may_alias)

    def lvalue_or_temporary(self, node) -> LValue:
        """Struct-valued expressions such as f().x need a home in memory."""
        if isinstance(node, (c_ast.ID, c_ast.ArrayRef, c_ast.StructRef, c_ast.CompoundLiteral)) or (
                isinstance(node, c_ast.UnaryOp) and node.op == "*"):
            return self.lvalue(node)
        value = self.expr(node)
        slot = self.alloca(value.ctype, "tmp")
        self.builder.store(value.value, slot)
        return LValue(value.ctype, slot)

    def _expr_StructRef(self, node):
        return self.load(self._member(node))

    def _expr_CompoundLiteral(self, node):
        return self.load(self._compound_literal(node))

    def _compound_literal(self, node) -> LValue:
        ctype = self.resolve_type(node.type)
        ctype = self.initializers.complete_array_type(ctype, node.init, self.scope)
        slot = self.alloca(ctype, "compound")
        self.initializers.store(self, LValue(ctype, slot), node.init)
        return LValue(ctype, slot)
