"""Complex constant expressions (static initialisers such as `1.0 + 2.0 * I`), folded
as the generated code computes them (codegen/complex_operators.py): a real operand
stays real (Annex G.5), complex * and / are the textbook product and Smith's
quotient, each operation rounded to the real type (float through its 32-bit value).
A long double complex constant, or an infinite or NaN result, is refused: it is then
not a constant here (the caller says so with its location)."""

from __future__ import annotations

import math
import struct

from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct


def as_complex(value, source: ct.CType, target: ct.ComplexType, coord=None) -> complex:
    """A constant of type `source` converted to complex type `target`."""
    refuse_long_double(target, coord)
    parts = (value.real, value.imag) if isinstance(value, complex) else (float(value), 0.0)
    rounding = _rounding(target)
    return complex(rounding(parts[0]), rounding(parts[1]))


def refuse_long_double(ctype: ct.CType, coord=None) -> None:
    if ctype == ct.COMPLEX_LONG_DOUBLE:
        raise CompileError("long double complex constant expressions are not supported", coord)


def fold(op: str, a, a_type: ct.CType, b, b_type: ct.CType, ctype: ct.ComplexType, coord=None):
    """`a op b` where one operand is complex; (value, type) as evaluate() gives them."""
    refuse_long_double(ctype, coord)
    r = _rounding(ctype)
    x, y = _parts(a, a_type, r)
    u, v = _parts(b, b_type, r)
    if op in ("==", "!="):
        equal = x == u and (y or 0.0) == (v or 0.0)
        return int(equal if op == "==" else not equal), ct.INT
    if op in ("+", "-"):
        sign = 1.0 if op == "+" else -1.0
        re = r(x + sign * u)
        im = y if v is None else r(sign * v) if y is None else r(y + sign * v)
    elif op == "*":
        if y is None or v is None:
            scale, (p, q) = (x, (u, v)) if y is None else (u, (x, y))
            re, im = r(scale * p), r(scale * q)
        else:
            re, im = r(r(x * u) - r(y * v)), r(r(x * v) + r(y * u))
    elif op == "/":
        if u == 0.0 and (v or 0.0) == 0.0:
            raise CompileError("division by zero in constant expression", coord)
        if v is None:
            re, im = r(x / u), r(y / u)
        else:
            re, im = _smith(x, y or 0.0, u, v, r)
    else:
        raise CompileError(f"invalid operands to binary '{op}' ('{a_type}' and '{b_type}')", coord)
    if not (math.isfinite(re) and math.isfinite(im)):
        raise CompileError("a complex constant expression with an infinite or NaN part is not supported",
                           coord)
    return complex(re, im), ctype


def _smith(a, b, c, d, r):
    """Smith's quotient (complex_arithmetic.py's), float's in double and rounded once."""
    wide = (lambda value: value) if r is _to_float else r
    if abs(c) < abs(d):
        ratio = wide(c / d)
        denominator = wide(wide(c * ratio) + d)
        re, im = wide(wide(wide(a * ratio) + b) / denominator), wide(wide(wide(b * ratio) - a) / denominator)
    else:
        ratio = wide(d / c)
        denominator = wide(wide(d * ratio) + c)
        re, im = wide(wide(wide(b * ratio) + a) / denominator), wide(wide(b - wide(a * ratio)) / denominator)
    return r(re), r(im)


def _parts(value, ctype: ct.CType, r) -> tuple[float, float | None]:
    """(real, imaginary) of an operand; imaginary None for a real one."""
    if isinstance(value, complex):
        return r(value.real), r(value.imag)
    return r(float(value)), None


def _to_float(value: float) -> float:
    return struct.unpack("f", struct.pack("f", value))[0] if math.isfinite(value) else value


def _rounding(ctype: ct.ComplexType):
    return _to_float if ctype.real == ct.FLOAT else float
