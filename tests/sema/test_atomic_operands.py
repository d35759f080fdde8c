"""sema/atomic_operands.py: lvalues, reads, and when two expressions spell the same
object or value (an atomic's x, and the two `expr` of a compare form)."""

from __future__ import annotations

from pycparser import c_parser

from omp2gpu.sema.atomic_operands import is_lvalue, is_read, same_expression, same_location


def _statement(text: str):
    return c_parser.CParser().parse(f"void f(void) {{ {text}; }}").ext[0].body.block_items[0]


def test_same_location_compares_subscripts_as_expressions():
    assert same_location(_statement("a[i % 8]"), _statement("a[i % 8]"))
    assert not same_location(_statement("a[i % 8]"), _statement("a[i % 4]"))
    assert same_location(_statement("p->s.f"), _statement("p->s.f"))


def test_same_expression_is_structural():
    assert same_expression(_statement("(unsigned)(i + 7)"), _statement("(unsigned)(i + 7)"))
    assert not same_expression(_statement("(long)i"), _statement("(unsigned)i"))
    assert not same_expression(_statement("f(x, 1)"), _statement("f(x, 2)"))
    assert same_expression(_statement("e * 0.5f"), _statement("e * 0.5f"))


def test_reads_and_lvalues():
    assert is_read(_statement("v = a[2]")) and not is_read(_statement("v = x + 1"))
    assert is_lvalue(_statement("*p")) and not is_lvalue(_statement("x + 1"))
