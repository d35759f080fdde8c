"""sema/openmp_constructs.py: every construct with the constructs around it, found by
walking statements only."""

from __future__ import annotations

from pycparser import c_parser

from omp2gpu.frontend.openmp.pragmas import attach_pragmas
from omp2gpu.sema.openmp_constructs import constructs_in_context

SOURCE = """
#pragma omp declare target
void helper(int *a) {
#pragma omp parallel for
  for (int i = 0; i < 4; i++) a[i] = i;
}
#pragma omp end declare target
void f(int n, int *a) {
  switch (n) {
  case 1:
#pragma omp parallel
    {
      if (n) {
#pragma omp single
        a[0] = 1;
      } else
        do {
#pragma omp critical
          a[1]++;
        } while (0);
    }
    break;
  default:
  done:
#pragma omp target teams
#pragma omp distribute
    for (int i = 0; i < n; i++)
      while (0) {
#pragma omp parallel
        a[i] = 0;
      }
  }
}
"""


def test_every_construct_in_source_order_with_what_encloses_it():
    ast = attach_pragmas(c_parser.CParser().parse(SOURCE))
    found = [(construct.directive.kind, [outer.directive.kind for outer in enclosing])
             for construct, enclosing in constructs_in_context(ast)]
    assert found == [
        ("parallel for", []),
        ("parallel", []),
        ("single", ["parallel"]),
        ("critical", ["parallel"]),
        ("target teams", []),
        ("distribute", ["target teams"]),
        ("parallel", ["target teams", "distribute"]),
    ]
