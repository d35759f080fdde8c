"""C expressions -> IR (C99 6.5). Mixed into FunctionEmitter.

`expr(node)` gives an RValue after lvalue conversion and array/function decay;
`lvalue(node)` gives the object an expression designates.
"""

from __future__ import annotations

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.bit_fields import bit_field_lvalue, load_bit_field, store_bit_field
from omp2gpu.codegen.conversions import (
    I1,
    I32,
    I64,
    convert,
    default_argument_promotion,
    is_null_pointer_constant,
    truth_value,
)
from omp2gpu.codegen.values import LValue, RValue
from omp2gpu.diagnostics import CompileError, SourceLocation
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.constant_eval import evaluate
from omp2gpu.sema.expression_types import bit_field_member
from omp2gpu.sema.generic_selection import bit_field_controlling_type, selected_expression
from omp2gpu.sema.literals import char_literal, float_literal, integer_literal, string_literal

_ARITHMETIC_OPS = {"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"}
_COMPARISON_OPS = {"<", ">", "<=", ">=", "==", "!="}


def _no_signed_wrap(ctype: ct.CType) -> tuple[str, ...]:
    """("nsw",) for a signed integer type of int's rank or more: its overflow is undefined
    (C99 6.5p5), as Clang marks it, so loop induction variables widen instead of
    sign-extending each use. Not for char and short: `c++` computes in int and converts
    back, which wraps (implementation-defined) rather than overflows."""
    return ("nsw",) if ctype.is_integer and ctype.signed and not ctype.is_bool \
        and ctype.bits >= 32 else ()


def _no_long_double_here(where) -> CompileError:
    """NVPTX has no 80-bit floating type (Clang refuses long double in device code):
    a kernel using one is refused, and its target region runs on the host."""
    return CompileError("long double (the host's x86 80-bit type) has no GPU equivalent",
                        getattr(where, "coord", where))


class ExpressionEmitter:
    """Expression half of FunctionEmitter (see function.py for the state it uses)."""

    # ----------------------------------------------------------------- entry points
    def expr(self, node) -> RValue:
        method = getattr(self, "_expr_" + type(node).__name__, None)
        if method is None:
            raise CompileError(f"unsupported expression ({type(node).__name__})", node.coord)
        try:
            value = method(node)
        except CompileError as error:
            if error.location is None:          # raised where no node was at hand
                error.location = SourceLocation.of(node.coord)
            raise
        if not self.module.has_x86_fp80 and value.ctype == ct.LONG_DOUBLE:
            raise _no_long_double_here(node)
        return value

    def expr_as(self, node, ctype: ct.CType) -> ir.Value:
        """Evaluate and convert, as for assignment to an object of `ctype`."""
        value = self.expr(node)
        self._check_assignable(ctype, value, node)
        return convert(self.builder, value.value, value.ctype, ctype, node.coord)

    def condition(self, node) -> ir.Value:
        return self._truth(self.expr(node), node)

    def _truth(self, value: RValue, node) -> ir.Value:
        if not value.ctype.is_scalar:
            raise CompileError(f"used type '{value.ctype}' where a scalar is required", node.coord)
        return truth_value(self.builder, value.value, value.ctype)

    def lvalue(self, node) -> LValue:
        if isinstance(node, c_ast.ID):
            symbol = self.lookup_symbol(node)
            if symbol.kind == "function":
                return LValue(symbol.ctype, symbol.address)
            if symbol.kind != "object":
                raise CompileError(f"'{node.name}' is not an object", node.coord)
            return LValue(symbol.ctype, symbol.address, symbol.const)
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
            return LValue(pointer.ctype.pointee, pointer.value, pointer.ctype.pointee_const)
        if isinstance(node, c_ast.Constant) and node.type == "string":
            data = string_literal(node.value, node.coord)
            ctype = ct.ArrayType(ct.CHAR, len(data) + 1)
            return LValue(ctype, self.module.string_global(data))
        if isinstance(node, c_ast.CompoundLiteral):
            return self._compound_literal(node)
        raise CompileError("expression is not assignable (not an lvalue)", node.coord)

    def modifiable_lvalue(self, node) -> LValue:
        """The lvalue an assignment or ++/-- writes: not a const-qualified object."""
        target = self.lvalue(node)
        if target.ctype.is_function:        # a function designator is no object (C11 6.3.2.1p1)
            raise CompileError("lvalue required: a function cannot be assigned or incremented",
                               node.coord)
        if target.ctype.is_array:           # nor is an array a modifiable lvalue
            raise CompileError("array type is not assignable", node.coord)
        if target.const:
            what = f"variable '{node.name}'" if isinstance(node, c_ast.ID) else "an object"
            qualified = f"{target.ctype} const" if target.ctype.is_pointer else f"const {target.ctype}"
            raise CompileError(f"cannot assign to {what} with const-qualified type '{qualified}'", node.coord)
        return target

    # ----------------------------------------------------------------- leaves
    def _expr_Constant(self, node):
        if node.type == "string":
            return self.load(self.lvalue(node))
        if node.type == "char":
            return RValue(ct.INT, ir.Constant(I32, char_literal(node.value, node.coord)))
        if node.type in ("float", "double", "long double"):
            value, ctype = float_literal(node.value, node.coord)
            return RValue(ctype, ir.Constant(ctype.ir_type(), value))
        value, ctype = integer_literal(node.value, node.coord)
        return RValue(ctype, ir.Constant(ctype.ir_type(), value))

    def _expr_ID(self, node):
        symbol = self.lookup_symbol(node)
        if symbol.kind == "enum-constant":
            return RValue(ct.INT, ir.Constant(I32, symbol.value))
        if symbol.kind == "typedef":
            raise CompileError(f"unexpected type name '{node.name}': expected expression", node.coord)
        return self.load(self.lvalue(node))

    def load(self, lvalue: LValue) -> RValue:
        """Lvalue conversion with decay: arrays and functions become pointers."""
        ctype = lvalue.ctype
        if ctype.is_array:
            zero = ir.Constant(I64, 0)
            address = lvalue.address
            decayed = ct.PointerType(ctype.element, pointee_const=lvalue.const)
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
        return RValue(ctype, self.builder.load(lvalue.address))

    def store(self, lvalue: LValue, value: ir.Value) -> RValue:
        """Store `value` (of the lvalue's type); gives the value the object then holds."""
        if lvalue.bit_field is not None:
            return store_bit_field(self.builder, lvalue, value)
        self.builder.store(value, lvalue.address)
        return RValue(lvalue.ctype, value)

    # ----------------------------------------------------------------- postfix
    def _subscript(self, node) -> LValue:
        base, index = self.expr(node.name), self.expr(node.subscript)
        if index.ctype.is_pointer and base.ctype.is_integer:
            base, index = index, base
        if not base.ctype.is_pointer:
            raise CompileError("subscripted value is not an array or pointer", node.coord)
        if not index.ctype.is_integer:
            raise CompileError("array subscript is not an integer", node.subscript.coord)
        return LValue(base.ctype.pointee, self.pointer_offset(base, index, node), base.ctype.pointee_const)

    def _expr_ArrayRef(self, node):
        return self.load(self._subscript(node))

    def _member(self, node) -> LValue:
        if node.type == "->":
            pointer = self.expr(node.name)
            if not pointer.ctype.is_pointer or not pointer.ctype.pointee.is_struct:
                raise CompileError("member reference base type is not a pointer to a struct or union",
                                   node.coord)
            owner = LValue(pointer.ctype.pointee, pointer.value, pointer.ctype.pointee_const)
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
            raise _no_long_double_here(coord)       # its layout is the host's x86 one
        member = struct.field(name)
        if member is None:
            raise CompileError(f"no member named '{name}' in '{struct}'", coord)
        const = owner.const or member.name in struct.const_fields
        if member.is_bit_field:
            return bit_field_lvalue(self.builder, owner, member, const)
        if struct.is_union:
            address = self.builder.bitcast(owner.address, member.ctype.ir_type().as_pointer())
        else:
            address = self.builder.gep(owner.address, [ir.Constant(I32, 0),
                                                        ir.Constant(I32, member.index)], inbounds=True)
        if member.name != name:       # anonymous struct/union member
            return self.member_of(LValue(member.ctype, address, const), name, coord)
        return LValue(member.ctype, address, const)

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

    def _expr_FuncCall(self, node):
        if isinstance(node.name, c_ast.ID) and self.builtins.handles(node.name.name, self):
            return self.builtins.emit(node, self)
        callee = self.expr(node.name)
        if not (callee.ctype.is_pointer and callee.ctype.pointee.is_function):
            raise CompileError("called object is not a function or function pointer", node.coord)
        ftype = callee.ctype.pointee
        args = node.args.exprs if node.args else []
        if not ftype.unprototyped:
            if len(args) < len(ftype.params) or (len(args) > len(ftype.params) and not ftype.variadic):
                raise CompileError(f"too {'few' if len(args) < len(ftype.params) else 'many'} "
                                   f"arguments to function call, expected {len(ftype.params)}, "
                                   f"have {len(args)}", node.coord)
        values = []
        for position, arg in enumerate(args):
            if position < len(ftype.params):
                values.append(self.expr_as(arg, ftype.params[position]))
            else:
                value = self.expr(arg)
                if value.ctype.is_void:
                    raise CompileError("invalid use of void expression", arg.coord)
                promoted = default_argument_promotion(value.ctype, arg.coord)
                values.append(convert(self.builder, value.value, value.ctype, promoted, arg.coord))
        definition = self.openmp.inline_definition(self, node.name.name) \
            if isinstance(node.name, c_ast.ID) else None
        if definition is not None:
            return self.inline_call(definition, ftype, values)
        function = callee.value
        if ftype.unprototyped and isinstance(function, ir.Function) and len(values) != len(ftype.params):
            fn_type = ir.FunctionType(ftype.result.ir_type(), [v.type for v in values])
            function = self.builder.bitcast(function, fn_type.as_pointer())
        result = self.builder.call(function, values)
        return RValue(ftype.result, None if ftype.result.is_void else result)

    def _expr_StatementExpression(self, node):
        """A GNU statement expression `({ int t = f(x); t * t; })`: the block runs in
        its own scope; its value is that of its last statement when that is an
        expression statement, else it has type void."""
        items = node.block_items or []
        with self.block_scope():
            for item in items[:-1]:
                self.stmt(item)
            last = items[-1] if items else None
            if last is None or hasattr(self, "_stmt_" + type(last).__name__):   # not an expression
                self.stmt(last)
                return RValue(ct.VOID, None)
            self.ensure_open_block()
            return self.expr(last)

    def _expr_GenericSelection(self, node):
        member = bit_field_member(node.expr, self.scope, self.resolver) \
            if isinstance(node.expr, c_ast.StructRef) else None
        controlling = self.type_of(node.expr) if member is None \
            else bit_field_controlling_type(member)
        return self.expr(selected_expression(node, controlling, self.resolve_type))

    def _expr_CompoundLiteral(self, node):
        return self.load(self._compound_literal(node))

    def _compound_literal(self, node) -> LValue:
        ctype = self.resolve_type(node.type)
        ctype = self.initializers.complete_array_type(ctype, node.init, self.scope)
        slot = self.alloca(ctype, "compound")
        self.initializers.store(self, LValue(ctype, slot), node.init)
        return LValue(ctype, slot)

    # ----------------------------------------------------------------- unary
    def _expr_UnaryOp(self, node):
        op = node.op
        if op == "sizeof":
            return RValue(ct.SIZE_T, self.runtime_size(self.sizeof_operand(node.expr, node.coord)))
        if op == "_Alignof":          # C11 _Alignof and GNU __alignof__ (of a type or expression)
            return RValue(ct.SIZE_T, ir.Constant(I64, self.sizeof_operand(node.expr, node.coord,
                                                                          "__alignof").align))
        if op == "&":
            target = self.lvalue(node.expr)
            if target.bit_field is not None:
                raise CompileError(f"cannot take address of bit-field '{node.expr.field.name}'",
                                   node.coord)
            return RValue(ct.PointerType(target.ctype), target.address)
        if op == "*":
            return self.load(self.lvalue(node))
        if op in ("++", "--", "p++", "p--"):
            return self._increment(node)
        operand = self.expr(node.expr)
        if op == "!":
            if not operand.ctype.is_scalar:
                raise CompileError("invalid argument type to unary '!'", node.coord)
            test = truth_value(self.builder, operand.value, operand.ctype)
            return RValue(ct.INT, self.builder.zext(self.builder.not_(test), I32))
        if not operand.ctype.is_arithmetic or (op == "~" and not operand.ctype.is_integer):
            raise CompileError(f"invalid argument type '{operand.ctype}' to unary '{op}'", node.coord)
        ctype = ct.integer_promotion(operand.ctype)
        value = convert(self.builder, operand.value, operand.ctype, ctype)
        if op == "+":
            return RValue(ctype, value)
        if op == "-":
            if ctype.is_floating:
                return RValue(ctype, self.builder.fneg(value))
            return RValue(ctype, self.builder.sub(ir.Constant(value.type, 0), value,
                                                  flags=_no_signed_wrap(ctype)))
        return RValue(ctype, self.builder.not_(value))       # ~

    def sizeof_operand(self, operand, coord=None, keyword="sizeof") -> ct.CType:
        """The operand's type; `coord` (the `sizeof` keyword) locates errors."""
        if isinstance(operand, c_ast.Typename):
            ctype = self.resolve_type(operand)
        else:
            ctype = self.type_of(operand, keyword)
        if ctype.is_function or not ctype.is_complete:
            raise CompileError(f"invalid application of 'sizeof' to an incomplete type '{ctype}'",
                               coord or operand.coord)
        return ctype

    def type_of(self, node, operator_of_type=None) -> ct.CType:
        """Type of an expression without keeping its code (for sizeof). A bit-field is
        an error when `operator_of_type` ('sizeof', 'typeof', ...) asks for its type."""
        saved_block, saved_scope = self.builder.block, self.scope
        scratch = self.function.append_basic_block("sizeof.scratch")
        self.builder.position_at_end(scratch)
        self.scope = saved_scope.child()     # VLA lengths bound in the scratch code go with it
        try:
            is_object = not isinstance(node, c_ast.ID) or self.lookup_symbol(node).kind == "object"
            if is_object and isinstance(node, (c_ast.ID, c_ast.ArrayRef, c_ast.StructRef,
                                               c_ast.CompoundLiteral)) or (
                    isinstance(node, c_ast.UnaryOp) and node.op == "*") or (
                    isinstance(node, c_ast.Constant) and node.type == "string"):
                target = self.lvalue(node)
                if target.bit_field is not None and operator_of_type is not None:
                    raise CompileError(f"'{operator_of_type}' applied to a bit-field", node.coord)
                ctype = target.ctype if target.bit_field is None else target.bit_field.value_type
            else:
                ctype = self.expr(node).ctype
        finally:
            self.scope = saved_scope
            self.builder.position_at_end(saved_block)
            self.function.blocks.remove(scratch)
        return ctype

    def _increment(self, node):
        target = self.modifiable_lvalue(node.expr)
        old = self.load(target)
        if not old.ctype.is_scalar:
            raise CompileError("cannot increment value of this type", node.coord)
        step = 1 if "+" in node.op else -1
        if old.ctype.is_pointer:
            new = self.pointer_offset(old, RValue(ct.LONG, ir.Constant(I64, step)), node)
        elif old.ctype.is_floating:
            new = self.builder.fadd(old.value, ir.Constant(old.value.type, float(step)))
        elif old.ctype.is_bool:
            new = ir.Constant(old.value.type, 1) if step > 0 else self.builder.xor(
                old.value, ir.Constant(old.value.type, 1))
        else:
            new = self.builder.add(old.value, ir.Constant(old.value.type, step),
                                   flags=_no_signed_wrap(old.ctype))
        if target.bit_field is not None:       # computed in its value type, stored in its bits
            stored = self.store(target, convert(self.builder, new, old.ctype, target.ctype))
            return old if node.op.startswith("p") else stored
        self.builder.store(new, target.address)
        return old if node.op.startswith("p") else RValue(old.ctype, new)

    def _expr_Cast(self, node):
        target = self.resolve_type(node.to_type)
        value = self.expr(node.expr)
        if target.is_void:
            return RValue(ct.VOID, None)
        if not target.is_scalar or not value.ctype.is_scalar:
            raise CompileError(f"cannot cast from '{value.ctype}' to '{target}'", node.coord)
        if target.is_floating and value.ctype.is_pointer or target.is_pointer and value.ctype.is_floating:
            raise CompileError(f"cannot cast from '{value.ctype}' to '{target}'", node.coord)
        return RValue(target, convert(self.builder, value.value, value.ctype, target, node.coord))

    # ----------------------------------------------------------------- binary
    def _expr_BinaryOp(self, node):
        op = node.op
        if op in ("&&", "||"):
            return self._logical(node)
        left, right = self.expr(node.left), self.expr(node.right)
        return self.binary(op, left, right, node)

    def binary(self, op: str, left: RValue, right: RValue, node) -> RValue:
        if left.ctype.is_pointer or right.ctype.is_pointer:
            return self._pointer_binary(op, left, right, node)
        if not left.ctype.is_arithmetic or not right.ctype.is_arithmetic:
            raise CompileError(f"invalid operands to binary expression ('{left.ctype}' and "
                               f"'{right.ctype}')", node.coord)
        if op in ("<<", ">>"):
            if not (left.ctype.is_integer and right.ctype.is_integer):
                raise CompileError("invalid operands to shift", node.coord)
            ctype = ct.integer_promotion(left.ctype)
            a = convert(self.builder, left.value, left.ctype, ctype)
            b = convert(self.builder, right.value, right.ctype, ct.integer_promotion(right.ctype))
            b = self._resize(b, a.type, right.ctype)
            if op == "<<":
                return RValue(ctype, self.builder.shl(a, b))
            shift = self.builder.ashr if ctype.signed else self.builder.lshr
            return RValue(ctype, shift(a, b))
        ctype = ct.usual_arithmetic_conversion(left.ctype, right.ctype)
        a = convert(self.builder, left.value, left.ctype, ctype)
        b = convert(self.builder, right.value, right.ctype, ctype)
        if op in _COMPARISON_OPS:
            if ctype.is_floating:
                # != is true for NaN operands, the others false (IEEE).
                compare = self.builder.fcmp_unordered if op == "!=" else self.builder.fcmp_ordered
                test = compare(op, a, b)
            elif ctype.signed:
                test = self.builder.icmp_signed(op, a, b)
            else:
                test = self.builder.icmp_unsigned(op, a, b)
            return RValue(ct.INT, self.builder.zext(test, I32))
        if op in ("%", "&", "|", "^") and not ctype.is_integer:
            raise CompileError(f"invalid operands to binary '{op}' ('{left.ctype}' and '{right.ctype}')",
                               node.coord)
        return RValue(ctype, self.arithmetic(op, a, b, ctype, _no_signed_wrap(ctype)))

    def arithmetic(self, op: str, a: ir.Value, b: ir.Value, ctype: ct.CType,
                   flags: tuple[str, ...] = ()) -> ir.Value:
        """`a op b` in `ctype`; `flags` ("nsw") go on + - *."""
        b_ = self.builder
        if ctype.is_floating:
            return {"+": b_.fadd, "-": b_.fsub, "*": b_.fmul, "/": b_.fdiv}[op](a, b)
        if op == "/":
            return (b_.sdiv if ctype.signed else b_.udiv)(a, b)
        if op == "%":
            return (b_.srem if ctype.signed else b_.urem)(a, b)
        if op in ("+", "-", "*"):
            return {"+": b_.add, "-": b_.sub, "*": b_.mul}[op](a, b, flags=flags)
        return {"&": b_.and_, "|": b_.or_, "^": b_.xor}[op](a, b)

    def _resize(self, value, ir_type, ctype):
        if value.type.width > ir_type.width:
            return self.builder.trunc(value, ir_type)
        if value.type.width < ir_type.width:
            return self.builder.zext(value, ir_type)
        return value

    def _pointer_binary(self, op, left: RValue, right: RValue, node) -> RValue:
        if op in _COMPARISON_OPS:
            if any(not (side.ctype.is_pointer or side.ctype.is_integer) for side in (left, right)):
                raise CompileError(f"invalid operands to binary '{op}' ('{left.ctype}' and "
                                   f"'{right.ctype}')", node.coord)
            a, b = left.value, right.value
            if left.ctype.is_integer:
                a = convert(self.builder, a, left.ctype, right.ctype, node.coord)
            elif right.ctype.is_integer:
                b = convert(self.builder, b, right.ctype, left.ctype, node.coord)
            elif a.type != b.type:
                b = self.builder.bitcast(b, a.type)
            if not isinstance(a.type, ir.PointerType) and not isinstance(b.type, ir.PointerType):
                raise CompileError("invalid pointer comparison", node.coord)
            return RValue(ct.INT, self.builder.zext(self.builder.icmp_unsigned(op, a, b), I32))
        if op == "+":
            pointer, offset = (left, right) if left.ctype.is_pointer else (right, left)
            if offset.ctype.is_integer:
                return RValue(pointer.ctype, self.pointer_offset(pointer, offset, node))
        if op == "-" and left.ctype.is_pointer:
            if right.ctype.is_integer:
                negated = RValue(ct.LONG, self.builder.neg(
                    convert(self.builder, right.value, right.ctype, ct.LONG)))
                return RValue(left.ctype, self.pointer_offset(left, negated, node))
            if right.ctype.is_pointer:
                size = self._element_size(left.ctype, node)
                a = self.builder.ptrtoint(left.value, I64)
                b = self.builder.ptrtoint(right.value, I64)
                difference = self.builder.sub(a, b)
                return RValue(ct.PTRDIFF_T, self.builder.sdiv(difference, size))
        raise CompileError(f"invalid operands to binary expression ('{left.ctype}' and '{right.ctype}')",
                           node.coord)

    def _element_size(self, pointer_type, node) -> ir.Value:
        """sizeof the pointee (i64): a run-time value for a VLA."""
        pointee = pointer_type.pointee
        if pointee.is_void or pointee.is_function:
            return ir.Constant(I64, 1)      # GNU C arithmetic on void *; gcc accepts it
        if not pointee.is_complete:
            raise CompileError(f"arithmetic on a pointer to an incomplete type '{pointee}'", node.coord)
        return self.runtime_size(pointee)

    def pointer_offset(self, pointer: RValue, index: RValue, node) -> ir.Value:
        """&pointer[index], scaled by the pointee size (C99 6.5.6p8)."""
        offset = convert(self.builder, index.value, index.ctype,
                         ct.LONG if index.ctype.signed else ct.ULONG)
        pointee = pointer.ctype.pointee
        if pointee.is_void or pointee.is_function:
            raw = self.builder.bitcast(pointer.value, ir.IntType(8).as_pointer())
            moved = self.builder.gep(raw, [offset], inbounds=True)
            return self.builder.bitcast(moved, pointer.value.type)
        if pointee.is_variable:          # `p + i` on `double (*p)[m]`: i rows of m doubles
            offset = self.builder.mul(offset, self.fixed_elements(pointee))
        else:
            self._element_size(pointer.ctype, node)
        # inbounds: the result must point into (or just past) the same array (C99 6.5.6p8).
        return self.builder.gep(pointer.value, [offset], inbounds=True)

    def _logical(self, node) -> RValue:
        """&& and || with short-circuit evaluation and an i1 phi."""
        is_and = node.op == "&&"
        left = self.condition(node.left)
        left_block = self.builder.block
        right_block = self.new_block("logic.rhs")
        end_block = self.new_block("logic.end")
        if is_and:
            self.builder.cbranch(left, right_block, end_block)
        else:
            self.builder.cbranch(left, end_block, right_block)
        self.builder.position_at_end(right_block)
        right = self.condition(node.right)
        right_end = self.builder.block
        self.builder.branch(end_block)
        self.builder.position_at_end(end_block)
        phi = self.builder.phi(I1)
        phi.add_incoming(ir.Constant(I1, 0 if is_and else 1), left_block)
        phi.add_incoming(right, right_end)
        return RValue(ct.INT, self.builder.zext(phi, I32))

    def _expr_TernaryOp(self, node):
        # GNU `x ?: y` (gnu_nodes.ConditionalWithOmittedOperand): x, evaluated once, is
        # also the value when it is true.
        first = self.expr(node.cond) if node.iftrue is None else None
        test = self.condition(node.cond) if first is None else self._truth(first, node.cond)
        then_block, else_block = self.new_block("cond.true"), self.new_block("cond.false")
        end_block = self.new_block("cond.end")
        self.builder.cbranch(test, then_block, else_block)
        self.builder.position_at_end(then_block)
        then_value = self.expr(node.iftrue) if first is None else first
        then_end = self.builder.block
        self.builder.position_at_end(else_block)
        else_value = self.expr(node.iffalse)
        else_end = self.builder.block
        ctype = self._conditional_type(then_value, else_value, node)
        for value, block in ((then_value, then_end), (else_value, else_end)):
            self.builder.position_at_end(block)
            converted = None if ctype.is_void else convert(
                self.builder, value.value, value.ctype, ctype, node.coord)
            self.builder.branch(end_block)
            if block is then_end:
                then_converted, then_end = converted, self.builder.block
            else:
                else_converted, else_end = converted, self.builder.block
        self.builder.position_at_end(end_block)
        if ctype.is_void:
            return RValue(ct.VOID, None)
        phi = self.builder.phi(ctype.ir_type())
        phi.add_incoming(then_converted, then_end)
        phi.add_incoming(else_converted, else_end)
        return RValue(ctype, phi)

    _expr_ConditionalWithOmittedOperand = _expr_TernaryOp

    def _conditional_type(self, a: RValue, b: RValue, node) -> ct.CType:
        if a.ctype.is_arithmetic and b.ctype.is_arithmetic:
            return ct.usual_arithmetic_conversion(a.ctype, b.ctype)
        if a.ctype.is_void or b.ctype.is_void:
            return ct.VOID
        if a.ctype.is_pointer and (b.ctype.is_pointer or is_null_pointer_constant(b.value, b.ctype)):
            if b.ctype.is_pointer and a.ctype.pointee.is_void:
                return b.ctype if not b.ctype.pointee.is_void else a.ctype
            return a.ctype
        if b.ctype.is_pointer and is_null_pointer_constant(a.value, a.ctype):
            return b.ctype
        if a.ctype.is_struct and a.ctype is b.ctype:
            return a.ctype
        raise CompileError(f"incompatible operand types ('{a.ctype}' and '{b.ctype}')", node.coord)

    def _expr_ExprList(self, node):
        result = RValue(ct.VOID, None)
        for item in node.exprs:
            result = self.expr(item)
        return result

    # ----------------------------------------------------------------- assignment
    def _expr_Assignment(self, node):
        target = self.modifiable_lvalue(node.lvalue)
        if target.ctype.is_array or target.ctype.is_function:
            raise CompileError("array type is not assignable", node.coord)
        if node.op == "=":
            value = self.expr_as(node.rvalue, target.ctype)
        else:
            # The right operand first, then the stored value, as Clang does: the old
            # value is not kept live across the right operand's loads.
            op = node.op[:-1]
            right = self.expr(node.rvalue)
            current = self.load(target)
            result = self.binary(op, current, right, node)
            value = convert(self.builder, result.value, result.ctype, target.ctype, node.coord)
        return self.store(target, value)

    def _check_assignable(self, target: ct.CType, value: RValue, node) -> None:
        source = value.ctype
        if target.is_struct or source.is_struct:
            if target is not source:
                raise CompileError(f"assigning to '{target}' from incompatible type '{source}'", node.coord)
            return
        if target.is_pointer and source.is_floating or target.is_floating and source.is_pointer:
            raise CompileError(f"assigning to '{target}' from incompatible type '{source}'", node.coord)
        if source.is_void and not target.is_void:
            raise CompileError("void value not ignored as it ought to be", node.coord)

    # ----------------------------------------------------------------- constants
    def constant_value(self, node):
        """Compile-time value of an integer constant expression (case labels)."""
        return evaluate(node, self.scope, self.resolver)
