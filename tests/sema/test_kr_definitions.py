"""sema/kr_definitions.py: K&R definitions become prototyped ones; int by default, with a warning."""

from __future__ import annotations

import pytest
from pycparser import c_ast, c_parser

from omp2gpu import diagnostics
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema.kr_definitions import prototype_definition


def _definition(text: str) -> c_ast.FuncDef:
    return c_parser.CParser().parse(text, "k.c").ext[0]


def _params(node: c_ast.FuncDef) -> list[tuple[str, str]]:
    out = []
    for param in node.decl.type.args.params:
        ptype = param.type
        stars = ""
        while isinstance(ptype, c_ast.PtrDecl):
            stars, ptype = stars + "*", ptype.type
        out.append((param.name, " ".join(ptype.type.names) + stars))
    return out


def test_declared_types_in_list_order(capsys):
    node = _definition("double f(v, p, n) int n; char *p; double v; { return v; }")
    prototype_definition(node)
    assert _params(node) == [("v", "double"), ("p", "char*"), ("n", "int")]
    assert node.param_decls is None
    assert capsys.readouterr().err == ""


def test_undeclared_parameter_is_int_with_a_warning(capsys):
    node = _definition("int f(a, b) double a; { return b; }")
    prototype_definition(node)
    assert _params(node) == [("a", "double"), ("b", "int")]
    assert "k.c:1:10: warning: type of 'b' defaults to 'int'" in capsys.readouterr().err


def test_implicit_int_result_warns(capsys):
    prototype_definition(_definition("f(x) { return x; }"))
    err = capsys.readouterr().err
    assert "k.c:1:1: warning: return type of 'f' defaults to 'int'" in err
    assert "type of 'x' defaults to 'int'" in err


def test_minus_w_silences_the_warnings(capsys):
    with diagnostics.warnings_switched(False):
        prototype_definition(_definition("f(x) { return x; }"))
    assert capsys.readouterr().err == ""


def test_prototyped_definitions_are_left_alone(capsys):
    node = _definition("int f(int a, double b) { return a; }")
    before = node.decl.type.args.params
    prototype_definition(node)
    assert node.decl.type.args.params is before
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("text, message", [
    ("int f(a) int a; int b; { return a; }", "declaration for parameter 'b' but no such parameter"),
    ("int f(a) int a; double a; { return a; }", "redefinition of parameter 'a'"),
    ("int f(a) static int a; { return a; }", "storage class specified for parameter 'a'"),
])
def test_bad_declaration_lists(text, message):
    with pytest.raises(CompileError, match=message):
        prototype_definition(_definition(text))
