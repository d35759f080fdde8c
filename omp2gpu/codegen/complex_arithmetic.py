"""Complex multiplication and division as C99 Annex G (G.5.1) asks, as IR functions
each module defines for itself (internal linkage): the host, the CPU device and the
GPU then compute the same results with no runtime library (gcc calls libgcc's
__muldc3/__divdc3, which the GPU has not).

Multiplication is the textbook formula; where both parts come out NaN, G.5.1's
recovery: an infinite operand (or an overflowed product) makes an infinite result.
Division is Smith's method (scale by the larger part of the divisor; Smith 1962), which
avoids overflow of c*c + d*d and is what gcc's runtime computes for operands of
ordinary magnitude (float's in double, rounded once at the end, as gcc's); both-NaN
results are recovered as G.5.1 describes (nonzero / 0 is infinite, infinite / finite
infinite, finite / infinite zero).
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.sema import ctypes as ct

_SUFFIX = {32: "f32", 64: "f64", 80: "f80"}


def function(module: ir.Module, op: str, ctype: ct.ComplexType) -> ir.Function:
    """The module's function computing complex `op` ("*" or "/") in `ctype`:
    (a, b, c, d) -> (a + bi) op (c + di)."""
    name = f"omp2gpu.complex.{'mul' if op == '*' else 'div'}.{_SUFFIX[ctype.real.bits]}"
    if name in module.globals:
        return module.globals[name]
    real = ctype.real.ir_type()
    fn = ir.Function(module, ir.FunctionType(ctype.ir_type(), [real] * 4), name=name)
    fn.linkage = "internal"
    builder = ir.IRBuilder(fn.append_basic_block("entry"))
    operands = fn.args
    if op == "/" and ctype.real == ct.FLOAT:       # float division is computed in double, as gcc's
        operands = [builder.fpext(arg, ir.DoubleType()) for arg in operands]
    math = _Math(builder, module, operands[0].type)
    x, y = (_multiply if op == "*" else _divide)(math, *operands)
    if x.type != real:
        x, y = builder.fptrunc(x, real), builder.fptrunc(y, real)
    value = builder.insert_value(ir.Constant(ctype.ir_type(), ir.Undefined), x, 0)
    builder.ret(builder.insert_value(value, y, 1))
    return fn


class _Math:
    """The real operations the algorithms need, on one real IR type, branch-free."""

    def __init__(self, builder: ir.IRBuilder, module: ir.Module, real: ir.Type):
        self.b, self.real = builder, real
        self._fabs = module.declare_intrinsic("llvm.fabs", [real])
        self._copysign = module.declare_intrinsic("llvm.copysign", [real], ir.FunctionType(real, [real, real]))

    def const(self, value: float) -> ir.Constant:
        return ir.Constant(self.real, value)

    def add(self, x, y):
        return self.b.fadd(x, y)

    def sub(self, x, y):
        return self.b.fsub(x, y)

    def mul(self, x, y):
        return self.b.fmul(x, y)

    def div(self, x, y):
        return self.b.fdiv(x, y)

    def fabs(self, x):
        return self.b.call(self._fabs, [x])

    def copysign(self, magnitude, sign):
        return self.b.call(self._copysign, [magnitude, sign])

    def isnan(self, x):
        return self.b.fcmp_unordered("uno", x, x)

    def isinf(self, x):
        return self.b.fcmp_ordered("==", self.fabs(x), self.const(float("inf")))

    def isfinite(self, x):
        return self.b.fcmp_ordered("<", self.fabs(x), self.const(float("inf")))

    def both(self, p, q):
        return self.b.and_(p, q)

    def either(self, p, q):
        return self.b.or_(p, q)

    def not_(self, p):
        return self.b.not_(p)

    def select(self, test, x, y):
        return self.b.select(test, x, y)

    def box(self, x):
        """copysign(isinf(x) ? 1 : 0, x): an infinity as a signed one, else a signed zero."""
        return self.copysign(self.select(self.isinf(x), self.const(1.0), self.const(0.0)), x)

    def nan_to_zero(self, x):
        """copysign(0, x) where x is NaN, else x."""
        return self.select(self.isnan(x), self.copysign(self.const(0.0), x), x)


def _multiply(m: _Math, a, b, c, d):
    ac, bd, ad, bc = m.mul(a, c), m.mul(b, d), m.mul(a, d), m.mul(b, c)
    x, y = m.sub(ac, bd), m.add(ad, bc)
    # G.5.1: recover infinities where both parts came out NaN.
    a_inf = m.either(m.isinf(a), m.isinf(b))
    c_inf = m.either(m.isinf(c), m.isinf(d))
    a1 = m.select(a_inf, m.box(a), a)
    b1 = m.select(a_inf, m.box(b), b)
    c1 = m.select(a_inf, m.nan_to_zero(c), c)
    d1 = m.select(a_inf, m.nan_to_zero(d), d)
    c2 = m.select(c_inf, m.box(c1), c1)
    d2 = m.select(c_inf, m.box(d1), d1)
    a2 = m.select(c_inf, m.nan_to_zero(a1), a1)
    b2 = m.select(c_inf, m.nan_to_zero(b1), b1)
    overflowed = m.either(m.either(m.isinf(ac), m.isinf(bd)), m.either(m.isinf(ad), m.isinf(bc)))
    from_products = m.both(m.not_(m.either(a_inf, c_inf)), overflowed)
    a3, b3, c3, d3 = (m.select(from_products, m.nan_to_zero(v), v) for v in (a2, b2, c2, d2))
    recalculate = m.either(m.either(a_inf, c_inf), from_products)
    inf = m.const(float("inf"))
    x2 = m.mul(inf, m.sub(m.mul(a3, c3), m.mul(b3, d3)))
    y2 = m.mul(inf, m.add(m.mul(a3, d3), m.mul(b3, c3)))
    recover = m.both(m.both(m.isnan(x), m.isnan(y)), recalculate)
    return m.select(recover, x2, x), m.select(recover, y2, y)


def _divide(m: _Math, a, b, c, d):
    # Smith: divide through by the larger part of the divisor.
    d_larger = m.b.fcmp_ordered("<", m.fabs(c), m.fabs(d))
    ratio_d = m.div(c, d)
    denominator_d = m.add(m.mul(c, ratio_d), d)
    x_d = m.div(m.add(m.mul(a, ratio_d), b), denominator_d)
    y_d = m.div(m.sub(m.mul(b, ratio_d), a), denominator_d)
    ratio_c = m.div(d, c)
    denominator_c = m.add(m.mul(d, ratio_c), c)
    x_c = m.div(m.add(m.mul(b, ratio_c), a), denominator_c)
    y_c = m.div(m.sub(b, m.mul(a, ratio_c)), denominator_c)
    x = m.select(d_larger, x_d, x_c)
    y = m.select(d_larger, y_d, y_c)
    # G.5.1's recovery where both parts are NaN.
    inf, zero = m.const(float("inf")), m.const(0.0)
    by_zero = m.both(m.both(m.b.fcmp_ordered("==", c, zero), m.b.fcmp_ordered("==", d, zero)),
                     m.either(m.not_(m.isnan(a)), m.not_(m.isnan(b))))
    signed_inf = m.copysign(inf, c)
    x_zero, y_zero = m.mul(signed_inf, a), m.mul(signed_inf, b)
    finite_cd = m.both(m.isfinite(c), m.isfinite(d))
    inf_by_finite = m.both(m.either(m.isinf(a), m.isinf(b)), finite_cd)
    a1, b1 = m.box(a), m.box(b)
    x_inf = m.mul(inf, m.add(m.mul(a1, c), m.mul(b1, d)))
    y_inf = m.mul(inf, m.sub(m.mul(b1, c), m.mul(a1, d)))
    finite_by_inf = m.both(m.either(m.isinf(c), m.isinf(d)), m.both(m.isfinite(a), m.isfinite(b)))
    c1, d1 = m.box(c), m.box(d)
    x_fin = m.mul(zero, m.add(m.mul(a, c1), m.mul(b, d1)))
    y_fin = m.mul(zero, m.sub(m.mul(b, c1), m.mul(a, d1)))
    both_nan = m.both(m.isnan(x), m.isnan(y))
    x = m.select(both_nan, m.select(by_zero, x_zero, m.select(inf_by_finite, x_inf,
                                                                m.select(finite_by_inf, x_fin, x))), x)
    y = m.select(both_nan, m.select(by_zero, y_zero, m.select(inf_by_finite, y_inf,
                                                                m.select(finite_by_inf, y_fin, y))), y)
    return x, y
