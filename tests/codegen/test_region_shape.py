"""region_shape.py: the combined construct's shape however it is spelt, and which clause
expressions the host may evaluate at the launch."""

from __future__ import annotations

import pytest
from pycparser import c_ast
from target_constructs import target_construct

from omp2gpu.codegen.openmp.choose import choose
from omp2gpu.codegen.openmp.plan.region_shape import combined_shape, evaluable_at_launch
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct

LOOP = "for (int i = 0; i < n; i++) s += a[i];"


def _target(pragmas: str, body: str = LOOP) -> OmpConstruct:
    return target_construct(pragmas, body)


@pytest.mark.parametrize("pragmas, kinds", [
    ("#pragma omp target teams distribute parallel for reduction(+:s)",
     ["target teams distribute parallel for"]),
    ("#pragma omp target\n#pragma omp teams distribute parallel for reduction(+:s)",
     ["target", "teams distribute parallel for"]),
    ("#pragma omp target\n#pragma omp teams reduction(+:s)\n#pragma omp distribute parallel for reduction(+:s)",
     ["target", "teams", "distribute parallel for"]),
    ("#pragma omp target teams reduction(+:s)\n#pragma omp distribute parallel for simd reduction(+:s)",
     ["target teams", "distribute parallel for simd"]),
])
def test_split_spellings_are_the_combined_shape(pragmas, kinds):
    construct = _target(pragmas)
    shape = combined_shape(construct)
    assert [d.kind for d in shape.directives] == kinds
    assert isinstance(shape.loop, c_ast.For)
    # The teams' and the loop's reduction of the same variable are one reduction.
    reductions = [item.name for clause in shape.clauses.clauses if clause.name == "reduction"
                  for item in clause.items]
    assert reductions == ["s"]
    assert choose(construct).gpu.name == "combined"


@pytest.mark.parametrize("pragmas", [
    "#pragma omp target parallel for",
    "#pragma omp target\n#pragma omp parallel for",
    "#pragma omp target\n#pragma omp teams\n#pragma omp distribute",
])
def test_other_shapes_are_not_combined(pragmas):
    assert combined_shape(_target(pragmas)) is None


def test_clause_reading_a_variable_the_region_declares_is_not_evaluable_at_launch():
    construct = _target("#pragma omp target teams", "{ int m = n; \n#pragma omp distribute parallel for\n"
                        + LOOP + " }")
    clause_expr = c_ast.ID("m")
    assert not evaluable_at_launch(clause_expr, construct)
    assert evaluable_at_launch(c_ast.BinaryOp("+", c_ast.ID("n"), c_ast.Constant("int", "1")), construct)
