"""Outlining: a construct's body becomes a function `void fn(void *data)` the OpenMP
runtime calls (GOMP_parallel's threads, a GOMP_task), as GCC and Clang do.

What the body uses of the enclosing function reaches it through `data`, a block of
bytes the encountering thread fills. Captures are found as the body is emitted: when
a name the body looks up is a local object of an enclosing function, the outlined
scope adds it to the block, so nothing the body uses can be missed (a variable-length
array's hidden length included). Each capture is either
- shared: the block holds the object's address, and the body works on the original;
- a copy (an explicit task's firstprivate): the block holds the object's bytes, and
  the body works on them (GOMP_task copies the block when it defers the task).
Objects with static storage (file scope, `static` locals) are not captured: every
thread reaches them by name; but a task's firstprivate copy of one is.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from weakref import WeakKeyDictionary

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.function import FunctionEmitter
from omp2gpu.codegen.ir_types import I8, I8P, I64
from omp2gpu.codegen.openmp.data.data_sharing import copy_bytes
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.tree_walks import nodes, nodes_of
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.captures import free_identifiers
from omp2gpu.sema.scopes import Scope, Symbol

POINTER_BYTES = 8


def is_local_object(symbol: Symbol | None) -> bool:
    """An object with automatic storage: its address is a value of one function."""
    return symbol is not None and symbol.kind == "object" and not isinstance(symbol.address, ir.GlobalValue)


@dataclass
class Capture:
    symbol: Symbol          # the enclosing function's
    offset: int             # where in the data block
    by_copy: bool


@dataclass
class DataBlock:
    """The layout of `data`, grown as captures are found."""
    captures: list[Capture] = field(default_factory=list)
    size: int = 0
    align: int = POINTER_BYTES

    def place(self, symbol: Symbol, by_copy: bool) -> Capture:
        if by_copy and symbol.ctype.is_variable:
            raise CompileError(f"'{symbol.name}', a variable-length array, cannot be copied into a "
                               "task (make it shared, or copy it into a fixed-size array)", symbol.coord)
        size = symbol.ctype.size if by_copy else POINTER_BYTES
        align = max(symbol.ctype.align, 1) if by_copy else POINTER_BYTES
        offset = -(-self.size // align) * align
        self.size, self.align = offset + size, max(self.align, align)
        capture = Capture(symbol, offset, by_copy)
        self.captures.append(capture)
        return capture


class OutlinedScope(Scope):
    """The outlined function's outermost scope: a local of an enclosing function is
    captured on first lookup; everything else (types, functions, static objects) is
    the enclosing scope's."""

    captures_enclosing = True       # variable_arrays._find asks it, rather than walking past it

    def __init__(self, enclosing: Scope, emitter: FunctionEmitter, data: ir.Value, copied=frozenset(),
                 team_shared=None):
        super().__init__()
        self.enclosing = enclosing
        self.emitter = emitter
        self.data = data                    # i8*: the function's argument
        self.copied = copied                # names captured by copy, not shared
        # A task's: the shared names its team shares too (None: a parallel region's body,
        # whose every shared capture the team shares).
        self.team_shared = team_shared
        self.block = DataBlock()

    def lookup(self, name: str):
        own = self.names.get(name)
        if own is not None:
            return own
        symbol = self.enclosing.lookup(name)
        if not (is_local_object(symbol) or self._copies_static(name, symbol)):
            return symbol
        capture = self.block.place(symbol, name in self.copied)
        pointer_type = symbol.ctype.ir_type().as_pointer()

        def address(b):
            at = b.gep(self.data, [ir.Constant(I64, capture.offset)])
            if capture.by_copy and symbol.ctype.is_scalar:
                # The thread's own slot, filled once: a value in a register for LLVM, where
                # loads through `data` at each use are reloaded after every store the body
                # makes (`data` may alias anything it stores to).
                slot = b.alloca(symbol.ctype.ir_type(), name=name)
                slot.align = max(symbol.ctype.align, 1)
                b.store(b.load(b.bitcast(at, pointer_type)), slot)
                return slot
            if capture.by_copy:
                return b.bitcast(at, pointer_type)
            return b.bitcast(b.load(b.bitcast(at, I8P.as_pointer())), pointer_type)
        inner = Symbol(name, symbol.ctype, "object", self.emitter.in_entry_block(address),
                       storage=symbol.storage, coord=symbol.coord, const=symbol.const, volatile=symbol.volatile)
        return self.declare(inner)

    def _copies_static(self, name: str, symbol) -> bool:
        """A task's firstprivate copy of an object with static storage: taken, like any
        copy, as the task is created (a threadprivate one is the thread's, looked up)."""
        return (name in self.copied and symbol is not None and symbol.kind == "object"
                and symbol.storage != "threadprivate")

    def lookup_tag(self, tag: str):
        return self.tags.get(tag) or self.enclosing.lookup_tag(tag)

    def shares(self, name: str) -> bool:
        """Whether `name` here is an enclosing function's object, shared (not a copy)."""
        return any(c.symbol.name == name and not c.by_copy for c in self.block.captures)

    def team_shares(self, name: str) -> bool:
        """Whether `name` here is shared by every implicit task of the current team."""
        return self.shares(name) and (self.team_shared is None or name in self.team_shared)


@dataclass
class Outlined:
    function: ir.Function
    block: DataBlock

    def fill(self, cg, data: ir.Value | None = None) -> ir.Value:
        """In the encountering thread (cg): the data block, filled (on cg's stack unless
        `data`, an i8* to at least block.size bytes, is given)."""
        b = cg.builder
        if data is None:
            array = cg.alloca_ir(ir.ArrayType(I8, max(self.block.size, 1)), f"{self.function.name}.data")
            array.align = self.block.align
            data = b.bitcast(array, I8P)
        for capture in self.block.captures:
            at = b.gep(data, [ir.Constant(I64, capture.offset)])
            if capture.by_copy and capture.symbol.ctype.is_scalar:
                # a load and a store (LLVM's GlobalOpt asserts on a memcpy from a global
                # pointer it has seen stored only once)
                pointer_type = capture.symbol.ctype.ir_type().as_pointer()
                b.store(b.load(capture.symbol.address), b.bitcast(at, pointer_type))
            elif capture.by_copy:       # an array's or struct's bytes, without a first-class load
                copy_bytes(cg, at, capture.symbol.address, ir.Constant(I64, capture.symbol.ctype.size))
            else:
                b.store(b.bitcast(capture.symbol.address, I8P), b.bitcast(at, I8P.as_pointer()))
        return data


def outline(cg, name: str, emit_body, copied=frozenset(), reserved: int = 0, team_shared=None) -> Outlined:
    """`emit_body(inner)` emits the body into a new internal function `void name(void *)`
    whose scope captures what it uses from cg's (`copied`: names captured by copy;
    `reserved`: bytes at the block's start the runtime writes, GOMP_taskloop's bounds)."""
    module = cg.module.module
    function = ir.Function(module, ir.FunctionType(ir.VoidType(), [I8P]), name=module.get_unique_name(name))
    function.linkage = "internal"
    function.args[0].name = "data"
    inner = FunctionEmitter(cg.module, function, ct.FunctionType(ct.VOID, ()), Scope())
    scope = OutlinedScope(cg.scope, inner, function.args[0], frozenset(copied), team_shared)
    scope.block.size = reserved
    inner.scope = scope
    inner.openmp = cg.openmp
    emit_body(inner)
    inner.finish()
    return Outlined(function, scope.block)


# Clauses whose items need the original's storage, not a thread's copy of its value.
_BY_ADDRESS = ("reduction", "lastprivate", "linear", "copyprivate", "copyin", "depend", "shared")


def read_only_scalars(cg, construct) -> frozenset[str]:
    """The variables a parallel region may take by value, as GCC does: what it only reads,
    whose address the program never takes (so nothing else can change them meanwhile).
    Only scalars are copied; a copy lets LLVM keep a
    pointer such as `a` of `a[i] = ...` in a register rather than reload it through the
    capture at each iteration."""
    changed = _changed_in(construct.body) | _address_taken(cg.module.translation_unit)
    for node in nodes_of(construct, OmpConstruct):
        changed |= {item.name for clause in node.directive.clauses if clause.name in _BY_ADDRESS
                    for item in getattr(clause, "items", ())}
    # In the order the body names them, not a set's: a lookup in an outlined function's scope
    # captures the name, so the order is the enclosing function's layout (same IR every run).
    candidates = [name for name in free_identifiers(construct.body) if name not in changed]
    return frozenset(name for name in candidates
                     if is_local_object(symbol := cg.scope.lookup(name)) and symbol.ctype.is_scalar)


def _changed_in(node) -> set[str]:
    """Variables assigned, incremented or decremented themselves (not through them)."""
    names = set()
    for n in nodes(node):
        if isinstance(n, c_ast.Assignment) and isinstance(n.lvalue, c_ast.ID):
            names.add(n.lvalue.name)
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&") \
                and isinstance(n.expr, c_ast.ID):
            names.add(n.expr.name)
    return names


# Per translation unit, kept only while its tree lives (an lru_cache kept the last trees
# and everything they reach, the llvmlite module included, to the end of the process).
_ADDRESS_TAKEN: WeakKeyDictionary = WeakKeyDictionary()


def _address_taken(unit) -> frozenset[str]:
    """Names whose address the translation unit takes anywhere (`&x`)."""
    if unit is None:
        return frozenset()
    if unit not in _ADDRESS_TAKEN:
        _ADDRESS_TAKEN[unit] = _names_with_address_taken(unit)
    return _ADDRESS_TAKEN[unit]


def _names_with_address_taken(unit) -> frozenset[str]:
    names = set()
    for n in nodes_of(unit, c_ast.UnaryOp):
        if n.op == "&":
            target = n.expr
            while isinstance(target, (c_ast.StructRef, c_ast.ArrayRef)) and not isinstance(target, c_ast.ID):
                target = target.name
            if isinstance(target, c_ast.ID):
                names.add(target.name)
    return frozenset(names)

