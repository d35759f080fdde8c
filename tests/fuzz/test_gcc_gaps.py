"""tests/fuzz/gcc_gaps.py: gcc 12's refusal of a variable in several map clauses told
apart from real errors."""

from __future__ import annotations

from . import campaign, oracle
from .gcc_gaps import older_openmp

SOURCE = b"""int main(void)
{
    int a[4], x = 0, *p = a;
#pragma omp target map(tofrom: x) map(tofrom: x) \\
        map(to: a[0:4])
    x++;
#pragma omp target data map(to: a[0:4]) map(alloc: a[0:4])
    x++;
#pragma omp target map(tofrom: x) firstprivate(x)
    x++;
#pragma omp target map(tofrom: x, x)
    x++;
#pragma omp target teams distribute parallel for map(tofrom: x) map(tofrom: x) reduction(+: x)
    for (int i = 0; i < 4; i++) x++;
#pragma omp target map(tofrom: x) map(tofrom: x) firstprivate(x)
    x++;
#pragma omp target nowait depend(inout: a) map(tofrom: a) map(tofrom: a)
    x++;
#pragma omp target data map(tofrom: p[0:4]) map(p)
    x++;
#pragma omp target data map(tofrom: p[0:4]) private(p)
    x++;
    return 0;
}
"""


def test_a_variable_in_two_map_clauses_is_gccs_older_rule():
    assert older_openmp(SOURCE, "mutant.c:4:50: error: \u2018x\u2019 appears more than once in map clauses")
    assert older_openmp(SOURCE, "mutant.c:7:60: error: \u2018a\u2019 appears more than once in data clauses")
    assert older_openmp(SOURCE, "mutant.c:11:34: error: \u2018x\u2019 appears more than once in map clauses")
    # on a continuation line of the directive
    assert older_openmp(SOURCE, "mutant.c:5:17: error: \u2018x\u2019 appears more than once in map clauses")


def test_on_a_combined_construct_a_reduction_beside_the_repeated_map_is_allowed():
    assert older_openmp(SOURCE, "mutant.c:13:80: error: \u2018x\u2019 appears more than once in map clauses")


def test_a_depend_clause_beside_the_repeated_map_is_allowed():
    assert older_openmp(SOURCE, "mutant.c:17:60: error: \u2018a\u2019 appears more than once in map clauses")


def test_a_pointer_mapped_as_itself_and_as_a_section_is_gccs_older_rule():
    assert older_openmp(SOURCE, "mutant.c:19:32: error: \u2018p\u2019 appears both in data and map clauses")
    assert not older_openmp(SOURCE, "mutant.c:21:32: error: \u2018p\u2019 appears both in data and map clauses")


def test_a_mapped_variable_in_a_data_sharing_clause_stays_invalid():
    assert not older_openmp(SOURCE, "mutant.c:9:50: error: \u2018x\u2019 appears more than once in data clauses")
    assert not older_openmp(SOURCE, "mutant.c:15:50: error: \u2018x\u2019 appears more than once in map clauses")
    assert not older_openmp(SOURCE, "mutant.c:4:1: error: expected ';' before '}'")
    assert not older_openmp(SOURCE, None)


def test_the_campaign_counts_them_apart():
    results, case = campaign.Results(), campaign.Case("loop.c", 1)
    gccs = oracle.GccVerdict(False, "mutant.c:4:50: error: \u2018x\u2019 appears more than once in map clauses")
    campaign._compare_with_gcc(results, case, SOURCE, oracle._classify(0, "", "c"), gccs)
    campaign._compare_with_gcc(results, case, SOURCE,
                               oracle._classify(1, "mutant.c:6:5: error: expected ';'\n", "c"), gccs)
    assert not results.accept_invalid and len(results.gcc_older_openmp) == 1
    assert results.gcc_older_openmp_both_reject == 1 and not results.error_on_gccs_line
    assert "accepted only by omp2gpu 1 (not accept-invalid: 0 are)" in results.summary()
