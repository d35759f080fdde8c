"""C statements and block-scope declarations -> IR (C99 6.8, 6.7). Mixed into FunctionEmitter."""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen import complex_values, loop_metadata
from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.values import LValue
from omp2gpu.diagnostics import CompileError, EndOfScopeError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.clause_operands import check_clause_names, check_clause_operands
from omp2gpu.sema.constant_eval import wrap
from omp2gpu.sema.declarators import declared_const, declared_volatile
from omp2gpu.sema.map_items import pointer_and_section_maps
from omp2gpu.sema.reduction_items import arrays_as_sections
from omp2gpu.sema.scopes import Symbol
from omp2gpu.sema.speculation.tree import is_build_choice
from omp2gpu.sema.static_assertions import check_static_assertion


@dataclass
class _SwitchContext:
    instruction: ir.Instruction
    ctype: ct.CType
    default: ir.Block | None = None
    seen: set = field(default_factory=set)
    variably_modified: frozenset = frozenset()      # in scope at `switch`: its labels may not add one


class StatementEmitter:
    """Statement half of FunctionEmitter."""

    def stmt(self, node) -> None:
        if node is None:
            return
        self.ensure_open_block()
        if self.debug is None:
            self._statement(node)
            return
        saved = self.at_statement(node.coord)      # -g: its instructions carry its line
        try:
            self._statement(node)
        finally:
            self.builder.debug_metadata = saved

    def _statement(self, node) -> None:
        if id(node) in self.openmp.team_statements:
            self.openmp.emit_team_statement(self, node)
            return
        method = getattr(self, "_stmt_" + type(node).__name__, None)
        if method is not None:
            method(node)
        else:
            self.expr(node)          # expression statement

    @contextmanager
    def block_scope(self):
        saved = self.scope
        self.scope = saved.child()
        try:
            with self.debug_block():
                yield self.scope
        finally:
            self.release_variable_arrays(self.scope)
            self.scope = saved

    def _stmt_Compound(self, node):
        with self.block_scope():
            for item in node.block_items or ():
                self.stmt(item)

    def _stmt_EmptyStatement(self, node):
        pass

    def _stmt_Pragma(self, node):
        pass                          # non-OpenMP pragmas are ignored, as compilers do

    def _stmt_StaticAssert(self, node):
        check_static_assertion(node, self.scope, self.module.resolver)

    def _stmt_OmpConstruct(self, node: OmpConstruct):
        # a list in a function: functions too; a mapper's clauses name its own variable
        if node.directive.kind in ("declare target", "declare mapper"):
            self.openmp.emit_construct(self, node)
            return
        check_clause_names(self.scope, node.directive)
        arrays_as_sections(self.scope, node.directive)
        pointer_and_section_maps(self.scope, node.directive)
        check_clause_operands(self, node)
        self.openmp.emit_construct(self, node)

    def _stmt_OmpMetadirective(self, node):
        self.openmp.emit_metadirective(self, node)

    def _stmt_Typedef(self, node):
        self.module.declare_typedef(node, self.scope)
        self.bind_variable_lengths(self.scope.names[node.name].ctype)   # typedef int row[n];

    def _stmt_DeclList(self, node):
        for decl in node.decls:
            self._stmt_Decl(decl)

    # ----------------------------------------------------------------- declarations
    def _stmt_Decl(self, node: c_ast.Decl):
        if node.name is None:                 # struct/union/enum declaration only
            self.resolve_type(node.type)
            return
        ctype = self.resolve_type(node.type)
        if ctype.is_variable and ("static" in node.storage or "extern" in node.storage):
            raise CompileError(f"variable-length array '{node.name}' cannot have static storage "
                               "or linkage", node.coord)
        if ctype.is_function and ("static" in node.storage or "register" in node.storage):
            raise CompileError(f"invalid storage class for function '{node.name}'", node.coord)    # as gcc
        if ctype.is_function or "extern" in node.storage:
            self.module.declare_external_in_block(node, ctype, self.scope)
            return
        if "static" in node.storage:
            symbol = self.module.define_static_local(node, ctype, self.scope, self.function.name)
            if self.debug is not None:         # -g: a variable of its function (LLVM 20's DWARF
                self.debug.describe_global(symbol, self.subprogram(node.coord))   # writer crashes on a block's)
            return
        if ctype.is_variable:
            return self._variable_array_decl(node, ctype)
        ctype = self.initializers.complete_array_type(ctype, node.init, self.scope)
        if not ctype.is_complete:
            raise CompileError(f"variable '{node.name}' has incomplete type '{ctype}'", node.coord)
        self._check_not_redefined(node)
        # A scheme may place a local elsewhere (team-shared memory on a GPU).
        slot = self.openmp.local_address(self, node, ctype) or self.alloca(ctype, node.name)
        symbol = self.scope.declare(Symbol(node.name, ctype, "object", slot, coord=node.coord,
                                           const=declared_const(node), volatile=declared_volatile(node)))
        self.describe_variable(node.name, ctype, slot, node.coord)
        if node.init is not None:
            self.initializers.store(self, LValue(ctype, slot, volatile=symbol.volatile), node.init)
        return symbol

    def _variable_array_decl(self, node: c_ast.Decl, ctype: ct.VariableArrayType):
        """`double a[n][m]`: storage on the stack, sized now (variable_arrays.py)."""
        if node.init is not None:
            raise CompileError("variable-sized object may not be initialized", node.init.coord or node.coord)
        self._check_not_redefined(node)
        try:
            slot = self.openmp.local_address(self, node, ctype)
        except CompileError as error:
            # A scheme that would share it between threads needs its size now.
            raise CompileError(f"variable-length array '{node.name}' shared by the threads of a "
                               f"team is not supported ({error.message})", node.coord) from error
        if slot is None:
            slot = self.allocate_variable_array(ctype, node.name)
        symbol = self.scope.declare(Symbol(node.name, ctype, "object", slot, coord=node.coord,
                                           const=declared_const(node), volatile=declared_volatile(node)))
        self.describe_variable(node.name, ctype, slot, node.coord)
        return symbol

    def _check_not_redefined(self, node: c_ast.Decl) -> None:
        """A name declared twice in one block."""
        if self.scope.declared_elsewhere(node.name, node.coord):
            raise CompileError(f"redefinition of '{node.name}'", node.coord)

    # ----------------------------------------------------------------- control flow
    def _stmt_If(self, node):
        if is_build_choice(node.cond):
            # sema/speculation/'s two forms of a statement: only this build's is emitted, so
            # no branch lets LLVM sink a load made before it into one side
            chosen = self.builtins.emit(node.cond, self).value.constant
            self.stmt(node.iftrue if chosen else node.iffalse)
            return
        test = self.condition(node.cond)
        then_block = self.new_block("if.then")
        end_block = self.new_block("if.end")
        else_block = self.new_block("if.else") if node.iffalse is not None else end_block
        self.builder.cbranch(test, then_block, else_block)
        self.builder.position_at_end(then_block)
        self.stmt(node.iftrue)
        self.branch_if_open(end_block)
        if node.iffalse is not None:
            self.builder.position_at_end(else_block)
            self.stmt(node.iffalse)
            self.branch_if_open(end_block)
        self.builder.position_at_end(end_block)

    def _stmt_While(self, node):
        cond_block, body_block, end_block = (self.new_block("while.cond"), self.new_block("while.body"),
                                             self.new_block("while.end"))
        self.builder.branch(cond_block)
        self.builder.position_at_end(cond_block)
        self.builder.cbranch(self.condition(node.cond), body_block, end_block)
        self.builder.position_at_end(body_block)
        with self.loop_targets(end_block, cond_block):
            self.stmt(node.stmt)
        self.branch_if_open(cond_block)
        self.builder.position_at_end(end_block)

    def _stmt_DoWhile(self, node):
        body_block, cond_block, end_block = (self.new_block("do.body"), self.new_block("do.cond"),
                                             self.new_block("do.end"))
        self.builder.branch(body_block)
        self.builder.position_at_end(body_block)
        with self.loop_targets(end_block, cond_block):
            self.stmt(node.stmt)
        self.branch_if_open(cond_block)
        self.builder.position_at_end(cond_block)
        self.builder.cbranch(self.condition(node.cond), body_block, end_block)
        self.builder.position_at_end(end_block)

    def _stmt_For(self, node):
        with self.block_scope():
            if isinstance(node.init, c_ast.DeclList):
                self._stmt_DeclList(node.init)
            elif node.init is not None:
                self.expr(node.init)
            cond_block, body_block = self.new_block("for.cond"), self.new_block("for.body")
            next_block, end_block = self.new_block("for.inc"), self.new_block("for.end")
            self.builder.branch(cond_block)
            self.builder.position_at_end(cond_block)
            if node.cond is None:
                self.builder.branch(body_block)
            else:
                self.builder.cbranch(self.condition(node.cond), body_block, end_block)
            self.builder.position_at_end(body_block)
            with self.loop_targets(end_block, next_block):
                self.stmt(node.stmt)
            self.branch_if_open(next_block)
            self.builder.position_at_end(next_block)
            if node.next is not None:
                self.expr(node.next)
            back_edge = self.builder.branch(cond_block)
            if id(node) in self.simd_loops:
                loop_metadata.vectorize(back_edge)
            self.builder.position_at_end(end_block)

    @contextmanager
    def loop_targets(self, break_block, continue_block):
        self.break_targets.append(break_block)
        self.continue_targets.append(continue_block)
        self.jump_depths[break_block] = self.jump_depths[continue_block] = self.jump_depth()
        try:
            yield
        finally:
            self.break_targets.pop()
            self.continue_targets.pop()

    def _stmt_Break(self, node):
        if not self.break_targets:
            raise CompileError("'break' statement not in loop or switch statement", node.coord)
        self.release_before_jump(self.jump_depths.get(self.break_targets[-1]))
        self.builder.branch(self.break_targets[-1])

    def _stmt_Continue(self, node):
        if not self.continue_targets:
            raise CompileError("'continue' statement not in loop statement", node.coord)
        self.release_before_jump(self.jump_depths.get(self.continue_targets[-1]))
        self.builder.branch(self.continue_targets[-1])

    def _stmt_Return(self, node):
        result = self.function_type.result
        if node.expr is None:
            if not result.is_void:
                raise CompileError("non-void function should return a value", node.coord)
            self._return(None)
            return
        if result.is_void:
            value = self.expr(node.expr)
            if not value.ctype.is_void:
                raise CompileError("void function should not return a value", node.coord)
            self._return(None)
            return
        self._return(self.expr_as(node.expr, result))

    def _return(self, value) -> None:
        """ret, or in a body expanded in place (FunctionEmitter.inline_call) a branch past it."""
        if self.inline_return is not None:
            slot, done = self.inline_return
            if value is not None:
                self.builder.store(value, slot)
            self.builder.branch(done)
        elif value is None:
            self.builder.ret_void()
        else:
            self.builder.ret(complex_values.to_abi(self.builder, value, self.function_type.result))

    # ----------------------------------------------------------------- switch
    def _stmt_Switch(self, node):
        value = self.expr(node.cond)
        if not value.ctype.is_integer:
            raise CompileError("statement requires expression of integer type", node.cond.coord)
        ctype = ct.integer_promotion(value.ctype)
        converted = convert(self.builder, value.value, value.ctype, ctype)
        end_block = self.new_block("switch.end")
        context = _SwitchContext(self.builder.switch(converted, end_block), ctype,
                                 variably_modified=self.scope.variably_modified_here())
        self.switches.append(context)
        self.break_targets.append(end_block)
        self.jump_depths[end_block] = self.jump_depth()
        try:
            self.builder.position_at_end(self.new_block("switch.body"))   # code before any label
            self.stmt(node.stmt)
            self.branch_if_open(end_block)
        finally:
            self.switches.pop()
            self.break_targets.pop()
        self.builder.position_at_end(end_block)

    def _case_block(self, name, coord):
        if not self.scope.variably_modified_here() <= self.switches[-1].variably_modified:
            raise CompileError("switch jumps into scope of identifier with variably modified type", coord)
        block = self.new_block(name)
        self.branch_if_open(block)         # fall through from the previous case
        self.builder.position_at_end(block)
        return block

    def _stmt_Case(self, node):
        if not self.switches:
            raise CompileError("'case' statement not in switch statement", node.coord)
        context = self.switches[-1]
        label, _ = self.constant_value(node.expr)
        label = wrap(int(label), context.ctype)
        if label in context.seen:
            raise CompileError(f"duplicate case value '{label}'", node.expr.coord)
        context.seen.add(label)
        block = self._case_block("switch.case", node.coord)
        context.instruction.add_case(ir.Constant(context.ctype.ir_type(), label), block)
        for item in node.stmts or ():
            self.stmt(item)

    def _stmt_Default(self, node):
        if not self.switches:
            raise CompileError("'default' statement not in switch statement", node.coord)
        context = self.switches[-1]
        if context.default is not None:
            raise CompileError("multiple default labels in one switch", node.coord)
        context.default = self._case_block("switch.default", node.coord)
        context.instruction.default = context.default
        for item in node.stmts or ():
            self.stmt(item)

    # ----------------------------------------------------------------- goto
    def _label_block(self, name):
        """[its block, where it is defined, the variably modified identifiers in scope there,
        the gotos read before it: (where, the variably modified identifiers in scope)]"""
        if name not in self.labels:
            self.labels[name] = [self.new_block(f"label.{name}"), None, None, []]
        return self.labels[name]

    def _stmt_Label(self, node):
        entry = self._label_block(node.name)
        if entry[1] is not None:
            raise CompileError(f"redefinition of label '{node.name}'", node.coord)
        entry[1], entry[2] = node.coord, self.scope.variably_modified_here()
        for coord, visible in entry[3]:
            _check_jump(entry[2], visible, coord)
        self.branch_if_open(entry[0])
        self.builder.position_at_end(entry[0])
        self.stmt(node.stmt)

    def _stmt_Goto(self, node):
        entry = self._label_block(node.name)
        self.goto_uses.setdefault(node.name, node.coord)
        visible = self.scope.variably_modified_here()
        if entry[1] is None:
            entry[3].append((node.coord, visible))
        else:
            _check_jump(entry[2], visible, node.coord)
        self.builder.branch(entry[0])

    def check_labels(self):
        for name, coord in self.goto_uses.items():
            if self.labels[name][1] is None:
                raise EndOfScopeError(f"use of undeclared label '{name}'", coord)


def _check_jump(at_label: frozenset, at_goto: frozenset, coord) -> None:
    if not at_label <= at_goto:
        raise CompileError("jump into scope of identifier with variably modified type", coord)
