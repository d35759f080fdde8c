"""CI's share of the data-sharing differential generator: a fixed set of generated
programs must print under omp2gpu (host, CPU device) what they print under gcc
(about 40 s on 2 cores). `python -m tests.fuzz.data_sharing --cases 300` runs a long
campaign."""

from __future__ import annotations

import shutil

import pytest

from . import data_sharing
from .data_sharing_render import render

CI_FIRST_SEED = 20261126
CI_PROGRAMS = 20


@pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is the reference compiler")
def test_generated_programs_print_what_they_print_under_gcc(tmp_path):
    outcomes = [data_sharing.run_case(seed, tmp_path / str(seed))
                for seed in range(CI_FIRST_SEED, CI_FIRST_SEED + CI_PROGRAMS)]
    findings = [outcome for outcome in outcomes if isinstance(outcome, data_sharing.Finding)]
    assert not findings, "\n".join(f"{f.describe()}{render(f.program)}" for f in findings)


def test_a_campaign_counts_verdicts_and_keeps_findings(monkeypatch):
    verdicts = {1: data_sharing.differential.Verdict("agree"),
                2: data_sharing.differential.Verdict("differ", "cpu", "  gcc 'a 1'\n  omp2gpu 'a 2'")}

    def fake_case(seed, work, devices):
        verdict = verdicts[seed]
        return verdict if verdict.kind == "agree" else data_sharing.Finding(seed, verdict, None)

    monkeypatch.setattr(data_sharing, "run_case", fake_case)
    results = data_sharing.campaign(1, 2, None, log=lambda text: None)
    assert results.verdicts == {"agree": 1, "differ": 1}
    assert results.failed
    assert "seed 2: differ on cpu" in results.summary()
