"""Matching and scoring context selectors (sema/openmp_context.py, OpenMP 5.1 2.3.3) on
the three devices omp2gpu compiles for."""

import pytest
from pycparser.c_parser import Coord

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.directives import parse_directive
from omp2gpu.frontend.openmp.variant_clauses import MatchClause
from omp2gpu.sema.openmp_context import DEVICES, context_for, device_codes, match, ranked

HOST, CPU, GPU = DEVICES["host"], DEVICES["cpu"], DEVICES["gpu"]


def selector(text: str):
    directive = parse_directive(f"omp declare variant(v) match({text})", Coord("<t>", 1, 9))
    return directive.first(MatchClause).selector


def score(text: str, device, constructs=()):
    found = match(selector(text), context_for(device, constructs))
    return None if found is None else found.score


def test_device_routines_have_target_first_on_devices_only():
    assert context_for(HOST, ("parallel",)).constructs == ("parallel",)
    assert context_for(GPU, ("parallel",)).constructs == ("target", "parallel")
    assert context_for(CPU, ("target", "teams")).constructs == ("target", "teams")


@pytest.mark.parametrize("text, host, cpu, gpu", [
    ("device={kind(host)}", True, False, False),
    ("device={kind(nohost)}", False, True, True),
    ("device={kind(cpu)}", True, True, False),
    ("device={kind(gpu)}", False, False, True),
    ("device={kind(any)}", True, True, True),
    ("device={kind(gpu, nohost)}", False, False, True),     # every property must be there
    ("device={kind(fpga)}", False, False, False),
    ('device={arch("nvptx")}', False, False, True),
    ("device={arch(nvptx64)}", False, False, True),
    ("implementation={vendor(omp2gpu)}", True, True, True),
    ("implementation={vendor(llvm)}", False, False, False),
    ("implementation={extension(match_any)}", False, False, False),
    ("implementation={unified_shared_memory}", False, False, False),
    ("implementation={dynamic_allocators}", True, True, True),
    ("implementation={atomic_default_mem_order(relaxed)}", True, True, True),
    ("user={condition(1)}", True, True, True),
    ("user={condition(0)}", False, False, False),
])
def test_which_devices_match(text, host, cpu, gpu):
    assert [score(text, d) is not None for d in (HOST, CPU, GPU)] == [host, cpu, gpu]


def test_the_host_machine_arch_matches_host_and_cpu_device():
    arch = next(iter(HOST.archs))
    assert score(f'device={{arch("{arch}")}}', HOST) and score(f'device={{arch("{arch}")}}', CPU)


def test_construct_selectors_match_in_order():
    assert score("construct={target, parallel}", GPU, ("target", "teams", "parallel")) is not None
    assert score("construct={parallel, target}", GPU, ("target", "teams", "parallel")) is None
    assert score("construct={for}", HOST, ("parallel",)) is None


def test_scores_follow_the_spec():
    # construct trait at position p: 2^(p-1); kind, arch, isa: 2^l, 2^(l+1), 2^(l+2); plus 1
    constructs = ("target", "teams", "parallel")            # l = 3
    assert score("construct={parallel}", GPU, constructs) == 4 + 1
    assert score("construct={target}", GPU, constructs) == 1 + 1
    assert score("construct={target, parallel}", GPU, constructs) == 1 + 4 + 1
    assert score("device={kind(gpu)}", GPU, constructs) == 8 + 1
    assert score('device={kind(gpu), arch("nvptx")}', GPU, constructs) == 8 + 16 + 1
    assert score("implementation={vendor(score(100): omp2gpu)}", GPU, constructs) == 100 + 1
    assert score("device={kind(score(3): gpu)}", GPU, constructs) == 3 + 1
    assert score("user={condition(score(7): 1)}", HOST) == 7 + 1


def test_a_repeated_construct_counts_at_its_best_position():
    assert score("construct={parallel}", HOST, ("parallel", "for", "parallel")) == 4 + 1


def test_isa_is_the_host_processors_and_undecided_for_the_gpu():
    feature = sorted(HOST.isas)[0]
    assert score(f'device={{isa("{feature}")}}', HOST) is not None
    assert score('device={isa("no_such_extension")}', CPU) is None
    with pytest.raises(CompileError, match="'isa' selector cannot be decided for the GPU"):
        score('device={isa("sm_90")}', GPU)


def test_ranked_best_first_ties_in_order_and_strict_subsets_zero():
    candidates = [(selector("device={kind(nohost)}"), "a"), (selector("device={kind(gpu)}"), "b"),
                  (selector("device={kind(host)}"), "c"), (selector("device={kind(nohost), arch(nvptx)}"), "d")]
    assert [payload for payload, _ in ranked(candidates, context_for(GPU, ()))] == ["d", "b", "a"]
    assert [payload for payload, _ in ranked(candidates, context_for(HOST, ()))] == ["c"]
    # a strict subset scores zero even when its own score is higher
    pair = [(selector("implementation={vendor(score(50): omp2gpu)}"), "subset"),
            (selector("implementation={vendor(score(50): omp2gpu)}, device={kind(any)}"), "superset")]
    assert [payload for payload, _ in ranked(pair, context_for(HOST, ()))] == ["superset", "subset"]


def test_run_time_parts_are_left_as_checks():
    found = match(selector("user={condition(n > 3)}"), context_for(HOST, ()))
    assert [check.kind for check in found.dynamic] == ["condition"]
    found = match(selector("target_device={kind(gpu)}"), context_for(HOST, ()))
    assert [check.kind for check in found.dynamic] == ["target_device"]
    # inside a target region (or in device code) the target device is the one running it
    assert match(selector("target_device={kind(gpu)}"), context_for(GPU, ())).dynamic == ()
    assert match(selector("target_device={kind(gpu)}"), context_for(CPU, ())) is None


def test_device_codes_of_target_device_traits():
    def codes(text):
        return device_codes(selector(text).set("target_device"))
    assert codes("target_device={kind(gpu)}") == {2}
    assert codes("target_device={kind(nohost)}") == {1, 2}
    assert codes("target_device={kind(any)}") == {0, 1, 2}
    assert codes('target_device={arch("nvptx")}') == {2}
