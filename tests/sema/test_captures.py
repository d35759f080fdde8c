"""sema/captures.py: which variables a region's code may change (assigned_names)."""

from __future__ import annotations

from pycparser import c_parser

from omp2gpu.sema.captures import assigned_names

BODY = """
void f(void) {
    r = 0;
    p[i] = 1;
    q->x = 2;
    s.y = 3;
    arr[0] = 4;
    *d = 5;
    n++;
    g(&t[1]);
    g(&u);
    w[0][1] = 6;
}
"""


def _body():
    return c_parser.CParser().parse(BODY).ext[0].body


def test_changed_objects_are_assigned_incremented_or_escape():
    # q->x changes what q points to, whatever q is; p[i] may be an array's element
    assert assigned_names(_body()) == {"r", "p", "s", "arr", "n", "t", "u", "w"}


def test_writes_through_a_pointer_change_its_pointee_not_the_pointer():
    assert assigned_names(_body(), frozenset({"p", "t", "w", "arr_not_named"})) == {"r", "s", "arr", "n", "u"}
