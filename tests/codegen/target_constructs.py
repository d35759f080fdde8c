"""A target construct parsed from a few lines of C, for the chooser's and the shape
analysis's tests."""

from __future__ import annotations

from pycparser import c_parser

from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.openmp.pragmas import attach_pragmas


def target_construct(pragmas: str, body: str, parameters: str = "int n, double *a, double s") -> OmpConstruct:
    """The first target construct of `void f(parameters) { pragmas body }`."""
    ast = attach_pragmas(c_parser.CParser().parse(f"void f({parameters}) {{\n{pragmas}\n{body}\n}}"))
    stack = [ast]
    while stack:
        node = stack.pop()
        if isinstance(node, OmpConstruct) and node.directive.has("target"):
            return node
        stack.extend(child for _, child in node.children())
    raise AssertionError("no target construct")
