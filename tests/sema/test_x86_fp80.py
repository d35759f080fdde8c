"""sema/x86_fp80: long double constants encoded as gcc lays them out."""

import math
from fractions import Fraction

from omp2gpu.sema.literals import float_literal
from omp2gpu.sema.x86_fp80 import decode, encode, round_to_fp80


def test_encodings_match_gcc():
    # from gcc -S of `long double a = 0.1L, b = 1.0L / 3, c = -2.5L;`
    assert encode(Fraction(1, 10)) == 0x3FFBCCCCCCCCCCCCCCCD
    assert encode(Fraction(1, 3)) == 0x3FFDAAAAAAAAAAAAAAAB
    assert encode(-2.5) == 0xC000A000000000000000


def test_special_values():
    assert encode(-0.0) == 1 << 79
    assert decode(encode(math.inf)) == math.inf
    assert math.isnan(decode(encode(math.nan)))
    assert encode(Fraction(10) ** 5000) == encode(math.inf)        # overflow


def test_a_literal_is_rounded_once_from_its_exact_value():
    value, _ = float_literal("0.1L")
    assert value == round_to_fp80(Fraction(1, 10)) != Fraction(0.1)
    assert float_literal("0x1.8p1L")[0] == 3


def test_the_smallest_subnormal_round_trips():
    smallest = Fraction(1, 2 ** 16445)
    assert encode(smallest) == 1 and decode(1) == smallest
