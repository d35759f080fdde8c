"""tests/fuzz/mutations.py: each operator changes what it says, reproducibly."""

from __future__ import annotations

import random

from . import mutations

SOURCE = b"""#include <stdio.h>
int main(void) {
  int a[4] = {1, 2, 3, 4}, s = 0;
  #pragma omp target teams distribute parallel for map(to: a) reduction(+:s)
  for (int i = 0; i < 4; i++) s += a[i];
  printf("%d\\n", s);  /* 10 */
  return 0;
}
"""


def test_tokens_skip_preprocessor_lines_and_comments():
    words = [SOURCE[s:e] for s, e in mutations.tokens(SOURCE)]
    assert words[:6] == [b"int", b"main", b"(", b"void", b")", b"{"]
    assert b'"%d\\n"' in words and b"+=" in words
    assert not any(b"include" in w or b"pragma" in w or b"10" == w for w in words)


def test_clauses_are_found_after_the_directive_name():
    pragma = mutations._pragmas(SOURCE)[0]
    clauses = [SOURCE[s:e] for s, e in mutations._clauses_of(SOURCE, pragma)]
    assert clauses == [b"map(to: a)", b"reduction(+:s)"]


def test_every_operator_applies_and_changes_the_source():
    for level, operators in mutations.OPERATORS.items():
        for operator in operators:
            mutant = None
            for seed in range(20):       # some draws leave the text as it was (a swap of equals)
                mutant = operator(SOURCE, random.Random(seed))
                if mutant != SOURCE:
                    break
            assert mutant is not None and mutant != SOURCE, (level, operator.__name__)


def test_clause_and_directive_operators_touch_only_the_pragma():
    for operator in (*mutations.OPERATORS["clause"], mutations.replace_directive):
        mutant = operator(SOURCE, random.Random(1))
        changed = [(old, new) for old, new in zip(SOURCE.splitlines(), mutant.splitlines()) if old != new]
        assert len(changed) == 1 and changed[0][0].lstrip().startswith(b"#pragma omp"), operator.__name__


def test_no_pragma_means_no_clause_or_directive_mutant():
    plain = b"int main(void) { return 0; }\n"
    for operator in (*mutations.OPERATORS["clause"], mutations.replace_directive, mutations.delete_pragma):
        assert operator(plain, random.Random(0)) is None


def test_mutate_is_reproducible():
    assert mutations.mutate(SOURCE, 42) == mutations.mutate(SOURCE, 42)
    assert len({mutations.mutate(SOURCE, seed)[0] for seed in range(30)}) > 20
