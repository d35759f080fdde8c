"""sema/uses_allocators.py and sema/trait_values.py: a target region's
`uses_allocators(a(traits))` becomes the allocator made at the region's start and
destroyed at its end, `a` private to the region; a constant traits entry whose value is
not its key's kind is a located error; combined constructs are refused by name."""

from __future__ import annotations

import pytest
from pycparser import c_ast

from omp2gpu import driver
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.omp_nodes import OmpConstruct

PROGRAM = """#include <omp.h>
int main(void) {
  omp_allocator_handle_t a = omp_null_allocator;
  omp_alloctrait_t traits[TRAITS] = {ENTRIES};
  int r = 0;
  #pragma omp target map(tofrom: r) uses_allocators(a(traits), omp_pteam_mem_alloc)
  r = a != omp_null_allocator;
  return r;
}
"""


def _parse(tmp_path, traits=1, entries="{omp_atk_alignment, 64}"):
    path = tmp_path / "prog.c"
    path.write_text(PROGRAM.replace("TRAITS", str(traits)).replace("ENTRIES", entries))
    return driver.parse_file(path, driver.CompileOptions())


def _target(ast) -> OmpConstruct:
    stack = [ast]
    while stack:
        node = stack.pop()
        if isinstance(node, OmpConstruct) and node.directive.kind == "target":
            return node
        stack.extend(child for _, child in node.children())
    raise AssertionError("no target construct")


def test_region_makes_and_destroys_its_allocator(tmp_path):
    target = _target(_parse(tmp_path))
    first, body, last = target.body.block_items
    assert isinstance(first, c_ast.Assignment) and first.lvalue.name == "a"
    assert first.rvalue.name.name == "omp_init_allocator"
    assert [arg.__class__.__name__ for arg in first.rvalue.args.exprs] == ["ID", "Cast", "ID"]
    assert isinstance(body, c_ast.Assignment)
    assert last.name.name == "omp_destroy_allocator" and last.args.exprs[0].name == "a"
    assert [item.name for clause in target.directive.clauses if clause.name == "private"
            for item in clause.items] == ["a"]


@pytest.mark.parametrize("traits,entries", [
    (2, "{omp_atk_fallback, omp_atv_null_fb}, {omp_atk_pool_size, 1 << 20}"),
    (1, "omp_atk_alignment, 128"),                            # braces elided
    (2, "{omp_atk_access, omp_atv_pteam}, {omp_atk_pinned, omp_atv_default}"),
])
def test_traits_of_the_right_kind(tmp_path, traits, entries):
    _parse(tmp_path, traits, entries)


@pytest.mark.parametrize("traits,entries,message", [
    (1, "{omp_atk_fallback, omp_atv_thread}",
     "allocator trait 'omp_atk_fallback' cannot take the value 'omp_atv_thread'"),
    (1, "{omp_atk_partition, 3}", "allocator trait 'omp_atk_partition' cannot take the value '3'"),
    (1, "{omp_atk_alignment, omp_atv_true}", "allocator trait 'omp_atk_alignment' takes a number (a power of two), "
                                             "not 'omp_atv_true'"),
    (1, "omp_atk_alignment, 100", "allocator trait 'omp_atk_alignment' must be a power of two, not 100"),
    (1, "{omp_atk_pool_size, 0}", "allocator trait 'omp_atk_pool_size' must be a positive size, not 0"),
])
def test_traits_of_the_wrong_kind(tmp_path, traits, entries, message):
    with pytest.raises(CompileError) as info:
        _parse(tmp_path, traits, entries)
    assert info.value.message.startswith(message)
    assert info.value.location.line == 4


def test_combined_construct_with_traits_is_refused(tmp_path):
    path = tmp_path / "prog.c"
    path.write_text(PROGRAM.replace("TRAITS", "1").replace("ENTRIES", "{omp_atk_alignment, 64}")
                    .replace("#pragma omp target map", "#pragma omp target parallel map"))
    with pytest.raises(CompileError) as info:
        driver.parse_file(path, driver.CompileOptions())
    assert "is not supported" in info.value.message and info.value.location.line == 6
