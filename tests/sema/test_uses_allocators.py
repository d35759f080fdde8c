"""sema/uses_allocators.py and sema/trait_values.py: the traits array of a target
construct's `uses_allocators(a(traits))` is checked where it is written (a constant entry
whose value is not its key's kind is a located error), on `target` and its combined
constructs alike; the region itself is left as written (codegen/openmp/data/region_allocators.py
makes the allocator)."""

from __future__ import annotations

import pytest
from pycparser import c_ast

from omp2gpu import driver
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct

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


def test_region_is_left_as_written(tmp_path):
    target = _target(_parse(tmp_path))
    assert isinstance(target.body, c_ast.Assignment)
    assert not [clause for clause in target.directive.clauses if clause.name == "private"]


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


@pytest.mark.parametrize("construct", ["target parallel", "target teams distribute parallel for simd"])
def test_combined_constructs_traits_are_checked_too(tmp_path, construct):
    path = tmp_path / "prog.c"
    path.write_text(PROGRAM.replace("TRAITS", "1").replace("ENTRIES", "{omp_atk_alignment, 48}")
                    .replace("#pragma omp target map", f"#pragma omp {construct} map")
                    .replace("  r = a", "  for (int i = 0; i < 1; i++) r = a" if "for" in construct else "  r = a"))
    with pytest.raises(CompileError) as info:
        driver.parse_file(path, driver.CompileOptions())
    assert "must be a power of two, not 48" in info.value.message and info.value.location.line == 4
