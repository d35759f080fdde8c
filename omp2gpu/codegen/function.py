"""One C function body -> one ir.Function.

FunctionEmitter holds the per-function state (builder, scopes, loop and switch
targets, labels); statements.py and expressions.py supply its two halves.
OpenMP schemes drive it through the same methods when they emit region bodies,
and may create extra FunctionEmitters for outlined regions.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen import complex_values
from omp2gpu.codegen.expressions import ExpressionEmitter
from omp2gpu.codegen.folding_builder import FoldingBuilder
from omp2gpu.codegen.statements import StatementEmitter
from omp2gpu.codegen.values import RValue
from omp2gpu.codegen.variable_arrays import VariableArrayEmitter, variable_array_types
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.declarators import declared_const, declared_volatile
from omp2gpu.sema.scopes import Scope, Symbol

if TYPE_CHECKING:
    from omp2gpu.codegen.openmp.cpu.teams import CpuTeams
    from omp2gpu.codegen.openmp.host.doacross import DoacrossNest
    from omp2gpu.codegen.openmp.host.serial_tasks import TeamRegion


@dataclass
class OpenMPFunctionState:
    """What the OpenMP schemes remember while they emit one function's code: every
    FunctionEmitter has its own, so an outlined region's function starts afresh."""
    targets_entered: int = 0            # host_threads: target constructs around the code (run on the host)
    in_league: bool = False             # host_threads: the code is a team's of a host league
    cancel_targets: list[tuple[str, ir.Block]] = field(default_factory=list)   # host_cancel:
                                        # (construct kind, where its cancel goes), innermost last
    parallel_exit: ir.Block | None = None   # host_cancel: where a cancelled parallel region's thread goes
    doacross_nest: DoacrossNest | str | None = None   # doacross: the enclosing nest, or doacross.IN_ORDER
    team_regions: list[TeamRegion] = field(default_factory=list)   # tasks: the team regions we are in
    threadprivate_copies: dict[str, Symbol] = field(default_factory=dict)  # threadprivate: this thread's
    cpu_team: CpuTeams | None = None    # cpu_workgroup: the CpuTeams emitting the region, while it does
    # lastprivate(conditional:): id of a private copy's address -> the slot an assignment to
    # it stores the iteration in (data_sharing.DataEnvironment); the slot holding the
    # running iteration's number, set by the worksharing loop (None: one thread runs it all)
    assigned_iteration: dict[int, ir.Value] = field(default_factory=dict)
    running_iteration: ir.Value | None = None


class FunctionEmitter(StatementEmitter, ExpressionEmitter, VariableArrayEmitter):
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
        self.builder = FoldingBuilder(function.append_basic_block("body"))
        self.break_targets: list[ir.Block] = []
        self.continue_targets: list[ir.Block] = []
        self.switches: list = []
        self.labels: dict[str, list] = {}
        self.goto_uses: dict[str, object] = {}
        self.simd_loops: set[int] = set()        # ids of the `for` nodes an OpenMP simd construct vectorises
        self.openmp_state = OpenMPFunctionState()
        self.inline_return = None                # (result slot, block) while in inline_call
        self.stack_saves: list[tuple] = []       # (block scope, saved stack pointer) per VLA block
        self.jump_depths: dict = {}              # break/continue block -> len(stack_saves) there
        self.debug = module.debug_info           # codegen/debug_info.DebugInfo under -g, else None
        self.debug_blocks: list = []             # -g: the DILexicalBlocks of the C blocks we are in
        self.statement_coord = None              # -g: where the statement being emitted is
        self.described: dict = {}                # -g: id of an address -> its DILocalVariable

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
        if symbol.storage == "threadprivate":
            return self.openmp.threadprivate_symbol(self, symbol)
        if self.debug is not None and symbol.kind == "object" and self._own_value(symbol.address):
            # -g: a scheme's private copy or capture (declared as it pleased) is described
            # where the body first uses it.
            self.describe_variable(node.name, symbol.ctype, symbol.address, symbol.coord or node.coord,
                                   whole_function=True)
        return symbol

    def _own_value(self, value) -> bool:
        """A value of this function (an alloca, an argument, an address computed here)."""
        if isinstance(value, ir.Argument):
            return value.parent is self.function
        return isinstance(value, ir.Instruction) and value.parent.parent is self.function

    def resolve_type(self, node) -> ct.CType:
        """The type a declarator or type name denotes; the lengths of its variable-length
        arrays are evaluated here, where C evaluates them (C99 6.7.5.2p4)."""
        ctype = self.resolver.resolve(node, self.scope)
        self.bind_variable_lengths(ctype)
        return ctype

    # ----------------------------------------------------------------- debug information (-g)
    def subprogram(self, coord=None, name: str | None = None):
        """This function's DISubprogram, made at its first statement (or definition)."""
        return self.debug.subprogram(self.function, coord, name)

    def debug_scope(self, coord=None):
        """The innermost C block's DILexicalBlock, else the function's DISubprogram."""
        return self.debug_blocks[-1] if self.debug_blocks else self.subprogram(coord)

    def at_statement(self, coord):
        """Give what the builder emits from now on `coord`'s line; returns the location
        it had (to restore). Only under -g."""
        saved = self.builder.debug_metadata
        if coord is not None:
            self.statement_coord = coord
            self.builder.debug_metadata = self.debug.location(self.debug_scope(coord), coord)
        return saved

    @contextmanager
    def debug_block(self):
        """-g: a C block (a compound statement, a `for` declaring its variable) is a
        DILexicalBlock, so that a debugger sees the variables of the block it stops in
        (the second loop's `i`, not the first's)."""
        coord = self.statement_coord
        if self.debug is None or coord is None:
            yield
            return
        self.debug_blocks.append(self.debug.lexical_block(self.debug_scope(coord), coord))
        saved = self.builder.debug_metadata
        self.builder.debug_metadata = self.debug.location(self.debug_blocks[-1], coord)
        try:
            yield
        finally:
            self.debug_blocks.pop()
            self.builder.debug_metadata = saved

    def describe_variable(self, name: str, ctype: ct.CType, address: ir.Value, coord, argument: int = 0,
                          whole_function: bool = False):
        """A debugger sees the C object `name` at `address` (under -g; else nothing), in
        the current block (`whole_function`: in the whole function). Its DILocalVariable."""
        if self.debug is None:
            return None
        if id(address) not in self.described:     # (the IR holds every address: ids stay unique)
            scope = self.subprogram(coord) if whole_function else self.debug_scope(coord)
            self.described[id(address)] = self.debug.declare_variable(
                self.builder, scope, name, ctype, address, coord, argument, self._debug_lengths(ctype, coord))
        return self.described[id(address)]

    def _debug_lengths(self, ctype: ct.CType, coord) -> dict:
        """The variables holding the lengths of ctype's variable-length arrays, described
        (those bound in this function; none is captured for the debugger's sake)."""
        lengths = {}
        for vla in variable_array_types(ctype):
            symbol = self.bound_length(vla)
            if symbol is not None and self._own_value(symbol.address):
                lengths[vla.length_name] = self.describe_variable(vla.length_name, ct.SIZE_T, symbol.address,
                                                                  coord, whole_function=True)
        return lengths

    # ----------------------------------------------------------------- the body
    def emit_body(self, definition: c_ast.FuncDef) -> None:
        if self.debug is not None:
            self.subprogram(definition.decl.coord, definition.decl.name)
        for param, arg, ctype in zip(_named_params(definition, self.function_type), self.function.args,
                                     self.function_type.params):
            slot = self.alloca(ctype, param.name)
            self.builder.store(complex_values.from_abi(self.builder, arg, ctype), slot)
            self.scope.declare(Symbol(param.name, ctype, "object", slot, coord=param.coord,
                                      const=declared_const(param), volatile=declared_volatile(param)))
        for ctype in self.function_type.params:      # `double (*a)[n]`: n is a parameter
            self.bind_variable_lengths(ctype)
        for number, param in enumerate(_named_params(definition, self.function_type) if self.debug else ()):
            symbol = self.scope.names[param.name]          # -g: after the lengths its type may use
            self.describe_variable(param.name, symbol.ctype, symbol.address, param.coord, argument=number + 1)
        self._declare_func_name(definition.decl.name)
        for item in definition.body.block_items or ():
            self.stmt(item)
        self.finish()

    def inline_call(self, definition: c_ast.FuncDef, function_type: ct.FunctionType, values) -> RValue:
        """Run `definition`'s body here, as a call to it would: its parameters are new
        locals holding `values` (converted arguments), its returns branch past it. An
        OpenMP scheme asks for this (hooks.inline_definition) where the callee's
        constructs must become part of the caller's code."""
        name = definition.decl.name
        result = function_type.result
        done = self.new_block(f"{name}.inlined.end")
        slot = None if result.is_void else self.alloca(result, f"{name}.result")
        saved = (self.scope, self.function_type, self.labels, self.goto_uses, self.break_targets,
                 self.continue_targets, self.switches, self.inline_return)
        self.scope = self.module.file_scope.child()
        self.function_type, self.labels, self.goto_uses = function_type, {}, {}
        self.break_targets, self.continue_targets, self.switches = [], [], []
        self.inline_return = (slot, done)
        try:
            for param, value, ctype in zip(_named_params(definition, function_type), values,
                                           function_type.params):
                address = self.openmp.local_address(self, param, ctype) or self.alloca(ctype, param.name)
                self.builder.store(value, address)
                self.scope.declare(Symbol(param.name, ctype, "object", address, coord=param.coord,
                                          const=declared_const(param), volatile=declared_volatile(param)))
                self.describe_variable(param.name, ctype, address, param.coord)
            for ctype in function_type.params:
                self.bind_variable_lengths(ctype)
            self._declare_func_name(name)
            for item in definition.body.block_items or ():
                self.stmt(item)
            self.check_labels()
            self.branch_if_open(done)
        finally:
            (self.scope, self.function_type, self.labels, self.goto_uses, self.break_targets,
             self.continue_targets, self.switches, self.inline_return) = saved
        self.builder.position_at_end(done)
        return RValue(result, None if slot is None else self.builder.load(slot))

    def _declare_func_name(self, name: str) -> None:
        data = name.encode()
        self.scope.declare(Symbol("__func__", ct.ArrayType(ct.CHAR, len(data) + 1), "object",
                                  self.module.string_global(data), const=True))

    def finish(self) -> None:
        """Close the function. Falling off the end returns 0 from main (C99 5.1.2.2.3)."""
        self.check_labels()
        if not self.builder.block.is_terminated:
            result = self.function_type.result
            if result.is_void:
                self.builder.ret_void()
            elif result.is_struct or result.is_complex:
                self.builder.ret(ir.Constant(ct.abi_ir_type(result), ir.Undefined))
            else:
                self.builder.ret(ir.Constant(result.ir_type(), 0 if not result.is_pointer else None))
        self.alloca_builder.branch(self.function.blocks[1])
        self._drop_dead_blocks()

    def _drop_dead_blocks(self) -> None:
        """Empty unreachable blocks (after return/break) need a terminator to be valid IR."""
        for block in self.function.blocks:
            if not block.is_terminated:
                ir.IRBuilder(block).unreachable()


def _named_params(definition: c_ast.FuncDef, function_type: ct.FunctionType) -> list:
    """The parameter declarations of a definition (none for `f(void)`), each named."""
    decl_params = definition.decl.type.args.params if definition.decl.type.args else []
    params = [p for p in decl_params if not isinstance(p, c_ast.EllipsisParam)]
    if len(params) == 1 and params[0].name is None and function_type.params == ():
        return []
    for param in params:
        if param.name is None:
            raise CompileError("parameter name omitted", param.coord)
    return params
