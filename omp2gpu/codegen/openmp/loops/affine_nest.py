"""Non-rectangular collapsed loop nests (OpenMP 5.0 2.9.1): an inner loop's bounds may be
`a1 * var-outer + a2` of an outer collapsed loop's variable, a1 and a2 loop invariant,
e.g. the triangle `for (i = 0; i < n; i++) for (j = i; j < n; j++)`.

What is supported: one loop of the nest (the dependent loop, m) whose lower and upper
bounds are affine in one outer loop's variable (o) with integer-constant coefficients;
every other loop rectangular. OpenMP requires the dependent loop's step to divide the
change of its distance per outer iteration (always so for a unit step). Then the dependent loop's trip
count in row r (r: o's logical iteration) is `max(0, a + c * r)`, and the number of
(o, m) pairs before row r has a closed form, quadratic in r:
    pairs_before(r) = F(clamp(r, lo, hi)) - F(lo),  F(x) = a * x + c * x * (x - 1) / 2,
[lo, hi) being the rows where the count is positive (a line is positive on one
interval). A logical iteration number goes back to (r, position in row) through the
quadratic's root, in double precision, corrected to the exact row (RowCounts.row_of: no
table, so the same code runs on the GPU). Everything else (two dependent loops, a bound using two
outer variables, a non-constant coefficient) is a located error naming the feature.

This module is the AST analysis (`dependence`) and the closed forms on IR values
(`RowCounts`); canonical_loop.py builds the nest's bounds and decodes iterations with them.
"""

from __future__ import annotations

from dataclasses import dataclass

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.ir_types import I64
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema.canonical_form import literal_integer
from omp2gpu.sema.captures import free_identifiers
from omp2gpu.sema.loop_transformations import FLOOR_PREFIX


@dataclass(frozen=True)
class AffineBound:
    """A bound `coefficient * var-outer + rest`; `rest` does not use var-outer."""
    coefficient: int
    rest: c_ast.Node


@dataclass(frozen=True)
class Dependence:
    outer: int              # index in the nest of the loop whose variable the bounds use
    inner: int              # index of the dependent loop
    lower: AffineBound
    upper: AffineBound


def _unsupported(what: str, node) -> CompileError:
    return CompileError(f"non-rectangular loop nest: {what}", getattr(node, "coord", None))


def dependence(loops) -> Dependence | None:
    """Which loop of a collapsed nest (canonical_loop.CanonicalLoop's) has bounds that use
    an outer loop's variable, and their affine forms; None for a rectangular nest."""
    outer_names: list[str] = []
    found = None
    for index, loop in enumerate(loops):
        used_by_step = [name for name in free_identifiers(loop.step) if name in outer_names]
        if used_by_step:
            raise CompileError(f"the increment of a collapsed loop may not use '{used_by_step[0]}', the "
                               "variable of an outer loop of the nest (OpenMP 5.0 2.9.1)",
                               loop.step.coord or loop.node.coord)
        used = {name for bound in (loop.lower, loop.upper)
                for name in free_identifiers(bound) if name in outer_names}
        if used:
            if len(used) > 1:
                raise _unsupported(f"bounds that use the variables of two outer loops ({', '.join(sorted(used))}) "
                                   "are not supported", loop.node)
            if found is not None:
                raise _unsupported("more than one loop whose bounds use an outer loop's variable is not "
                                   "supported", loop.node)
            name = used.pop()
            if name.startswith(FLOOR_PREFIX):
                raise _unsupported("a loop construct over the tile loops that 'tile' generates (collapsing more "
                                   "than its floor loops) is not supported", loop.node)
            outer = outer_names.index(name)
            found = Dependence(outer, index, _affine(loop.lower, name), _affine(loop.upper, name))
            _check_step_divides(found, loops)
        outer_names.append(loop.variable)
    return found


def _affine(node, name: str) -> AffineBound:
    coefficient, rest = _split(node, name)
    return AffineBound(coefficient, rest if rest is not None else c_ast.Constant("int", "0", coord=node.coord))


def _split(node, name: str) -> tuple[int, c_ast.Node | None]:
    """node = coefficient * name + rest (rest None: zero)."""
    if name not in free_identifiers(node):
        return 0, node
    if isinstance(node, c_ast.ID):
        return 1, None
    if isinstance(node, c_ast.UnaryOp) and node.op in ("+", "-"):
        coefficient, rest = _split(node.expr, name)
        if node.op == "+":
            return coefficient, rest
        return -coefficient, None if rest is None else c_ast.UnaryOp("-", rest, node.coord)
    if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-"):
        (left_c, left_r), (right_c, right_r) = (_split(side, name) for side in (node.left, node.right))
        coefficient = left_c + right_c if node.op == "+" else left_c - right_c
        if right_r is None:
            return coefficient, left_r
        if left_r is None:
            return coefficient, right_r if node.op == "+" else c_ast.UnaryOp("-", right_r, node.coord)
        return coefficient, c_ast.BinaryOp(node.op, left_r, right_r, node.coord)
    if isinstance(node, c_ast.BinaryOp) and node.op == "*":
        for factor, other in ((node.left, node.right), (node.right, node.left)):
            if name not in free_identifiers(factor):
                value = literal_integer(factor)
                if value is None:
                    raise _unsupported(f"a coefficient of '{name}' that is not an integer constant is not "
                                       "supported", factor)
                coefficient, rest = _split(other, name)
                return value * coefficient, None if rest is None else c_ast.BinaryOp("*", rest, factor, node.coord)
    raise CompileError(f"the bound of a collapsed loop must be an affine expression of the outer loop "
                       f"variable '{name}' (a * {name} + b, OpenMP 5.0 2.9.1)", node.coord)


def _check_step_divides(found: Dependence, loops) -> None:
    """OpenMP requires the change of the dependent loop's distance from one outer
    iteration to the next, (cu - cl) * outer step, to be a multiple of its step (gcc's
    check too): the rows' counts are then a line. Checked where both steps are
    constants; with a step known only at run time the division is exact by that rule."""
    change = found.upper.coefficient - found.lower.coefficient
    inner, outer = loops[found.inner], loops[found.outer]
    inner_step, outer_step = literal_integer(inner.step), literal_integer(outer.step)
    if change == 0 or inner_step in (1, -1) or inner_step is None or outer_step is None:
        return
    if inner_step == 0 or (change * outer_step) % inner_step:
        raise CompileError(f"invalid non-rectangular loop step: the bounds of '{inner.variable}' move by "
                           f"{change * outer_step} from one '{outer.variable}' iteration to the next, not a "
                           f"multiple of its step {inner_step} (OpenMP 5.1 2.11.1)",
                           inner.step.coord or inner.node.coord)


# ----------------------------------------------------------------- closed forms on IR values
class RowCounts:
    """The dependent loop's trip count a row as a line, `count(r) = a + c * r` where positive
    (rows [lo, hi)), and what follows from it. All values i64, emitted where built."""

    def __init__(self, builder: ir.IRBuilder, distance0, distance_change, step, rows):
        """`distance0`: the dependent loop's distance (the upper minus the lower bound, in its
        direction, one more when inclusive) in row 0; `distance_change`: its change a row;
        `step`: its step in its direction (positive); `rows`: the outer loop's trip count."""
        b = self.b = builder
        zero, one = ir.Constant(I64, 0), ir.Constant(I64, 1)
        self.a = ceil_div(b, distance0, step)
        self.c = b.sdiv(distance_change, step)
        c = self.c
        magnitude = b.select(b.icmp_signed("<", c, zero), b.neg(c), c)
        magnitude = b.select(b.icmp_signed("==", c, zero), one, magnitude)
        f = floor_div(b, b.neg(self.a), magnitude)          # count(r) > 0 <=> r > f (c > 0), r < -f (c < 0)
        growing_lo = _clamp(b, b.add(f, one), zero, rows)
        shrinking_hi = _clamp(b, b.neg(f), zero, rows)
        positive = b.icmp_signed(">", c, zero)
        negative = b.icmp_signed("<", c, zero)
        self.lo = b.select(positive, growing_lo, zero)
        constant_hi = b.select(b.icmp_signed(">", self.a, zero), rows, zero)
        self.hi = b.select(positive, rows, b.select(negative, shrinking_hi, constant_hi))
        self._f_lo = self._f(self.lo)
        self.pairs = b.sub(self._f(self.hi), self._f_lo)

    def _f(self, x):
        """a * x + c * x * (x - 1) / 2, the counts of rows [0, x) on the line (x >= 0)."""
        b = self.b
        triangle = b.lshr(b.mul(x, b.sub(x, ir.Constant(I64, 1))), ir.Constant(I64, 1))
        return b.add(b.mul(self.a, x), b.mul(self.c, triangle))

    def pairs_before(self, row):
        b = self.b
        return b.sub(self._f(_clamp(b, row, self.lo, self.hi)), self._f_lo)

    def count(self, row):
        return self.b.add(self.a, self.b.mul(self.c, row))

    def row_of(self, cg, pair):
        """The row holding the `pair`-th (o, m) pair (0 <= pair < pairs): the largest r in
        [lo, hi) with pairs_before(r) <= pair. The quadratic's root in double precision
        is the guess (y rows past lo: c/2 y^2 + (count(lo) - c/2) y = pair, solved as
        y = 2 pair / (B + sqrt(B^2 + 2 c pair)), stable for either sign of c); two
        correcting loops make it exact, which run at most a step or two while the counts
        fit a double's 53 bits (beyond, they still end, with more steps)."""
        b = self.b
        one = ir.Constant(I64, 1)
        f64 = ir.DoubleType()
        c, q = b.sitofp(self.c, f64), b.sitofp(pair, f64)
        base = b.fsub(b.sitofp(self.count(self.lo), f64), b.fmul(c, ir.Constant(f64, 0.5)))
        discriminant = b.fadd(b.fmul(base, base), b.fmul(b.fmul(c, ir.Constant(f64, 2.0)), q))
        discriminant = b.select(b.fcmp_ordered(">", discriminant, ir.Constant(f64, 0.0)), discriminant,
                                ir.Constant(f64, 0.0))
        root = _sqrt(b, discriminant)
        y = b.fdiv(b.fmul(q, ir.Constant(f64, 2.0)), b.fadd(base, root))
        span = b.sitofp(b.sub(b.sub(self.hi, self.lo), one), f64)
        inside = b.and_(b.fcmp_ordered(">=", y, ir.Constant(f64, 0.0)), b.fcmp_ordered("<=", y, span))
        y = b.select(inside, y, b.select(b.fcmp_ordered(">", y, span), span, ir.Constant(f64, 0.0)))
        guess = b.add(self.lo, b.fptosi(y, I64))
        up = self._correct(cg, guess, lambda r: b.and_(
            b.icmp_signed("<", b.add(r, one), self.hi),
            b.icmp_signed("<=", self.pairs_before(b.add(r, one)), pair)), one, "row.up")
        return self._correct(cg, up, lambda r: b.icmp_signed(">", self.pairs_before(r), pair),
                             ir.Constant(I64, -1), "row.down")

    def _correct(self, cg, start, wrong, step, name):
        """while (wrong(r)) r += step; from r = start."""
        b = self.b
        entry = b.block
        head, again, done = cg.new_block(name), cg.new_block(name + ".step"), cg.new_block(name + ".done")
        b.branch(head)
        b.position_at_end(head)
        row = b.phi(I64, name)
        row.add_incoming(start, entry)
        b.cbranch(wrong(row), again, done)
        b.position_at_end(again)
        row.add_incoming(b.add(row, step), again)
        b.branch(head)
        b.position_at_end(done)
        return row


def _sqrt(b, value):
    """llvm.sqrt.f64 in the builder's module."""
    return b.call(b.module.declare_intrinsic("llvm.sqrt", [value.type]), [value])


def _clamp(b, value, low, high):
    value = b.select(b.icmp_signed("<", value, low), low, value)
    return b.select(b.icmp_signed(">", value, high), high, value)


def floor_div(b, x, d):
    """floor(x / d) for d > 0."""
    quotient, remainder = b.sdiv(x, d), b.srem(x, d)
    return b.sub(quotient, b.zext(b.icmp_signed("<", remainder, ir.Constant(I64, 0)), I64))


def ceil_div(b, x, d):
    """ceil(x / d) for d > 0."""
    return b.neg(floor_div(b, b.neg(x), d))
