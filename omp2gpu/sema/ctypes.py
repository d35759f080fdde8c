"""The C type model (LP64, x86-64 and NVPTX64 agree on it, but for long double:
the host's x86 80-bit type, which NVPTX has not).

Every expression the code generator emits carries one of these types, so C's
rules (integer promotions, usual arithmetic conversions, signedness, pointer
scaling) are decided on C types, never on LLVM types. Struct and union types are
in struct_types.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from llvmlite import ir
from pycparser.c_generator import CGenerator

from omp2gpu.diagnostics import CompileError
from omp2gpu.sema.x86_fp80 import X86FP80Type


class CType:
    """Base of all C types. Types compare structurally except structs (by identity)."""

    size: int = 0
    align: int = 1

    # Classification, overridden below.
    is_integer = False
    is_floating = False
    is_pointer = False
    is_array = False
    is_struct = False
    is_function = False
    is_void = False
    is_variable = False      # a variable-length array type (its size is known at run time)
    # C99 6.2.5p11: complex types are arithmetic, but not real; here is_arithmetic and
    # is_scalar mean *real* arithmetic (one IR scalar), so code that handles complex
    # values (complex_values.py) says so and everything else refuses them.
    is_complex = False

    @property
    def is_arithmetic(self) -> bool:
        return self.is_integer or self.is_floating

    @property
    def is_scalar(self) -> bool:
        return self.is_arithmetic or self.is_pointer

    @property
    def is_complete(self) -> bool:
        return True

    def ir_type(self) -> ir.Type:
        raise NotImplementedError

    def unqualified(self) -> "CType":
        return self


@dataclass(frozen=True, eq=True)
class VoidType(CType):
    is_void = True

    @property
    def is_complete(self) -> bool:
        return False

    def ir_type(self):
        return ir.VoidType()

    def __str__(self):
        return "void"


@dataclass(frozen=True, eq=True)
class IntType(CType):
    name: str
    bits: int
    signed: bool
    rank: int            # conversion rank (C99 6.3.1.1)
    is_bool: bool = False
    # An enumerated type: int, whose bit-fields are unsigned when no enumerator is
    # negative (gcc's underlying type is then unsigned int). Not part of its identity.
    unsigned_enum: bool = field(default=False, compare=False)
    is_integer = True

    @property
    def size(self):
        # A wide bit-field's value type (`unsigned long long:40`) has its declared size.
        whole = max(1, (self.bits + 7) // 8)
        return 1 << (whole - 1).bit_length()

    @property
    def align(self):
        return self.size

    def ir_type(self):
        # _Bool is a byte in memory and in registers; its value is always 0 or 1.
        return ir.IntType(8 if self.is_bool else self.bits)

    @property
    def min_value(self) -> int:
        return -(1 << (self.bits - 1)) if self.signed else 0

    @property
    def max_value(self) -> int:
        return (1 << (self.bits - 1)) - 1 if self.signed else (1 << self.bits) - 1

    def __str__(self):
        return self.name


@dataclass(frozen=True, eq=True)
class FloatType(CType):
    name: str
    bits: int
    is_floating = True

    @property
    def size(self):
        return 16 if self.bits == 80 else self.bits // 8     # x86-64 pads long double to 16

    @property
    def align(self):
        return self.size

    def ir_type(self):
        return {32: ir.FloatType, 64: ir.DoubleType, 80: X86FP80Type}[self.bits]()

    def __str__(self):
        return self.name


@dataclass(frozen=True, eq=True)
class ComplexType(CType):
    """`float/double/long double _Complex` (C99 6.2.5p11): two of its real type, the
    real part first (6.2.5p13), aligned as the real type, as gcc lays it out."""

    real: FloatType
    is_complex = True

    @property
    def size(self):
        return 2 * self.real.size

    @property
    def align(self):
        return self.real.align

    def ir_type(self):
        element = self.real.ir_type()
        return ir.LiteralStructType([element, element])

    def __str__(self):
        return f"complex {self.real}"


@dataclass(frozen=True, eq=True)
class PointerType(CType):
    pointee: CType
    # `const T *`: writes through the pointer are errors. Not part of the type's
    # identity: C converts T * to const T * freely, and nothing else here depends on it.
    pointee_const: bool = field(default=False, compare=False)
    pointee_volatile: bool = field(default=False, compare=False)    # `volatile T *`: accesses kept
    is_pointer = True
    size = 8
    align = 8

    def ir_type(self):
        # void * is i8 *, as in Clang; everything else points at its own type.
        if self.pointee.is_void:
            return ir.IntType(8).as_pointer()
        return self.pointee.ir_type().as_pointer()

    def __str__(self):
        return f"{'const ' if self.pointee_const else ''}{'volatile ' if self.pointee_volatile else ''}{self.pointee} *"


@dataclass(frozen=True, eq=True)
class ArrayType(CType):
    element: CType
    length: int | None   # None: incomplete (extern int a[]; parameter; flexible)
    is_array = True

    @property
    def size(self):
        return self.element.size * (self.length or 0)

    @property
    def align(self):
        return self.element.align

    @property
    def is_complete(self) -> bool:
        return self.length is not None

    def ir_type(self):
        return ir.ArrayType(self.element.ir_type(), self.length or 0)

    def __str__(self):
        return f"{self.element}[{'' if self.length is None else self.length}]"


@dataclass(frozen=True, eq=True)
class VariableArrayType(CType):
    """A C99 variable-length array (6.7.5.2p4), or an array of one (`int a[3][n]`).

    Its length is the value of `length_expr` when the declaration (or type name) is
    reached; codegen (variable_arrays.py) stores it then in a hidden variable named
    `length_name`, so the length travels like any variable (into kernels too). In
    memory it is a run of its innermost fixed-size element type: that is its IR type.
    Two VLA types are compatible when their elements are (6.7.5.2p6)."""

    element: CType
    length_expr: object = field(compare=False)      # the c_ast dimension
    length_name: str = field(compare=False)
    is_array = True
    is_variable = True
    length = None

    @property
    def size(self):
        raise CompileError(f"the size of variable-length array type '{self}' is only known "
                           "at run time; not supported here")

    @property
    def align(self):
        return self.element.align

    @property
    def fixed_element(self) -> CType:
        """The innermost element type of fixed size (double for double[n][m])."""
        element = self.element
        while element.is_variable:
            element = element.element
        return element

    def ir_type(self):
        return self.fixed_element.ir_type()

    def __str__(self):
        # double[n][m]: this dimension first, then the element's (also fixed ones).
        dims, inner = [], self
        while inner.is_array:
            dims.append(CGenerator().visit(inner.length_expr) if inner.is_variable
                        else "" if inner.length is None else str(inner.length))
            inner = inner.element
        return f"{inner}" + "".join(f"[{dim}]" for dim in dims)


def variably_modified(ctype: CType) -> bool:
    """A VLA type, or a pointer to / array of one (C99 6.7.5p3)."""
    while ctype.is_pointer or ctype.is_array:
        if ctype.is_variable:
            return True
        ctype = ctype.pointee if ctype.is_pointer else ctype.element
    return False


@dataclass(frozen=True, eq=True)
class FunctionType(CType):
    result: CType
    params: tuple[CType, ...]
    variadic: bool = False
    unprototyped: bool = False   # `int f()` in C99: any arguments
    is_function = True

    def ir_type(self):
        return ir.FunctionType(abi_ir_type(self.result), [abi_ir_type(p) for p in self.params],
                               var_arg=self.variadic)

    def split_complex_parameter(self) -> int | None:
        """The position of a `double _Complex` parameter that the x86-64 ABI passes in
        memory because fewer than two of the eight SSE argument registers are left
        (gcc), but LLVM would split between the last register and the stack; None
        where there is none. Calls between functions compiled here agree either way."""
        free = 8
        for position, param in enumerate(self.params):
            needed = 2 if param == COMPLEX_DOUBLE else 1 if param in (FLOAT, DOUBLE, COMPLEX_FLOAT) else 0
            if needed == 2 and free == 1:
                return position
            free = max(free - needed, 0)
        return None

    def __str__(self):
        params = ", ".join(map(str, self.params)) + (", ..." if self.variadic else "")
        return f"{self.result} ({params})"


# The standard types (LP64).
VOID = VoidType()
BOOL = IntType("_Bool", 8, False, 0, is_bool=True)
CHAR = IntType("char", 8, True, 1)
SCHAR = IntType("signed char", 8, True, 1)
UCHAR = IntType("unsigned char", 8, False, 1)
SHORT = IntType("short", 16, True, 2)
USHORT = IntType("unsigned short", 16, False, 2)
INT = IntType("int", 32, True, 3)
UINT = IntType("unsigned int", 32, False, 3)
LONG = IntType("long", 64, True, 4)
ULONG = IntType("unsigned long", 64, False, 4)
LLONG = IntType("long long", 64, True, 5)
ULLONG = IntType("unsigned long long", 64, False, 5)
FLOAT = FloatType("float", 32)
DOUBLE = FloatType("double", 64)
LONG_DOUBLE = FloatType("long double", 80)
COMPLEX_FLOAT = ComplexType(FLOAT)
COMPLEX_DOUBLE = ComplexType(DOUBLE)
COMPLEX_LONG_DOUBLE = ComplexType(LONG_DOUBLE)

SIZE_T = ULONG
PTRDIFF_T = LONG
CHAR_PTR = PointerType(CHAR)
VOID_PTR = PointerType(VOID)


def decay(ctype: CType) -> CType:
    """Array-to-pointer and function-to-pointer conversion (C99 6.3.2.1)."""
    if ctype.is_array:
        return PointerType(ctype.element)
    if ctype.is_function:
        return PointerType(ctype)
    return ctype


def integer_promotion(ctype: CType) -> CType:
    if ctype.is_integer and ctype.rank < INT.rank:
        return INT          # every narrower type fits in int
    return ctype


_UNSIGNED_OF = {INT: UINT, LONG: ULONG, LLONG: ULLONG}
UNSIGNED_ENUM = IntType("int", 32, True, 3, unsigned_enum=True)


def bit_field_value_type(declared: IntType, width: int) -> IntType:
    """The type of a bit-field's value, as gcc gives it: narrower than int, it is
    int (so `unsigned x:3` promotes to int); a width of int's, the declared int type
    or int/unsigned int for a wider declared type; wider, an integer of that many
    bits with the declared signedness (`unsigned long long y:40` adds modulo 2**40),
    between int and long in rank, as gcc orders types by precision."""
    if declared.is_bool:
        return BOOL
    signed = declared.signed and not declared.unsigned_enum
    if width < INT.bits:
        return INT
    if width == INT.bits:
        return INT if signed else UINT
    if width == declared.bits:
        return declared
    return IntType(f"{declared}:{width}", width, signed, INT.rank + width / 100)


def usual_arithmetic_conversion(left: CType, right: CType) -> CType:
    """The common type of a binary arithmetic operator (C99 6.3.1.8): the common real
    type of the operands' real types, complex when either operand is."""
    if left.is_complex or right.is_complex:
        common = usual_arithmetic_conversion(real_type(left), real_type(right))
        return ComplexType(common if common.is_floating else DOUBLE)
    if left.is_floating or right.is_floating:
        if LONG_DOUBLE in (left, right):
            return LONG_DOUBLE
        if FLOAT in (left, right) and DOUBLE not in (left, right):
            return FLOAT
        return DOUBLE
    left, right = integer_promotion(left), integer_promotion(right)
    if left == right:
        return left
    if left.signed == right.signed:
        return left if left.rank >= right.rank else right
    unsigned, signed = (left, right) if not left.signed else (right, left)
    if unsigned.rank >= signed.rank:
        return unsigned
    if signed.bits > unsigned.bits:
        return signed
    return _UNSIGNED_OF.get(signed, unsigned)


def abi_ir_type(ctype: CType) -> ir.Type:
    """The IR type of a parameter or result of `ctype`, as the x86-64 SysV ABI passes it
    when LLVM lowers that IR type: `float _Complex` is two floats packed in one SSE
    register (<2 x float>); {double, double} already goes in two SSE registers and
    {x86_fp80, x86_fp80} in memory (returned in st0/st1), as gcc passes them."""
    if ctype == COMPLEX_FLOAT:
        return ir.VectorType(ir.FloatType(), 2)
    return ctype.ir_type()


def real_type(ctype: CType) -> CType:
    """The real type of a complex type (its parts' type); any other type itself."""
    return ctype.real if ctype.is_complex else ctype


def holds_long_double(ctype: CType) -> bool:
    """A long double, or an array or struct with one inside (its layout is the host's)."""
    while ctype.is_array:
        ctype = ctype.element
    if ctype.is_struct:
        return any(holds_long_double(member.ctype) for member in ctype.fields or ())
    return real_type(ctype) == LONG_DOUBLE


def compatible(a: CType, b: CType) -> bool:
    """Loose compatibility, enough for pointer assignment checks."""
    if a == b:
        return True
    if a.is_pointer and b.is_pointer:
        return a.pointee.is_void or b.pointee.is_void or compatible(a.pointee, b.pointee)
    if a.is_array and b.is_array:
        return compatible(a.element, b.element)
    return False
