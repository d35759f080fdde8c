"""sema: complex types (ctypes.ComplexType, declarators.TypeResolver, literals): their
layout as gcc's, the usual arithmetic conversions with complex operands, the ABI's IR
types at calls, and GNU imaginary constants."""

from __future__ import annotations

import pytest
from llvmlite import ir
from pycparser import CParser

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.parse import parse
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.constant_eval import evaluate
from omp2gpu.sema.declarators import TypeResolver
from omp2gpu.sema.literals import imaginary_literal, is_imaginary
from omp2gpu.sema.scopes import Scope


def _declared(source: str) -> ct.CType:
    ast = CParser().parse(source)
    return TypeResolver(ir.Context()).resolve(ast.ext[0].type, Scope())


@pytest.mark.parametrize("spelling, expected", [
    ("float _Complex z;", ct.COMPLEX_FLOAT), ("_Complex float z;", ct.COMPLEX_FLOAT),
    ("double _Complex z;", ct.COMPLEX_DOUBLE), ("_Complex long double z;", ct.COMPLEX_LONG_DOUBLE),
    ("long _Complex double z;", ct.COMPLEX_LONG_DOUBLE)])
def test_each_real_floating_type_has_a_complex_type(spelling, expected):
    assert _declared(spelling) == expected


def test_plain_complex_is_double_complex_with_gccs_warning(capsys):
    assert _declared("_Complex z;") == ct.COMPLEX_DOUBLE
    assert "plain 'complex' meaning 'double complex'" in capsys.readouterr().err


def test_complex_integer_types_are_refused_by_name():
    with pytest.raises(CompileError, match="complex integer types"):
        _declared("int _Complex z;")


def test_layout_is_gccs():
    # sizeof and _Alignof as gcc on x86-64: two of the real type, aligned as it.
    assert [(t.size, t.align) for t in (ct.COMPLEX_FLOAT, ct.COMPLEX_DOUBLE, ct.COMPLEX_LONG_DOUBLE)] \
        == [(8, 4), (16, 8), (32, 16)]
    assert str(ct.COMPLEX_DOUBLE.ir_type()) == "{double, double}"


def test_complex_is_arithmetic_in_c_but_not_a_real_scalar_here():
    assert ct.COMPLEX_DOUBLE.is_complex
    assert not ct.COMPLEX_DOUBLE.is_arithmetic and not ct.COMPLEX_DOUBLE.is_scalar
    assert ct.real_type(ct.COMPLEX_FLOAT) == ct.FLOAT and ct.real_type(ct.INT) == ct.INT


@pytest.mark.parametrize("left, right, common", [
    (ct.COMPLEX_FLOAT, ct.INT, ct.COMPLEX_FLOAT),            # int converts to float
    (ct.COMPLEX_FLOAT, ct.DOUBLE, ct.COMPLEX_DOUBLE),
    (ct.DOUBLE, ct.COMPLEX_FLOAT, ct.COMPLEX_DOUBLE),
    (ct.COMPLEX_DOUBLE, ct.LONG_DOUBLE, ct.COMPLEX_LONG_DOUBLE),
    (ct.COMPLEX_LONG_DOUBLE, ct.COMPLEX_FLOAT, ct.COMPLEX_LONG_DOUBLE)])
def test_usual_arithmetic_conversions_with_a_complex_operand(left, right, common):
    assert ct.usual_arithmetic_conversion(left, right) == common


def test_abi_types_at_calls():
    fn = ct.FunctionType(ct.COMPLEX_FLOAT, (ct.COMPLEX_FLOAT, ct.COMPLEX_DOUBLE, ct.COMPLEX_LONG_DOUBLE))
    assert str(fn.ir_type()) == \
        "<2 x float> (<2 x float>, {double, double}, {x86_fp80, x86_fp80})"


def test_a_double_complex_parameter_past_the_sse_registers_is_found():
    seven = (ct.DOUBLE,) * 7
    assert ct.FunctionType(ct.VOID, (*seven, ct.COMPLEX_DOUBLE)).split_complex_parameter() == 7
    assert ct.FunctionType(ct.VOID, (*seven[:6], ct.COMPLEX_DOUBLE)).split_complex_parameter() is None
    assert ct.FunctionType(ct.VOID, (*seven, ct.DOUBLE, ct.COMPLEX_DOUBLE)).split_complex_parameter() is None
    assert ct.FunctionType(ct.VOID, (ct.COMPLEX_LONG_DOUBLE,) * 9).split_complex_parameter() is None


@pytest.mark.parametrize("text, value, ctype", [
    ("2.5i", 2.5, ct.COMPLEX_DOUBLE), ("1.0iF", 1.0, ct.COMPLEX_FLOAT), ("1e3i", 1000.0, ct.COMPLEX_DOUBLE),
    ("0.5iL", 0.5, ct.COMPLEX_LONG_DOUBLE), ("0x1p-1i", 0.5, ct.COMPLEX_DOUBLE)])
def test_imaginary_constants(text, value, ctype):
    assert is_imaginary(text)
    got, got_type = imaginary_literal(text)
    assert float(got) == value and got_type == ctype


def test_imaginary_integer_constants_are_refused():
    assert not is_imaginary("0x1f") and not is_imaginary("1e5")
    for text in ("2i", "0x1ei"):
        with pytest.raises(CompileError, match=f"imaginary integer constant '{text}'"):
            imaginary_literal(text)


def _constant(expression: str):
    ast = parse(f"int x = {expression};", "t.c")
    return evaluate(ast.ext[0].init, Scope(), TypeResolver(ir.Context()))


def test_complex_constant_expressions_fold_as_the_code_computes():
    assert _constant("1.0 + 2.0i") == (complex(1.0, 2.0), ct.COMPLEX_DOUBLE)
    assert _constant("(1.0 + 2.0i) * (3.0 - 1.0i)") == (complex(5.0, 5.0), ct.COMPLEX_DOUBLE)
    assert _constant("(1.0 + 2.0i) / (3.0 - 4.0i)")[0] == complex(-0.2, 0.4)
    value, ctype = _constant("(0.1f + 0.3if) / (0.7f - 0.2if)")      # in double, rounded once
    assert ctype == ct.COMPLEX_FLOAT and (value.real, value.imag) == (0.018867919221520424, 0.43396228551864624)
    assert _constant("__imag__ (1.0 + 2.0i)") == (2.0, ct.DOUBLE)
    assert _constant("(int)(3.5 + 2.0i)") == (3, ct.INT)
    assert _constant("(1.0 + 2.0i) == (1.0 + 2.0i)") == (1, ct.INT)


def test_complex_constants_that_are_not_supported_are_located_errors():
    for expression, message in (("1.0iL + 1", "long double complex"), ("(1.0 + 1.0i) / 0.0", "division by zero"),
                                ("(1.0 + 1.0i) < 2.0", "invalid operands")):
        with pytest.raises(CompileError, match=message):
            _constant(expression)
