"""File-scope objects (codegen/module.py): tentative definitions of arrays of unknown
size, sized by a later declaration or else given one element (C99 6.9.2p2), as gcc."""

from tests.codegen.host_programs import assert_prints, host_ir

TENTATIVE_ARRAYS = r"""
#include <stdio.h>
int sized_later[];
static double alone[];
int sized_later[4];
int main(void)
{
    sized_later[3] = 7;
    alone[0] = 2.5;
    printf("%zu %d %.1f\n", sizeof sized_later, sized_later[3], alone[0]);  /* alone: incomplete here */
    return 0;
}
"""


def test_tentative_arrays_are_sized_later_or_get_one_element(tmp_path):
    assert_prints(tmp_path, TENTATIVE_ARRAYS, 1, "16 7 2.5\n")


def test_a_tentative_array_never_sized_is_one_zeroed_element(tmp_path, capsys):
    ir = host_ir(tmp_path, "int lone[];\nint main(void) { return lone[0]; }\n")
    assert '@"lone" = global [1 x i32] zeroinitializer' in ir
    assert "array 'lone' assumed to have one element" in capsys.readouterr().err
