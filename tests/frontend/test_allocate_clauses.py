"""OpenMP 5.0/5.1 memory-management syntax (frontend/openmp/allocate_clauses.py): the allocate
directive's list and clauses, the allocate clause's forms, uses_allocators, and the
rules that need no types."""

import pytest
from directive_testing import assert_error, parse

from omp2gpu.frontend.openmp.allocate_clauses import (
    AlignClause,
    AllocateClause,
    AllocatorClause,
    UsesAllocatorsClause,
)
from omp2gpu.frontend.openmp.clause_types import FirstprivateClause, PrivateClause


def test_allocate_directive_list_and_clauses():
    directive = parse("omp allocate(x, y) allocator(omp_large_cap_mem_alloc) align(64)")
    assert directive.is_standalone
    assert [item.name for item in directive.allocate_list] == ["x", "y"]
    assert directive.first(AllocatorClause).expr.name == "omp_large_cap_mem_alloc"
    assert directive.first(AlignClause).alignment == 64


@pytest.mark.parametrize("text,allocator,alignment", [
    ("omp parallel private(t) allocate(t)", None, None),
    ("omp parallel private(t) allocate(omp_pteam_mem_alloc: t)", "omp_pteam_mem_alloc", None),
    ("omp parallel private(t) allocate(allocator(mine), align(32): t)", "mine", 32),
    ("omp parallel private(t) allocate(align(16): t)", None, 16),
])
def test_allocate_clause_forms(text, allocator, alignment):
    clause = parse(text).first(AllocateClause)
    assert (getattr(clause.allocator, "name", None), clause.alignment) == (allocator, alignment)
    assert [item.name for item in clause.items] == ["t"]


def test_privatised_item_is_linked_to_its_allocate_clause():
    directive = parse("omp parallel for firstprivate(a) private(b) allocate(omp_thread_mem_alloc: a, b)")
    allocate = directive.first(AllocateClause)
    assert directive.first(FirstprivateClause).items[0].allocate is allocate
    assert directive.first(PrivateClause).items[0].allocate is allocate


def test_uses_allocators_items():
    clause = parse("omp target uses_allocators(omp_pteam_mem_alloc, mine(traits))").first(UsesAllocatorsClause)
    assert [(used.name, used.traits) for used in clause.allocators] == [("omp_pteam_mem_alloc", None),
                                                                          ("mine", "traits")]


def test_uses_allocators_52_modifiers_and_lists():
    clause = parse("omp target teams uses_allocators(memspace(omp_high_bw_mem_space), traits(t): a, b; "
                   "omp_default_mem_alloc)").first(UsesAllocatorsClause)
    assert [(used.name, used.traits, used.memspace, used.made) for used in clause.allocators] == [
        ("a", "t", "omp_high_bw_mem_space", True), ("b", "t", "omp_high_bw_mem_space", True),
        ("omp_default_mem_alloc", None, None, False)]
    (only_space,) = parse("omp target uses_allocators(memspace(omp_low_lat_mem_space): c)") \
        .first(UsesAllocatorsClause).allocators
    assert (only_space.traits, only_space.memspace, only_space.made) == (None, "omp_low_lat_mem_space", True)


@pytest.mark.parametrize("text,message,at,occurrence", [
    ("omp parallel allocate(omp_default_mem_alloc: q)",
     "'q' in 'allocate' clause is not privatised on '#pragma omp parallel' (it needs a private, "
     "firstprivate, lastprivate, linear or reduction clause)", "q)", 1),
    ("omp allocate(x) align(12)", "'align' must be a power of two, not 12", "12", 1),
    ("omp parallel private(t) allocate(align(3): t)", "'align' must be a power of two, not 3", "3", 1),
    ("omp allocate(x) allocator(omp_default_mem_alloc) allocator(omp_default_mem_alloc)",
     "duplicate 'allocator' clause on '#pragma omp allocate'", "allocator", 2),
    ("omp target uses_allocators(omp_const_mem_alloc(t))",
     "predefined allocator 'omp_const_mem_alloc' cannot have traits in 'uses_allocators' clause", "t)", 1),
    ("omp target uses_allocators(a(t, u))", "expected 'allocator(traits-array)' in 'uses_allocators' clause", "(", 2),
    ("omp target uses_allocators(memspace(omp_high_bw_mem_space): omp_high_bw_mem_alloc)",
     "predefined allocator 'omp_high_bw_mem_alloc' cannot have a memory space in 'uses_allocators' clause",
     "omp_high_bw_mem_space", 1),
    ("omp target uses_allocators(traits(t), traits(u): a)",
     "'traits' appears more than once in 'uses_allocators' clause", "traits", 2),
    ("omp target uses_allocators(traits(t): a(u))",
     "allocator 'a' has 'traits' modifiers and '(u)' in 'uses_allocators' clause", "u)", 1),
    ("omp target uses_allocators(align(64): a)",
     "expected 'memspace(memory-space)' or 'traits(traits-array)' before ':' in 'uses_allocators' clause",
     "align", 1),
    ("omp parallel uses_allocators(omp_default_mem_alloc)",
     "clause 'uses_allocators' is not valid on '#pragma omp parallel'", "uses_allocators", 1),
    ("omp simd private(t) allocate(t)", "clause 'allocate' is not valid on '#pragma omp simd'", "allocate", 1),
])
def test_rules(text, message, at, occurrence):
    assert_error(text, message, at, occurrence)
