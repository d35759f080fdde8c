"""preprocess(): bundled headers, kept `#pragma omp` lines, line markers, located errors."""

import shutil

import pytest
from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.parse import parse
from omp2gpu.frontend.preprocess import pragma_operators_to_lines, preprocess

BACKENDS = [
    pytest.param("gcc", marks=pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc")),
    "pcpp",
]


@pytest.fixture(params=BACKENDS)
def backend(request):
    return request.param


def write(folder, name, text):
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return str(path)


def pragma_lines(text):
    return [" ".join(line.split()) for line in text.splitlines() if line.lstrip().startswith("#pragma")]


def nodes(ast, kind):
    found = []

    class Visitor(c_ast.NodeVisitor):
        def generic_visit(self, node):
            if isinstance(node, kind):
                found.append(node)
            for child in node:
                self.visit(child)

    Visitor().visit(ast)
    return found


def test_omp_pragma_is_kept_with_macros_expanded(tmp_path, backend):
    path = write(tmp_path, "a.c", """\
#define N 4
void f(int *a) {
#pragma omp parallel for num_threads(N) \\
    schedule(static)
  for (int i = 0; i < N; i++) a[i] = i;
}
""")
    assert pragma_lines(preprocess(path, backend=backend)) == [
        "#pragma omp parallel for num_threads(4) schedule(static)"]


def test_pragma_operator_becomes_a_pragma_line(tmp_path, backend):
    path = write(tmp_path, "a.c", """\
#define N 8
#define DO_PRAGMA(x) _Pragma(#x)
#define PAR _Pragma("omp parallel for")
void f(int *a) {
  const char *s = "_Pragma(\\"omp not a pragma\\")";
  PAR for (int i = 0; i < N; i++) a[i] = i;
  DO_PRAGMA(omp target map(tofrom: a[0:N]))
  { a[0] = 1; }
  a[1] = 2;
}
""")
    text = preprocess(path, backend=backend)
    assert pragma_lines(text) == ["#pragma omp parallel for",
                                  "#pragma omp target map(tofrom: a[0:8])"]
    ast = parse(text, path)
    assert [(p.string, p.coord.line) for p in nodes(ast, c_ast.Pragma)] == [
        ("omp parallel for", 6), ("omp target map(tofrom: a[0:8])", 7)]
    assert [f.coord.line for f in nodes(ast, c_ast.For)] == [6]
    last = nodes(ast, c_ast.Assignment)[-1]
    assert last.coord.line == 9


def test_line_markers_keep_original_lines(tmp_path, backend):
    write(tmp_path, "inc/local.h", "#define LOCAL 7\nint from_header;\n")
    path = write(tmp_path, "main.c", """\
#include <stdio.h>
#include "inc/local.h"

int main(void) {
#pragma omp parallel \\
  num_threads(2)
  {
    printf("%d\\n", LOCAL);
  }
  return 0;
}
""")
    ast = parse(preprocess(path, backend=backend), path)
    call = nodes(ast, c_ast.FuncCall)[0]
    assert call.coord.file.endswith("main.c") and call.coord.line == 8
    header_decl = next(d for d in ast.ext if getattr(d, "name", None) == "from_header")
    assert header_decl.coord.file.endswith("local.h") and header_decl.coord.line == 2
    printf = next(d for d in ast.ext if getattr(d, "name", None) == "printf")
    assert printf.coord.file.endswith("stdio.h")


def test_predefined_macros(tmp_path, backend):
    path = write(tmp_path, "a.c", """\
int openmp = _OPENMP;
int ours = __OMP2GPU__;
#if defined(__GNUC__) || defined(__clang__)
#error "GNU macros must not be predefined"
#endif
#if !defined(__x86_64__) || !defined(__LP64__) || __STDC_VERSION__ != 201710L
#error "missing target macros (or not gcc's default mode, gnu17)"
#endif
#if __ATOMIC_SEQ_CST != 5 || !defined(__GCC_HAVE_SYNC_COMPARE_AND_SWAP_8) || !defined(_REENTRANT)
#error "missing GCC's atomic or -fopenmp macros"
#endif
""")
    text = preprocess(path, backend=backend)
    assert "openmp = 201511;" in text and "ours = 1;" in text


@pytest.mark.parametrize("std, strict", [("c99", True), ("c11", True), ("gnu99", False), ("gnu17", False)])
def test_strict_iso_modes_define_strict_ansi(tmp_path, backend, std, strict):
    """-std=c99/c11 define __STRICT_ANSI__ (features.h then hides POSIX and BSD names), as gcc's do."""
    path = write(tmp_path, "a.c", "#include <stdlib.h>\nint strict = __STRICT_ANSI__ + 0;\n"
                                  "#ifdef __USE_MISC\nint bsd;\n#endif\n")
    text = preprocess(path, backend=backend, std=std)
    assert f"strict = {'1' if strict else '__STRICT_ANSI__'} + 0;" in text
    assert ("int bsd;" in text) != strict


def test_defines_undefines_and_include_dirs(tmp_path, backend):
    write(tmp_path, "include/config.h", "#define FROM_CONFIG 11\n")
    path = write(tmp_path, "src/a.c", """\
#include <config.h>
int a = FOO;
int b = BAR;
int c = FROM_CONFIG;
#ifdef _OPENMP
int d = 1;
#endif
""")
    text = preprocess(path, include_dirs=[str(tmp_path / "include")],
                      defines=["FOO=3", "BAR"], undefines=["_OPENMP"], backend=backend)
    assert "a = 3;" in text and "b = 1;" in text and "c = 11;" in text
    assert "d = 1" not in text


def test_std_sets_stdc_version(tmp_path, backend):
    path = write(tmp_path, "a.c", "long v = __STDC_VERSION__;\n")
    assert "v = 201112L;" in preprocess(path, std="c11", backend=backend)


def test_missing_include_is_located(tmp_path, backend):
    path = write(tmp_path, "a.c", "int x;\n#include \"nope.h\"\n")
    with pytest.raises(CompileError) as info:
        preprocess(path, backend=backend)
    assert info.value.location.file == path and info.value.location.line == 2
    assert "nope.h" in info.value.message


def test_error_directive_is_located(tmp_path, backend):
    path = write(tmp_path, "a.c", "int x;\n\n#error boom here\n")
    with pytest.raises(CompileError) as info:
        preprocess(path, backend=backend)
    assert info.value.location.line == 3
    assert "#error" in info.value.message and "boom here" in info.value.message
    assert info.value.format().startswith(f"{path}:3")


def test_unterminated_if_is_located(tmp_path, backend):
    path = write(tmp_path, "a.c", "int x;\n#if 1\nint y;\n")
    with pytest.raises(CompileError) as info:
        preprocess(path, backend=backend)
    assert info.value.location.line == 2
    assert "unterminated" in info.value.message.lower()


def test_missing_source_file(tmp_path, backend):
    with pytest.raises(CompileError, match="No such file"):
        preprocess(str(tmp_path / "absent.c"), backend=backend)


def test_system_headers_are_never_used(tmp_path, backend):
    path = write(tmp_path, "a.c", "#include <sys/socket.h>\n")
    with pytest.raises(CompileError, match="socket.h"):
        preprocess(path, backend=backend)


def test_pragma_operators_to_lines_keeps_numbering():
    text = '# 5 "x.c"\nint a; _Pragma("omp barrier") int b;\nint c;\n'
    out = pragma_operators_to_lines(text, expand=lambda s: s.replace("N", "4"))
    assert out.splitlines() == ['# 5 "x.c"', "int a; ", '#line 5 "x.c"', "#pragma omp barrier",
                                '#line 5 "x.c"', " int b;", "int c;"]
    ast = parse(out, "x.c")
    assert [d.coord.line for d in ast.ext] == [5, 5, 5, 6]      # a, the pragma, b, c


def test_pragma_operator_body_is_destringized_and_expanded():
    text = 'x; _Pragma("omp target map(to: s[0:N]) \\"q\\"")\n'
    assert "#pragma omp target map(to: s[0:4]) \"q\"" in pragma_operators_to_lines(
        text, expand=lambda s: s.replace("N", "4"))
    assert pragma_operators_to_lines('char *s = "_Pragma(\\"x\\")";') == 'char *s = "_Pragma(\\"x\\")";'
