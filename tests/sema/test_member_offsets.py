"""member_offsets: offsetof as an integer constant expression (C11 7.19p3) and as the value
code computes, with nested, subscripted and anonymous-member designators."""

import pytest

from omp2gpu import driver
from omp2gpu.diagnostics import CompileError

TYPES = """
#include <stddef.h>
struct anonymous { union { struct { int i; int j; }; struct { int k; long l; } w; }; int m; };
struct s { int a; double b[4]; struct { char c; int d; } in; };
"""


def ir_of(tmp_path, source):
    path = tmp_path / "t.c"
    path.write_text(TYPES + source)
    return str(driver.emit_ir(str(path), driver.CompileOptions()))


def test_offsetof_in_constant_expressions(tmp_path):
    ir_of(tmp_path, '_Static_assert(offsetof(struct s, b) == 8, "b");\n'
                    '_Static_assert(offsetof(struct s, b[2]) == 24, "b[2]");\n'
                    '_Static_assert(offsetof(struct s, in.d) == 44, "in.d");\n'
                    '_Static_assert(offsetof(struct anonymous, i) == offsetof(struct anonymous, w.k), "u");\n')


def test_offsetof_sizes_arrays_and_enumerators(tmp_path):
    ir = ir_of(tmp_path, 'enum { IN = offsetof(struct s, in) };\n'
                         'static char pad[offsetof(struct anonymous, m)];\n'
                         '_Static_assert(IN == 40 && sizeof pad == 16, "sizes");\n'
                         'size_t f(void) { return offsetof(struct s, in.d); }\n')
    assert "ret i64 44" in ir


@pytest.mark.parametrize("designator, message", [
    ("nothere", "no member named 'nothere'"),
    ("a[1]", "subscript of a non-array member in offsetof"),
])
def test_bad_designators_are_located_errors(tmp_path, designator, message):
    with pytest.raises(CompileError, match=message):
        ir_of(tmp_path, f'_Static_assert(offsetof(struct s, {designator}) >= 0, "x");\n')
