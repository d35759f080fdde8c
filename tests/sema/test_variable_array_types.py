"""sema: variable-length array types (ctypes.VariableArrayType, declarators.TypeResolver)."""

from __future__ import annotations

import pytest
from llvmlite import ir
from pycparser import CParser

from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.declarators import TypeResolver
from omp2gpu.sema.scopes import Scope, Symbol


def _declared(source: str, name: str, scope: Scope | None = None) -> ct.CType:
    """The type of `name` declared in the body of `void f(int n, int m) { source }`."""
    ast = CParser().parse(f"void f(int n, int m) {{ {source} }}")
    scope = scope or Scope()
    scope.declare(Symbol("n", ct.INT, "object"))
    scope.declare(Symbol("m", ct.INT, "object"))
    resolver = TypeResolver(ir.Context())
    for item in ast.ext[0].body.block_items:            # in order: enums declare constants
        ctype = resolver.resolve(item.type, scope)
        if getattr(item, "name", None) == name:
            return ctype
    raise AssertionError(name)


def test_non_constant_length_makes_a_variable_array():
    vla = _declared("double a[n];", "a")
    assert vla.is_variable and vla.is_array and vla.is_complete
    assert vla.element == ct.DOUBLE and vla.length is None
    assert vla.ir_type() == ir.DoubleType()          # stored as a run of doubles
    assert str(vla) == "double[n]"


def test_constant_length_stays_a_fixed_array():
    fixed = _declared("enum { K = 4 }; int a[K * 2];", "a")
    assert not fixed.is_variable and fixed.length == 8 and fixed.size == 32


def test_array_of_variable_arrays_is_variable_even_with_a_constant_length():
    vla = _declared("int a[3][n + 1];", "a")
    assert vla.is_variable and vla.element.is_variable
    assert vla.fixed_element == ct.INT


def test_variable_array_of_fixed_rows_keeps_the_rows():
    vla = _declared("float a[n][4];", "a")
    assert vla.is_variable and vla.element == ct.ArrayType(ct.FLOAT, 4)
    assert vla.ir_type() == ir.ArrayType(ir.FloatType(), 4)


def test_each_variable_array_type_names_its_own_length():
    matrix = _declared("double a[n][m];", "a")
    assert matrix.length_name != matrix.element.length_name


def test_static_size_of_a_variable_array_is_an_error():
    vla = _declared("double a[n];", "a")
    with pytest.raises(CompileError, match="only known at run time"):
        _ = vla.size


def test_variable_arrays_compare_by_element():
    a = _declared("double a[n];", "a")
    b = _declared("double b[m];", "b")
    assert a == b and a != _declared("int c[n];", "c")


def test_pointer_to_variable_array():
    pointer = _declared("double (*p)[m];", "p")
    assert pointer.is_pointer and ct.variably_modified(pointer)
    assert pointer.ir_type() == ir.DoubleType().as_pointer()
    assert not ct.variably_modified(_declared("double *q[4];", "q"))


def test_parameters_of_variable_array_type_become_pointers_to_rows():
    ast = CParser().parse("void g(int n, double a[n][n], double v[static n]);")
    function = TypeResolver(ir.Context()).resolve(ast.ext[0].type, Scope())
    rows, vector = function.params[1], function.params[2]
    assert rows.is_pointer and rows.pointee.is_variable
    assert vector == ct.PointerType(ct.DOUBLE)


def test_struct_member_of_variable_array_type_is_an_error():
    with pytest.raises(CompileError, match="cannot have a variably modified type"):
        _declared("struct s { int v[n]; } x;", "x")
