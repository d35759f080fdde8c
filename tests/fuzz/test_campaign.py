"""CI's share of the fuzzer: a fixed, small set of corpus mutants must each compile
or give a located error (about 20 s on 2 cores). A finding fails the test with its
reduced input; `python -m tests.fuzz --minutes 30` runs the long campaign."""

from __future__ import annotations

from . import campaign

CI_SEED = 18
CI_CASES = 24


def test_corpus_mutants_compile_or_give_located_errors():
    results = campaign.run(campaign.cases(CI_SEED, CI_CASES), jobs=2, compare_with_gcc=False,
                           reduce_budget=60)
    assert results.cases == CI_CASES
    assert not results.findings, results.summary()
