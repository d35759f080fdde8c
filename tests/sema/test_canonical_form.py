"""canonical_form.py: the canonical loop forms a loop construct accepts (OpenMP 4.5 2.6,
5.0 2.9.1's `!=` test with unit steps), and the literal constants its checks read."""

from __future__ import annotations

import pytest
from pycparser import c_parser

from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import canonical_form


def _loop(text: str):
    unit = c_parser.CParser().parse("void f(int n, int *a) { int i; " + text + " }")
    return unit.ext[0].body.block_items[-1]


@pytest.mark.parametrize(("text", "relation", "negated"), [
    ("for (i = 0; i != n; i++) ;", "<", False),
    ("for (i = n; i != 0; i--) ;", ">", True),
    ("for (i = 0; n != i; i += 1) ;", "<", False),
    ("for (i = n; i != 0; i += -1) ;", ">", False),
    ("for (i = n; i != 0; i = i - 1) ;", ">", True),
    ("for (i = 0; i < n; i += 3) ;", "<", False),
])
def test_not_equal_test_becomes_a_direction(text, relation, negated):
    loop = canonical_form.analyze(_loop(text))
    assert (loop.relation, loop.step_negated) == (relation, negated)


@pytest.mark.parametrize("text", ["for (i = 0; i != n; i += 2) ;", "for (i = 0; i != n; i += n) ;"])
def test_not_equal_test_needs_a_unit_step(text):
    with pytest.raises(CompileError, match="'!=' must step by 1 or -1"):
        canonical_form.analyze(_loop(text))


@pytest.mark.parametrize(("text", "value"), [("3", 3), ("-2", -2), ("2 * 4 - 1", 7), ("0x10", 16),
                                             ("10u", 10), ("n", None), ("2 * n", None), ("1.5", None)])
def test_literal_integer(text, value):
    expression = c_parser.CParser().parse(f"int x = {text};" if "n" not in text else
                                          f"int n; int x = {text};").ext[-1].init
    assert canonical_form.literal_integer(expression) == value
