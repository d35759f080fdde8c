"""From pycparser declarators to C types (C99 6.7): base types, pointers, arrays,
functions, struct/union/enum specifiers, typedef names."""

from __future__ import annotations

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.diagnostics import CompileError, warn
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.constant_eval import InvalidExpression, evaluate_integer, refuse_bit_field
from omp2gpu.sema.expression_types import type_of_expression
from omp2gpu.sema.record_layout import Member
from omp2gpu.sema.scopes import Scope, Symbol
from omp2gpu.sema.static_assertions import check_static_assertion
from omp2gpu.sema.struct_types import StructType

# The largest object LP64 can address, as gcc: a size must fit ptrdiff_t.
MAX_OBJECT_BYTES = 2**63 - 1

# Multisets of type specifiers, sorted, to their type (C99 6.7.2p2).
_BASE_TYPES: dict[tuple[str, ...], ct.CType] = {}


def _register(ctype: ct.CType, *spellings: str) -> None:
    for spelling in spellings:
        _BASE_TYPES[tuple(sorted(spelling.split()))] = ctype


_register(ct.VOID, "void")
_register(ct.BOOL, "_Bool")
_register(ct.CHAR, "char")
_register(ct.SCHAR, "signed char")
_register(ct.UCHAR, "unsigned char")
_register(ct.SHORT, "short", "signed short", "short int", "signed short int")
_register(ct.USHORT, "unsigned short", "unsigned short int")
_register(ct.INT, "int", "signed", "signed int")
_register(ct.UINT, "unsigned", "unsigned int")
_register(ct.LONG, "long", "signed long", "long int", "signed long int")
_register(ct.ULONG, "unsigned long", "unsigned long int")
_register(ct.LLONG, "long long", "signed long long", "long long int", "signed long long int")
_register(ct.ULLONG, "unsigned long long", "unsigned long long int")
_register(ct.FLOAT, "float")
_register(ct.DOUBLE, "double")
_register(ct.LONG_DOUBLE, "long double")
_register(ct.COMPLEX_FLOAT, "float _Complex")
_register(ct.COMPLEX_DOUBLE, "double _Complex")
_register(ct.COMPLEX_LONG_DOUBLE, "long double _Complex")


def _complex_without_real_type(names: list[str], node) -> ct.CType:
    """`_Complex` alone is `double _Complex`, as gcc takes it (with a warning);
    `int _Complex` (a GNU extension) is refused by name."""
    rest = [name for name in names if name != "_Complex"]
    if not rest:
        warn("ISO C does not support plain 'complex' meaning 'double complex'", node.coord)
        return ct.COMPLEX_DOUBLE
    if tuple(sorted(rest)) in _BASE_TYPES and _BASE_TYPES[tuple(sorted(rest))].is_integer:
        raise CompileError("complex integer types (a GNU extension) are not supported", node.coord)
    raise CompileError(f"invalid complex type '{' '.join(names)}'", node.coord)


def _outermost_qualifiers_only(inner) -> None:
    """`static` and qualifiers inside an array declarator's brackets belong to a parameter's
    outermost array derivation only (C99 6.7.5.2p1): an array declarator below another
    declarator (`a[3][static 4]`, `(*p)[const 2]`) is never that one."""
    if isinstance(inner, c_ast.ArrayDecl) and getattr(inner, "dim_quals", None):
        named = inner
        while not isinstance(named, c_ast.TypeDecl) and getattr(named, "type", None) is not None:
            named = named.type
        raise CompileError("static or type qualifiers in non-parameter array declarator",
                           getattr(named, "coord", None) or inner.coord)


class TypeResolver:
    """Resolves declarator trees in a scope; struct/union/enum definitions are
    recorded in the scope as a side effect, as in C."""

    def __init__(self, context: ir.Context):
        self.context = context
        self.anonymous: dict[int, tuple] = {}     # id(Struct node) -> (node, its type)
        self.variable_arrays = 0                  # VLA types made: each names its length

    def resolve(self, node, scope: Scope) -> ct.CType:
        if isinstance(node, c_ast.Typename) or isinstance(node, c_ast.Decl):
            return self.resolve(node.type, scope)
        if isinstance(node, c_ast.TypeDecl):
            return self.resolve(node.type, scope)
        if isinstance(node, c_ast.IdentifierType):
            return self.base_type(node, scope)
        if isinstance(node, c_ast.PtrDecl):
            _outermost_qualifiers_only(node.type)
            return ct.PointerType(self.resolve(node.type, scope), pointee_const=declared_const(node.type),
                                  pointee_volatile=declared_volatile(node.type))
        if isinstance(node, c_ast.ArrayDecl):
            return self._array(node, scope)
        if isinstance(node, c_ast.FuncDecl):
            return self._function(node, scope)
        if isinstance(node, (c_ast.Struct, c_ast.Union)):
            return self._struct(node, scope)
        if isinstance(node, c_ast.Enum):
            return self._enum(node, scope)
        if isinstance(node, c_ast.TypeOf):
            return self._type_of(node, scope)
        raise CompileError(f"unsupported declarator ({type(node).__name__})", node.coord)

    def base_type(self, node: c_ast.IdentifierType, scope: Scope) -> ct.CType:
        names = [n for n in node.names if n not in ("__extension__",)]
        if len(names) == 1 and names[0] not in ("int", "char", "void"):
            symbol = scope.lookup(names[0])
            if symbol is not None and symbol.kind == "typedef":
                if symbol.ctype is None:       # a typedef sema/typed_scopes.py could not type
                    raise CompileError(f"unknown type name '{names[0]}'", node.coord)
                return symbol.ctype
        key = tuple(sorted(names))
        if key in _BASE_TYPES:
            return _BASE_TYPES[key]
        if "_Complex" in names:
            return _complex_without_real_type(names, node)
        raise CompileError(f"unknown type name '{' '.join(names)}'", node.coord)

    def _type_of(self, node: c_ast.TypeOf, scope: Scope) -> ct.CType:
        """GNU `typeof`/`__typeof__` of a type name or an expression (not evaluated)."""
        if isinstance(node.expr, c_ast.Typename):
            return self.resolve(node.expr, scope)
        refuse_bit_field(node.expr, "typeof", scope, self)
        return type_of_expression(node.expr, scope, self)

    def _array(self, node: c_ast.ArrayDecl, scope: Scope) -> ct.CType:
        _outermost_qualifiers_only(node.type)
        element = self.resolve(node.type, scope)
        if element.is_function:
            raise CompileError("declaration of an array of functions", node.coord)
        if element.is_void:
            raise CompileError("array has incomplete element type 'void'", node.coord)
        if (element.is_struct or element.is_array) and not element.is_complete:     # C99 6.7.5.2p1, as gcc
            raise CompileError(f"array type has incomplete element type '{element}'", node.coord)
        if node.dim is None:
            return ct.ArrayType(element, None)
        if element.is_variable:
            return self._variable_array(element, node.dim)
        try:
            length = evaluate_integer(node.dim, scope, self)
        except InvalidExpression:
            raise
        except CompileError:
            # Not an integer constant expression: a variable-length array (C99 6.7.5.2p4),
            # whose length codegen evaluates where the declaration is reached.
            return self._variable_array(element, node.dim)
        if length < 0:
            raise CompileError("array has negative size", node.dim.coord or node.coord)
        if length * max(element.size, 1) > MAX_OBJECT_BYTES:
            raise CompileError("size of array is too large", node.dim.coord or node.coord)
        return ct.ArrayType(element, length)

    def _variable_array(self, element: ct.CType, dim) -> ct.VariableArrayType:
        self.variable_arrays += 1
        return ct.VariableArrayType(element, dim, f"vla.{self.variable_arrays}")

    def _function(self, node: c_ast.FuncDecl, scope: Scope) -> ct.FunctionType:
        result = self.resolve(node.type, scope)
        if result.is_array or result.is_function:
            raise CompileError("function cannot return an array or a function", node.coord)
        if node.args is None or any(isinstance(param, c_ast.ID) for param in node.args.params):
            # `int g(a, b);`: names without types declare no prototype (gcc warns "parameter
            # names (without types) in function declaration"); definitions are kr_definitions.py's
            return ct.FunctionType(result, (), unprototyped=True)
        params, variadic = [], False
        prototype_scope = scope.child()
        for param in node.args.params:
            if isinstance(param, c_ast.EllipsisParam):
                variadic = True
                continue
            ptype = self.resolve(param.type, prototype_scope)
            params.append(self.adjust_parameter(ptype, declared_const(param)))
        if len(params) == 1 and params[0].is_void:
            only = node.args.params[0]
            if getattr(only, "quals", None):
                raise CompileError("'void' as only parameter may not be qualified", only.coord or node.coord)
            params = []
        elif any(p.is_void for p in params):
            raise CompileError("'void' must be the only parameter", node.coord)
        return ct.FunctionType(result, tuple(params), variadic)

    @staticmethod
    def adjust_parameter(ptype: ct.CType, const_elements: bool = False) -> ct.CType:
        """Parameters of array or function type are pointers (C99 6.7.5.3p7-8); those of
        `const T a[]` point to const T."""
        if ptype.is_array:
            return ct.PointerType(ptype.element, pointee_const=const_elements)
        if ptype.is_function:
            return ct.PointerType(ptype)
        return ptype

    def _struct(self, node, scope: Scope) -> StructType:
        is_union = isinstance(node, c_ast.Union)
        kind = "union" if is_union else "struct"
        if node.decls is None:                  # a reference: struct S
            found = scope.lookup_tag(node.name) if node.name else None
            if found is not None:
                if not found.is_struct or found.is_union != is_union:
                    raise CompileError(f"'{node.name}' defined as wrong kind of tag", node.coord)
                return found
            declared = StructType(node.name, is_union)
            declared.ir_type(self.context)
            scope.tags[node.name] = declared
            return declared
        existing = scope.tags.get(node.name) if node.name else None
        if existing is not None and existing.is_complete:
            if getattr(existing, "definition", None) is node:
                return existing     # `typedef struct s {...} a, *b;` shares one definition
            raise CompileError(f"redefinition of '{kind} {node.name}'", node.coord)
        if node.name is None and id(node) in self.anonymous:
            return self.anonymous[id(node)][1]
        struct = existing or StructType(node.name, is_union)
        struct.ir_type(self.context)
        if node.name:
            scope.tags[node.name] = struct
        members = []
        declarations = []
        for decl in node.decls:
            if isinstance(decl, c_ast.StaticAssert):    # C11 6.7.2.1: a member-declaration too
                check_static_assertion(decl, scope, self)
            else:
                declarations.append(decl)
        for decl in declarations:
            mtype = self.resolve(decl.type, scope)
            if getattr(decl, "bitsize", None) is not None:
                members.append(self._bit_field(decl, mtype, scope))
                continue
            if ct.variably_modified(mtype):
                raise CompileError(f"member '{decl.name}' of a structure or union cannot have a "
                                   "variably modified type", decl.coord)
            if not mtype.is_complete and not (mtype.is_array and decl is declarations[-1]):
                raise CompileError(f"field '{decl.name}' has incomplete type '{mtype}'", decl.coord)
            members.append(Member(decl.name, mtype))
        seen = set()
        for decl in declarations:
            if decl.name is not None and decl.name in seen:
                raise CompileError(f"duplicate member '{decl.name}'", decl.coord)
            seen.add(decl.name)
        struct.complete(members, self.context)
        if struct.size > MAX_OBJECT_BYTES:           # members each fit, their sum does not
            raise CompileError(f"type '{struct}' is too large", node.coord)
        struct.const_fields = frozenset(d.name for d in declarations if d.name and declared_const(d))
        struct.volatile_fields = frozenset(d.name for d in declarations if d.name and declared_volatile(d))
        struct.definition = node
        if node.name is None:        # anonymous: `struct {...} a, b;` is one type
            self.anonymous[id(node)] = (node, struct)
        return struct

    def _bit_field(self, decl, mtype: ct.CType, scope: Scope) -> Member:
        """A bit-field member (C99 6.7.2.1p4): an integer type (gcc takes any, and enums)
        and a constant width within it; only an unnamed one may have width 0."""
        name = decl.name or "<anonymous>"
        where = decl.coord or decl.bitsize.coord      # an unnamed one has no coordinate of its own
        if not mtype.is_integer:
            raise CompileError(f"bit-field '{name}' has invalid type", where)
        try:
            width = evaluate_integer(decl.bitsize, scope, self)
        except CompileError:
            raise CompileError(f"bit-field '{name}' width not an integer constant",
                               where) from None
        if width < 0:
            raise CompileError(f"negative width in bit-field '{name}'", where)
        if width == 0 and decl.name is not None:
            raise CompileError(f"zero width for bit-field '{name}'", where)
        if width > (1 if mtype.is_bool else mtype.bits):
            raise CompileError(f"width of '{name}' exceeds its type", where)
        return Member(decl.name, mtype, width)

    def _enum(self, node: c_ast.Enum, scope: Scope) -> ct.CType:
        if node.values is None:
            found = scope.lookup_tag(node.name) if node.name else None
            return found if found is not None and found.is_integer else ct.INT
        if node.values is not None:
            next_value, values = 0, []
            for enumerator in node.values.enumerators:
                if enumerator.value is not None:
                    next_value = evaluate_integer(enumerator.value, scope, self)
                if scope.declared_elsewhere(enumerator.name, enumerator.coord):
                    raise CompileError(f"redefinition of enumerator '{enumerator.name}'", enumerator.coord)
                values.append((enumerator, next_value))
                scope.declare(Symbol(enumerator.name, ct.INT, "enum-constant",
                                     value=next_value, coord=enumerator.coord))
                next_value += 1
            enum_type = _enum_type([value for _, value in values])
            for enumerator, value in values:
                if not -2**31 <= value < 2**31:     # one no int holds has the enumeration's type (gcc)
                    scope.declare(Symbol(enumerator.name, enum_type, "enum-constant",
                                         value=value, coord=enumerator.coord))
            if node.name:
                scope.tags[node.name] = enum_type
            return enum_type
        return ct.INT


def _enum_type(values: list[int]) -> ct.CType:
    """int everywhere (its bit-fields unsigned when it holds no negative value); past int's
    range, as gcc: unsigned int or unsigned long without negative values, else long
    (OpenMP's omp_allocator_handle_t goes up to UINTPTR_MAX)."""
    low, high = min(values, default=0), max(values, default=0)
    if -2**31 <= low and high < 2**31:
        return ct.INT if low < 0 else ct.UNSIGNED_ENUM
    if low >= 0:
        return ct.UINT if high < 2**32 else ct.ULONG
    return ct.LONG


def declared_const(node) -> bool:
    """Whether a declarator's object itself is const: `const int x`, `int *const p`,
    `const int a[3]` (an array of const elements)."""
    return _declared_qualified(node, "const")


def declared_volatile(node) -> bool:
    """Whether a declarator's object itself is volatile (as declared_const): every read and
    write of it is made, in order (C99 6.7.3p6)."""
    return _declared_qualified(node, "volatile")


def _declared_qualified(node, qualifier: str) -> bool:
    if isinstance(node, c_ast.Decl):
        node = node.type
    while isinstance(node, c_ast.ArrayDecl):
        node = node.type
    return isinstance(node, (c_ast.TypeDecl, c_ast.PtrDecl)) and qualifier in (node.quals or ())
