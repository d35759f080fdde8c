"""CI's share of the fuzzer: a fixed, small set of corpus mutants must each compile
or give a located error (about 20 s on 2 cores). A finding fails the test with its
reduced input; `python -m tests.fuzz --minutes 30` runs the long campaign."""

from __future__ import annotations

from . import campaign, oracle

CI_SEED = 18
CI_CASES = 24


def test_corpus_mutants_compile_or_give_located_errors():
    results = campaign.run(campaign.cases(CI_SEED, CI_CASES), jobs=2, compare_with_gcc=False,
                           reduce_budget=60)
    assert results.cases == CI_CASES
    assert not results.findings, results.summary()


def test_inputs_where_gcc_disagrees_are_kept_with_both_first_errors():
    results, case = campaign.Results(), campaign.Case("loop.c", 1)
    rejected = oracle._classify(1, "mutant.c:4:2: error: expected ';'\n", "c")
    campaign._compare_with_gcc(results, case, b"src", rejected,
                               oracle.GccVerdict(False, "mutant.c:4:9: error: expected ';' before '}'"))
    campaign._compare_with_gcc(results, case, b"src", rejected,
                               oracle.GccVerdict(False, "mutant.c:3:1: error: 'x' undeclared"))
    accepted = oracle._classify(0, "", "c")
    campaign._compare_with_gcc(results, case, b"src", accepted,
                               oracle.GccVerdict(False, "mutant.c:2:1: error: duplicate 'static'"))
    assert results.error_on_gccs_line == {True: 1, False: 1}
    assert [d.gccs for d in results.wrong_line] == ["mutant.c:3:1: error: 'x' undeclared"]
    assert results.wrong_line[0].ours == "mutant.c:4:2: error: expected ';'"
    assert [d.ours for d in results.accept_invalid] == [None]
    assert "omp2gpu: accepted" in results.accept_invalid[0].describe()


def test_cases_can_be_limited_to_chosen_programs():
    chosen = ["scan_stream_compaction.c", "task_depobj_pipeline.c"]
    programs = {case.program for case in campaign.cases(5, 40, chosen)}
    assert programs == set(chosen)


def test_a_campaign_in_parts_is_the_whole_campaigns_cases_and_tallies():
    whole = list(campaign.cases(7, 12))
    assert list(campaign.cases(7, 5)) + list(campaign.cases(7, 7, first=5)) == whole
    first, second = campaign.Results(), campaign.Results()
    case = campaign.Case("loop.c", 1)
    rejected = oracle._classify(1, "mutant.c:4:2: error: expected ';'\n", "c")
    for results, verdict_line in ((first, 4), (second, 3)):
        results.cases, results.kinds["rejected"] = 1, 1
        campaign._compare_with_gcc(results, case, b"src", rejected,
                                   oracle.GccVerdict(False, f"mutant.c:{verdict_line}:9: error: expected ';'"))
    summary = campaign.merged([first.counts(), second.counts()])
    assert summary.startswith("2 mutants: rejected 2")
    assert "first error on gcc's line: 1 of 2 rejected by both (50.0%)" in summary
