"""omp2gpu's own fuzzer: mutants of the differential corpus (tests/programs) at
token, clause, directive and byte level, compiled by omp2gpu (and by gcc where
present, to compare accept/reject). Any crash (internal compiler error, a signal),
hang (timeout) or memory blow-up is a finding, reported with its reduced input.

    python -m tests.fuzz --minutes 30 [--jobs 2] [--seed N] [--out DIR]

tests/fuzz/test_campaign.py runs a small fixed budget of it in CI.

Beside it, a differential generator for data sharing and mapping
(data_sharing_programs.py, data_sharing_render.py, differential.py): valid,
race-free programs whose output OpenMP defines, run under gcc -fopenmp and under
omp2gpu on the host and the CPU device; any difference is silent wrong code.

    python -m tests.fuzz.data_sharing --cases 300 [--seed N] [--out DIR]

tests/fuzz/test_data_sharing.py runs 20 of them in CI.
"""
