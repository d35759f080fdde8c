"""sema/atomic_forms.py: the statements `#pragma omp atomic` accepts (OpenMP 4.5 2.13.6)."""

from __future__ import annotations

import pytest
from pycparser import c_parser

from omp2gpu import driver
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema.atomic_forms import same_location, update_parts


def _parse(tmp_path, clause: str, statement: str):
    path = tmp_path / "prog.c"
    path.write_text("int main(void) {\n int x = 0, v = 0, y = 1, a[4] = {0}, *p = &x;\n"
                    f"#pragma omp atomic {clause}\n{statement}\n return v;\n}}\n")
    return driver.parse_file(path, driver.CompileOptions())


ACCEPTED = [
    ("read", "v = x;"), ("read", "v = a[1];"), ("write", "x = y * 2;"), ("write", "*p = v;"),
    ("", "x++;"), ("", "--x;"), ("", "x += y;"), ("update", "x = x * y;"), ("update", "x = y - x;"),
    ("update", "a[1] <<= 2;"), ("capture", "v = x++;"), ("capture", "v = x += 2;"),
    ("capture", "{ v = x; x += 1; }"), ("capture", "{ x = x / 2; v = x; }"),
    ("capture", "{ v = x; x = y; }"), ("capture", "{ v = a[2]; a[2]++; }"),
    ("capture", "{ v = x; x = 5; }"), ("capture", "{ v = x; x = y * 2; }"),
]


@pytest.mark.parametrize("clause, statement", ACCEPTED)
def test_accepted(tmp_path, clause, statement):
    _parse(tmp_path, clause, statement)


REJECTED = [
    ("", "{ x += 1; }", "must be followed by an expression statement"),
    ("", "for (;;) x++;", "must be followed by an expression statement"),
    ("", "if (y) x++;", "must be followed by an expression statement"),
    ("read", "x += 1;", "invalid form of '#pragma omp atomic read'"),
    ("read", "v = x + 1;", "invalid form of '#pragma omp atomic read'"),
    ("write", "x++;", "invalid form of '#pragma omp atomic write'"),
    ("update", "x = 1;", "invalid form of '#pragma omp atomic'"),
    ("", "x = y + 1;", "invalid form of '#pragma omp atomic'"),
    ("", "x = x && y;", "invalid form of '#pragma omp atomic'"),
    ("", "f();", "invalid form of '#pragma omp atomic'"),
    ("capture", "x += 1;", "invalid form of '#pragma omp atomic capture'"),
    ("capture", "{ v = y; x += 1; }", "uses two different expressions for memory"),
    ("capture", "{ v = x; x += 1; y++; }", "invalid form of '#pragma omp atomic capture'"),
]


@pytest.mark.parametrize("clause, statement, message", REJECTED)
def test_rejected(tmp_path, clause, statement, message):
    with pytest.raises(CompileError, match=message.replace("(", r"\(")) as error:
        _parse(tmp_path, clause, statement)
    assert error.value.location.line == 4


def _expr(text: str):
    return c_parser.CParser().parse(f"void f(void) {{ {text}; }}").ext[0].body.block_items[0]


def test_update_parts_name_the_location_the_operator_and_the_order():
    x, op, expr, reverse, new = update_parts(_expr("s.f = 3 - s.f"))
    assert (op, reverse, new, expr.value) == ("-", True, True, "3")
    assert same_location(x, _expr("s.f"))
    assert update_parts(_expr("x--"))[1:] [2:] == (False, False)
    assert update_parts(_expr("x = y + 1")) is None


def test_same_location_compares_spellings():
    assert same_location(_expr("a[i].f"), _expr("a[i].f"))
    assert not same_location(_expr("a[i]"), _expr("a[j]"))
    assert not same_location(_expr("p->f"), _expr("p.f"))
