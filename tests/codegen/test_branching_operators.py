"""codegen/branching_operators.py: `c ? a : b` of plain values as a select, and its
condition made once whichever form it takes."""

from __future__ import annotations

from host_programs import host_ir, run

PLAIN = r"""
#include <stdio.h>
int main(int argc, char **argv) {
    double a = argc * 1.5, b = argc * 2.5;
    double x = argc > 1 ? a : b;
    printf("%g\n", x);
    return 0;
}
"""

VOID_ARMS = r"""
#include <stdio.h>
int main(void) {
    int calls = 0, c = 1;
    (calls++ < 5) ? (void)0 : (void)1;
    c ? (void)0 : (void)1;
    printf("%d\n", calls);
    return 0;
}
"""


def test_a_choice_of_two_locals_is_a_select(tmp_path):
    ir = host_ir(tmp_path, PLAIN)
    assert "select" in ir and "cond.true" not in ir


def test_the_condition_is_made_once_when_the_arms_are_not_scalar(tmp_path):
    """(void) arms are plain but not scalar: the branching form makes the condition, and
    the select's attempt must not have made it before."""
    assert run(tmp_path, VOID_ARMS, 1) == "1\n"
