"""Teams with parallel regions on the CPU device: the PoCL transformation, done on
OpenMP's structured regions (shared/design/cpu-workgroup.md).

One work-group function runs one team. Its team-master code runs once; a
`parallel` region becomes loops over the team's work-items, one loop per
*phase*: a barrier -- explicit, or implied at the end of a worksharing
construct -- ends one phase and starts the next. Values private to a work-item
that live across a phase boundary (the parallel region's private, firstprivate
and reduction copies, and variables declared at a level that barriers split)
are kept in per-work-item arrays, PoCL's context arrays, indexed by the
work-item; each phase declares them afresh at its work-item's element.

    #pragma omp parallel               for (wi = 0; wi < n; wi++) { ctx_x[wi] = f(wi); }
    {                                  for (iv = 0; iv < trip; iv++) a[iv] = ...;   // the for
        int x = f(omp_get_thread_num());
        #pragma omp for                for (wi = 0; wi < n; wi++) { g(ctx_x[wi]); }
        for (i = ...) a[i] = ...;
        g(x);
    }

- A worksharing `for` is one phase that runs all of the team's iterations in
  order (every schedule gives the same results run in one thread): a plain
  counted loop, the vectoriser's. `single` and `sections` run once, as work-item
  0; `master` is work-item 0's; `critical` and `atomic` synchronise the teams,
  which run at once on different workers.
- A loop or `if` whose body holds a barrier runs at team level, its control
  evaluated as work-item 0 sees it (OpenMP requires every thread of a team to
  meet the same barriers), its body split into phases in turn.
- `distribute` gives the team its block of the iteration space (or its
  dist_schedule chunks, round-robin); `distribute parallel for` a parallel
  region running a `for` phase over each of its chunks.
- A parallel region nested inside a work-item is inactive (one thread), as in
  the host scheme.
What the scheme does not take (tasks, copyprivate, copyin, linear, a barrier in
other statements, worksharing in called functions) raises CompileError, and the
region runs as one work-item instead (cpu_workgroup.CpuSequential).
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from types import SimpleNamespace

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.openmp import canonical_loop
from omp2gpu.codegen.openmp.data_sharing import (DataEnvironment, clauses_named, combine, loop_nest,
                                                  reduction_identity)
from omp2gpu.codegen.openmp.gpu_combined import atomic_combine
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.omp_nodes import OmpConstruct
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.captures import free_identifiers
from omp2gpu.sema.scopes import Symbol

I32 = ir.IntType(32)
I64 = ir.IntType(64)
TEAMS = "cpu-teams"
TEAM_KEY = "cpu_teams.team"          # in cg.openmp_state while a teams region is emitted
MAX_TEAM = 256                       # work-items per team at most (CpuDevice caps the launch)
STACK_CONTEXT_BYTES = 64 << 10       # larger context arrays go on the heap

# team-state words of runtime/cpu_device/pool.c
THREAD_NUM, NUM_THREADS, LEVEL = 2, 3, 4

# Clauses by the leaf of a combined directive that takes them (OpenMP 4.5 2.11).
_LEAF_ORDER = ("for", "distribute", "parallel", "teams", "target")
_UNSUPPORTED_CLAUSES = ("copyin", "copyprivate", "linear")
_SUPPORTED_KINDS = ("target", "target teams", "target parallel", "target parallel for",
                    "target parallel for simd", "target teams distribute",
                    "target teams distribute simd", "target teams distribute parallel for",
                    "target teams distribute parallel for simd", "target simd")
# Constructs a work-item runs as the host scheme does.
_IN_WORK_ITEM = ("atomic", "critical", "simd", "ordered", "flush", "master")
_WORKSHARING = ("for", "for simd", "single", "sections", "barrier")


def _route(directive) -> dict[str, list]:
    """The clauses of a (combined) directive, by the leaf construct each applies to."""
    leaves = set(directive.kind.split())
    routed = {leaf: [] for leaf in _LEAF_ORDER}

    def innermost(*choices):
        return next((leaf for leaf in choices if leaf in leaves), "target")

    lastprivate = {item.name for clause in directive.clauses if clause.name == "lastprivate"
                   for item in clause.items}
    for clause in directive.clauses:
        name = clause.name
        if name in _UNSUPPORTED_CLAUSES:
            raise CompileError(f"'{name}' in a CPU teams region")
        if name in ("private",):
            routed[innermost("for", "distribute", "parallel", "teams")].append(clause)
        elif name == "firstprivate" and "for" in leaves and "parallel" in leaves and \
                any(item.name in lastprivate for item in clause.items):
            # Also lastprivate: both apply to the for, whose last iteration assigns the
            # original, not a copy private to the parallel region (OpenMP 5.0 2.13.1).
            both = [item for item in clause.items if item.name in lastprivate]
            rest = [item for item in clause.items if item.name not in lastprivate]
            routed["for"].append(replace(clause, items=both))
            if rest:
                routed["parallel"].append(replace(clause, items=rest))
        elif name == "firstprivate":
            routed[innermost("parallel", "distribute", "teams")].append(clause)
        elif name == "lastprivate":
            routed[innermost("for", "distribute")].append(clause)
        elif name == "reduction":
            routed[innermost("for", "parallel", "teams")].append(clause)
        elif name in ("schedule", "ordered", "nowait") and "for" in leaves:
            routed["for"].append(clause)
        elif name == "collapse":
            routed[innermost("for", "distribute")].append(clause)
            if "for" in leaves and "distribute" in leaves:
                routed["distribute"].append(clause)
        elif name == "dist_schedule":
            routed["distribute"].append(clause)
        elif name in ("num_threads", "proc_bind"):
            routed["parallel"].append(clause)
        elif name == "if" and getattr(clause, "modifier", None) in (None, "parallel") and "parallel" in leaves:
            routed["parallel"].append(clause)
        else:
            routed["target"].append(clause)    # map, device, num_teams... and what needs nothing here
    return routed


def _clauses(items) -> SimpleNamespace:
    return SimpleNamespace(clauses=list(items), kind="", has=lambda name: False)


def _unwrap(node):
    while isinstance(node, c_ast.Compound) and len(node.block_items or ()) == 1:
        node = node.block_items[0]
    return node


def _constructs(node, inside_parallel=False):
    """(construct, nested in a parallel region of the node) for every construct in node."""
    if node is None:
        return
    if isinstance(node, OmpConstruct):
        yield node, inside_parallel
        inside_parallel = inside_parallel or node.directive.has("parallel")
    for _, child in node.children():
        yield from _constructs(child, inside_parallel)


def _synchronises(node) -> bool:
    """Whether a statement of a parallel region holds a barrier of that region: a barrier
    or a worksharing construct not inside a nested parallel region."""
    if node is None:
        return False
    if isinstance(node, OmpConstruct):
        if node.directive.has("parallel"):
            return False                        # its own (inactive) team
        if node.directive.kind in _WORKSHARING or node.directive.kind.startswith("sections"):
            return True
    return any(_synchronises(child) for _, child in node.children())


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
    array: ir.Value                  # element pointer: [MAX_TEAM x ctype] or heap
    declared: bool = False


@dataclass
class Team:
    group: ir.Value
    num_groups: ir.Value
    threads: ir.Value                # i32: the team's size (the launch's block)
    api: bool                        # keep the omp_* team state up to date
    state: ir.Value | None = None    # int * (pool.c) when api
    nthreads: ir.Value | None = None  # i32: work-items of the running parallel region
    wi: ir.Value | None = None       # i32: the work-item being emitted; None at team level
    levels: list = field(default_factory=list)     # Level objects, outermost first
    views: set = field(default_factory=set)        # ids of the scopes view() made
    by_declaration: dict = field(default_factory=dict)   # id(Decl) -> ContextVar
    inactive: int = 0                # > 0 inside a parallel region nested in a work-item
    heap: list = field(default_factory=list)       # heap context arrays to free at region end


class CpuTeams:
    """The scheme object for one region (cpu_workgroup.py's emit_workgroup calls it);
    constructs inside reach it through CpuOpenMP while TEAM_KEY is set."""

    name = TEAMS

    def emit_workgroup_body(self, cg, region, group, num_groups, threads) -> None:
        from omp2gpu.codegen.openmp.cpu_workgroup import calls_openmp_api, team_state
        directive = region.directive
        if directive.kind not in _SUPPORTED_KINDS:
            raise CompileError(f"'{directive.kind}' is not run as CPU teams")
        _check_body(region.construct.body, cg.module.host.function_definitions)
        threads = _clamp(cg, threads)
        team = Team(group, num_groups, threads,
                    calls_openmp_api(region.construct, cg.module.host.function_definitions))
        if team.api:
            team.state = team_state(cg)
        cg.openmp_state[TEAM_KEY] = self
        self.team = team
        routed = _route(directive)
        leaves = directive.kind.split()
        with cg.block_scope(), DataEnvironment(cg, _clauses(routed["target"])):
            if "teams" in leaves:
                with DataEnvironment(cg, _clauses(routed["teams"]),
                                     combine_reduction=lambda op, o, p: _atomic_fold(cg, op, o, p)):
                    self._below_teams(cg, region.construct.body, leaves, routed)
            else:
                self._below_teams(cg, region.construct.body, leaves, routed)
        for pointer in team.heap:
            _free(cg, pointer)
        del cg.openmp_state[TEAM_KEY]

    def _below_teams(self, cg, body, leaves, routed) -> None:
        if "distribute" in leaves:
            inner = "parallel" in leaves
            self.distribute(cg, _clauses(routed["distribute"]), body,
                            (_clauses(routed["parallel"]), _clauses(routed["for"])) if inner else None)
        elif "parallel" in leaves:
            self.parallel(cg, _clauses(routed["parallel"]), body,
                          _clauses(routed["for"]) if "for" in leaves else None)
        else:
            cg.stmt(body)

    # ----------------------------------------------------------------- constructs (CpuOpenMP calls)
    def construct(self, cg, construct) -> bool:
        """Emit a construct met inside the region; False: the host scheme's way does."""
        team = self.team
        kind = construct.directive.kind
        if team.inactive:
            if construct.directive.has("parallel"):
                return self._inactive_parallel(cg, construct)
            return False
        routed = None
        if kind in ("parallel", "parallel for", "parallel for simd", "parallel sections"):
            if team.wi is not None:          # a parallel region inside a work-item: inactive
                return self._inactive_parallel(cg, construct)
            if kind == "parallel sections":
                raise CompileError("'parallel sections' in a CPU teams region")
            routed = _route(construct.directive)
            self.parallel(cg, _clauses(routed["parallel"]), construct.body,
                          _clauses(routed["for"]) if "for" in kind else None)
            return True
        if kind in ("distribute", "distribute simd", "distribute parallel for",
                    "distribute parallel for simd"):
            if team.wi is not None or team.nthreads is not None:
                raise CompileError("'distribute' must be closely nested in 'teams'")
            routed = _route(construct.directive)
            inner = "parallel" in kind
            self.distribute(cg, _clauses(routed["distribute"]), construct.body,
                            (_clauses(routed["parallel"]), _clauses(routed["for"])) if inner else None)
            return True
        if kind == "master":
            if team.wi is None:
                return False
            go, done = cg.new_block("master"), cg.new_block("master.done")
            cg.builder.cbranch(cg.builder.icmp_signed("==", team.wi, ir.Constant(I32, 0)), go, done)
            cg.builder.position_at_end(go)
            with DataEnvironment(cg, construct.directive):
                cg.stmt(construct.body)
            cg.branch_if_open(done)
            cg.builder.position_at_end(done)
            return True
        if kind in ("for", "for simd", "single", "sections", "barrier"):
            if team.nthreads is None:        # at team level outside parallel: one thread
                return False
            raise CompileError(f"'{kind}' where its parallel region cannot split")
        if kind in ("task", "taskgroup", "taskwait", "taskyield"):
            raise CompileError(f"'{kind}' in a CPU teams region")
        return False

    def _inactive_parallel(self, cg, construct) -> bool:
        """An inactive nested parallel region: one thread, as the host scheme runs it."""
        team = self.team
        team.inactive += 1
        try:
            cg.openmp.host_compute_construct(cg, construct)
        finally:
            team.inactive -= 1
        return True

    def local_address(self, cg, declaration, ctype):
        """Where a declaration a barrier splits from its uses lives: its context array."""
        team = self.team
        var = team.by_declaration.get(id(declaration))
        if var is None or team.wi is None:
            return None
        var.declared = True
        return cg.builder.gep(var.array, [team.wi])

    # ----------------------------------------------------------------- parallel regions
    def parallel(self, cg, clauses, body, for_clauses=None, chunk=()) -> None:
        """A parallel region of the team: its work-items' data, then its phases (`parallel
        for`: one for phase, over `chunk` = (first, end) of a distribute chunk if given)."""
        team = self.team
        b = cg.builder
        n = team.threads
        for clause in clauses_named(clauses, "num_threads"):
            requested = cg.expr_as(clause.expr, ct.INT)
            positive = b.icmp_signed(">", requested, ir.Constant(I32, 0))
            smaller = b.icmp_signed("<", requested, n)
            n = b.select(b.and_(positive, smaller), requested, n)
        for clause in clauses_named(clauses, "if"):
            n = b.select(cg.condition(clause.expr), n, ir.Constant(I32, 1))
        outer_n = team.nthreads
        team.nthreads = n
        if team.api:
            level = b.load(_word(cg, team, LEVEL))
            b.store(b.add(level, ir.Constant(I32, 1)), _word(cg, team, LEVEL))
            b.store(n, _word(cg, team, NUM_THREADS))
        team.levels.append(Level(cg.scope))
        reductions = self._parallel_data(cg, clauses)
        if for_clauses is not None:          # `parallel for`: the region is one for phase
            self.for_phase(cg, for_clauses, body, *chunk)
        else:
            self.statement(cg, body)
        self._fold_parallel_reductions(cg, reductions)
        team.levels.pop()
        team.nthreads = outer_n
        if team.api:
            b.store(level, _word(cg, team, LEVEL))
            b.store(team.threads, _word(cg, team, NUM_THREADS))
            b.store(ir.Constant(I32, 0), _word(cg, team, THREAD_NUM))

    def _parallel_data(self, cg, clauses) -> list:
        """private, firstprivate, reduction of a parallel region: per-work-item copies."""
        team = self.team
        reductions = []
        originals = {}
        for name in ("private", "firstprivate", "reduction"):
            for clause in clauses_named(clauses, name):
                for item in clause.items:
                    if getattr(item, "sections", None):
                        raise CompileError("an array-section reduction on a CPU teams parallel region")
                    symbol = cg.scope.lookup(item.name)
                    if symbol is None or symbol.kind != "object":
                        raise CompileError(f"'{item.name}' in a data-sharing clause is not a variable",
                                           item.coord)
                    originals[item.name] = symbol
                    var = ContextVar(item.name, symbol.ctype, self._context_array(cg, symbol.ctype), True)
                    team.levels[-1].vars.append(var)
                    if name == "firstprivate":
                        self._each_work_item(cg, lambda wi, var=var, symbol=symbol: cg.builder.store(
                            cg.builder.load(symbol.address), cg.builder.gep(var.array, [wi])))
                    elif name == "reduction":
                        if not symbol.ctype.is_arithmetic:
                            raise CompileError(f"reduction variable '{item.name}' must be arithmetic",
                                               item.coord)
                        identity = reduction_identity(clause.op, symbol.ctype)
                        self._each_work_item(cg, lambda wi, var=var: cg.builder.store(
                            identity, cg.builder.gep(var.array, [wi])))
                        reductions.append((clause.op, symbol, var))
        return reductions

    def _fold_parallel_reductions(self, cg, reductions) -> None:
        b = cg.builder
        for op, symbol, var in reductions:
            total = cg.alloca(symbol.ctype, f"{var.name}.team")
            b.store(reduction_identity(op, symbol.ctype), total)
            self._each_work_item(cg, lambda wi, var=var, total=total, op=op, ctype=symbol.ctype: b.store(
                combine(cg, op, ctype, b.load(total), b.load(b.gep(var.array, [wi]))), total))
            atomic_combine(cg, op, symbol.ctype, symbol.address, b.load(total))

    # ----------------------------------------------------------------- phases
    def statement(self, cg, node) -> None:
        """A statement of a parallel region: work-item loops, split at its barriers."""
        node_ = node
        if not _synchronises(node_):
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
                elif _synchronises(item):
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

    # ----------------------------------------------------------------- worksharing loops
    def for_phase(self, cg, directive, loop, first=None, end=None) -> None:
        """All the team's iterations of a worksharing loop, in order, in one plain loop
        ([first, end) of the logical iteration space when a distribute chunk is given)."""
        team = self.team
        depth = max([c.count for c in clauses_named(directive, "collapse")] or [1])
        loops = [canonical_loop.analyze(node) for node in loop_nest(_unwrap(loop), depth)]
        context_names = {var.name for level in team.levels for var in level.vars}
        body = loops[-1].body
        needs_owner = team.api or bool(context_names & set(free_identifiers(body)))
        b = cg.builder
        with self.as_work_item(cg, ir.Constant(I32, 0)), cg.block_scope():
            bounds, iv_type, trips, total, variables = _loop_space(cg, loops)
            ir_iv = iv_type.ir_type()
            chunked = end is not None
            first = ir.Constant(ir_iv, 0) if first is None else convert(b, first, ct.LONG, iv_type)
            end = total if end is None else convert(b, end, ct.LONG, iv_type)
            holds_last = b.icmp_unsigned("==", end, total) if chunked else None
            with DataEnvironment(cg, directive, loop_variables=[],
                                 combine_reduction=lambda op, o, p: _atomic_fold(cg, op, o, p),
                                 lastprivate_condition=(lambda: holds_last) if chunked else None):
                n = convert(b, team.nthreads, ct.INT, iv_type)
                owner_of = _schedule_owner(cg, directive, iv_type, n, first, end) if needs_owner else None

                def iteration(iv):
                    _set_loop_variables(cg, bounds, trips, iv_type, variables, iv)
                    if needs_owner:             # the work-item the schedule gives iv to
                        owner = convert(b, owner_of(iv), iv_type, ct.INT)
                        if team.api:
                            b.store(owner, _word(cg, team, THREAD_NUM))
                        with self.view(cg, owner):
                            cg.stmt(body)
                    else:
                        cg.stmt(body)
                _counted_loop(cg, ir_iv, first, end, iteration)

    # ----------------------------------------------------------------- distribute
    def distribute(self, cg, clauses, loop, parallel_for=None) -> None:
        """The team's share of a distribute loop: its block, or its dist_schedule chunks."""
        team = self.team
        b = cg.builder
        depth = max([c.count for c in clauses_named(clauses, "collapse")] or [1])
        loops = [canonical_loop.analyze(node) for node in loop_nest(_unwrap(loop), depth)]
        chunk_clause = next(iter(clauses_named(clauses, "dist_schedule")), None)
        with cg.block_scope():
            bounds, iv_type, trips, total, variables = _loop_space(cg, loops)
            ir_iv = iv_type.ir_type()
            g = convert(b, b.trunc(team.group, I32), ct.INT, iv_type)
            groups = convert(b, b.trunc(team.num_groups, I32), ct.INT, iv_type)
            one = ir.Constant(ir_iv, 1)
            if chunk_clause is not None and chunk_clause.chunk is not None:
                chunk = cg.expr_as(chunk_clause.chunk, iv_type)
                chunk = b.select(b.icmp_signed(">", chunk, ir.Constant(ir_iv, 0)), chunk, one)
                start, stride = b.mul(g, chunk), b.mul(groups, chunk)
                last_owner = b.urem(b.udiv(b.sub(total, one), chunk), groups)
                holds_last = b.and_(b.icmp_unsigned("==", last_owner, g),
                                    b.icmp_unsigned(">", total, ir.Constant(ir_iv, 0)))
            else:
                share, rest = b.udiv(total, groups), b.urem(total, groups)
                start = b.add(b.mul(g, share), b.select(b.icmp_unsigned("<", g, rest), g, rest))
                chunk = b.add(share, b.zext(b.icmp_unsigned("<", g, rest), ir_iv))
                stride = total                                  # one chunk: the block
                holds_last = b.and_(b.icmp_unsigned("==", b.add(start, chunk), total),
                                    b.icmp_unsigned(">", chunk, ir.Constant(ir_iv, 0)))
            with DataEnvironment(cg, clauses, loop_variables=[], lastprivate_condition=lambda: holds_last):
                def each_chunk(chunk_start):
                    chunk_end = b.add(chunk_start, chunk)
                    chunk_end = b.select(b.icmp_unsigned("<", chunk_end, total), chunk_end, total)
                    if parallel_for is None:
                        _counted_loop(cg, ir_iv, chunk_start, chunk_end, lambda iv: (
                            _set_loop_variables(cg, bounds, trips, iv_type, variables, iv),
                            cg.stmt(loops[-1].body)))
                    else:
                        parallel_clauses, for_clauses = parallel_for
                        self.parallel(cg, parallel_clauses, loop, for_clauses,
                                      (convert(b, chunk_start, iv_type, ct.LONG),
                                       convert(b, chunk_end, iv_type, ct.LONG)))
                _stepped_loop(cg, ir_iv, start, total, stride, each_chunk)

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
            cg.builder.store(wi, _word(cg, team, THREAD_NUM))
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
        _counted_loop(cg, I32, ir.Constant(I32, 0), team.nthreads, emit)

    def _context_array(self, cg, ctype) -> ir.Value:
        """MAX_TEAM elements of ctype: on the stack when small, else on the heap (freed at
        the end of the work-group function)."""
        team = self.team
        if ctype.size * MAX_TEAM <= STACK_CONTEXT_BYTES:
            array = cg.in_entry_block(lambda builder: builder.alloca(
                ir.ArrayType(ctype.ir_type(), MAX_TEAM), name="context"))
            array.align = max(ctype.align, 16)
            return cg.in_entry_block(lambda builder: builder.bitcast(array, ctype.ir_type().as_pointer()))
        pointer = cg.in_entry_block(lambda builder: _malloc(builder, ctype, MAX_TEAM))
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
        s = getattr(s, "parent", None)
    chain.reverse()                                   # outermost first
    positions = {id(s): i for i, s in enumerate(chain)}
    starts = [positions.get(id(level), -1) for level in level_scopes]
    result = []
    for k, start in enumerate(starts):
        end = next((p for p in starts[k + 1:] if p > start), len(chain))
        result.append([chain[i].names for i in range(start + 1, end)
                       if start >= 0 and id(chain[i]) not in views])
    return result


def _schedule_owner(cg, directive, iv_type, n, first, end):
    """iv -> the work-item the loop's schedule gives logical iteration iv of [first, end)
    to: chunk c to work-item c % n for static with a chunk and for dynamic (a dynamic
    schedule may deal its chunks so; each chunk stays on one work-item), else one
    contiguous block per work-item, in work-item order."""
    b = cg.builder
    ir_iv = iv_type.ir_type()
    schedule = next(iter(clauses_named(directive, "schedule")), None)
    chunk = None
    if schedule is not None and schedule.kind in ("static", "dynamic"):
        if schedule.chunk is not None:
            chunk = cg.expr_as(schedule.chunk, iv_type)
            chunk = b.select(b.icmp_signed(">", chunk, ir.Constant(ir_iv, 0)), chunk, ir.Constant(ir_iv, 1))
        elif schedule.kind == "dynamic":
            chunk = ir.Constant(ir_iv, 1)
    count = b.sub(end, first)
    if chunk is not None:
        return lambda iv: b.urem(b.udiv(b.sub(iv, first), chunk), n)
    return lambda iv: b.udiv(b.mul(b.sub(iv, first), n), count)


def _clamp(cg, threads) -> ir.Value:
    b = cg.builder
    limit = ir.Constant(I32, MAX_TEAM)
    threads = b.select(b.icmp_signed("<", threads, limit), threads, limit)
    return b.select(b.icmp_signed(">", threads, ir.Constant(I32, 0)), threads, ir.Constant(I32, 1))


def _word(cg, team, index) -> ir.Value:
    return cg.builder.gep(team.state, [ir.Constant(I64, index)])


def _atomic_fold(cg, op, original, private) -> None:
    atomic_combine(cg, op, original.ctype, original.address, cg.builder.load(private.address))


def _declarations(item):
    if isinstance(item, c_ast.Decl):
        return [item]
    if isinstance(item, c_ast.DeclList):
        return list(item.decls)
    return []


def _loop_space(cg, loops):
    """Bounds, iteration type, trip counts, total and variable slots of a loop nest."""
    b = cg.builder
    bounds = [canonical_loop.LoopBounds(cg, each) for each in loops]
    iv_type = ct.LONG if any(x.iv_type.bits == 64 for x in bounds) else ct.INT
    trips = [convert(b, x.trip_count, x.iv_type, iv_type) for x in bounds]
    total = trips[0]
    for trip in trips[1:]:
        total = b.mul(total, trip)
    variables = []
    for each, x in zip(loops, bounds):
        slot = cg.alloca(x.var_type, each.variable)
        cg.scope.declare(Symbol(each.variable, x.var_type, "object", slot))
        variables.append(slot)
    return bounds, iv_type, trips, total, variables


def _set_loop_variables(cg, bounds, trips, iv_type, variables, iv) -> None:
    b = cg.builder
    remaining = iv
    for index in reversed(range(len(bounds))):
        if index == 0:
            logical = remaining
        else:
            logical = b.urem(remaining, trips[index])
            remaining = b.udiv(remaining, trips[index])
        local = convert(b, logical, iv_type, bounds[index].iv_type)
        b.store(bounds[index].value_at(cg, local), variables[index])


def _counted_loop(cg, ir_type, first, end, emit) -> None:
    _stepped_loop(cg, ir_type, first, end, ir.Constant(ir_type, 1), emit)


def _stepped_loop(cg, ir_type, first, end, step, emit) -> None:
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


def _free(cg, pointer) -> None:
    if cg.builder.block.is_terminated:
        return
    module = cg.module.module
    free = module.globals.get("free") or ir.Function(
        module, ir.FunctionType(ir.VoidType(), [ir.IntType(8).as_pointer()]), name="free")
    cg.builder.call(free, [cg.builder.bitcast(pointer, ir.IntType(8).as_pointer())])


def _check_body(body, definitions) -> None:
    """What the scheme cannot split: a worksharing construct or barrier reached through a
    call from a parallel region, tasks."""
    for construct, _ in _constructs(body):
        kind = construct.directive.kind
        if kind in ("task", "taskgroup", "taskwait", "taskyield", "threadprivate"):
            raise CompileError(f"'{kind}' in a CPU teams region")
    seen = set()

    def visit(node):
        for name in free_identifiers(node):
            definition = definitions.get(name)
            if definition is not None and name not in seen:
                seen.add(name)
                if any(True for _ in _constructs(definition.body)):
                    raise CompileError(f"'{name}', called in the region, holds OpenMP constructs")
                visit(definition.body)
    visit(body)
