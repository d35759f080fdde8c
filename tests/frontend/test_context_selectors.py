"""Context selectors (frontend/openmp/context_selectors.py): the trait sets, trait selectors,
properties and scores of `match(...)` and `when(...:)`, and every malformed one located."""

import pytest
from directive_testing import assert_error, expr_text, parse

from omp2gpu.frontend.openmp.variant_clauses import MatchClause


def selector(text: str):
    return parse(f"omp declare variant(v) match({text})").first(MatchClause).selector


def test_sets_traits_and_properties():
    chosen = selector('construct={target, parallel}, device={kind(gpu, nohost), arch("nvptx")}, '
                      'implementation={vendor(score(5): llvm, "amd")}, user={condition(n > 2)}')
    assert [s.name for s in chosen.sets] == ["construct", "device", "implementation", "user"]
    assert chosen.constructs == ("target", "parallel")
    device = chosen.set("device")
    assert device.trait("kind").properties == ("gpu", "nohost")
    assert device.trait("arch").properties == ("nvptx",)           # a string literal's text
    vendor = chosen.set("implementation").trait("vendor")
    assert (vendor.properties, vendor.score) == (("llvm", "amd"), 5)
    (condition,) = chosen.set("user").trait("condition").properties
    assert expr_text(condition) == "n > 2"
    assert [expr_text(e) for e in chosen.expressions()] == ["n > 2"]


def test_target_device_with_a_device_number():
    chosen = selector("target_device={device_num(dev + 1), kind(any)}")
    trait = chosen.set("target_device").trait("device_num")
    assert expr_text(trait.properties[0]) == "dev + 1"


@pytest.mark.parametrize("text, message, at, occurrence", [
    ('match(hardware={kind(gpu)})',
     "unknown context selector set 'hardware' (expected 'construct', 'device', 'target_device', "
     "'implementation' or 'user')",
     'hardware', 1),
    ('match(device={colour(red)})',
     "unknown trait selector 'colour' in selector set 'device' (expected 'kind', 'isa', 'arch')",
     'colour', 1),
    ('match(device={kind(tpu)})',
     "unknown device kind 'tpu' (expected 'host', 'nohost', 'any', 'cpu', 'gpu', 'fpga')",
     'tpu', 1),
    ('match(construct={parallel}, construct={target})',
     "selector set 'construct' specified more than once",
     'construct', 2),
    ('match(device={kind(gpu), kind(cpu)})',
     "trait selector 'kind' specified more than once in 'device'",
     'kind', 2),
    ('match(device=kind(gpu))',
     "expected '{' trait selectors '}' after 'device='",
     'kind', 1),
    ('match(device {kind(gpu)})',
     "expected '=' after 'device'",
     '{', 1),
    ('match(construct={parallel(x)})',
     "trait selector 'parallel' takes no properties",
     'x', 1),
    ('match(construct={simd(simdlen(4))})',
     "properties of the 'simd' construct selector are not supported",
     'simdlen', 1),
    ('match(construct={parallel(score(2): )})',
     "a construct selector ('parallel') cannot have a score",
     'score', 1),
    ('match(device={kind})',
     "expected '(' after 'kind'",
     '}', 1),
    ('match(implementation={vendor(score(-1): llvm)})',
     'the score must be a non-negative integer constant',
     '-1', 1),
    ('match(user={condition(a b)})',
     "invalid expression in 'condition'",
     'b', 1),
    ('match(device={arch(1 + 2)})',
     "expected a name or a string literal in 'arch'",
     '1', 1),
])
def test_malformed_selectors(text, message, at, occurrence):
    assert_error(f"omp declare variant(v) {text}", message, at, occurrence)
