"""A CPU teams parallel region's phases and its work-items' context (cpu_teams.py's
scheme, the PoCL transformation).

Decides where a parallel region splits: a barrier, explicit or at the end of a
worksharing construct, ends one phase (a loop over the team's work-items) and
starts the next; a loop or `if` around barriers runs at team level, as
work-item 0 sees it. And where a work-item's values live across those splits:
per-work-item context arrays (on the stack, or the heap when large), seen
through view() as the work-item's own variables. Kept apart from the clause
routing and construct dispatch of cpu_teams.py, and from the loop schedules of
cpu_team_loops.py, because it is the one place that knows the phase and
context-array layout. The small emitters all three modules use (counted and
stepped loops, the pool's team-state words) live here, at the bottom of the
imports.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.ir_types import I32, I64
from omp2gpu.codegen.openmp.data.data_sharing import DataEnvironment, clauses_named
from omp2gpu.codegen.openmp.runtime_entries import CpuDeviceRuntime
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.tree_walks import holds
from omp2gpu.offload.abi import (
    CPU_MAX_TEAM,  # work-items per team at most (CpuDevice caps the launch)
)
from omp2gpu.sema.scopes import Symbol

STACK_CONTEXT_BYTES = 64 << 10       # larger context arrays go on the heap

# team-state words of runtime/cpu_device/pool.c, and the function that finds them
THREAD_NUM, NUM_THREADS, LEVEL = 2, 3, 4

_WORKSHARING = ("for", "for simd", "single", "sections", "barrier")


def synchronises(node) -> bool:
    """Whether a statement of a parallel region holds a barrier of that region: a barrier
    or a worksharing construct not inside a nested parallel region."""
    def parallel(n) -> bool:                     # its own (inactive) team
        return isinstance(n, OmpConstruct) and n.directive.has("parallel")

    def worksharing(n) -> bool:
        return isinstance(n, OmpConstruct) and not parallel(n) \
            and (n.directive.kind in _WORKSHARING or n.directive.kind.startswith("sections"))
    return holds(node, worksharing, prune=parallel)


def team_state(cg) -> ir.Value:
    """int * to this worker's team state (pool.c), read once per work-group."""
    return CpuDeviceRuntime.team.call(cg.builder)


@dataclass
class Level:
    """Context variables declared at one level (a parallel region's clauses, a compound that
    barriers split), and the scope the level's declarations live in."""
    scope: object
    vars: list = field(default_factory=list)


@dataclass
class ContextVar:
    name: str
    ctype: object
    array: ir.Value                  # element pointer: [CPU_MAX_TEAM x ctype] or heap
    declared: bool = False


class BarrierPhases:
    """CpuTeams' phases and work-items (a mixin): self.team is the region's Team;
    for_phase comes from cpu_team_loops.TeamLoops."""

    # ----------------------------------------------------------------- phases
    def statement(self, cg, node) -> None:
        """A statement of a parallel region: work-item loops, split at its barriers."""
        node_ = node
        if not synchronises(node_):
            self.work_item_loop(cg, lambda: cg.stmt(node_))
            return
        if isinstance(node, c_ast.Compound):
            self._compound(cg, node)
        elif isinstance(node, OmpConstruct):
            self._synchronising_construct(cg, node)
        elif isinstance(node, (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.If)):
            self._team_control(cg, node)
        else:
            raise CompileError("a barrier in a statement the CPU teams scheme cannot split",
                               getattr(node, "coord", None))

    def _compound(self, cg, node) -> None:
        team = self.team
        items = list(node.block_items or ())
        with cg.block_scope():
            level = Level(cg.scope)
            team.levels.append(level)
            for item in items:                   # what a barrier may split from its uses
                for decl in _declarations(item):
                    if decl.name is None or "static" in decl.storage or "extern" in decl.storage:
                        continue
                    ctype = cg.resolve_type(decl.type)
                    if ctype.is_function:
                        continue
                    ctype = cg.initializers.complete_array_type(ctype, decl.init, cg.scope)
                    if not ctype.is_complete:
                        raise CompileError(f"variable '{decl.name}' has incomplete type", decl.coord)
                    var = ContextVar(decl.name, ctype, self._context_array(cg, ctype))
                    level.vars.append(var)
                    team.by_declaration[id(decl)] = var
            pending = []
            for item in items:
                if isinstance(item, (c_ast.Typedef, c_ast.Pragma)) or (
                        isinstance(item, c_ast.Decl) and item.name is None):
                    self._flush(cg, pending)
                    cg.stmt(item)                 # a type for every phase after it
                elif synchronises(item):
                    self._flush(cg, pending)
                    self.statement(cg, item)
                else:
                    pending.append(item)
            self._flush(cg, pending)
            team.levels.pop()

    def _flush(self, cg, pending: list) -> None:
        if pending:
            items = list(pending)
            pending.clear()
            self.work_item_loop(cg, lambda: [cg.stmt(item) for item in items])

    def _synchronising_construct(self, cg, construct) -> None:
        kind = construct.directive.kind
        if kind == "barrier":
            return                                # the next phase is the next loop
        if kind in ("for", "for simd"):
            self.for_phase(cg, construct.directive, construct.body)
        elif kind == "single":
            if clauses_named(construct.directive, "copyprivate"):
                raise CompileError("'copyprivate' in a CPU teams region")
            with self.as_work_item(cg, ir.Constant(I32, 0)), DataEnvironment(cg, construct.directive):
                cg.stmt(construct.body)
        elif kind == "sections":
            with self.as_work_item(cg, ir.Constant(I32, 0)), DataEnvironment(cg, construct.directive):
                cg.stmt(construct.body)           # each section once, in order
        else:
            raise CompileError(f"'{kind}' holding a barrier of its parallel region", construct.coord)

    def _team_control(self, cg, node) -> None:
        """A loop or if whose body meets barriers: control as work-item 0 sees it."""
        b = cg.builder
        if isinstance(node, c_ast.If):
            with self.view(cg, ir.Constant(I32, 0)):
                test = cg.condition(node.cond)
            then_block, end_block = cg.new_block("team.if.then"), cg.new_block("team.if.end")
            else_block = cg.new_block("team.if.else") if node.iffalse is not None else end_block
            b.cbranch(test, then_block, else_block)
            b.position_at_end(then_block)
            self.statement(cg, node.iftrue)
            cg.branch_if_open(end_block)
            if node.iffalse is not None:
                b.position_at_end(else_block)
                self.statement(cg, node.iffalse)
                cg.branch_if_open(end_block)
            b.position_at_end(end_block)
            return
        cond_block, body_block = cg.new_block("team.loop.cond"), cg.new_block("team.loop.body")
        next_block, end_block = cg.new_block("team.loop.next"), cg.new_block("team.loop.end")
        with cg.block_scope():
            if isinstance(node, c_ast.For) and node.init is not None:
                with self.view(cg, ir.Constant(I32, 0), keep=True):
                    cg.stmt(node.init) if isinstance(node.init, c_ast.DeclList) else cg.expr(node.init)
            b.branch(body_block if isinstance(node, c_ast.DoWhile) else cond_block)
            b.position_at_end(cond_block)
            condition = node.cond
            if condition is None:
                b.branch(body_block)
            else:
                with self.view(cg, ir.Constant(I32, 0)):
                    b.cbranch(cg.condition(condition), body_block, end_block)
            b.position_at_end(body_block)
            with cg.loop_targets(end_block, next_block):
                self.statement(cg, node.stmt)
            cg.branch_if_open(next_block)
            b.position_at_end(next_block)
            if isinstance(node, c_ast.For) and node.next is not None:
                with self.view(cg, ir.Constant(I32, 0)):
                    cg.expr(node.next)
            b.branch(cond_block)
            b.position_at_end(end_block)

    # ----------------------------------------------------------------- work-items
    def work_item_loop(self, cg, emit) -> None:
        """for (wi = 0; wi < nthreads; wi++) emit(), with the work-item's context."""
        team = self.team
        b = cg.builder
        entry = b.block
        cond_block, body_block = cg.new_block("wi.cond"), cg.new_block("wi.body")
        next_block, end_block = cg.new_block("wi.next"), cg.new_block("wi.end")
        b.branch(cond_block)
        b.position_at_end(cond_block)
        wi = b.phi(I32, name="wi")
        wi.add_incoming(ir.Constant(I32, 0), entry)
        b.cbranch(b.icmp_signed("<", wi, team.nthreads), body_block, end_block)
        b.position_at_end(body_block)
        with self.as_work_item(cg, wi):
            emit()
        cg.branch_if_open(next_block)
        b.position_at_end(next_block)
        stepped = b.add(wi, ir.Constant(I32, 1))
        wi.add_incoming(stepped, b.block)
        b.branch(cond_block)
        b.position_at_end(end_block)

    @contextmanager
    def as_work_item(self, cg, wi):
        """Code run by work-item wi: its context, its thread number."""
        team = self.team
        saved = team.wi
        team.wi = wi
        if team.api:
            cg.builder.store(wi, state_word(cg, team, THREAD_NUM))
        try:
            with self.view(cg, wi):
                yield
        finally:
            team.wi = saved

    @contextmanager
    def view(self, cg, wi, keep: bool = False):
        """A scope where every declared context variable is work-item wi's element. Names
        declared after a level (loop variables, private copies of an enclosed construct)
        still hide its variables: they are declared again after them, in order."""
        team = self.team
        saved_wi = team.wi
        team.wi = wi
        scope = cg.scope
        between = _scopes_between(scope, [level.scope for level in team.levels], team.views)
        cg.scope = scope.child()
        team.views.add(id(cg.scope))
        context = set()
        for level, later in zip(team.levels, between):
            for var in level.vars:
                if var.declared:
                    cg.scope.declare(Symbol(var.name, var.ctype, "object",
                                            cg.builder.gep(var.array, [wi])))
                    context.add(var.name)
            for names in later:
                for symbol in names.values():
                    cg.scope.declare(symbol)
        try:
            yield
        finally:
            if keep:                   # declarations made here stay visible (a loop's init)
                for name, symbol in cg.scope.names.items():
                    if name not in context:
                        scope.declare(symbol)
            team.views.discard(id(cg.scope))
            cg.scope = scope
            team.wi = saved_wi

    def _each_work_item(self, cg, emit) -> None:
        team = self.team
        counted_loop(cg, I32, ir.Constant(I32, 0), team.nthreads, emit)

    def _context_array(self, cg, ctype) -> ir.Value:
        """CPU_MAX_TEAM elements of ctype: on the stack when small, else on the heap (freed at
        the end of the work-group function)."""
        team = self.team
        if ctype.size * CPU_MAX_TEAM <= STACK_CONTEXT_BYTES:
            array = cg.in_entry_block(lambda builder: builder.alloca(
                ir.ArrayType(ctype.ir_type(), CPU_MAX_TEAM), name="context"))
            array.align = max(ctype.align, 16)
            return cg.in_entry_block(lambda builder: builder.bitcast(array, ctype.ir_type().as_pointer()))
        pointer = cg.in_entry_block(lambda builder: _malloc(builder, ctype, CPU_MAX_TEAM))
        team.heap.append(pointer)
        return pointer


# ----------------------------------------------------------------- helpers
def _scopes_between(scope, level_scopes, views) -> list[list[dict]]:
    """For each level, the names of the scopes after it (up to the next level, or to
    `scope`), outermost first; scopes view() made are passed over."""
    chain = []
    s = scope
    while s is not None:
        chain.append(s)
        s = s.parent
    chain.reverse()                                   # outermost first
    positions = {id(s): i for i, s in enumerate(chain)}
    starts = [positions.get(id(level), -1) for level in level_scopes]
    result = []
    for k, start in enumerate(starts):
        end = next((p for p in starts[k + 1:] if p > start), len(chain))
        result.append([chain[i].names for i in range(start + 1, end)
                       if start >= 0 and id(chain[i]) not in views])
    return result


def state_word(cg, team, index) -> ir.Value:
    return cg.builder.gep(team.state, [ir.Constant(I64, index)])


def _declarations(item):
    if isinstance(item, c_ast.Decl):
        return [item]
    if isinstance(item, c_ast.DeclList):
        return list(item.decls)
    return []


def counted_loop(cg, ir_type, first, end, emit) -> None:
    stepped_loop(cg, ir_type, first, end, ir.Constant(ir_type, 1), emit)


def stepped_loop(cg, ir_type, first, end, step, emit) -> None:
    """for (x = first; x < end; x += step) emit(x); continue/break go to the enclosing loop."""
    b = cg.builder
    entry = b.block
    cond_block, body_block = cg.new_block("loop.cond"), cg.new_block("loop.body")
    next_block, end_block = cg.new_block("loop.next"), cg.new_block("loop.end")
    b.branch(cond_block)
    b.position_at_end(cond_block)
    x = b.phi(ir_type)
    x.add_incoming(first, entry)
    b.cbranch(b.icmp_unsigned("<", x, end), body_block, end_block)
    b.position_at_end(body_block)
    with cg.loop_targets(end_block, next_block):
        emit(x)
    cg.branch_if_open(next_block)
    b.position_at_end(next_block)
    x.add_incoming(b.add(x, step), b.block)
    b.branch(cond_block)
    b.position_at_end(end_block)


def _malloc(builder, ctype, count) -> ir.Value:
    module = builder.module
    malloc = module.globals.get("malloc") or ir.Function(
        module, ir.FunctionType(ir.IntType(8).as_pointer(), [I64]), name="malloc")
    size = ir.Constant(I64, count * max(ctype.size, 1))
    return builder.bitcast(builder.call(malloc, [size]), ctype.ir_type().as_pointer())


def free_context_array(cg, pointer) -> None:
    if cg.builder.block.is_terminated:
        return
    module = cg.module.module
    free = module.globals.get("free") or ir.Function(
        module, ir.FunctionType(ir.VoidType(), [ir.IntType(8).as_pointer()]), name="free")
    cg.builder.call(free, [cg.builder.bitcast(pointer, ir.IntType(8).as_pointer())])
