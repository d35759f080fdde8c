"""OpenMP 5.0/5.1 clauses of `#pragma omp atomic` (memory orders, hint, compare, fail,
weak) and `#pragma omp requires`: what each parses to and the rules between them."""

import pytest

from omp2gpu.frontend.openmp.clause_types import (
    AtomicDefaultMemOrderClause,
    DynamicAllocatorsClause,
    FailClause,
    HintClause,
    WeakClause,
)
from tests.frontend.directive_testing import assert_error, parse


@pytest.mark.parametrize("order", ["seq_cst", "acq_rel", "release", "acquire", "relaxed"])
def test_memory_order_clause(order):
    d = parse(f"omp atomic update {order}")
    assert d.memory_order_clause == order and d.atomic_kind == "update"
    assert (d.memory_order_clause == "seq_cst") is (order == "seq_cst")


def test_no_memory_order_clause():
    d = parse("omp atomic")
    assert d.memory_order_clause is None and d.default_memory_order == "relaxed"


def test_compare_capture_fail_weak_hint():
    d = parse("omp atomic compare capture acquire fail(relaxed) weak hint(2)")
    assert d.atomic_compare and d.atomic_kind == "capture" and d.memory_order_clause == "acquire"
    assert d.first(FailClause).order == "relaxed"
    assert d.first(WeakClause) is not None and d.first(HintClause) is not None


def test_compare_alone_is_an_update():
    d = parse("omp atomic compare")
    assert d.atomic_compare and d.atomic_kind == "update"


@pytest.mark.parametrize("text,message,at", [
    ("omp atomic seq_cst relaxed", "at most one memory-order clause ('seq_cst', 'acq_rel', "
     "'release', 'acquire' or 'relaxed') may appear on '#pragma omp atomic'", "relaxed"),
    ("omp atomic acquire acquire", "duplicate 'acquire' clause on '#pragma omp atomic'", "acquire"),
    ("omp atomic read release", "'#pragma omp atomic read' is incompatible with the 'release' "
     "clause", "release"),
    ("omp atomic write acquire", "'#pragma omp atomic write' is incompatible with the 'acquire' "
     "clause", "acquire"),
    ("omp atomic read compare", "the 'compare' clause is incompatible with the 'read' clause",
     "compare"),
    ("omp atomic fail(acquire)", "the 'fail' clause requires the 'compare' clause", "fail"),
    ("omp atomic update weak", "the 'weak' clause requires the 'compare' clause", "weak"),
    ("omp atomic compare fail(release)", "expected 'seq_cst' or 'acquire' or 'relaxed' in "
     "'fail' clause", "release"),
    ("omp atomic compare fail(acquire) fail(relaxed)",
     "duplicate 'fail' clause on '#pragma omp atomic'", "fail"),
    ("omp atomic compare compare", "duplicate 'compare' clause on '#pragma omp atomic'",
     "compare"),
])
def test_atomic_clause_errors(text, message, at):
    occurrence = 2 if text.count(at) > 1 and "duplicate" in message else 1
    assert_error(text, message, at, occurrence)


def test_read_and_write_accept_acq_rel():
    """acq_rel on a read is its acquire half, on a write its release half (5.1, gcc)."""
    assert parse("omp atomic read acq_rel").memory_order_clause == "acq_rel"
    assert parse("omp atomic write acq_rel").memory_order_clause == "acq_rel"


def test_requires_clauses():
    d = parse("omp requires atomic_default_mem_order(acq_rel), dynamic_allocators")
    assert d.kind == "requires" and d.is_standalone
    assert d.first(AtomicDefaultMemOrderClause).order == "acq_rel"
    assert d.first(DynamicAllocatorsClause) is not None


@pytest.mark.parametrize("text,message,at", [
    ("omp requires", "'#pragma omp requires' needs at least one 'reverse_offload' or "
     "'unified_address' or 'unified_shared_memory' or 'atomic_default_mem_order' or "
     "'dynamic_allocators' clause", "requires"),
    ("omp requires atomic_default_mem_order(acquire)", "expected 'seq_cst' or 'acq_rel' or "
     "'relaxed' in 'atomic_default_mem_order' clause", "acquire"),
    ("omp requires dynamic_allocators dynamic_allocators",
     "duplicate 'dynamic_allocators' clause on '#pragma omp requires'", "dynamic_allocators"),
    ("omp requires nowait", "clause 'nowait' is not valid on '#pragma omp requires'", "nowait"),
])
def test_requires_errors(text, message, at):
    occurrence = 2 if "duplicate" in message else 1
    assert_error(text, message, at, occurrence)


@pytest.mark.parametrize("text", ["omp atomic update capture", "omp atomic capture update seq_cst"])
def test_update_capture_is_a_capture(text):
    """capture is not an atomic-clause in 5.1: it combines with update (gcc takes it)."""
    assert parse(text).atomic_kind == "capture"


def test_read_capture_is_still_an_error():
    assert_error("omp atomic read capture", "at most one of 'read', 'write', 'update' and 'capture' "
                 "may appear on '#pragma omp atomic'", "capture")
