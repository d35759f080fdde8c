"""Operator expressions keep their operator's place (gcc reports errors there) and,
for assignments, subscripts and postfix ++/--, the start of the expression."""

from pycparser import c_ast

from omp2gpu.frontend.operator_locations import operator_coord
from omp2gpu.frontend.parse import parse


def statements(body: str):
    ast = parse(f"int f(int *p, int a, int b) {{\n{body}\n}}\n", "t.c")
    return ast.ext[0].body.block_items


def place(coord):
    return coord.line, coord.column


def test_assignment_starts_at_its_target_and_has_its_operator():
    assignment, = statements("a  =  b;")
    assert isinstance(assignment, c_ast.Assignment)
    assert place(assignment.coord) == (2, 1)
    assert place(operator_coord(assignment)) == (2, 4)


def test_operator_on_a_later_line():
    outer, = statements("a\n = b +\n 1 = 2;")
    inner = outer.rvalue
    assert place(operator_coord(outer)) == (3, 2)
    assert place(inner.coord) == (3, 4) and place(operator_coord(inner)) == (4, 4)


def test_subscript_at_its_bracket():
    subscript, = statements("p [a];")
    assert isinstance(subscript, c_ast.ArrayRef)
    assert place(subscript.coord) == (2, 1) and place(operator_coord(subscript)) == (2, 3)


def test_postfix_increment_at_its_operator_and_chained_suffixes():
    increment, = statements("p[a]++;")
    assert increment.op == "p++" and place(operator_coord(increment)) == (2, 5)
    assert place(operator_coord(increment.expr)) == (2, 2)


def test_prefix_operator_is_located_at_itself():
    increment, = statements("  ++a;")
    assert place(increment.coord) == place(operator_coord(increment)) == (2, 3)


def test_calls_members_and_compound_literals_still_parse():
    call, member, literal = statements("f(p, a)(b);\n((struct s *)p)->x.y;\n(int[2]){1, 2}[a];")
    assert isinstance(call, c_ast.FuncCall) and isinstance(call.name, c_ast.FuncCall)
    assert isinstance(member, c_ast.StructRef) and member.field.name == "y"
    assert isinstance(literal, c_ast.ArrayRef) and isinstance(literal.name, c_ast.CompoundLiteral)
