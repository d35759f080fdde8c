"""Doacross loop nests (OpenMP 4.5 2.7.1, 2.13.8): `for ordered(n)` whose body has
`ordered depend(sink: vec)` (wait for the iteration vec names) and `ordered
depend(source)` (this iteration's part is done).

- The n loops are associated with the construct; only the collapsed ones are shared
  out, the others are ordinary loops of the body, their variables private
  (inner_loops_private). A doacross nest (is_doacross: its body has `ordered depend`)
  collapses none.
- An iteration is named by its vector of logical iteration numbers, (x - lb) / step
  for each loop's variable x. A sink vector's term k is `x_k`, `x_k + c` or `x_k - c`
  (c constant): logical number + c / step_k. A sink outside the iteration space names
  no iteration: no dependence (OpenMP 4.5 2.13.8), as gcc does.
- On the host, libgomp's doacross entry points as GCC calls them (host_worksharing):
  GOMP_loop_doacross_<kind>_start(n, counts, [chunk,] &start, &end) shares out the
  outer loop, GOMP_doacross_post(vector) and GOMP_doacross_wait(v0, v1, ...).
- Where one thread runs the nest's iterations in order, every sink is done before it
  is waited for: the dependences hold as they are and `ordered depend` emits nothing.
  So the CPU device, whose team runs a worksharing loop in iteration order in one
  thread (cpu_team_loops.py), and the GPU's control loop, whose team master runs a
  doacross loop alone while the team waits at the loop's barrier (OpenMP allows any
  thread the iterations; omp_get_thread_num() in them is 0). A doacross loop shared
  by teams (`distribute parallel for`) is refused on the devices: each team would keep
  only its own chunk's dependences.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, replace

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I64
from omp2gpu.codegen.openmp.data.data_sharing import clauses_named, list_items, loop_nest
from omp2gpu.codegen.openmp.host import gomp
from omp2gpu.codegen.openmp.loops import canonical_loop
from omp2gpu.codegen.openmp.plan.region_shape import nested_constructs
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.clause_types import ListItem, PrivateClause
from omp2gpu.sema import ctypes as ct

IN_ORDER = "in order"           # cg.openmp_state.doacross_nest where one thread runs the nest's iterations in order
_PRIVATE_ALREADY = ("private", "firstprivate", "lastprivate", "linear")


def ordered_depth(directive, body=None) -> int | None:
    """How many loops the directive's `ordered` clause associates: n of `ordered(n)`;
    for a plain `ordered` whose loop body waits or posts (`ordered depend|doacross`,
    OpenMP 5.2), the collapsed loops; else None (no doacross nest)."""
    clause = next(iter(clauses_named(directive, "ordered")), None)
    if clause is None:
        return None
    if clause.count is not None:
        return clause.count
    if body is not None and _waits_or_posts(body):
        return max([c.count for c in clauses_named(directive, "collapse")] or [1])
    return None


def _waits_or_posts(body) -> bool:
    return any(c.directive.kind == "ordered" and c.body is None for c in nested_constructs(body))


def is_doacross(directive, body) -> bool:
    """An `ordered[(n)]` loop whose body waits or posts (`ordered depend(...)`); refused
    when its loops are collapsed (the runtime is given the collapsed loop's count)."""
    if ordered_depth(directive, body) is None or not _waits_or_posts(body):
        return False
    if any(c.count > 1 for c in clauses_named(directive, "collapse")):
        raise CompileError("a doacross loop nest ('ordered(n)' with 'ordered depend') of collapsed loops "
                           "('collapse') is not supported", next(iter(clauses_named(directive, "ordered"))).coord)
    return True


def associated_loops(directive, body) -> list[canonical_loop.CanonicalLoop]:
    return [canonical_loop.analyze(node) for node in loop_nest(body, ordered_depth(directive, body))]


def inner_loops_private(directive, body):
    """The directive, with the variables of the associated loops below the collapsed
    ones (those not declared in their loop) private, as OpenMP makes them."""
    if ordered_depth(directive, body) is None:
        return directive
    depth = max([c.count for c in clauses_named(directive, "collapse")] or [1])
    listed = {item.name for name in _PRIVATE_ALREADY for _, item in list_items(directive, name)}
    items = [ListItem(loop.variable, c_ast.ID(loop.variable, coord=loop.node.coord), [], loop.node.coord)
             for loop in associated_loops(directive, body)[depth:]
             if not loop.declared_in_loop and loop.variable not in listed]
    if not items:
        return directive
    return replace(directive, clauses=[*directive.clauses, PrivateClause(coord=directive.coord, items=items)])


@contextmanager
def in_order(cg):
    """Code emitted inside runs a doacross nest's iterations in order, in one thread."""
    outer = cg.openmp_state.doacross_nest
    cg.openmp_state.doacross_nest = IN_ORDER
    try:
        yield
    finally:
        cg.openmp_state.doacross_nest = outer


def in_order_here(cg) -> bool:
    return cg.openmp_state.doacross_nest == IN_ORDER


@dataclass
class DoacrossNest:
    function: object            # the function the loop is in: ordered depend must be in it too
    loops: list                 # the n associated loops' CanonicalLoop
    bounds: list                # their LoopBounds, evaluated before the loop
    counts: ir.Value            # i64[n]: each loop's trip count, for the runtime

    @property
    def depth(self) -> int:
        return len(self.loops)


def nest_counts(cg, directive, body) -> DoacrossNest:
    """The nest's bounds and trip counts, evaluated where the construct starts; a nest
    whose inner bounds depend on outer variables (non-rectangular) is refused."""
    loops = associated_loops(directive, body)
    bounds = canonical_loop.nest_bounds(cg, loops)
    if canonical_loop.dependent_loop(bounds) is not None:
        raise CompileError("a non-rectangular doacross loop nest ('ordered(n)' with loop bounds that "
                           "depend on outer loops) is not supported", directive.coord)
    if any(x.var_type.is_pointer for x in bounds):
        raise CompileError("a doacross loop nest with a pointer iteration variable is not supported",
                           directive.coord)
    counts = cg.alloca_ir(ir.ArrayType(I64, len(loops)), "doacross.counts")
    for index, x in enumerate(bounds):
        count = convert(cg.builder, x.trip_count, _unsigned(x.iv_type), ct.ULONG)
        cg.builder.store(count, _element(cg, counts, index))
    return DoacrossNest(cg.function, loops, bounds, counts)


def emit_depend(cg, construct, post, wait) -> None:
    """`ordered depend(source)` / `depend(sink: vec)...`: post(vector pointer) and, for
    each sink inside the iteration space, wait(logical numbers), both i64."""
    nest = cg.openmp_state.doacross_nest
    if not isinstance(nest, DoacrossNest) or nest.function is not cg.function:
        raise CompileError("'ordered depend(...)' must be inside a loop with an 'ordered(n)' clause",
                           construct.coord)
    current = [_logical(cg, nest, k) for k in range(nest.depth)]
    for clause in clauses_named(construct.directive, "depend"):
        if clause.dep_type == "source":
            vector = cg.alloca_ir(ir.ArrayType(I64, nest.depth), "doacross.vector")
            for index, value in enumerate(current):
                cg.builder.store(value, _element(cg, vector, index))
            post(_element(cg, vector, 0))
        else:
            _wait_for_sink(cg, nest, clause, current, wait)


def host_post(cg, vector) -> None:
    gomp.call(cg, "GOMP_doacross_post", vector)


def host_wait(cg, numbers) -> None:
    gomp.call(cg, "GOMP_doacross_wait", *numbers)


def _wait_for_sink(cg, nest, clause, current, wait) -> None:
    if len(clause.sink) != nest.depth:
        raise CompileError(f"the 'depend(sink)' vector has {len(clause.sink)} term(s); the loop nest's "
                           f"'ordered({nest.depth})' needs {nest.depth}", clause.coord)
    b = cg.builder
    numbers, inside = [], ir.Constant(ir.IntType(1), 1)
    for k, term in enumerate(clause.sink):
        offset = _sink_offset(cg, nest, k, term)
        number = b.add(current[k], offset) if offset is not None else current[k]
        count = b.load(_element(cg, nest.counts, k))
        within = b.and_(b.icmp_signed(">=", number, ir.Constant(I64, 0)), b.icmp_signed("<", number, count))
        inside = b.and_(inside, within)
        numbers.append(number)
    go, done = cg.new_block("doacross.wait"), cg.new_block("doacross.waited")
    b.cbranch(inside, go, done)
    b.position_at_end(go)
    wait(numbers)
    b.branch(done)
    b.position_at_end(done)


def _sink_offset(cg, nest, k, term) -> ir.Value | None:
    """Term k of a sink vector as a logical offset (i64), None for the variable itself."""
    variable = nest.loops[k].variable
    if isinstance(term, c_ast.ID) and term.name == variable:
        return None
    if not (isinstance(term, c_ast.BinaryOp) and term.op in ("+", "-") and isinstance(term.left, c_ast.ID)
            and term.left.name == variable):
        raise CompileError(f"term {k + 1} of the 'depend(sink)' vector must be '{variable}', "
                           f"'{variable} + c' or '{variable} - c' (c a constant)",
                           getattr(term, "coord", None))
    b = cg.builder
    x = nest.bounds[k]
    distance = cg.expr_as(term.right, x.iv_type)
    if term.op == "-":
        distance = b.neg(distance)
    return convert(b, b.sdiv(distance, x.step), x.iv_type, ct.LONG)


def _logical(cg, nest, k) -> ir.Value:
    """The current logical iteration number of loop k, (x - lb) / step, as an i64."""
    x = nest.bounds[k]
    symbol = cg.scope.lookup(nest.loops[k].variable)
    value = convert(cg.builder, cg.builder.load(symbol.address), symbol.ctype, x.iv_type)
    number = cg.builder.sdiv(cg.builder.sub(value, x.lower), x.step)
    return convert(cg.builder, number, x.iv_type, ct.LONG)


def _element(cg, array, index: int) -> ir.Value:
    return cg.builder.gep(array, [ir.Constant(ir.IntType(32), 0), ir.Constant(ir.IntType(32), index)])


def _unsigned(iv_type):
    return ct.ULONG if iv_type.bits > 32 else ct.UINT
