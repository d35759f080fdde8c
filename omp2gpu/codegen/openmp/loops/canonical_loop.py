"""A canonical loop's values (its form is read by sema/canonical_form.py).

A worksharing scheme needs the iteration count before running the loop, and
the iteration variable's value for a logical iteration number:
    var = lb + iv * step,   iv in [0, trip_count).
"""

from __future__ import annotations

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I64
from omp2gpu.codegen.openmp.loops import affine_nest
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.operator_locations import operator_coord
from omp2gpu.sema import canonical_form
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.canonical_form import CanonicalLoop
from omp2gpu.sema.scopes import Symbol

analyze = canonical_form.analyze       # the loop constructs' name for reading a loop's form


def variable_type(cg, loop: CanonicalLoop) -> ct.CType:
    if loop.declared_in_loop:
        declaration = loop.node.init.decls[0]
        ctype = cg.resolve_type(declaration.type)
        const = "const" in (declaration.quals or ()) or "const" in (getattr(declaration.type, "quals", None) or ())
    else:
        symbol = cg.scope.lookup(loop.variable)
        if symbol is None or symbol.kind != "object":
            raise CompileError(f"use of undeclared identifier '{loop.variable}'", loop.node.coord)
        ctype, const = symbol.ctype, symbol.const
    if not (ctype.is_integer or ctype.is_pointer):     # OpenMP 4.5 2.6: a `double d` loop
        raise CompileError(f"the iteration variable '{loop.variable}' of an OpenMP loop must have "
                           f"integer or pointer type, not '{ctype}'", loop.node.coord)
    if const:             # the loop writes it: gcc's error at the increment
        qualified = f"{ctype} const" if ctype.is_pointer else f"const {ctype}"
        raise CompileError(f"cannot assign to variable '{loop.variable}' with const-qualified type "
                           f"'{qualified}'", operator_coord(loop.node.next))
    if ctype.is_integer and ctype.is_bool:
        # `b < 1` compares b promoted to int, not the variable itself: gcc's words
        raise CompileError("invalid controlling predicate", loop.node.cond.coord)
    if isinstance(loop.upper, c_ast.Constant) and loop.upper.type in ("float", "double", "long double"):
        raise CompileError("invalid controlling predicate", loop.node.cond.coord)     # `i < 1000.`: gcc's words
    return ctype


def iteration_type(var_type: ct.CType) -> ct.IntType:
    """The type logical iteration numbers are computed in: at least 32 bits, at least the variable's."""
    if var_type.is_pointer:
        return ct.LONG
    if not var_type.is_integer:
        raise CompileError("the iteration variable of an OpenMP loop must have integer or pointer type")
    return ct.LONG if var_type.bits > 32 else ct.INT


class LoopBounds:
    """lb, ub and step evaluated once, in the iteration type; the trip count from them."""

    dependence: affine_nest.Dependence | None = None    # AffineBounds: how its bounds follow an outer loop

    def __init__(self, cg, loop: CanonicalLoop):
        self.loop = loop
        self.var_type = variable_type(cg, loop)
        self.iv_type = iteration_type(self.var_type)
        iv = self.iv_type
        self.base = None
        if self.var_type.is_pointer:
            self._pointer_range(cg, loop)
        else:
            self.lower = cg.expr_as(loop.lower, iv)
            self.upper = cg.expr_as(loop.upper, iv)
        step = cg.expr_as(loop.step, iv)
        self.step = cg.builder.neg(step) if loop.step_negated else step
        self.trip_count = self._trip_count(cg)

    def _pointer_range(self, cg, loop: CanonicalLoop) -> None:
        """`for (p = lb; p < ub; p += k)`: counted in elements from lb (the base), which
        the iterations' values are offsets of (OpenMP 4.5 2.6 allows a pointer variable)."""
        element = self.var_type.pointee
        if not element.is_complete or element.is_variable:
            raise CompileError("a pointer iteration variable must point to a complete type", loop.node.coord)
        b = cg.builder
        lower, upper = cg.expr(loop.lower), cg.expr(loop.upper)
        self.base = convert(b, lower.value, lower.ctype, self.var_type)
        end = convert(b, upper.value, upper.ctype, self.var_type)
        distance = b.sub(b.ptrtoint(end, ir.IntType(64)), b.ptrtoint(self.base, ir.IntType(64)))
        self.lower = ir.Constant(ir.IntType(64), 0)
        self.upper = b.sdiv(distance, ir.Constant(ir.IntType(64), element.size))

    def _trip_count(self, cg) -> ir.Value:
        """Number of iterations, 0 when the loop does not run (computed with unsigned distance)."""
        b = cg.builder
        iv = self.iv_type
        upward = self.loop.relation in ("<", "<=")
        inclusive = self.loop.relation in ("<=", ">=")
        signed = self.var_type.is_pointer or self.var_type.signed
        compare = b.icmp_signed if signed else b.icmp_unsigned
        runs = compare(self.loop.relation, self.lower, self.upper)
        distance = b.sub(self.upper, self.lower) if upward else b.sub(self.lower, self.upper)
        magnitude = self.step if upward else b.neg(self.step)
        one = ir.Constant(iv.ir_type(), 1)
        if inclusive:       # (ub - lb) / step + 1
            count = b.add(b.udiv(distance, magnitude), one)
        else:               # ceil((ub - lb) / step)
            count = b.udiv(b.add(distance, b.sub(magnitude, one)), magnitude)
        return b.select(runs, count, ir.Constant(iv.ir_type(), 0))

    def value_at(self, cg, iteration: ir.Value) -> ir.Value:
        """lb + iteration * step, converted to the variable's type."""
        b = cg.builder
        if self.base is not None:
            return b.gep(self.base, [b.mul(iteration, self.step)])
        value = b.add(self.lower, b.mul(iteration, self.step))
        return convert(b, value, self.iv_type, self.var_type)

    def final_value(self, cg) -> ir.Value:
        """The value the sequential loop leaves in the variable: lb + trip_count * step."""
        return self.value_at(cg, self.trip_count)


class AffineBounds(LoopBounds):
    """The dependent loop of a non-rectangular nest (affine_nest.py): `lower` and `upper`
    are its bounds' parts without the outer variable (i64); its `trip_count` is the
    number of (outer, dependent) pairs, over all the outer loop's rows."""

    def __init__(self, cg, loop: CanonicalLoop, dependence: affine_nest.Dependence, outer: LoopBounds):
        self.loop, self.dependence, self.outer = loop, dependence, outer
        self.var_type = variable_type(cg, loop)
        for ctype, what in ((self.var_type, loop), (outer.var_type, outer.loop)):
            if ctype.is_pointer:        # (a size_t nest is counted in i64: values below 2^63)
                raise CompileError(f"non-rectangular loop nest: the pointer iteration variable '{what.variable}' "
                                   "is not supported", what.node.coord)
        self.iv_type, self.base = ct.LONG, None
        self.lower = cg.expr_as(dependence.lower.rest, ct.LONG)
        self.upper = cg.expr_as(dependence.upper.rest, ct.LONG)
        step = cg.expr_as(loop.step, ct.LONG)
        self.step = cg.builder.neg(step) if loop.step_negated else step
        self.trip_count = self.rows(cg, outer, convert(cg.builder, outer.trip_count, outer.iv_type, ct.LONG)).pairs

    def rows(self, cg, outer: LoopBounds, rows: ir.Value) -> affine_nest.RowCounts:
        """This loop's trip count in each of the outer loop's `rows` rows (a line)."""
        b = cg.builder
        outer_lower, outer_step = (convert(b, v, outer.iv_type, ct.LONG) for v in (outer.lower, outer.step))
        lower_c, upper_c = self.dependence.lower.coefficient, self.dependence.upper.coefficient
        lower0 = b.add(b.mul(ir.Constant(I64, lower_c), outer_lower), self.lower)
        upper0 = b.add(b.mul(ir.Constant(I64, upper_c), outer_lower), self.upper)
        change = b.mul(ir.Constant(I64, upper_c - lower_c), outer_step)
        inclusive = ir.Constant(I64, int(self.loop.relation in ("<=", ">=")))
        if self.loop.relation in ("<", "<="):
            distance0, step = b.add(b.sub(upper0, lower0), inclusive), self.step
        else:
            distance0, change, step = b.add(b.sub(lower0, upper0), inclusive), b.neg(change), b.neg(self.step)
        return affine_nest.RowCounts(b, distance0, change, step, rows)

    def value_in_row(self, cg, outer_value: ir.Value, position: ir.Value) -> ir.Value:
        """The variable's value at `position` (i64) of the row where the outer variable is
        `outer_value` (i64): coefficient * outer + rest + position * step."""
        b = cg.builder
        lower = b.add(b.mul(ir.Constant(I64, self.dependence.lower.coefficient), outer_value), self.lower)
        return convert(b, b.add(lower, b.mul(position, self.step)), ct.LONG, self.var_type)

    def final_value(self, cg) -> ir.Value:
        return self.final_values(cg)[1]

    def final_values(self, cg) -> tuple[ir.Value, ir.Value]:
        return self.final_values_after(cg, self.outer, convert(cg.builder, self.outer.trip_count,
                                                                self.outer.iv_type, ct.LONG))

    def final_values_after(self, cg, outer: LoopBounds, rows: ir.Value) -> tuple[ir.Value, ir.Value]:
        """What lastprivate gives the outer and the dependent variable: each one step past
        its value in the nest's last iteration (as gcc does; for a rectangular nest this is
        what the sequential loops leave). `rows`: the outer loop's trip count, i64."""
        b = cg.builder
        zero = ir.Constant(I64, 0)
        counts = self.rows(cg, outer, rows)
        last = b.sub(counts.hi, ir.Constant(I64, 1))             # the last row with pairs
        last = b.select(b.icmp_signed("<", last, zero), zero, last)
        count = counts.count(last)
        count = b.select(b.icmp_signed("<", count, zero), zero, count)
        outer_value = convert(b, outer.value_at(cg, convert(b, last, ct.LONG, outer.iv_type)),
                              outer.var_type, ct.LONG)
        after_outer = outer.value_at(cg, convert(b, b.add(last, ir.Constant(I64, 1)), ct.LONG, outer.iv_type))
        return after_outer, self.value_in_row(cg, outer_value, count)


def nest_bounds(cg, loops: list[CanonicalLoop]) -> list[LoopBounds]:
    """Each loop's bounds: the dependent loop of a non-rectangular nest's as AffineBounds."""
    found = affine_nest.dependence(loops)
    bounds = []
    for index, each in enumerate(loops):
        if found is not None and index == found.inner:
            bounds.append(AffineBounds(cg, each, found, bounds[found.outer]))
        else:
            bounds.append(LoopBounds(cg, each))
    return bounds


def dependent_loop(bounds) -> affine_nest.Dependence | None:
    return next((x.dependence for x in bounds if x.dependence is not None), None)


def nest_total(cg, bounds, trips) -> ir.Value:
    """The nest's iteration count from each loop's trip count: their product, but for the
    outer loop of a non-rectangular nest, which the dependent loop's pairs count already."""
    b = cg.builder
    found = dependent_loop(bounds)
    counted = [trip for index, trip in enumerate(trips) if found is None or index != found.outer]
    total = counted[0]
    for trip in counted[1:]:
        total = b.mul(total, trip)
    return total


def loop_nest_space(cg, loops: list[CanonicalLoop]):
    """A collapsed nest's LoopBounds, the iteration type wide enough for all of it, each
    loop's trip count in that type and the nest's total (nest_total). Evaluated before
    the construct's private copies are made: the bounds read the original variables."""
    b = cg.builder
    bounds = nest_bounds(cg, loops)
    iv_type = ct.LONG if any(x.iv_type.bits == 64 for x in bounds) else ct.INT
    trips = [convert(b, x.trip_count, x.iv_type, iv_type) for x in bounds]
    return bounds, iv_type, trips, nest_total(cg, bounds, trips)


def declare_loop_variables(cg, loops: list[CanonicalLoop], bounds: list[LoopBounds], environment) -> list:
    """A stack slot per iteration variable, declared in the current scope (each thread's
    own), made inside the construct's DataEnvironment `environment`. A variable the
    construct's clauses privatise already has a copy there, which becomes the slot: the
    body then reads the iteration variable through either name, and lastprivate(i)
    copies out the value i has after the whole loop, lb + trip_count * step, as the
    sequential loop leaves it (OpenMP 4.5 2.15.3.5); in a non-rectangular nest, the
    dependent pair's last values one step on (AffineBounds.final_values_after)."""
    slots = []
    found = dependent_loop(bounds)
    for index, (each, x) in enumerate(zip(loops, bounds)):
        private = environment.private_copies.get(each.variable) if not each.declared_in_loop else None
        if private is not None:
            slot = private.address
            if found is not None and index == found.outer:       # the dependent loop's outer one
                def final(x=bounds[found.inner]):
                    return x.final_values(cg)[0]
            else:
                def final(x=x):
                    return x.final_value(cg)
            environment.final_value(each.variable, lambda final=final, slot=slot: cg.builder.store(final(), slot))
        else:
            slot = cg.alloca(x.var_type, each.variable)
            cg.scope.declare(Symbol(each.variable, x.var_type, "object", slot))
        slots.append(slot)
    return slots


def loop_head(cg, prefix: str, start, limit, signed: bool = True, with_next: bool = False):
    """Open `for (iv = start; iv < limit; ...)` in IR: a branch to its test block, whose phi is
    iv, on to the body block (where the builder is left) or to the block after the loop.
    Returns (iv, next block or None, after block); `with_next`: a block for `continue` and
    the step, made between the body's and the after block. close_loop ends it."""
    b = cg.builder
    entry = b.block
    test, body = cg.new_block(f"{prefix}.cond"), cg.new_block(f"{prefix}.body")
    next_block = cg.new_block(f"{prefix}.next") if with_next else None
    after = cg.new_block(f"{prefix}.end")
    b.branch(test)
    b.position_at_end(test)
    iv = b.phi(start.type, name="iv")
    iv.add_incoming(start, entry)
    compare = b.icmp_signed if signed else b.icmp_unsigned
    b.cbranch(compare("<", iv, limit), body, after)
    b.position_at_end(body)
    return iv, next_block, after


def close_loop(cg, iv, stepped, after) -> None:
    """Back from the builder's block to iv's test with iv = `stepped`; the builder then
    after the loop."""
    b = cg.builder
    iv.add_incoming(stepped, b.block)
    b.branch(iv.parent)
    b.position_at_end(after)


def set_loop_variables(cg, bounds, trips, iv_type, iteration, slots) -> None:
    """Store into `slots` the iteration variables of logical iteration `iteration`
    (non-negative, in `iv_type`) of a collapsed nest: innermost varies fastest."""
    if dependent_loop(bounds) is not None:
        _set_non_rectangular(cg, bounds, trips, iteration, slots)
        return
    b = cg.builder
    remaining = iteration
    for index in reversed(range(len(bounds))):
        if index == 0:
            logical = remaining
        else:
            logical = b.urem(remaining, trips[index])
            remaining = b.udiv(remaining, trips[index])
        local = convert(b, logical, iv_type, bounds[index].iv_type)
        b.store(bounds[index].value_at(cg, local), slots[index])


def _set_non_rectangular(cg, bounds, trips, iteration, slots) -> None:
    """set_loop_variables for a non-rectangular nest (iteration type i64): the loops inside
    the dependent one (m) by remainders, as a rectangular nest; then the (prefix, o,
    between, m) index: the prefix loops' by the size of what they hold, the row of o by
    a search of the pairs before it (affine_nest.RowCounts), the loops between and m by
    remainders with the row's own count."""
    b = cg.builder
    found = dependent_loop(bounds)
    outer, inner = found.outer, found.inner

    def store(index, logical):
        value = bounds[index].value_at(cg, convert(b, logical, ct.LONG, bounds[index].iv_type))
        b.store(value, slots[index])
        return value

    def mixed_radix(indices, remaining):
        for index in reversed(indices):
            store(index, b.urem(remaining, trips[index]))
            remaining = b.udiv(remaining, trips[index])
        return remaining

    remaining = mixed_radix(range(inner + 1, len(bounds)), iteration)
    between = list(range(outer + 1, inner))
    width = ir.Constant(I64, 1)                # iterations of the loops between, a pair
    for index in between:
        width = b.mul(width, trips[index])
    if outer > 0:
        span = b.mul(width, trips[inner])
        prefix, remaining = b.udiv(remaining, span), b.urem(remaining, span)
        mixed_radix(range(outer), prefix)
    counts = bounds[inner].rows(cg, bounds[outer], trips[outer])
    row = counts.row_of(cg, b.udiv(remaining, width))
    in_row = b.sub(remaining, b.mul(width, counts.pairs_before(row)))
    length = counts.count(row)
    position = b.urem(in_row, length)
    mixed_radix(between, b.udiv(in_row, length))
    outer_value = convert(b, store(outer, row), bounds[outer].var_type, ct.LONG)
    b.store(bounds[inner].value_in_row(cg, outer_value, position), slots[inner])
    return position, length, outer_value


def dependent_innermost(bounds) -> bool:
    """Whether a nest is non-rectangular with its innermost loop the dependent one (the
    triangle's usual shape): its rows are then the innermost loop's runs."""
    found = dependent_loop(bounds)
    return found is not None and found.inner == len(bounds) - 1


def start_dependent_row(cg, bounds, trips, iteration, slots):
    """For a dependent_innermost nest: every variable for logical iteration `iteration`
    (i64), and (its position in its row, the row's length, place(position), which sets
    the innermost variable for another position of the same row): a row-by-row loop then
    searches once a row rather than once an iteration."""
    position, length, outer_value = _set_non_rectangular(cg, bounds, trips, iteration, slots)

    def place(other):
        cg.builder.store(bounds[-1].value_in_row(cg, outer_value, other), slots[-1])
    return position, length, place
