"""attach_pragmas(): `#pragma omp` -> OmpConstruct / OmpDeclareTarget."""

import shutil

import pytest
from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp import pragmas
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct, OmpDeclareTarget
from omp2gpu.frontend.openmp.pragmas import attach_pragmas
from omp2gpu.frontend.parse import parse
from omp2gpu.frontend.preprocess import preprocess


def attach(source):
    return attach_pragmas(parse(source, "t.c"))


def error_of(source):
    with pytest.raises(CompileError) as info:
        attach(source)
    return info.value


def all_nodes(ast, kind):
    found = []

    class Visitor(c_ast.NodeVisitor):
        def generic_visit(self, node):
            if isinstance(node, kind):
                found.append(node)
            for child in node:
                self.visit(child)

    Visitor().visit(ast)
    return found


def body_of(ast, name="f"):
    return next(e for e in ast.ext if isinstance(e, c_ast.FuncDef) and e.decl.name == name).body


def test_loop_directive_takes_the_for_loop():
    ast = attach("""\
void f(int n, double *a) {
  int before = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) a[i] = i;
  before++;
}
""")
    items = body_of(ast).block_items
    assert [type(i).__name__ for i in items] == ["Decl", "OmpConstruct", "UnaryOp"]
    construct = items[1]
    assert construct.directive.kind == "parallel for"
    assert isinstance(construct.body, c_ast.For)
    assert (construct.coord.file, construct.coord.line) == ("t.c", 3)
    assert not all_nodes(ast, c_ast.Pragma)


def test_nested_directives_attach_inner_first():
    ast = attach("""\
void f(int n, double *a) {
#pragma omp target map(tofrom: a[0:n])
#pragma omp teams
  {
#pragma omp distribute parallel for
    for (int i = 0; i < n; i++) a[i] = i;
  }
}
""")
    target = body_of(ast).block_items[0]
    assert target.directive.kind == "target"
    teams = target.body
    assert isinstance(teams, OmpConstruct) and teams.directive.kind == "teams"
    assert isinstance(teams.body, c_ast.Compound)
    inner = teams.body.block_items[0]
    assert inner.directive.kind == "distribute parallel for" and isinstance(inner.body, c_ast.For)


def test_pragma_as_a_loop_or_if_body_replaces_the_synthesised_compound():
    ast = attach("""\
void f(int n, int m, double *a) {
  for (int k = 0; k < m; k++)
#pragma omp parallel for
    for (int i = 0; i < n; i++) a[i] += k;
  if (n)
#pragma omp parallel
    a[0] = 1;
  else
#pragma omp single
    a[1] = 2;
  while (m--)
#pragma GCC ivdep
    a[m] = 0;
}
""")
    outer_for, branch, loop = body_of(ast).block_items
    assert isinstance(outer_for.stmt, OmpConstruct) and outer_for.stmt.directive.kind == "parallel for"
    assert isinstance(branch.iftrue, OmpConstruct) and branch.iftrue.directive.kind == "parallel"
    assert isinstance(branch.iftrue.body, c_ast.Assignment)
    assert isinstance(branch.iffalse, OmpConstruct) and branch.iffalse.directive.kind == "single"
    assert isinstance(loop.stmt, c_ast.Assignment)          # the GCC pragma is dropped


def test_standalone_directives_take_no_statement():
    ast = attach("""\
void f(int n, double *a) {
#pragma omp barrier
  n++;
#pragma omp target update to(a[0:n])
#pragma omp taskwait
}
""")
    barrier, increment, update, taskwait = body_of(ast).block_items
    assert barrier.directive.kind == "barrier" and barrier.body is None
    assert isinstance(increment, c_ast.UnaryOp)
    assert update.directive.kind == "target update" and update.body is None
    assert taskwait.body is None


def test_other_pragmas_are_dropped_everywhere():
    ast = attach("""\
#pragma once
struct s {
#pragma pack(1)
  int x;
};
void f(int n, double *a) {
#pragma GCC diagnostic push
#pragma omp simd
#pragma GCC ivdep
  for (int i = 0; i < n; i++) a[i] = 0;
#pragma ompx not_openmp
}
""")
    assert not all_nodes(ast, c_ast.Pragma)
    items = body_of(ast).block_items
    assert len(items) == 1 and items[0].directive.kind == "simd" and isinstance(items[0].body, c_ast.For)


def test_switch_case_statements():
    ast = attach("""\
void f(int n) {
  switch (n) {
  case 1:
#pragma omp parallel
    n++;
    break;
  default:
    break;
  }
}
""")
    case = body_of(ast).block_items[0].stmt.block_items[0]
    assert isinstance(case, c_ast.Case)
    assert isinstance(case.stmts[0], OmpConstruct) and isinstance(case.stmts[1], c_ast.Break)


# A directive without its statement: at the token that came instead, as gcc reports it.
@pytest.mark.parametrize("source, message, line", [
    ("void f(int n) {\n#pragma omp parallel for\n  while (n--) ;\n}\n",
     "'#pragma omp parallel for' must be followed by a for loop", 3),
    ("void f(int n) {\n#pragma omp target teams distribute\n  { }\n}\n",
     "'#pragma omp target teams distribute' must be followed by a for loop", 3),
    ("void f(int n) {\n  n++;\n#pragma omp parallel\n}\n",
     "'#pragma omp parallel' must be followed by a statement", 4),
    ("void f(int n) {\n#pragma omp for\n}\n",
     "'#pragma omp for' must be followed by a for loop", 3),
    ("void f(int n) {\n#pragma omp parallel\n  int x = n;\n}\n",
     "'#pragma omp parallel' must be followed by a statement, not a declaration", 3),
    ("void f(int n) {\n#pragma omp parallel\n#pragma omp barrier\n}\n",
     "'#pragma omp parallel' must be followed by a statement", 3),
    ("void f(int n) {\n  if (n)\n#pragma omp barrier\n  ;\n}\n",
     "'#pragma omp barrier' may only be used in compound statements", 3),
    ("void f(int n) {\n#pragma omp declare target\n}\n",
     "'#pragma omp declare target' is only allowed at file scope", 2),
    ("int x;\n#pragma omp parallel\nint y;\n",
     "'#pragma omp parallel' is not allowed at file scope", 2),
    ("int x;\n#pragma omp end declare target\n",
     "'#pragma omp end declare target' without a matching '#pragma omp declare target'", 2),
    ("int x;\n#pragma omp declare target\nint y;\n",       # at the end of the file, as gcc
     "'#pragma omp declare target' without a matching '#pragma omp end declare target'", 3),
    ("struct s {\n#pragma omp parallel\n  int x;\n};\n",
     "'#pragma omp parallel' is not allowed here", 2),
])
def test_misplaced_directives(source, message, line):
    error = error_of(source)
    assert error.message == message
    assert (error.location.file, error.location.line) == ("t.c", line)


def test_directive_errors_propagate():
    error = error_of("void f(int n) {\n#pragma omp parallel frobnicate(n)\n  n++;\n}\n")
    assert "frobnicate" in error.message and error.location.line == 2


def test_declare_target_region():
    ast = attach("""\
int host_only;
#pragma omp declare target
double scale = 2.0;
double twice(double x) {
  double y;
#pragma omp parallel
  y = x;
  return 2 * y;
}
#pragma omp declare target
int nested;
#pragma omp end declare target
#pragma omp end declare target
int after;
#pragma omp declare target(host_only)
#pragma omp declare target to(after)
""")
    names = [type(e).__name__ for e in ast.ext]
    assert names == ["Decl", "OmpDeclareTarget", "Decl", "OmpConstruct", "OmpConstruct"]
    region = ast.ext[1]
    assert region.directive.kind == "declare target" and region.coord.line == 2
    assert [type(d).__name__ for d in region.decls] == ["Decl", "FuncDef", "OmpDeclareTarget"]
    assert region.decls[2].decls[0].name == "nested"
    inner = region.decls[1].body.block_items[1]
    assert isinstance(inner, OmpConstruct) and inner.directive.kind == "parallel"
    for listed in ast.ext[3:]:
        assert listed.directive.kind == "declare target" and listed.body is None


def test_typedef_names_in_scope_reach_the_directive_parser(monkeypatch):
    seen = []
    real = pragmas.parse_directive

    def spy(text, coord, typedef_names=frozenset()):
        seen.append(typedef_names)
        return real(text, coord, typedef_names)

    monkeypatch.setattr(pragmas, "parse_directive", spy)
    attach("""\
typedef int T;
typedef int Shadowed;
void f(int n) {
  typedef double Local;
  int Shadowed = 0;
#pragma omp parallel
  {
    typedef float Inner;
#pragma omp barrier
  }
#pragma omp barrier
}
void g(int T) {
#pragma omp barrier
}
typedef long Later;
""")
    assert seen == [frozenset({"T", "Local"}), frozenset({"T", "Local", "Inner"}),
                    frozenset({"T", "Local"}), frozenset({"Shadowed"})]


@pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc")
def test_directive_coord_points_at_omp_in_the_source(tmp_path):
    # gcc -E rewrites `  #  pragma   omp barrier` as `#pragma omp barrier` from column 1.
    path = tmp_path / "a.c"
    path.write_text("void f(void) {\n    #  pragma   omp barrier\n}\n")
    ast = attach_pragmas(parse(preprocess(str(path), backend="gcc"), str(path)))
    barrier = ast.ext[0].body.block_items[0]
    assert (barrier.coord.line, barrier.coord.column) == (2, 17)


def test_full_pipeline_with_omp_h(tmp_path):
    path = tmp_path / "a.c"
    path.write_text("""\
#include <omp.h>
#include <stdio.h>
int main(void) {
  int n = 0;
#pragma omp parallel reduction(+: n)
  n += omp_get_thread_num();
  printf("%d\\n", n);
  return 0;
}
""")
    ast = attach_pragmas(parse(preprocess(str(path)), str(path)))
    main = body_of(ast, "main")
    assert isinstance(main.block_items[1], OmpConstruct)
    assert main.block_items[1].coord.line == 5
    assert isinstance(ast.ext[0], (c_ast.Typedef, c_ast.Decl)) and not isinstance(ast.ext[0], OmpDeclareTarget)


# ------------------------------------------------------------ threadprivate, declare simd

def test_threadprivate_at_file_and_block_scope():
    ast = attach("""\
int counter;
static double scale = 1.0;
#pragma omp threadprivate(counter, scale)
int f(void) {
  static int calls;
#pragma omp threadprivate(calls)
  extern int counter;
#pragma omp parallel copyin(counter, calls)
  {
#pragma omp single copyprivate(scale)
    scale = 2;
  }
  return ++calls;
}
""")
    assert [type(e).__name__ for e in ast.ext] == ["Decl", "Decl", "OmpConstruct", "FuncDef"]
    listed = ast.ext[2]
    assert listed.directive.kind == "threadprivate" and listed.body is None
    assert [i.name for i in listed.directive.threadprivate_list] == ["counter", "scale"]
    items = body_of(ast).block_items
    assert items[1].directive.kind == "threadprivate" and items[1].body is None
    assert items[3].directive.kind == "parallel"


@pytest.mark.parametrize("source, message, line, column", [
    ("#pragma omp threadprivate(x)\nint x;\n", "use of undeclared identifier 'x'", 1, 27),
    ("int f(void);\n#pragma omp threadprivate(f)\n",
     "'f' in '#pragma omp threadprivate' is not a variable", 2, 27),
    ("typedef int T;\n#pragma omp threadprivate(T)\n",
     "'T' in '#pragma omp threadprivate' is not a variable", 2, 27),
    ("enum { E };\n#pragma omp threadprivate(E)\n",
     "'E' in '#pragma omp threadprivate' is not a variable", 2, 27),
    ("void f(void) {\n  int a;\n#pragma omp threadprivate(a)\n}\n",
     "'a' in '#pragma omp threadprivate' must be a static variable declared in the same block "
     "(or a file-scope variable, with the directive at file scope)", 3, 27),
    ("int g;\nvoid f(void) {\n#pragma omp threadprivate(g)\n}\n",
     "'g' in '#pragma omp threadprivate' must be a static variable declared in the same block "
     "(or a file-scope variable, with the directive at file scope)", 3, 27),
    ("int g;\nvoid f(void) {\n  extern int g;\n#pragma omp threadprivate(g)\n}\n",
     "'g' in '#pragma omp threadprivate' must be a static variable declared in the same block "
     "(or a file-scope variable, with the directive at file scope)", 4, 27),
    ("void f(void) {\n  static int s;\n  {\n#pragma omp threadprivate(s)\n  }\n}\n",
     "'s' in '#pragma omp threadprivate' must be a static variable declared in the same block "
     "(or a file-scope variable, with the directive at file scope)", 4, 27),
    ("void f(int p) {\n#pragma omp threadprivate(p)\n}\n",
     "'p' in '#pragma omp threadprivate' must be a static variable declared in the same block "
     "(or a file-scope variable, with the directive at file scope)", 2, 27),
    ("void f(void) {\n  static int s;\n  if (s)\n#pragma omp threadprivate(s)\n  ;\n}\n",
     "'s' in '#pragma omp threadprivate' must be a static variable declared in the same block "
     "(or a file-scope variable, with the directive at file scope)", 4, 27),
    ("int t;\nvoid f(void) {\n#pragma omp parallel copyin(t)\n  t++;\n}\n",
     "'t' in 'copyin' clause is not threadprivate", 3, 29),
    ("void f(void) {\n#pragma omp parallel copyin(nope)\n  ;\n}\n",
     "use of undeclared identifier 'nope'", 2, 29),
    ("int t;\n#pragma omp threadprivate(t)\nvoid f(void) {\n#pragma omp parallel shared(t)\n"
     "  t++;\n}\n", "threadprivate variable 't' cannot appear in 'shared' clause", 4, 29),
    ("int t[4];\n#pragma omp threadprivate(t)\nvoid f(void) {\n"
     "#pragma omp target map(to: t[0:2])\n  t[0]++;\n}\n",
     "threadprivate variable 't' cannot appear in 'map' clause", 4, 28),
])
def test_threadprivate_errors(source, message, line, column):
    error = error_of(source)
    assert error.message == message
    assert (error.location.line, error.location.column) == (line, column)


def test_threadprivate_names_follow_scopes():
    # A local `t` hides the threadprivate one; `extern int t` names it again.
    attach("""\
int t;
#pragma omp threadprivate(t)
void f(void) {
  int t = 0;
#pragma omp parallel private(t)
  t++;
  {
    static int s;
#pragma omp threadprivate(s)
#pragma omp parallel copyin(s)
    s++;
  }
}
void g(void) {
  extern int t;
#pragma omp parallel copyin(t)
  t++;
}
""")


def test_declare_simd_is_checked_and_dropped():
    ast = attach("""\
#pragma omp declare simd uniform(a) linear(i: 1) notinbranch
#pragma GCC something
#pragma omp declare simd simdlen(4) aligned(x)
static double f(double a, const double *x, int i);
#pragma omp declare simd
double g(double v) { return v; }
""")
    assert [type(e).__name__ for e in ast.ext] == ["Decl", "FuncDef"]
    assert not all_nodes(ast, c_ast.Pragma) and not all_nodes(ast, OmpConstruct)


@pytest.mark.parametrize("source, message, line, column", [
    ("#pragma omp declare simd\nint x;\n",
     "'#pragma omp declare simd' must be followed by a function declaration or definition", 1, 9),
    ("#pragma omp declare simd\n", "'#pragma omp declare simd' must be followed by a function "
     "declaration or definition", 1, 9),
    ("#pragma omp declare simd\n#pragma omp threadprivate(x)\nint f(int);\n",
     "'#pragma omp declare simd' must be followed by a function declaration or definition", 1, 9),
    ("#pragma omp declare simd\nint (*fp)(int);\n",
     "'#pragma omp declare simd' must be followed by a function declaration or definition", 1, 9),
    ("#pragma omp declare simd uniform(b)\nint f(int a);\n",
     "'b' in 'uniform' clause is not a parameter of 'f'", 1, 34),
    ("#pragma omp declare simd linear(n)\nint f(int a) { return a; }\n",
     "'n' in 'linear' clause is not a parameter of 'f'", 1, 33),
    ("void f(void) {\n#pragma omp declare simd\n  int g(int);\n}\n",
     "'#pragma omp declare simd' is only allowed at file scope", 2, 9),
])
def test_declare_simd_errors(source, message, line, column):
    error = error_of(source)
    assert error.message == message
    assert (error.location.line, error.location.column) == (line, column)
