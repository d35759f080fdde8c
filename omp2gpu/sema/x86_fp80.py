"""The x86 80-bit extended type behind the host's `long double` (x86-64 System V:
size 16, align 16), as an LLVM IR type llvmlite lacks, and its constants.

Constant values of long double are kept exact (fractions.Fraction) rounded to the
64-bit significand, so `0.1L` and folded `1.0L / 3` are the values gcc computes;
infinities, NaNs and signed zeros stay Python floats."""

from __future__ import annotations

import math
from fractions import Fraction

from llvmlite import ir

SIGNIFICAND_BITS = 64          # with an explicit integer bit
EXPONENT_BIAS = 16383
MAX_EXPONENT = 0x7FFF


class X86FP80Type(ir.types._BaseFloatType):
    """LLVM's `x86_fp80`; its constants are spelled 0xK followed by 20 hex digits."""

    null = "0xK00000000000000000000"
    intrinsic_name = "f80"

    def __str__(self):
        return "x86_fp80"

    def format_constant(self, value):
        return f"0xK{encode(value):020X}"


X86FP80Type._create_instance()


def round_to_fp80(value):
    """`value` (int, float or Fraction) rounded to the nearest long double."""
    if isinstance(value, float) and (not math.isfinite(value) or value == 0.0):
        return value
    exact = Fraction(value)
    if exact == 0:
        return exact
    bits = encode(exact)
    return decode(bits)


def encode(value) -> int:
    """The 80 bits (sign, 15-bit exponent, 64-bit significand) of `value`, rounded to
    nearest, ties to even."""
    if isinstance(value, float) and math.isnan(value):
        return (MAX_EXPONENT << 64) | (0xC << 60)                # the default quiet NaN
    sign = 1 if (value < 0 or (isinstance(value, float) and math.copysign(1.0, value) < 0)) else 0
    if isinstance(value, float) and math.isinf(value):
        return (sign << 79) | (MAX_EXPONENT << 64) | (1 << 63)
    magnitude = abs(Fraction(value))
    if magnitude == 0:
        return sign << 79
    exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
    if Fraction(2) ** exponent > magnitude:
        exponent -= 1                                             # 2**exponent <= magnitude
    exponent = max(exponent, 1 - EXPONENT_BIAS)                   # subnormals share the least
    significand = _round_half_even(magnitude / Fraction(2) ** (exponent - SIGNIFICAND_BITS + 1))
    if significand >> SIGNIFICAND_BITS:                           # rounded up to the next power
        significand >>= 1
        exponent += 1
    biased = exponent + EXPONENT_BIAS if significand >> (SIGNIFICAND_BITS - 1) else 0
    if biased >= MAX_EXPONENT:
        return (sign << 79) | (MAX_EXPONENT << 64) | (1 << 63)    # overflow: infinity
    return (sign << 79) | (biased << 64) | significand


def decode(bits: int):
    """The value of 80 bits: a Fraction, or a float for infinities and NaNs."""
    sign = -1 if bits >> 79 else 1
    biased = (bits >> 64) & MAX_EXPONENT
    significand = bits & ((1 << 64) - 1)
    if biased == MAX_EXPONENT:
        return math.nan if significand << 1 & ((1 << 64) - 1) else sign * math.inf
    exponent = max(biased, 1) - EXPONENT_BIAS - SIGNIFICAND_BITS + 1
    return sign * significand * Fraction(2) ** exponent


def _round_half_even(value: Fraction) -> int:
    whole = math.floor(value)
    rest = value - whole
    if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and whole % 2):
        whole += 1
    return whole
