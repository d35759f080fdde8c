"""static_assertions (C11 _Static_assert) and the C11/GNU type operators
declarators and expressions understand: typeof, _Alignof/__alignof__."""

import pytest

from omp2gpu import driver
from omp2gpu.diagnostics import CompileError


def ir_of(tmp_path, source):
    path = tmp_path / "t.c"
    path.write_text(source)
    return str(driver.emit_ir(str(path), driver.CompileOptions()))


def error_of(tmp_path, source):
    with pytest.raises(CompileError) as info:
        ir_of(tmp_path, source)
    return info.value


def test_true_assertions_compile_at_file_and_block_scope(tmp_path):
    ir_of(tmp_path, '_Static_assert(sizeof(long) == 8, "LP64");\n'
                    'int f(void) { _Static_assert(_Alignof(double) == 8, "align"); return 0; }\n')


def test_a_false_assertion_is_a_located_error_with_its_message(tmp_path):
    error = error_of(tmp_path, 'struct s { char c; int i; };\n'
                               'int f(void) {\n  _Static_assert(sizeof(struct s) == 5, "packed?");\n'
                               '  return 0;\n}\n')
    assert error.message == 'static assertion failed: "packed?"'
    assert (error.location.line, error.location.column) == (3, 3)


def test_a_non_constant_assertion_is_an_error(tmp_path):
    error = error_of(tmp_path, 'int n; _Static_assert(n == 1, "n");\n')
    assert "constant" in error.message


def test_typeof_of_expressions_and_types(tmp_path):
    ir = ir_of(tmp_path, 'double d; short s[3];\n'
                         '__typeof__(d) a; __typeof__(s) b; typeof(int *) c; __typeof__(s[0] + 1L) e;\n'
                         'unsigned long sizes[4] = {sizeof a, sizeof b, sizeof c, sizeof e};\n'
                         'unsigned long aligns[3] = {_Alignof(short), __alignof__(d),'
                         ' __alignof__(struct { char c; double x; })};\n')
    assert "@\"sizes\" = global [4 x i64] [i64 8, i64 6, i64 8, i64 8]" in ir
    assert "@\"aligns\" = global [3 x i64] [i64 2, i64 8, i64 8]" in ir


def test_assertions_among_a_structures_members(tmp_path):
    """C11 6.7.2.1: a static_assert-declaration is a member-declaration (autoconf's C11
    probe has one); it declares no member."""
    ir = ir_of(tmp_path, 'struct s { int a; _Static_assert(sizeof(int) <= sizeof(long), "in struct");'
                         ' double b; };\nint f(void) { return sizeof(struct s); }\n')
    assert "ret i32 16" in ir
    error = error_of(tmp_path, 'struct s {\n  int a;\n  _Static_assert(sizeof(int) == 3, "odd int");\n};\n')
    assert error.message == 'static assertion failed: "odd int"'
    assert (error.location.line, error.location.column) == (3, 3)
