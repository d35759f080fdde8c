"""sema/generic_selection: which association a _Generic selection stands for."""

import pytest
from pycparser import c_ast, c_parser

from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.generic_selection import selected_expression

_TYPES = {"int": ct.INT, "long": ct.LONG, "char": ct.CHAR, "signed char": ct.SCHAR,
          "char *": ct.PointerType(ct.CHAR), "double": ct.DOUBLE}


def _selection(source: str) -> c_ast.GenericSelection:
    ast = c_parser.CParser().parse(f"int v = {source};")
    return ast.ext[0].init


def _resolve(typename: c_ast.Typename) -> ct.CType:
    from pycparser.c_generator import CGenerator
    return _TYPES[CGenerator().visit(typename)]


def _chosen(source: str, controlling: ct.CType) -> str:
    return selected_expression(_selection(source), controlling, _resolve).value


def test_the_matching_type_is_chosen_not_a_convertible_one():
    source = "_Generic(x, long: 1, int: 2, double: 3, default: 4)"
    assert _chosen(source, ct.INT) == "2"
    assert _chosen(source, ct.LONG) == "1"
    assert _chosen(source, ct.FLOAT) == "4"        # float is not double


def test_char_signed_char_and_unsigned_char_are_distinct():
    source = "_Generic(x, signed char: 1, char: 2, default: 3)"
    assert _chosen(source, ct.CHAR) == "2"
    assert _chosen(source, ct.UCHAR) == "3"


def test_an_array_selects_as_the_pointer_it_decays_to():
    assert _chosen("_Generic(x, char *: 1, default: 2)", ct.ArrayType(ct.CHAR, 4)) == "1"


def test_no_match_and_no_default_is_an_error():
    with pytest.raises(CompileError, match="not compatible with any generic association"):
        _chosen("_Generic(x, int: 1)", ct.DOUBLE)
