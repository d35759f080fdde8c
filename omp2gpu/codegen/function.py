"""One C function body -> one ir.Function.

FunctionEmitter holds the per-function state (builder, scopes, loop and switch
targets, labels); statements.py and expressions.py supply its two halves.
OpenMP schemes drive it through the same methods when they emit region bodies,
and may create extra FunctionEmitters for outlined regions.
"""

from __future__ import annotations

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.expressions import ExpressionEmitter
from omp2gpu.codegen.statements import StatementEmitter
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.scopes import Scope, Symbol


class FunctionEmitter(StatementEmitter, ExpressionEmitter):
    def __init__(self, module, function: ir.Function, function_type: ct.FunctionType, scope: Scope):
        self.module = module                     # ModuleEmitter
        self.function = function
        self.function_type = function_type
        self.scope = scope
        self.resolver = module.resolver
        self.initializers = module.initializers
        self.builtins = module.builtins
        self.openmp = module.openmp
        entry = function.append_basic_block("entry")
        self.alloca_builder = ir.IRBuilder(entry)
        self.builder = ir.IRBuilder(function.append_basic_block("body"))
        self.break_targets: list[ir.Block] = []
        self.continue_targets: list[ir.Block] = []
        self.switches: list = []
        self.labels: dict[str, list] = {}
        self.goto_uses: dict[str, object] = {}
        self.openmp_state: dict = {}             # scratch space for the active OpenMP scheme

    # ----------------------------------------------------------------- services
    def alloca(self, ctype: ct.CType, name: str = "") -> ir.Value:
        """A stack slot in the entry block, where mem2reg can promote it."""
        slot = self.alloca_ir(ctype.ir_type(), name)
        slot.align = max(ctype.align, 1)
        return slot

    def alloca_ir(self, ir_type: ir.Type, name: str = "") -> ir.Value:
        return self.in_entry_block(lambda builder: builder.alloca(ir_type, name=name))

    def in_entry_block(self, emit):
        """emit(builder) in the entry block, whose values every block can use."""
        with self.alloca_builder.goto_entry_block():
            if self.alloca_builder.block.terminator is not None:
                self.alloca_builder.position_before(self.alloca_builder.block.terminator)
            return emit(self.alloca_builder)

    def new_block(self, name: str) -> ir.Block:
        return self.function.append_basic_block(name)

    def ensure_open_block(self) -> None:
        """Code after return/break/goto still needs a (dead) block to live in."""
        if self.builder.block.is_terminated:
            self.builder.position_at_end(self.new_block("dead"))

    def branch_if_open(self, target: ir.Block) -> None:
        if not self.builder.block.is_terminated:
            self.builder.branch(target)

    def lookup_symbol(self, node: c_ast.ID) -> Symbol:
        symbol = self.scope.lookup(node.name)
        if symbol is None:
            symbol = self.module.implicit_symbol(node)
        return symbol

    def resolve_type(self, node) -> ct.CType:
        return self.resolver.resolve(node, self.scope)

    # ----------------------------------------------------------------- the body
    def emit_body(self, definition: c_ast.FuncDef) -> None:
        decl_params = definition.decl.type.args.params if definition.decl.type.args else []
        params = [p for p in decl_params if not isinstance(p, c_ast.EllipsisParam)]
        if len(params) == 1 and params[0].name is None and self.function_type.params == ():
            params = []
        for param, arg, ctype in zip(params, self.function.args, self.function_type.params):
            if param.name is None:
                raise CompileError("parameter name omitted", param.coord)
            slot = self.alloca(ctype, param.name)
            self.builder.store(arg, slot)
            self.scope.declare(Symbol(param.name, ctype, "object", slot, coord=param.coord))
        self._declare_func_name(definition.decl.name)
        for item in definition.body.block_items or ():
            self.stmt(item)
        self.finish()

    def _declare_func_name(self, name: str) -> None:
        data = name.encode()
        self.scope.declare(Symbol("__func__", ct.ArrayType(ct.CHAR, len(data) + 1), "object",
                                  self.module.string_global(data)))

    def finish(self) -> None:
        """Close the function. Falling off the end returns 0 from main (C99 5.1.2.2.3)."""
        self.check_labels()
        if not self.builder.block.is_terminated:
            result = self.function_type.result
            if result.is_void:
                self.builder.ret_void()
            elif result.is_struct:
                self.builder.ret(ir.Constant(result.ir_type(), ir.Undefined))
            else:
                self.builder.ret(ir.Constant(result.ir_type(), 0 if not result.is_pointer else None))
        self.alloca_builder.branch(self.function.blocks[1])
        self._drop_dead_blocks()

    def _drop_dead_blocks(self) -> None:
        """Empty unreachable blocks (after return/break) need a terminator to be valid IR."""
        for block in self.function.blocks:
            if not block.is_terminated:
                ir.IRBuilder(block).unreachable()
