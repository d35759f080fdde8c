"""What a metadirective is on each device, and which function a call with variants
calls (sema/metadirectives.py)."""

import pytest
from pycparser import c_ast

from omp2gpu.diagnostics import CompileError, LoweringError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct, OmpMetadirective
from omp2gpu.frontend.openmp.pragmas import attach_pragmas
from omp2gpu.frontend.openmp.variant_sites import call_site
from omp2gpu.frontend.parse import parse
from omp2gpu.sema.loop_construct import lower_loop_constructs
from omp2gpu.sema.metadirectives import resolution, specialized, variant_callee
from omp2gpu.sema.openmp_context import DEVICES

HOST, CPU, GPU = DEVICES["host"], DEVICES["cpu"], DEVICES["gpu"]


def attach(source):
    return attach_pragmas(parse(source, "t.c"))


def find(node, kind):
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, kind):
            yield current
        stack.extend(child for _, child in current.children())


WHEN = ('when(device={arch("nvptx")}: teams distribute parallel for) '
        'when(device={kind(nohost)}: parallel for) default(nothing)')
TARGET = f"""\
void f(int n, int *a) {{
    #pragma omp target map(tofrom: a[0:n])
    {{
        #pragma omp metadirective {WHEN}
        for (int i = 0; i < n; i++) a[i] = i;
    }}
}}
"""


def test_each_device_gets_its_directive():
    (meta,) = find(attach(TARGET), OmpMetadirective)
    kinds = {d.name: [a.directive.kind if a.directive else None for a in resolution(meta, d)]
             for d in (HOST, CPU, GPU)}
    assert kinds == {"the host": [None], "the CPU device": ["parallel for"],
                     "the GPU": ["teams distribute parallel for"]}


def test_specialized_copies_only_what_changes():
    ast = attach(TARGET)
    (target,) = [c for c in find(ast, OmpConstruct) if c.directive.has("target")]
    on_gpu = specialized(target, GPU)
    assert on_gpu is not target and target.body.block_items[0].__class__ is OmpMetadirective
    (chosen,) = on_gpu.body.block_items
    assert isinstance(chosen, OmpConstruct) and chosen.directive.kind == "teams distribute parallel for"
    on_host = specialized(target, HOST)
    assert isinstance(on_host.body.block_items[0], c_ast.For)        # nothing: the loop alone
    plain = attach("void f(int *a) {\n#pragma omp target\n a[0] = 1;\n}\n")
    (construct,) = find(plain, OmpConstruct)
    assert specialized(construct, GPU) is construct


def test_run_time_choices_on_the_host_only():
    ast = attach("""\
void f(int n, int *a) {
    #pragma omp metadirective when(user={condition(n > 100)}: parallel for) default(nothing)
    for (int i = 0; i < n; i++) a[i] = i;
}
""")
    (meta,) = find(ast, OmpMetadirective)
    chain = resolution(meta, HOST)
    assert [(len(a.checks), a.directive.kind if a.directive else None) for a in chain] == \
        [(1, "parallel for"), (0, None)]
    with pytest.raises(CompileError, match="decided when the program runs is not supported in code compiled "
                                           "for the GPU"):
        specialized(meta, GPU)


VARIANTS = """\
void gpu_fn(int *a);
void cpu_fn(int *a);
void par_fn(int *a);
#pragma omp declare variant(gpu_fn) match(device={kind(gpu)})
#pragma omp declare variant(cpu_fn) match(device={kind(nohost, cpu)})
#pragma omp declare variant(par_fn) match(construct={parallel})
void fn(int *a) { a[0] = 0; }
void g(int *a) {
    fn(a);
    #pragma omp parallel
    fn(a);
    #pragma omp target
    fn(a);
}
"""


def test_variant_callee_per_device_and_context():
    ast = attach(VARIANTS)
    calls = [c for c in find(ast, c_ast.FuncCall) if c.name.name == "fn"]
    calls.sort(key=lambda c: c.coord.line)
    chosen = {device.name: [getattr(variant_callee(call_site(c), device), "variant", None) for c in calls]
              for device in (HOST, CPU, GPU)}
    assert chosen["the host"] == [None, "par_fn", None]
    # on a device the target trait begins every context; kind scores 2^l > parallel's 2^(p-1)
    assert chosen["the GPU"] == ["gpu_fn", "gpu_fn", "gpu_fn"]
    assert chosen["the CPU device"] == ["cpu_fn", "cpu_fn", "cpu_fn"]


def test_a_call_inside_a_metadirective_counts_the_chosen_directive():
    ast = attach("""\
void par_fn(int *a);
#pragma omp declare variant(par_fn) match(construct={parallel})
void fn(int *a) { a[0] = 0; }
void g(int *a) {
    #pragma omp metadirective when(device={kind(host)}: parallel) default(nothing)
    fn(a);
}
""")
    (call,) = [c for c in find(ast, c_ast.FuncCall) if c.name.name == "fn"]
    assert variant_callee(call_site(call), HOST).variant == "par_fn"
    assert variant_callee(call_site(call), CPU) is None


def test_loop_variants_are_lowered_where_the_metadirective_stands():
    ast = attach("""\
void f(int n, int *a) {
    #pragma omp target map(tofrom: a[0:n])
    {
        #pragma omp metadirective when(device={kind(gpu)}: teams loop) default(parallel loop)
        for (int i = 0; i < n; i++) a[i] = i;
    }
}
""")
    lower_loop_constructs(ast)
    (meta,) = find(ast, OmpMetadirective)
    assert [d.kind for d in meta.directive.metadirective_variants] == ["teams distribute parallel for",
                                                                       "parallel for"]
    unbound = attach("""\
void f(int n, int *a) {
    #pragma omp parallel
    #pragma omp metadirective when(device={kind(gpu)}: teams) default(nothing)
    {
        #pragma omp loop
        for (int i = 0; i < n; i++) a[i] = i;
    }
}
""")
    with pytest.raises(LoweringError, match="needs a 'bind' clause"):
        lower_loop_constructs(unbound)
