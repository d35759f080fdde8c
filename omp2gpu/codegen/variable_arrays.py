"""C99 variable-length arrays (6.7.5.2) in codegen. Mixed into FunctionEmitter.

- A VLA type's length is evaluated once, where its declaration (or type name) is
  reached, into a hidden size_t variable named by the type (`vla.N`); sizes and
  subscripts read it from the scope, so a region or kernel that captures the
  variable captures its length too (target_regions.py).
- A VLA object is a dynamic alloca of its innermost fixed-size element type; the
  stack pointer is saved before the block's first VLA and restored where the block
  ends and where break/continue leave it, so a loop does not grow the stack.
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I8P, I64
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.scopes import Symbol


def variable_array_types(ctype: ct.CType) -> list[ct.VariableArrayType]:
    """The VLA types inside `ctype` (through pointers and arrays), outermost first."""
    found = []
    while ctype.is_pointer or ctype.is_array:
        if ctype.is_variable:
            found.append(ctype)
        ctype = ctype.pointee if ctype.is_pointer else ctype.element
    return found


class VariableArrayEmitter:
    """VLA half of FunctionEmitter: lengths, run-time sizes, stack storage."""

    def bind_variable_lengths(self, ctype: ct.CType) -> None:
        """Evaluate the length of each VLA in `ctype` not yet bound in this scope."""
        for vla in variable_array_types(ctype):
            if _find(self.scope, vla.length_name) is not None:
                continue                   # a typedef's type, bound where it was declared
            value = self.expr(vla.length_expr)
            if not value.ctype.is_integer:
                raise CompileError(f"size of array has non-integer type '{value.ctype}'",
                                   vla.length_expr.coord)
            length = convert(self.builder, value.value, value.ctype, ct.SIZE_T)
            slot = self.alloca(ct.SIZE_T, vla.length_name)
            self.builder.store(length, slot)
            self.scope.declare(Symbol(vla.length_name, ct.SIZE_T, "object", slot))

    def bound_length(self, vla: ct.VariableArrayType) -> Symbol | None:
        """The variable holding a VLA type's length where it is already in scope (looked up
        without capturing it into an outlined body)."""
        scope = self.scope
        while scope is not None:
            symbol = scope.names.get(vla.length_name)
            if symbol is not None:
                return symbol
            scope = scope.parent
        return None

    def array_length(self, vla: ct.VariableArrayType) -> ir.Value:
        """The run-time length (i64) of a bound VLA type."""
        symbol = _find(self.scope, vla.length_name)
        if symbol is None:
            raise CompileError(f"the length of variable-length array type '{vla}' is not "
                               "available here")
        return self.builder.load(symbol.address)

    def runtime_size(self, ctype: ct.CType) -> ir.Value:
        """sizeof(ctype) as an i64 value; computed at run time for a VLA type."""
        if not ctype.is_variable:
            return ir.Constant(I64, ctype.size)
        return self.builder.mul(self.array_length(ctype), self.runtime_size(ctype.element))

    def fixed_elements(self, ctype: ct.CType) -> ir.Value:
        """How many of its innermost fixed-size elements a VLA type holds (i64)."""
        if not ctype.is_variable:
            return ir.Constant(I64, 1)
        return self.builder.mul(self.array_length(ctype), self.fixed_elements(ctype.element))

    # ----------------------------------------------------------------- storage
    def allocate_variable_array(self, ctype: ct.VariableArrayType, name: str) -> ir.Value:
        """Stack storage for a VLA object, released where its block ends."""
        if self.stack_saves and self.stack_saves[-1][0] is self.scope:
            pass                           # this block already saved the stack pointer
        else:
            saved = self.builder.call(self._intrinsic("llvm.stacksave"), [])
            self.stack_saves.append((self.scope, saved))
        slot = self.builder.alloca(ctype.ir_type(), size=self.fixed_elements(ctype), name=name)
        slot.align = max(ctype.align, 16)          # as gcc and Clang align stack arrays
        return slot

    def allocate_aligned_bytes(self, size: ir.Value, alignment: ir.Value, name: str) -> ir.Value:
        """`size` bytes of stack aligned to `alignment` (i64 values; a power of two known at
        run time: an OpenMP allocator's alignment trait), released where the block ends as
        a VLA's storage is."""
        if not (self.stack_saves and self.stack_saves[-1][0] is self.scope):
            saved = self.builder.call(self._intrinsic("llvm.stacksave"), [])
            self.stack_saves.append((self.scope, saved))
        b = self.builder
        raw = b.alloca(ir.IntType(8), size=b.add(size, alignment), name=name)
        raw.align = 16
        mask = b.sub(alignment, ir.Constant(I64, 1))
        return b.inttoptr(b.and_(b.add(b.ptrtoint(raw, I64), mask), b.not_(mask)), I8P)

    def release_variable_arrays(self, scope) -> None:
        """The end of a block: its VLAs' storage goes back to the stack."""
        if self.stack_saves and self.stack_saves[-1][0] is scope:
            _, saved = self.stack_saves.pop()
            if not self.builder.block.is_terminated:
                self._restore(saved)

    def jump_depth(self) -> int:
        """Where a break/continue target sits in the nest of saved stack pointers."""
        return len(self.stack_saves)

    def release_before_jump(self, depth: int | None) -> None:
        """break/continue out of blocks holding VLAs: restore the outermost one's pointer."""
        if depth is not None and len(self.stack_saves) > depth:
            self._restore(self.stack_saves[depth][1])

    def _restore(self, saved: ir.Value) -> None:
        self.builder.call(self._intrinsic("llvm.stackrestore"), [saved])

    def _intrinsic(self, name: str) -> ir.Function:
        module = self.module.module
        existing = module.globals.get(name)
        if existing is not None:
            return existing
        if name == "llvm.stacksave":
            return ir.Function(module, ir.FunctionType(I8P, []), name=name)
        return ir.Function(module, ir.FunctionType(ir.VoidType(), [I8P]), name=name)


def _find(scope, name: str):
    """The symbol `name` in `scope` or its parents, without the device scopes' on-demand
    lookups (a kernel's RegionScope would turn a host variable into a device global)."""
    while scope is not None:
        if scope.captures_enclosing:     # an outlined body's: it captures
            return scope.lookup(name)
        symbol = scope.names.get(name)
        if symbol is not None:
            return symbol
        scope = scope.parent
    return None
