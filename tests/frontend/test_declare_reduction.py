"""`#pragma omp declare reduction`: the declaration read from the pragma, and the
errors at the token that caused them."""

import pytest
from directive_testing import assert_error, expr_text, parse
from pycparser import c_ast


def test_identifier_types_combiner_and_initializer():
    d = parse("omp declare reduction(merge : struct box, vec_t : grow(&omp_out, &omp_in)) "
              "initializer(empty(&omp_priv))", typedefs={"vec_t"}).declared_reduction
    assert d.identifier == "merge"
    assert [type(t.type.type).__name__ for t in d.types] == ["Struct", "IdentifierType"]
    assert expr_text(d.combiner) == "grow(&omp_out, &omp_in)"
    assert expr_text(d.initializer) == "empty(&omp_priv)"


def test_operator_and_no_initializer():
    d = parse("omp declare reduction(+ : struct p : omp_out.x += omp_in.x)").declared_reduction
    assert d.identifier == "+" and d.initializer is None
    assert isinstance(d.combiner, c_ast.Assignment)


def test_combiner_with_a_conditional_keeps_its_colon():
    d = parse("omp declare reduction(mx : int : omp_out = omp_in > omp_out ? omp_in : omp_out)"
              ).declared_reduction
    assert isinstance(d.combiner.rvalue, c_ast.TernaryOp)


def test_reduction_clause_takes_an_identifier():
    from omp2gpu.frontend.openmp.clause_types import ReductionClause
    assert parse("omp parallel for reduction(merge: b)").first(ReductionClause).op == "merge"


@pytest.mark.parametrize("text,message,at", [
    ("omp declare reduction initializer(x)", "expected '(' after 'declare reduction'", "initializer"),
    ("omp declare reduction(foo : int)", "expected ':' in '#pragma omp declare reduction'", ")"),
    ("omp declare reduction(/ : int : omp_out)",
     "expected a reduction identifier or operator in '#pragma omp declare reduction'", "/"),
    ("omp declare reduction(f : int : omp_out : x)", "unexpected ':' in '#pragma omp declare reduction'",
     ": x"),
    ("omp declare reduction(f : 3 : omp_out += omp_in)",
     "invalid type name in the type list of '#pragma omp declare reduction'", " : omp_out"),
    ("omp declare reduction(f : int : )",
     "expected an expression in the combiner of '#pragma omp declare reduction'", ")"),
    ("omp declare reduction(f : int : omp_out += omp_in) initializer(omp_priv + 1)",
     "expected 'omp_priv = expression' or a function call in 'initializer' clause", "omp_priv +"),
    ("omp parallel initializer(omp_priv = 0)",
     "clause 'initializer' is not valid on '#pragma omp parallel'", "initializer"),
])
def test_errors(text, message, at):
    assert_error(text, message, at)
