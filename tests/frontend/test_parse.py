"""parse(): pycparser with located, gcc-like syntax errors."""

import pytest
from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.parse import parse
from omp2gpu.frontend.preprocess import preprocess


def error_of(text, filename="t.c"):
    with pytest.raises(CompileError) as info:
        parse(text, filename)
    return info.value


def test_parses_and_keeps_coords():
    ast = parse("int main(void) {\n  return 0;\n}\n", "t.c")
    assert isinstance(ast, c_ast.FileAST)
    ret = ast.ext[0].body.block_items[0]
    assert isinstance(ret, c_ast.Return) and (ret.coord.file, ret.coord.line) == ("t.c", 2)


def test_line_markers_set_file_and_line():
    ast = parse('# 40 "orig.c"\nint x;\n', "pre.i")
    assert (ast.ext[0].coord.file, ast.ext[0].coord.line) == ("orig.c", 40)


def test_syntax_error_before_token():
    error = error_of("int main(void) {\n  int x = 3\n  return x;\n}\n")
    assert error.message == "syntax error before 'return'"
    assert (error.location.file, error.location.line, error.location.column) == ("t.c", 3, 3)


def test_stray_character():
    error = error_of("int main(void) {\n  return 1 @ 2;\n}\n")
    assert error.message == "stray '@' in program"
    assert (error.location.line, error.location.column) == (2, 12)


def test_end_of_input_points_at_last_line():
    error = error_of('# 1 "t.c"\nint main(void) {\n  return 0;\n\n')
    assert error.message == "syntax error at end of input"
    assert (error.location.file, error.location.line) == ("t.c", 2)


def test_error_in_a_header_names_the_header(tmp_path):
    (tmp_path / "bad.h").write_text("int ok;\nint broken(;\n")
    (tmp_path / "main.c").write_text('#include "bad.h"\nint main(void) { return 0; }\n')
    path = str(tmp_path / "main.c")
    with pytest.raises(CompileError) as info:
        parse(preprocess(path), path)
    assert info.value.location.file.endswith("bad.h") and info.value.location.line == 2


def test_diagnostic_shows_source_line_and_caret(tmp_path):
    path = tmp_path / "t.c"
    path.write_text("int main(void) {\n  int x = 3\n  return x;\n}\n")
    with pytest.raises(CompileError) as info:
        parse(path.read_text(), str(path))
    assert info.value.format().splitlines() == [
        f"{path}:3:3: error: syntax error before 'return'", "  return x;", "  ^"]


def test_parser_is_reused_without_leaking_typedefs():
    parse("typedef int T;\nT x;\n", "a.c")
    ast = parse("int T = 1;\nint y = T;\n", "b.c")
    assert [d.name for d in ast.ext] == ["T", "y"]


def test_gnu_conditional_with_omitted_middle_operand():
    from omp2gpu.frontend.gnu_nodes import ConditionalWithOmittedOperand
    ast = parse("int f(int a, int b, int c) { return a ?: b ? c : a ?: 1; }", "t.c")
    outer = ast.ext[0].body.block_items[0].expr
    assert isinstance(outer, ConditionalWithOmittedOperand) and outer.iftrue is None
    assert isinstance(outer.cond, c_ast.ID) and outer.cond.name == "a"
    inner = outer.iffalse                      # right-associative, as `?:` is
    assert type(inner) is c_ast.TernaryOp and isinstance(inner.iffalse, ConditionalWithOmittedOperand)
    assert [name for name, _ in outer.children()] == ["cond", "iffalse"]


def test_gnu_conditional_missing_both_operands_is_a_syntax_error():
    assert "expected expression" in error_of("int f(int a) { return a ?: ; }").message


def test_an_empty_declaration_is_a_warning_as_in_gcc(capsys):
    ast = parse("typedef int T;\nstatic int;\nint main(void) { T; return 0; }\n", "t.c")
    assert [type(node).__name__ for node in ast.ext] == ["Typedef", "FuncDef"]
    warnings = capsys.readouterr().err.splitlines()
    assert [line for line in warnings if "warning:" in line] == [
        "t.c:2:8: warning: useless type name in empty declaration",
        "t.c:3:18: warning: useless type name in empty declaration"]


def test_a_struct_without_its_last_semicolon_is_a_warning_as_in_gcc(capsys):
    ast = parse("struct two { int a, b };\nint main(void) { return 0; }\n", "t.c")
    assert len(ast.ext[0].type.decls) == 2
    assert "t.c:1:23: warning: no semicolon at end of struct or union" in capsys.readouterr().err


def test_implicit_int_objects_are_ints_with_gccs_warnings(capsys):
    ast = parse("count = 7;\nstatic limit = 3;\nint main(void) { return 0; }\n", "t.c")
    assert [(d.name, d.type.type.names) for d in ast.ext[:2]] == [("count", ["int"]), ("limit", ["int"])]
    warnings = capsys.readouterr().err
    assert "t.c:1:1: warning: data definition has no type or storage class" in warnings
    assert "t.c:2:8: warning: type defaults to 'int' in declaration of 'limit'" in warnings
