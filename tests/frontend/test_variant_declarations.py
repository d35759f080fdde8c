"""The 5.x directives that choose code by context, in the front end: their clauses
(variant_clauses.py), the declarations of variants and the pragma pass's checks
(variant_declarations.py), and the construct context of each site (variant_sites.py)."""

import pytest
from directive_testing import assert_error, parse
from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct, OmpMetadirective
from omp2gpu.frontend.openmp.pragmas import attach_pragmas
from omp2gpu.frontend.openmp.variant_clauses import (
    AppendArgsClause,
    DeviceTypeClause,
    EnterClause,
    IndirectClause,
    NocontextClause,
    NovariantsClause,
    OtherwiseClause,
    WhenClause,
)
from omp2gpu.frontend.openmp.variant_sites import call_site, context_leaves
from omp2gpu.frontend.parse import parse as parse_c


def attach(source):
    return attach_pragmas(parse_c(source, "t.c"))


def error_of(source) -> CompileError:
    with pytest.raises(CompileError) as info:
        attach(source)
    return info.value


def nodes(ast, kind):
    found, stack = [], [ast]
    while stack:
        node = stack.pop()
        if isinstance(node, kind):
            found.append(node)
        stack.extend(child for _, child in node.children())
    return found


# ----------------------------------------------------------------- clauses
def test_metadirective_variants_are_directives():
    directive = parse("omp metadirective when(device={arch(\"nvptx\")}: teams distribute parallel for "
                      "num_teams(4)) when(device={kind(host)}: nothing) default(parallel for)")
    whens = directive.find(WhenClause)
    assert [w.directive.kind if w.directive else None for w in whens] == ["teams distribute parallel for", None]
    assert whens[0].directive.clauses[0].name == "num_teams"
    assert directive.first(OtherwiseClause).directive.kind == "parallel for"
    assert not directive.is_standalone


def test_otherwise_and_an_empty_variant():
    directive = parse("omp metadirective when(user={condition(1)}: barrier) otherwise()")
    assert directive.metadirective_variants[1] is None
    assert directive.is_standalone                  # every variant stands alone


def test_dispatch_and_declare_target_clauses():
    dispatch = parse("omp dispatch novariants(a > 1) nocontext(b) device(2) nowait")
    assert dispatch.first(NovariantsClause) and dispatch.first(NocontextClause)
    target = parse("omp declare target enter(f, g) device_type(nohost) indirect")
    assert [i.name for i in target.first(EnterClause).items] == ["f", "g"]
    assert target.first(DeviceTypeClause).kind == "nohost" and target.first(IndirectClause).expr is None
    variant = parse("omp declare variant(v) match(construct={dispatch}) "
                    "append_args(interop(target), interop(target, targetsync))")
    assert variant.first(AppendArgsClause).targetsync == (False, True)


@pytest.mark.parametrize("text, message, at", [
    ("omp metadirective when(device={kind(gpu)}: parallel) default(for) default(simd)",
     "duplicate 'default' clause on '#pragma omp metadirective'", "default(simd"),
    ("omp metadirective when(device={kind(gpu)}: parallel) default(for) otherwise(simd)",
     "'otherwise' after 'default': a metadirective has one default directive", "otherwise"),
    ("omp metadirective when(device={kind(gpu)} parallel)",
     "expected ':' after the context selector in 'when' clause", ") parallel)"),
    ("omp metadirective when(device={kind(gpu)}: declare target)",
     "'declare' cannot be a directive variant of a metadirective", "declare"),
    ("omp metadirective when(device={kind(gpu)}: parallel for schedule(bogus))",
     "expected 'static' or 'dynamic' or 'guided' or 'auto' or 'runtime' in 'schedule' clause", "bogus"),
    ("omp declare variant(v)", "'#pragma omp declare variant' needs at least one 'match' clause", "declare"),
    ("omp declare variant(v) match(construct={dispatch}) append_args(interop(stream))",
     "expected 'target' or 'targetsync' in 'append_args' clause", "stream"),
    ("omp declare variant(v) match(construct={dispatch}) append_args(targetsync)",
     "expected 'interop(target)' or 'interop(targetsync)' in 'append_args' clause", "targetsync"),
    ("omp declare target device_type(host)",
     "'device_type' needs a 'to', 'enter' or 'link' list on '#pragma omp declare target' "
     "(or '#pragma omp begin declare target')", "device_type"),
    ("omp declare target to(f) device_type(everywhere)", "expected 'host' or 'nohost' or 'any' in "
     "'device_type' clause", "everywhere"),
    ("omp declare target link(a) indirect", "'indirect' cannot be combined with 'link'", "indirect"),
    ("omp dispatch novariants(a) novariants(b)", "duplicate 'novariants' clause on '#pragma omp dispatch'",
     "novariants", ),
])
def test_malformed_variant_directives(text, message, at):
    occurrence = 2 if at == "novariants" else 1
    if at == ") parallel)":                 # the ')' that ends the clause
        at, occurrence = ")", 2
    assert_error(text, message, at, occurrence)


# ----------------------------------------------------------------- declarations and sites
SOURCE = """\
void p_fn(int *a);
void t_fn(int *a);
#pragma omp declare variant(p_fn) match(construct={parallel})
#pragma omp declare variant(t_fn) match(construct={target}, device={kind(nohost)})
void fn(int *a);
void fn(int *a) { a[0] = 0; }
void p_fn(int *a) { a[0] = 1; }
void t_fn(int *a) { fn(a); }
void f(int *a) {
    fn(a);
    #pragma omp parallel
    { fn(a); }
    #pragma omp target teams
    {
        #pragma omp parallel
        fn(a);
    }
}
"""


def test_declared_variants_and_the_context_of_each_call():
    ast = attach(SOURCE)
    calls = [n for n in nodes(ast, c_ast.FuncCall) if n.name.name == "fn"]
    assert {tuple(v.variant for v in call_site(call).variants) for call in calls} == {("p_fn", "t_fn")}
    contexts = sorted(context_leaves(call_site(call).context, None) for call in calls)
    # t_fn's own call: its construct selector (target) begins its context (5.1 2.3.1 rule 2)
    assert contexts == [(), ("parallel",), ("target",), ("target", "teams", "parallel")]


def test_begin_declare_variant_renames_its_definitions():
    ast = attach("""\
void add(int *a) { a[0] = 1; }
#pragma omp begin declare variant match(construct={parallel})
void add(int *a) { a[0] = 2; }
#pragma omp end declare variant
void g(int *a) { add(a); }
""")
    names = [e.decl.name for e in ast.ext if isinstance(e, c_ast.FuncDef)]
    assert names[0] == "add" and names[1].startswith("__omp2gpu_variant") and names[1].endswith("_add")
    call = next(n for n in nodes(ast, c_ast.FuncCall) if n.name.name == "add")
    assert [v.variant for v in call_site(call).variants] == [names[1]]


def test_metadirectives_know_their_context():
    ast = attach("""\
void f(int n, int *a) {
    #pragma omp target
    #pragma omp parallel
    {
        #pragma omp metadirective when(device={kind(gpu)}: for) default(nothing)
        for (int i = 0; i < n; i++) a[i] = i;
    }
}
""")
    (meta,) = nodes(ast, OmpMetadirective)
    assert context_leaves(meta.context, None) == ("target", "parallel") and isinstance(meta.body, c_ast.For)


def test_begin_declare_target_takes_device_type():
    ast = attach("#pragma omp begin declare target device_type(nohost)\nint f(void) { return 1; }\n"
                 "#pragma omp end declare target\n")
    assert ast.ext[0].directive.first(DeviceTypeClause).kind == "nohost"


def test_declare_target_with_a_list_inside_a_function():
    ast = attach("int g(int x) { return x; }\nint main(void) {\n#pragma omp declare target to(g)\n return 0; }\n")
    (construct,) = nodes(ast, OmpConstruct)
    assert construct.directive.kind == "declare target"


@pytest.mark.parametrize("source, message, line", [
    ("#pragma omp declare variant(v) match(construct={parallel})\nvoid f(void);\n",
     "'v' in '#pragma omp declare variant' is not a function declared before it", 1),
    ("void v(void);\n#pragma omp declare variant(v) match(construct={parallel})\nint x;\n",
     "'#pragma omp declare variant' must be followed by a function declaration or definition", 2),
    ("void f(void);\n#pragma omp declare variant(f) match(construct={parallel})\nvoid f(void);\n",
     "function 'f' cannot be a variant of itself", 2),
    ("#pragma omp begin declare variant match(device={kind(gpu)})\nvoid f(void) {}\n",
     "'#pragma omp begin declare variant' without a matching '#pragma omp end declare variant'", 2),
    ("#pragma omp end declare variant\n",
     "'#pragma omp end declare variant' without a matching '#pragma omp begin declare variant'", 1),
    ("void v(int n, int *p);\n#pragma omp declare variant(v) match(construct={dispatch}) "
     "adjust_args(need_device_ptr: n)\nvoid f(int n, int *p);\n",
     "'n' in 'adjust_args(need_device_ptr: ...)' is not a pointer parameter of 'f'", 2),
    ("void v(int n, int *p);\n#pragma omp declare variant(v) match(construct={dispatch}) "
     "adjust_args(need_device_ptr: q)\nvoid f(int n, int *p);\n",
     "'q' in 'adjust_args' is not a parameter of 'f'", 2),
    ("void f(void) {\n#pragma omp declare variant(f) match(construct={parallel})\n}\n",
     "'#pragma omp declare variant' is only allowed at file scope", 2),
    ("int g(void);\nvoid f(int x) {\n#pragma omp dispatch\nx = x + 1;\n}\n",
     "'#pragma omp dispatch' must be followed by a call of a function (or an assignment of one's result)", 4),
    ("void f(int *a) {\n#pragma omp metadirective when(device={kind(gpu)}: parallel for) default(nothing)\n"
     "a[0] = 1;\n}\n", "'#pragma omp metadirective' must be followed by a for loop", 3),
])
def test_misplaced_variant_directives(source, message, line):
    error = error_of(source)
    assert (error.message, error.location.line) == (message, line)
