"""cpu_teams_rules.py: why the CPU teams scheme cannot build a region, from its facts,
before any code exists (as the scheme found it by emitting: the same messages)."""

from __future__ import annotations

import pytest

from omp2gpu.codegen.openmp.cpu.teams_rules import cpu_teams_refusal
from omp2gpu.codegen.openmp.plan.region_facts import UnitFacts
from omp2gpu.codegen.openmp.schemes import CpuCombined, CpuSequential, CpuTeams
from omp2gpu.pipeline import CompileOptions, parse_file

_SOURCE = r"""
#include <stdio.h>
static void helper(double *a) {
#pragma omp parallel for
    for (int i = 0; i < 4; i++) a[i] = i;
}
int main(void) {
    double a[64] = {0};
    int k = 0;
#pragma omp target parallel map(tofrom: a)
    {
#pragma omp single copyprivate(k)
        k = 1;
        a[0] = k;
    }
#pragma omp target parallel map(tofrom: a)
    {
        switch (a[0] > 0) {
        case 1: {
#pragma omp barrier
            break; }
        }
    }
#pragma omp target parallel map(tofrom: a)
    {
#pragma omp task
        a[1] = 2;
    }
#pragma omp target teams map(tofrom: a)
    {
#pragma omp parallel sections
        {
#pragma omp section
            a[2] = 1;
        }
    }
#pragma omp target parallel for linear(k) map(tofrom: a)
    for (int i = 0; i < 64; i++) a[i] = k++;
#pragma omp target map(tofrom: a)
    helper(a);
#pragma omp target parallel map(tofrom: a)
    {
#pragma omp for
        for (int i = 0; i < 64; i++) a[i] += 1;
#pragma omp critical
        a[0] += 1;
#pragma omp single
        a[1] = 0;
    }
#pragma omp target parallel map(tofrom: a)
    {
        double mine[k + 1];
        mine[0] = 1;
#pragma omp barrier
        a[0] = mine[0];
    }
    printf("%g\n", a[0]);
    return 0;
}
"""

# line of the target construct -> why CPU teams cannot build it (None: it can)
_EXPECTED = {
    10: "'copyprivate' in a CPU teams region",
    16: "a barrier in a statement the CPU teams scheme cannot split",
    24: "'task' in a CPU teams region",
    29: "'parallel sections' in a CPU teams region",
    37: "'linear' in a CPU teams region",
    39: "'helper', called in the region, holds OpenMP constructs",
    41: None,
    50: "the size of variable-length array type 'double[k + 1]' is only known at run time; not supported here",
}


@pytest.fixture(scope="module")
def regions(tmp_path_factory):
    source = tmp_path_factory.mktemp("cpu_teams") / "teams.c"
    source.write_text(_SOURCE)
    unit = UnitFacts(parse_file(source, CompileOptions()))
    return {facts.construct.coord.line: facts for facts in unit.regions.values()}


def test_what_cpu_teams_cannot_split_is_known_from_the_facts(regions):
    assert {line: cpu_teams_refusal(facts) for line, facts in regions.items()} == _EXPECTED


def test_the_work_group_schemes_read_the_same_facts(regions):
    assert CpuTeams.device_refusal(regions[41]) is None
    assert CpuTeams.device_refusal(regions[24]) == "'task' in a CPU teams region"
    # one work-item runs tasks undeferred, as the host scheme does
    assert CpuSequential.device_refusal(regions[24]) is None and CpuCombined.device_refusal(regions[10]) is None
