"""codegen/gnu_builtins.py: GNU C's hint builtins (the bit ones: tests/programs/
gnu_bit_builtins.c against gcc) and the paths GNU C macros take under omp2gpu-cc."""

from __future__ import annotations

from host_programs import host_ir, run

SOURCE = r"""
#include <stdio.h>
#define N 8
int main(void) {
    int x[N] = {1, 2, 3, 4, 5, 6, 7, 8}, sum = 0, calls = 0;
    for (int i = 0; i < N; i++) {
        __builtin_prefetch(&x[i + 1], 0, 3);
        __builtin_prefetch((calls++, &x[i]));          /* operands are evaluated */
        sum += x[i];
    }
    printf("%d %d %d %d\n", sum, calls, __builtin_constant_p(N * 2), __builtin_constant_p(sum));
    return 0;
}
"""


def test_prefetch_is_a_hint_and_constant_p_asks_the_constant_evaluator(tmp_path):
    assert run(tmp_path, SOURCE, 1) == "36 8 1 0\n"
    assert "prefetch" not in host_ir(tmp_path, SOURCE)
