"""frontend/openmp/utility_directives.py (through attach_pragmas): nothing dropped, error at
compilation a diagnostic, at execution a stand-alone construct, assume a block with its
holds expressions as __builtin_assume and its promises checked, assumes dropped."""

from __future__ import annotations

import pytest
from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.openmp.pragmas import attach_pragmas
from omp2gpu.frontend.parse import parse


def body(statements: str, before: str = "") -> list:
    ast = attach_pragmas(parse(f"{before}int omp_get_max_threads(void);\nint f(int n) {{\n{statements}\n}}\n", "t.c"))
    return ast.ext[-1].body.block_items or []


def error(statements: str, before: str = "") -> CompileError:
    with pytest.raises(CompileError) as info:
        body(statements, before)
    return info.value


def test_nothing_leaves_nothing():
    assert [type(item) for item in body("#pragma omp nothing\nreturn n;")] == [c_ast.Return]


def test_error_at_compilation_is_an_error_with_its_message():
    found = error('#pragma omp error message("needs " "MPI")\nreturn n;')
    assert found.message == "'pragma omp error' encountered: needs MPI"
    assert error("#pragma omp error severity(fatal)\nreturn n;").message == "'pragma omp error' encountered"


def test_error_severity_warning_warns_and_compiles(capsys):
    items = body('#pragma omp error severity(warning) message("check")\nreturn n;')
    assert [type(item) for item in items] == [c_ast.Return]
    assert "warning: 'pragma omp error' encountered: check" in capsys.readouterr().err


def test_error_at_execution_stays_a_stand_alone_construct():
    first = body('#pragma omp error at(execution) message("late")\nreturn n;')[0]
    assert isinstance(first, OmpConstruct) and first.body is None and first.directive.kind == "error"


def test_error_message_at_compilation_must_be_a_string_literal():
    assert "must be a string literal" in error("#pragma omp error message(n)\nreturn n;").message


def test_assume_holds_becomes_builtin_assume_before_the_block():
    block = body("#pragma omp assume holds(n > 0) holds(f(n) > 0) contains(parallel)\n{ n++; }\nreturn n;")[0]
    assert isinstance(block, c_ast.Compound)
    call, rest = block.block_items
    assert call.name.name == "__builtin_assume"     # f(n) > 0 has a call: not evaluated
    assert isinstance(rest, c_ast.Compound)


def test_assume_without_usable_holds_is_its_block():
    block = body("#pragma omp assume no_parallelism\n{ n++; }\nreturn n;")[0]
    assert isinstance(block, c_ast.Compound) and isinstance(block.block_items[0], c_ast.UnaryOp)


@pytest.mark.parametrize("clauses, inner, message", [
    ("absent(parallel)", "#pragma omp parallel for\nfor (int i = 0; i < n; i++) ;",
     "'#pragma omp parallel for' inside an 'assume' region whose 'absent' clause names 'parallel'"),
    ("no_openmp", "#pragma omp atomic\nn++;", "'#pragma omp atomic' inside an 'assume' region with 'no_openmp'"),
    ("no_parallelism", "#pragma omp task\nn++;", "'#pragma omp task' inside an 'assume' region with 'no_parallelism'"),
    ("no_openmp_routines", "n = omp_get_max_threads();",
     "call of 'omp_get_max_threads' inside an 'assume' region with 'no_openmp_routines'"),
])
def test_assume_promises_broken_in_the_block(clauses, inner, message):
    assert error(f"#pragma omp assume {clauses}\n{{\n{inner}\n}}\nreturn n;").message == message


def test_assumes_and_begin_end_assumes_at_file_scope():
    assert body("return n;", "#pragma omp assumes no_openmp_routines\n#pragma omp begin assumes no_openmp\n"
                "int g(void);\n#pragma omp end assumes\n")
    assert "without a matching '#pragma omp end assumes'" in error(
        "return n;", "#pragma omp begin assumes no_openmp\n").message
    assert "only allowed at file scope" in error("#pragma omp assumes no_openmp\nreturn n;").message
