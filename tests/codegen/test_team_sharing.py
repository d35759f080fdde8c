"""team_sharing.py: which variables of a control-loop kernel its team's threads share,
and which of them a critical construct names (those go on the team stack)."""

from __future__ import annotations

from pycparser import c_ast, c_parser

from omp2gpu.codegen.openmp.plan.inlined_callees import functions_holding
from omp2gpu.codegen.openmp.plan.team_shared_names import shared_in_parallel_regions
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.openmp.pragmas import attach_pragmas


def _function(source: str, name: str = "f") -> c_ast.FuncDef:
    ast = attach_pragmas(c_parser.CParser().parse(source))
    return next(node for node in ast.ext if isinstance(node, c_ast.FuncDef) and node.decl.name == name)


def _target_body(source: str):
    """The body of the first target construct in f."""
    def targets(node):
        if isinstance(node, OmpConstruct) and node.directive.has("target"):
            yield node
        for _, child in node.children():
            yield from targets(child)
    return next(targets(_function(source))).body


def _declarations(body) -> dict[int, str]:
    """id -> name of the declarations in body."""
    found = {}

    def walk(node):
        if isinstance(node, c_ast.Decl) and node.name:
            found[id(node)] = node.name
        for _, child in node.children():
            walk(child)
    walk(body)
    return found


def _names(ids: set, body) -> set[str]:
    return {_declarations(body)[each] for each in ids}


def test_what_a_parallel_region_names_or_the_sequential_code_lets_escape_is_shared():
    body = _target_body("""
    void g(int *p);
    void f(int outer_used, int outer_unused) {
      #pragma omp target
      {
        int used = 1, unused = 2, escaped = 3, local_only = 4;
        int array[8];
        g(&escaped);
        g(array);
        local_only += unused;
        #pragma omp parallel
        {
          int inner = used + outer_used;
          inner++;
        }
      }
    }
    """)
    sharing = shared_in_parallel_regions(body)
    assert _names(sharing.declarations, body) == {"used", "escaped", "array"}
    assert "outer_used" in sharing.outer and "outer_unused" not in sharing.outer
    assert sharing.locked == set() and sharing.locked_outer == set()


def test_variables_a_critical_construct_names_are_locked():
    body = _target_body("""
    void f(int total) {
      #pragma omp target map(tofrom: total)
      {
        int count = 0, plain = 1;
        #pragma omp parallel
        {
          int mine = plain;
          #pragma omp critical
          { count += mine; total += mine; }
        }
      }
    }
    """)
    sharing = shared_in_parallel_regions(body)
    assert _names(sharing.declarations, body) == {"count", "plain"}
    assert _names(sharing.locked, body) == {"count"}            # `mine` is the thread's own
    assert "total" in sharing.locked_outer


def test_parameters_of_an_expanded_callee_are_declarations_of_its_body():
    callee = _function("""
    void h(int n, int unused) {
      #pragma omp parallel
      { int k = n; k++; }
    }
    """, "h")
    params = callee.decl.type.args.params
    sharing = shared_in_parallel_regions(callee.body, params)
    assert sharing.declarations == {id(params[0])}
    assert sharing.outer == set()


def test_what_a_parallel_region_passes_to_a_function_holding_critical_is_locked():
    source = """
    void bump(long *p) {
      #pragma omp critical
      *p += 1;
    }
    void touch(long *p) { p[0] = 0; }
    void f(void) {
      #pragma omp target
      {
        long counted = 0, plain = 0;
        #pragma omp parallel
        {
          bump(&counted);
          touch(&plain);
        }
      }
    }
    """
    ast = attach_pragmas(c_parser.CParser().parse(source))
    definitions = {n.decl.name: n for n in ast.ext if isinstance(n, c_ast.FuncDef)}
    assert functions_holding(definitions, "critical") == {"bump", "f"}     # f through its call
    body = _target_body(source)
    sharing = shared_in_parallel_regions(body, critical_callees=functions_holding(definitions, "critical"))
    assert _names(sharing.declarations, body) == {"counted", "plain"}
    assert _names(sharing.locked, body) == {"counted"}
