"""omp2gpu's own fuzzer: mutants of the differential corpus (tests/programs) at
token, clause, directive and byte level, compiled by omp2gpu (and by gcc where
present, to compare accept/reject). Any crash (internal compiler error, a signal),
hang (timeout) or memory blow-up is a finding, reported with its reduced input.

    python -m tests.fuzz --minutes 30 [--jobs 2] [--seed N] [--out DIR]

tests/fuzz/test_campaign.py runs a small fixed budget of it in CI.
"""
