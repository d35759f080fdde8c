"""OpenMP canonical loop form (OpenMP 4.5 2.6): `for (var = lb; var op ub; incr)`;
OpenMP 5.0 (2.9.1) adds `var != ub` with a unit increment, which counts as `<` (an
increment of 1) or `>` (of -1).

A worksharing scheme needs the iteration count before running the loop, and
the iteration variable's value for a logical iteration number:
    var = lb + iv * step,   iv in [0, trip_count).
"""

from __future__ import annotations

from dataclasses import dataclass

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.conversions import convert
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.literals import integer_literal
from omp2gpu.sema.scopes import Symbol


@dataclass
class CanonicalLoop:
    node: c_ast.For
    variable: str
    declared_in_loop: bool       # for (int i = ...)
    lower: c_ast.Node
    upper: c_ast.Node
    relation: str                # "<", "<=", ">", ">=" (`!=` becomes "<" or ">")
    step: c_ast.Node             # the increment, always added (negative for decrements)
    step_negated: bool           # `i -= c` / `i--`: the step expression is subtracted

    @property
    def body(self):
        return self.node.stmt


def _not_canonical(node, what: str):
    return CompileError(f"loop is not in OpenMP canonical form: {what}", node.coord)


def analyze(loop) -> CanonicalLoop:
    if not isinstance(loop, c_ast.For):
        raise CompileError("an OpenMP loop construct must be followed by a for loop",
                           getattr(loop, "coord", None))
    variable, lower, declared = _init(loop)
    relation, upper = _condition(loop, variable)
    step, negated = _increment(loop, variable)
    if relation == "!=":
        relation = _unit_direction(loop, step, negated)
    _no_break_out(loop.stmt)
    return CanonicalLoop(loop, variable, declared, lower, upper, relation, step, negated)


_BREAK_TARGETS = (c_ast.For, c_ast.While, c_ast.DoWhile, c_ast.Switch)


def _no_break_out(node) -> None:
    """An OpenMP loop's body is a structured block: no `break` leaves it (one inside a
    nested loop or switch binds there)."""
    if node is None or isinstance(node, _BREAK_TARGETS):
        return
    if isinstance(node, c_ast.Break):
        raise CompileError("'break' statement cannot be used in an OpenMP loop", node.coord)
    for _, child in node.children():
        _no_break_out(child)


def _init(loop):
    init = loop.init
    if isinstance(init, c_ast.DeclList) and len(init.decls) == 1 and init.decls[0].init is not None:
        return init.decls[0].name, init.decls[0].init, True
    if isinstance(init, c_ast.Assignment) and init.op == "=" and isinstance(init.lvalue, c_ast.ID):
        return init.lvalue.name, init.rvalue, False
    raise _not_canonical(loop, "expected 'var = lower-bound' as the loop initialisation")


_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "!=": "!="}


def _condition(loop, variable):
    cond = loop.cond
    if isinstance(cond, c_ast.BinaryOp) and cond.op in _FLIPPED:
        if isinstance(cond.left, c_ast.ID) and cond.left.name == variable:
            return cond.op, cond.right
        if isinstance(cond.right, c_ast.ID) and cond.right.name == variable:
            return _FLIPPED[cond.op], cond.left
    raise _not_canonical(cond or loop, f"the condition must compare '{variable}' with a bound "
                                       "('<', '<=', '>', '>=' or '!=')")


def _unit_direction(loop, step, negated: bool) -> str:
    """`var != ub` is canonical only with an increment of 1 or -1 (OpenMP 5.0 2.9.1): the
    loop then runs up to (or down to) ub, as `<` (`>`) would."""
    value = literal_integer(step)
    if value not in (1, -1):
        raise _not_canonical(loop.next or loop, "a loop whose test is '!=' must step by 1 or -1")
    return "<" if (value == 1) != negated else ">"


def literal_integer(node) -> int | None:
    """The value of an integer constant expression written with literals, `+`, `-` and
    `*` (what a preprocessed `#define` leaves), else None."""
    if isinstance(node, c_ast.Constant) and node.type not in ("char", "string", "float", "double"):
        try:
            return integer_literal(node.value)[0]
        except CompileError:
            return None
    if isinstance(node, c_ast.UnaryOp) and node.op in ("-", "+"):
        value = literal_integer(node.expr)
        return None if value is None else (-value if node.op == "-" else value)
    if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-", "*"):
        left, right = literal_integer(node.left), literal_integer(node.right)
        if left is None or right is None:
            return None
        return {"+": left + right, "-": left - right, "*": left * right}[node.op]
    if isinstance(node, c_ast.Cast):
        return literal_integer(node.expr)
    return None


def _one(loop):
    return c_ast.Constant("int", "1", coord=loop.coord)


def _increment(loop, variable):
    nxt = loop.next
    if isinstance(nxt, c_ast.UnaryOp) and nxt.op in ("++", "p++", "--", "p--") \
            and isinstance(nxt.expr, c_ast.ID) and nxt.expr.name == variable:
        return _one(loop), "-" in nxt.op
    if isinstance(nxt, c_ast.Assignment) and isinstance(nxt.lvalue, c_ast.ID) \
            and nxt.lvalue.name == variable:
        if nxt.op in ("+=", "-="):
            return nxt.rvalue, nxt.op == "-="
        value = nxt.rvalue
        if nxt.op == "=" and isinstance(value, c_ast.BinaryOp) and value.op in ("+", "-"):
            if isinstance(value.left, c_ast.ID) and value.left.name == variable:
                return value.right, value.op == "-"
            if value.op == "+" and isinstance(value.right, c_ast.ID) and value.right.name == variable:
                return value.left, False
    raise _not_canonical(nxt or loop, f"expected '{variable}++', '{variable} += step' or similar "
                                      "as the increment")


def variable_type(cg, loop: CanonicalLoop) -> ct.CType:
    if loop.declared_in_loop:
        ctype = cg.resolve_type(loop.node.init.decls[0].type)
    else:
        symbol = cg.scope.lookup(loop.variable)
        if symbol is None or symbol.kind != "object":
            raise CompileError(f"use of undeclared identifier '{loop.variable}'", loop.node.coord)
        ctype = symbol.ctype
    if not (ctype.is_integer or ctype.is_pointer):     # OpenMP 4.5 2.6: a `double d` loop
        raise CompileError(f"the iteration variable '{loop.variable}' of an OpenMP loop must have "
                           f"integer or pointer type, not '{ctype}'", loop.node.coord)
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


def loop_nest_space(cg, loops: list[CanonicalLoop]):
    """A collapsed nest's LoopBounds, the iteration type wide enough for all of it, each
    loop's trip count in that type and their product. Evaluated before the construct's
    private copies are made: the bounds read the original variables."""
    b = cg.builder
    bounds = [LoopBounds(cg, each) for each in loops]
    iv_type = ct.LONG if any(x.iv_type.bits == 64 for x in bounds) else ct.INT
    trips = [convert(b, x.trip_count, x.iv_type, iv_type) for x in bounds]
    total = trips[0]
    for trip in trips[1:]:
        total = b.mul(total, trip)
    return bounds, iv_type, trips, total


def declare_loop_variables(cg, loops: list[CanonicalLoop], bounds: list[LoopBounds], environment) -> list:
    """A stack slot per iteration variable, declared in the current scope (each thread's
    own), made inside the construct's DataEnvironment `environment`. A variable the
    construct's clauses privatise already has a copy there, which becomes the slot: the
    body then reads the iteration variable through either name, and lastprivate(i)
    copies out the value i has after the whole loop, lb + trip_count * step, as the
    sequential loop leaves it (OpenMP 4.5 2.15.3.5)."""
    slots = []
    for each, x in zip(loops, bounds):
        private = environment.private_copies.get(each.variable) if not each.declared_in_loop else None
        if private is not None:
            slot = private.address
            environment.final_value(each.variable,
                                    lambda x=x, slot=slot: cg.builder.store(x.value_at(cg, x.trip_count), slot))
        else:
            slot = cg.alloca(x.var_type, each.variable)
            cg.scope.declare(Symbol(each.variable, x.var_type, "object", slot))
        slots.append(slot)
    return slots


def set_loop_variables(cg, bounds, trips, iv_type, iteration, slots) -> None:
    """Store into `slots` the iteration variables of logical iteration `iteration`
    (non-negative, in `iv_type`) of a collapsed nest: innermost varies fastest."""
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
