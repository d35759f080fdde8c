"""sema/loop_transformations.py: tile and unroll rewritten into plain loops (the floor
loops an enclosing construct associates with, the tile loops' ends), the forms left as
written, and the located errors for what is not supported; the generated loops run
the original iterations (each exactly once, every order kept within a tile)."""

from __future__ import annotations

import pytest
from pycparser import c_ast, c_generator

from omp2gpu import driver
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct


def _main(tmp_path, body: str):
    path = tmp_path / "prog.c"
    path.write_text(f"int main(void) {{\n int a[64][64], n = 64, s = 0;\n{body}\n return s;\n}}\n")
    ast = driver.parse_file(path, driver.CompileOptions())
    return ast.ext[-1].body.block_items[-2]


def _c(node) -> str:
    return " ".join(c_generator.CGenerator().visit(node).split())


def test_tile_makes_floor_loops_around_tile_loops(tmp_path):
    nest = _main(tmp_path, "#pragma omp tile sizes(4, 8)\nfor (int i = 0; i < n; i++)\n"
                           "  for (int j = n - 1; j >= 0; j -= 2) a[i][j] = 1;")
    text = _c(nest)
    floors = ("for (int __omp_tile_i = 0; __omp_tile_i < n; __omp_tile_i += 4 * 1) "
              "for (int __omp_tile_j = n - 1; __omp_tile_j >= 0; __omp_tile_j += 8 * (-2)) ")
    assert text.startswith(floors)
    assert "for (int i = __omp_tile_i; i < (((__omp_tile_i + (4 * 1)) < n) ? (__omp_tile_i + (4 * 1)) : (n)); " \
           "i += 1)" in text
    assert "for (int j = __omp_tile_j; j >= ((((__omp_tile_j + (8 * (-2))) + 1) >= 0) ? " \
           "((__omp_tile_j + (8 * (-2))) + 1) : (0)); j += -2) a[i][j] = 1;" in text


def test_a_loop_construct_associates_with_the_floor_loops(tmp_path):
    construct = _main(tmp_path, "#pragma omp parallel for collapse(2)\n#pragma omp tile sizes(4, 4)\n"
                                "for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) a[i][j] = i;")
    assert isinstance(construct, OmpConstruct) and isinstance(construct.body, c_ast.For)
    assert construct.body.init.decls[0].name == "__omp_tile_i"
    assert construct.body.stmt.init.decls[0].name == "__omp_tile_j"


def test_a_variable_declared_outside_is_set_or_shadowed(tmp_path):
    """Set by the tile loop where it runs alone; each iteration's own under a loop construct."""
    alone = _main(tmp_path, "long i;\n#pragma omp tile sizes(4)\nfor (i = 0; i < n; i++) s += i;")
    assert _c(alone).startswith("for (long __omp_tile_i = 0; __omp_tile_i < n; __omp_tile_i += 4 * 1) "
                                "for (i = __omp_tile_i; ")
    shared = _main(tmp_path, "long i;\n#pragma omp parallel for\n#pragma omp tile sizes(4)\n"
                             "for (i = 0; i < n; i++) s += i;")
    assert _c(shared.body).startswith("for (long __omp_tile_i = 0; __omp_tile_i < n; __omp_tile_i += 4 * 1) "
                                      "for (long i = __omp_tile_i; ")


def test_unroll_partial_is_a_tile_of_one_loop_and_full_keeps_the_loop(tmp_path):
    partial = _main(tmp_path, "#pragma omp unroll partial(4)\nfor (int i = 0; i < n; i++) s += i;")
    assert partial.init.decls[0].name == "__omp_tile_i" and partial.stmt.init.decls[0].name == "i"
    full = _main(tmp_path, "#pragma omp unroll full\nfor (int i = 0; i < 8; i++) s += i;")
    assert full.init.decls[0].name == "i" and not isinstance(full.stmt, c_ast.For)


@pytest.mark.parametrize(("body", "message"), [
    ("#pragma omp tile sizes(4, 4)\nfor (int i = 0; i < n; i++) for (int j = i; j < n; j++) s += j;",
     "non-rectangular"),
    ("#pragma omp tile sizes(4, 4)\nfor (int i = 0; i < n; i++) { s++; for (int j = 0; j < n; j++) s += j; }",
     "2 perfectly nested loops"),
    ("#pragma omp unroll full\nfor (int i = 0; i < n; i++) s += i;", "compile-time constant"),
])
def test_unsupported_or_invalid_forms_are_located_errors(tmp_path, body, message):
    with pytest.raises(CompileError, match=message) as caught:
        _main(tmp_path, body)
    assert caught.value.location is not None
