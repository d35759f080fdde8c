"""region_facts.py and device_refusals.py: a region the GPU cannot run is known from the
parsed tree, before any IR exists (issue 31). The facts are computed on a tree codegen
never saw, with llvmlite's module constructor made to fail, and the chooser reads them."""

from __future__ import annotations

import subprocess
import sys

import pytest
from llvmlite import ir

from omp2gpu.codegen.openmp.choose import choose
from omp2gpu.codegen.openmp.plan.device_refusals import function_refusal
from omp2gpu.codegen.openmp.plan.region_facts import UnitFacts
from omp2gpu.codegen.openmp.schemes import CombinedConstruct, ControlLoop, SerialKernel, SpmdizedControlLoop
from omp2gpu.pipeline import CompileOptions, parse_file

_SOURCE = r"""
#include <stdio.h>
typedef struct { double re, im; } cplx;
struct acc { double mean; long double sum; };
#pragma omp declare reduction(csum : cplx : omp_out.re += omp_in.re, omp_out.im += omp_in.im) \
    initializer(omp_priv = (cplx){0, 0})
static double scale(double x) { return x * 2; }
static long double wide(double x) { return x; }
static double twice(double (*f)(double), double x) { return f(f(x)); }

int main(void) {
    int n = 64;
    double a[64] = {0}, out[64];
    long double l[4];
    struct acc s = {0, 0};
    int table[n];
    cplx total = {0, 0};
    double (*op)(double) = scale;
#pragma omp target map(from: l)
    for (int i = 0; i < 4; i++) l[i] = 1.0L / (i + 1);
#pragma omp target map(tofrom: s)
    s.mean = 2;
#pragma omp target map(tofrom: a)
    a[0] = (double)wide(a[1]);
#pragma omp target teams distribute parallel for firstprivate(table) map(from: out)
    for (int i = 0; i < 64; i++) out[i] = table[0];
#pragma omp target map(tofrom: a)
#pragma omp taskloop grainsize(4)
    for (int i = 0; i < 64; i++) a[i] += 1;
#pragma omp target teams distribute parallel for reduction(csum : total) map(to: a)
    for (int i = 0; i < 64; i++) total.re += a[i];
#pragma omp target parallel for ordered map(tofrom: a)
    for (int i = 1; i < 64; i++) {
#pragma omp ordered
        a[i] += a[i - 1];
    }
#pragma omp target parallel map(tofrom: a)
    {
        double v = 0;
#pragma omp single copyprivate(v)
        v = a[0];
        a[1] = v;
    }
#pragma omp target map(tofrom: a)
    {
#pragma omp error at(execution) severity(warning) message("on the device")
        a[0] = 1;
    }
#pragma omp target map(tofrom: a)
    a[0] = op(a[1]) + twice(scale, 1);
#pragma omp target teams distribute parallel for map(tofrom: a)
    for (int i = 0; i < 64; i++) a[i] = scale(a[i]);
#pragma omp target map(tofrom: n)
    n = sizeof l + sizeof(long double);
    printf("%g %g\n", a[0], total.re);
    return 0;
}
"""

_LONG_DOUBLE = "runs on the host: long double (the host's x86 80-bit type) has no GPU equivalent"
# line -> (--scheme auto's reason, --scheme control-loop's reason)
_EXPECTED = {
    19: (_LONG_DOUBLE, _LONG_DOUBLE),
    21: (_LONG_DOUBLE, _LONG_DOUBLE),                # a member of a struct holding one
    23: (_LONG_DOUBLE, _LONG_DOUBLE),                # through a called function's result
    25: (None, "runs on the host: variable-length array 'table' shared by a team: its team-shared copy "
               "needs a size known at compile time"),
    27: (None, "runs on the host: '#pragma omp taskloop' is not supported inside a GPU target region"),
    30: ("runs on the host: user-defined reduction 'csum' is not supported on the device",) * 2,
    32: ("runs on the host: '#pragma omp ordered' in a parallel region is not supported on the GPU yet",) * 2,
    37: ("runs on the host: 'copyprivate' in a parallel region is not supported inside a GPU "
         "target region",) * 2,
    44: ("runs on the host: '#pragma omp error' at(execution) is not supported inside a GPU target "
         "region",) * 2,
    49: ("runs on the host: it uses 'op', a host function's address (calls through it on the GPU, "
         "'declare target indirect', are not supported)",) * 2,
    51: (None, None),
    53: (None, None),                                # sizeof makes no long double value
}


@pytest.fixture(scope="module")
def facts(tmp_path_factory):
    source = tmp_path_factory.mktemp("facts") / "regions.c"
    source.write_text(_SOURCE)
    ast = parse_file(source, CompileOptions())

    def no_module(*args, **kwargs):
        raise AssertionError("an llvmlite module was made before the plans")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ir.Module, "__init__", no_module)
        unit = UnitFacts(ast)
        plans = {request: {region.construct.coord.line: choose(region.construct, request, facts=region)
                           for region in unit.regions.values()} for request in ("auto", "control-loop")}
    return unit, plans


@pytest.mark.parametrize("column, request_", [(0, "auto"), (1, "control-loop")])
def test_every_refusal_is_known_before_any_code(facts, column, request_):
    _, plans = facts
    reasons = {line: (choice.reason if choice.gpu is None else None) for line, choice in plans[request_].items()}
    assert reasons == {line: expected[column] for line, expected in _EXPECTED.items()}


def test_the_facts_say_what_the_region_is(facts):
    unit, plans = facts
    by_line = {region.construct.coord.line: region for region in unit.regions.values()}
    assert all(region.function == "main" for region in by_line.values())
    assert by_line[19].long_double is not None and by_line[51].long_double is None
    assert by_line[23].callees == ("wide",) and by_line[49].callees == ("scale", "twice")
    assert by_line[25].team_shared_vlas == ("table",)
    assert [(c.kind, c.parallel_depth, c.has_body) for c in by_line[32].constructs] == [("ordered", 1, True)]
    used = {variable.name: variable for variable in by_line[49].used}
    assert used["op"].ctype.is_pointer and used["op"].ctype.pointee.is_function and used["a"].written
    assert by_line[49].host_function_pointers == ["op"]
    # the combined region calling a plain function is the combined scheme's, as before
    assert plans["auto"][51].gpu is CombinedConstruct


def test_the_kinds_of_scheme_each_read_the_facts(facts):
    unit, _ = facts
    taskloop = next(r for r in unit.regions.values() if any(c.kind == "taskloop" for c in r.constructs))
    assert SerialKernel.device_refusal(taskloop) is None
    assert "taskloop" in ControlLoop.device_refusal(taskloop)


_LIBRARY = r"""
int counter;
#pragma omp declare target
long double widen(double x) { return x * 2.0L; }
double plain(double x) { return x + 1; }
int bump(int x) { return x + counter; }
void report(int x) {
#pragma omp error at(execution) severity(warning) message("report")
    (void)x;
}
#pragma omp end declare target
"""


def test_a_declare_target_function_the_device_cannot_compile_is_known_from_the_facts(tmp_path):
    """What a separately compiled file's device modules leave out (export_declare_target)."""
    source = tmp_path / "lib.c"
    source.write_text(_LIBRARY)
    unit = UnitFacts(parse_file(source, CompileOptions()))
    on_gpu = {name: function_refusal(unit, name, "gpu") for name in ("widen", "plain", "bump", "report")}
    assert on_gpu == {"widen": "long double (the host's x86 80-bit type) has no GPU equivalent", "plain": None,
                      "bump": "'counter' is used on the device but is neither mapped nor 'declare target'",
                      "report": "'#pragma omp error' at(execution) is not supported inside a GPU target region"}
    on_cpu = {name: function_refusal(unit, name, "cpu") for name in ("widen", "plain", "bump", "report")}
    assert on_cpu == {"widen": None, "plain": None, "report": None,
                      "bump": "'counter' is used on the device but is neither mapped nor 'declare target'"}


_ARRAY_REDUCTIONS = """
int main(void)
{
    double lanes[8] = { 0 }, wide[64] = { 0 }, *p = lanes;
    char bytes[4] = { 0 };
    long grid[2][3] = { { 0 } };
#pragma omp target teams distribute parallel for reduction(+: lanes[0:8])
    for (int i = 0; i < 100; i++) lanes[i % 8] += 1.0;
#pragma omp target teams distribute parallel for reduction(+: grid)
    for (int i = 0; i < 100; i++) grid[i % 2][i % 3] += i;
#pragma omp target parallel for reduction(max: lanes)
    for (int i = 0; i < 100; i++) if (i > lanes[i % 8]) lanes[i % 8] = i;
#pragma omp target teams distribute parallel for reduction(+: wide[0:64])
    for (int i = 0; i < 100; i++) wide[i % 64] += 1.0;
#pragma omp target teams distribute parallel for reduction(+: bytes[0:4])
    for (int i = 0; i < 100; i++) bytes[i % 4] += 1;
#pragma omp target teams distribute parallel for reduction(+: p[0:8]) map(tofrom: p[0:8])
    for (int i = 0; i < 100; i++) p[i % 8] += 1.0;
    return 0;
}
"""


def test_reductions_over_short_arrays_are_combined_and_the_rest_say_why(tmp_path):
    """The combined kernel reduces an array (section) of at most MAX_REDUCED_ARRAY scalars of
    32 bits or more, each thread a copy; longer arrays, narrow elements and a pointer's storage
    stay with the control loop's hooks (SPMDized), which says why."""
    source = tmp_path / "arrays.c"
    source.write_text(_ARRAY_REDUCTIONS)
    unit = UnitFacts(parse_file(source, CompileOptions()))
    regions = sorted(unit.regions.values(), key=lambda region: region.construct.coord.line)
    choices = [choose(region.construct, facts=region) for region in regions]
    assert [c.gpu for c in choices] == [CombinedConstruct] * 3 + [SpmdizedControlLoop] * 3
    assert "array of 64 elements" in choices[3].reason
    assert "array of 'char'" in choices[4].reason
    assert "one-dimensional array variable" in choices[5].reason


_COMPLEX_PRODUCT = r"""
#include <complex.h>
#include <stdio.h>
int main(void) {
    double complex product = 1.0;
    float complex all = 1.0f;
#pragma omp target teams distribute parallel for reduction(*: product) reduction(&&: all)
    for (int k = 0; k < 12; k++) {
        product *= (k % 3 ? I : 2.0);
        all = all && (k < 20);
    }
    printf("%g%+gi %g\n", creal(product) + 0.0, cimag(product) + 0.0, crealf(all));
    return 0;
}
"""


def test_a_complex_product_reduction_is_the_declared_reduction_it_amounts_to(tmp_path):
    """reduction(*: z) or && over a complex z is built as a declared reduction
    (data_sharing._complex_reduction): the facts count it so, and the schemes that fold
    atomically refuse it before any code (the fuzz found the CPU device's combined scheme
    taking the region and then failing to build it: an internal error)."""
    source = tmp_path / "product.c"
    source.write_text(_COMPLEX_PRODUCT)
    unit = UnitFacts(parse_file(source, CompileOptions()))
    (region,) = unit.regions.values()
    assert sorted(region.user_reductions) == ["&&", "*"]
    done = subprocess.run([sys.executable, "-m", "omp2gpu", "run", "--device", "cpu", str(source)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "16+0i 1\n", done.stdout                   # gcc's


_UNUSED_EXTERN = r"""
#include <stdio.h>
int offset = 5;
int main(void) {
    int out[4];
#pragma omp target map(from: out)
    {
        extern int declared_nowhere;
        for (int j = 0; j < 4; j++) out[j] = j + offset;
    }
    printf("%d %d\n", out[0], out[3]);
    return 0;
}
"""


def test_an_unused_extern_declaration_in_a_region_is_one_of_its_globals(tmp_path):
    """`extern int x;` inside a region binds x where it is declared (codegen's
    declare_external_in_block), used or not: the facts count it, so the region runs on the
    host with a remark rather than reaching a scheme that cannot build it (the fuzz's
    internal error; gcc accepts the program, the name defined nowhere)."""
    source = tmp_path / "unused_extern.c"
    source.write_text(_UNUSED_EXTERN)
    unit = UnitFacts(parse_file(source, CompileOptions()))
    (region,) = unit.regions.values()
    assert ("main", "declared_nowhere") in region.callee_globals
    done = subprocess.run([sys.executable, "-m", "omp2gpu", "run", "--device", "cpu", str(source)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout == "5 8\n", done.stderr


_CLAUSE_CALLS = r"""
#include <stdio.h>
int counter[2] = {7, 7};
static int noisy(int k) { counter[1]++; return k; }
int main(void) {
    int asked = 2, seen = 0;
#pragma omp target teams distribute parallel for map(tofrom: seen) num_threads(noisy(asked))
    for (int i = 0; i < 100; i++)
        if (i == 0) seen += 1;
#pragma omp target teams map(tofrom: seen)
    {
#pragma omp distribute parallel for num_threads(noisy(asked))
        for (int i = 0; i < 100; i++)
            if (i == 0) seen += 1;
    }
    printf("%d %d\n", seen, counter[1]);
    return 0;
}
"""


def test_a_function_a_clause_calls_in_the_kernel_is_one_of_its_callees(tmp_path):
    """num_threads(noisy(k)), on the target directive or on one inside the region, is
    evaluated by the team's code: the function is the region's callee and its globals
    its facts' (an internal error before: the scheme met `counter` compiling it); both
    regions run on the host with the remark, and print what gcc's program prints."""
    source = tmp_path / "clause_calls.c"
    source.write_text(_CLAUSE_CALLS)
    unit = UnitFacts(parse_file(source, CompileOptions()))
    for region in unit.regions.values():
        assert "noisy" in region.callees and ("noisy", "counter") in region.callee_globals
    done = subprocess.run([sys.executable, "-m", "omp2gpu", "run", "--device", "cpu", str(source)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and done.stdout == "2 9\n", done.stderr


_NUM_THREADS_SOURCE = r"""
int counts[2] = {4, 8};
static int doubled(int k) { return 2 * k; }
static int bumped(int *k) { return ++*k; }

int main(int argc, char **argv) {
    int tested[3] = {1, 3, 10};
    volatile int changing[1] = {5};
    int *p = tested, a[64], t = argc;
#pragma omp target teams distribute parallel for map(from: a) num_threads(tested[t])
    for (int i = 0; i < 64; i++) a[i] = i;
#pragma omp target teams distribute parallel for map(from: a) num_threads(doubled(t))
    for (int i = 0; i < 64; i++) a[i] = i;
#pragma omp target teams distribute parallel for map(from: a) num_threads(*p)
    for (int i = 0; i < 64; i++) a[i] = i;
#pragma omp target teams distribute parallel for map(from: a) num_threads(changing[0])
    for (int i = 0; i < 64; i++) a[i] = i;
#pragma omp target teams distribute parallel for map(from: a) num_threads(counts[t])
    for (int i = 0; i < 64; i++) a[i] = i;
#pragma omp target teams distribute parallel for map(from: a) num_threads(bumped(&t))
    for (int i = 0; i < 64; i++) a[i] = i;
    return a[1];
}
"""


def test_a_num_threads_the_host_reads_harmlessly_keeps_the_combined_scheme(tmp_path):
    """As Clang evaluates a combined construct's num_threads on the host: an element of the
    function's own array, a call returning such an expression. Not: a pointer's target, a
    volatile array, a global (the device has its own), a call that writes."""
    source = tmp_path / "num_threads.c"
    source.write_text(_NUM_THREADS_SOURCE)
    unit = UnitFacts(parse_file(source, CompileOptions()))
    choices = {region.construct.coord.line: choose(region.construct, "auto", facts=region)
               for region in unit.regions.values()}
    assert {line: choice.gpu for line, choice in choices.items()} == {
        10: CombinedConstruct, 12: CombinedConstruct, 14: SpmdizedControlLoop,
        16: SpmdizedControlLoop, 18: SpmdizedControlLoop, 20: SpmdizedControlLoop}
    assert choices[10].reason.endswith("its num_threads evaluated by the host at the launch")   # --explain
