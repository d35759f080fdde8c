"""Work-group functions for the CPU device (codegen/openmp/cpu/workgroup.py): which
scheme each region gets, the entry ABI, and that the work-item loop of a combined
construct is what LLVM's loop vectoriser vectorises."""

from __future__ import annotations

import textwrap

import llvmlite.binding as llvm
import pytest

from omp2gpu import cpu_driver, driver
from omp2gpu.offload.abi import CPU_COMBINED, CPU_SEQUENTIAL, CPU_TEAMS
from omp2gpu.targets import host


def cpu_build(tmp_path, source: str):
    path = tmp_path / "prog.c"
    path.write_text(textwrap.dedent(source))
    return driver.translate(path, driver.CompileOptions(), cpu=True).cpu


def optimised(build) -> str:
    """The CPU device's module as a native program's image holds it: the runtime linked in,
    optimised at the CPU device's level."""
    module = cpu_driver.CpuImage(cpu_driver.cpu_code(build)).linked()
    host.optimise(module, cpu_driver.KERNEL_OPT_LEVEL)
    return str(module)


def function_text(ir_text: str, name: str) -> str:
    start = ir_text.index(f"@{name}(")
    return ir_text[start:ir_text.index("\n}\n", start)]


VADD = """
    void vadd(int n, double *a, const double *b, const double *c) {
        int i;
        #pragma omp target teams distribute parallel for map(tofrom: a[0:n]) map(to: b[0:n], c[0:n])
        for (i = 0; i < n; i++)
            a[i] += b[i] + c[i];
    }
"""


def test_combined_construct_is_a_vectorised_work_item_loop(tmp_path):
    build = cpu_build(tmp_path, VADD)
    (kernel,) = build.kernels
    assert kernel.scheme.name == CPU_COMBINED
    body = function_text(optimised(build), kernel.kernel_name)
    assert "vector.body" in body and "x double>" in body
    calls = [line for line in body.splitlines() if " call " in line and "@llvm." not in line]
    assert calls == []                                          # no runtime call at all


def test_entry_takes_the_pools_arguments(tmp_path):
    build = cpu_build(tmp_path, VADD)
    module = llvm.parse_assembly(optimised(build))
    entry = module.get_function(build.kernels[0].kernel_name)
    assert [str(a.type) for a in entry.arguments] == ["ptr", "i64", "i64", "i32"]
    assert entry.linkage == llvm.Linkage.external
    # everything else is internal, so it inlines and leaves no symbol to clash
    assert all(f.linkage == llvm.Linkage.internal for f in module.functions
               if not f.is_declaration and f.name != entry.name)


def test_reduction_folds_one_partial_per_group_atomically(tmp_path):
    build = cpu_build(tmp_path, """
        long sum(int n, const int *a) {
            long s = 0;
            int i;
            #pragma omp target teams distribute parallel for map(to: a[0:n]) reduction(+: s)
            for (i = 0; i < n; i++)
                s += a[i];
            return s;
        }
    """)
    body = function_text(optimised(build), build.kernels[0].kernel_name)
    assert body.count("atomicrmw add") == 1
    assert "vector.body" in body


def _schemes(tmp_path, construct):
    build = cpu_build(tmp_path, f"""
        #include <omp.h>
        int f(void) {{
            int x = omp_get_num_threads();
            {construct}
            return x;
        }}
    """)
    llvm.parse_assembly(optimised(build))          # the CPU device's module is valid IR
    return [k.scheme.name for k in build.kernels], build.remarks


@pytest.mark.parametrize("construct", [
    "#pragma omp target parallel map(tofrom: x)\n {\n #pragma omp critical\n x++;\n }",
    "#pragma omp target teams num_teams(2) map(tofrom: x)\n {\n #pragma omp distribute\n"
    " for (int i = 0; i < 4; i++) {\n #pragma omp atomic\n x++;\n }\n }",
    "#pragma omp target teams distribute parallel for dist_schedule(static, 2) map(tofrom: x)\n"
    " for (int i = 0; i < 10; i++) {\n #pragma omp atomic\n x++;\n }",
    "#pragma omp target parallel map(tofrom: x)\n {\n int y = omp_get_thread_num();\n"
    " #pragma omp barrier\n #pragma omp atomic\n x += y;\n }",
    "#pragma omp target map(tofrom: x)\n {\n #pragma omp parallel for reduction(+: x)\n"
    " for (int i = 0; i < 10; i++) x += i;\n }",
])
def test_parallel_regions_become_work_item_loops(tmp_path, construct):
    schemes, _ = _schemes(tmp_path, construct)
    assert schemes == [CPU_TEAMS]


@pytest.mark.parametrize("construct", [
    "#pragma omp target map(tofrom: x)\n x = 2;",
    "#pragma omp target parallel map(tofrom: x)\n"
    " switch (x) {\n case 0: {\n #pragma omp barrier\n }\n x++;\n }",
])
def test_other_regions_run_as_one_work_item(tmp_path, construct):
    schemes, remarks = _schemes(tmp_path, construct)
    assert schemes == [CPU_SEQUENTIAL]
    if "parallel" in construct:
        assert "not cpu-teams" in remarks[0]


def test_a_region_the_gpu_refuses_runs_on_the_host_on_every_device(tmp_path):
    """The host code launches no kernel the GPU cannot build (its facts say so: choose.py), so the
    CPU device gets none either: the region runs on the host, as its remark says."""
    build = cpu_build(tmp_path, """
        int f(int x) {
        #pragma omp target parallel map(tofrom: x)
            {
        #pragma omp task
                x++;
            }
            return x;
        }
    """)
    assert build.kernels == []


def test_omp_calls_in_called_functions_number_the_work_items(tmp_path):
    build = cpu_build(tmp_path, """
        #include <omp.h>
        static int who(void) { return omp_get_thread_num(); }
        void f(int n, int *a) {
            int i;
            #pragma omp target teams distribute parallel for map(from: a[0:n])
            for (i = 0; i < n; i++)
                a[i] = who();
        }
    """)
    body = function_text(optimised(build), build.kernels[0].kernel_name)
    assert "__omp2gpu_cpu_team" in body


def test_every_launched_region_has_a_work_group_function(tmp_path):
    build = cpu_build(tmp_path, """
        int g(int n, double *a) {
            int i, k = 0;
            #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
            for (i = 0; i < n; i++) a[i] *= 2;
            #pragma omp target map(tofrom: k)
            k = 1;
            #pragma omp target parallel for map(tofrom: a[0:n])
            for (i = 0; i < n; i++) a[i] += 1;
            return k;
        }
    """)
    assert [k.scheme.name for k in build.kernels] == [CPU_COMBINED, CPU_SEQUENTIAL, CPU_TEAMS]
    assert len(build.remarks) == 3


def test_combined_runs_what_the_gpu_would_need_the_control_loop_for(tmp_path):
    """Schedules, critical sections and array reductions cost a work-item loop nothing."""
    build = cpu_build(tmp_path, """
        void f(int n, int *h, long *t) {
            int i;
            int hist[8] = {0};
            #pragma omp target teams distribute parallel for schedule(dynamic, 4) map(tofrom: t[0:1])
            for (i = 0; i < n; i++) {
                #pragma omp critical (sum)
                t[0] += i;
            }
            #pragma omp target teams distribute parallel for map(tofrom: hist) reduction(+: hist[0:8])
            for (i = 0; i < n; i++)
                hist[i % 8]++;
        }
    """)
    assert [k.scheme.name for k in build.kernels] == [CPU_COMBINED, CPU_COMBINED]
    text = optimised(build)
    assert "omp2gpu.critical.sum" in text and "cmpxchg" in text


def test_barriers_split_a_parallel_region_into_work_item_loops(tmp_path):
    """Two phases; the value a work-item computes before the barrier lives in a context array."""
    build = cpu_build(tmp_path, """
        #include <omp.h>
        void f(int *out) {
            #pragma omp target parallel map(from: out[0:64]) num_threads(8)
            {
                int me = omp_get_thread_num() * 3;
                #pragma omp barrier
                out[omp_get_thread_num()] = me;
            }
        }
    """)
    assert [k.scheme.name for k in build.kernels] == [CPU_TEAMS]
    text = str(build.module)
    wg = text[text.index(f'@"{build.kernels[0].kernel_name}.wg"'):]
    wg = wg[:wg.index("\n}\n")]
    assert wg.count('"wi.cond"') == 2 and "[256 x i32]" in wg


def test_dump_cpu_regions_names_each_regions_scheme(tmp_path, capsys):
    path = tmp_path / "prog.c"
    path.write_text(textwrap.dedent(VADD))
    driver.translate(path, driver.CompileOptions(dump=frozenset({"cpu-regions"})), cpu=True)
    err = capsys.readouterr().err
    assert "===== omp2gpu dump: cpu-regions" in err and ": cpu-combined" in err


def test_a_triangle_runs_row_by_row(tmp_path):
    """A non-rectangular nest whose innermost loop is the dependent one: each work-item
    block finds its rows' starts (one square root a row), and the rows are plain loops."""
    source = """
        void upper(int n, float *a) {
            #pragma omp target teams distribute parallel for collapse(2) map(tofrom: a[0:n*n])
            for (int i = 0; i < n; i++)
                for (int j = i; j < n; j++)
                    a[i * n + j] += i + j;
        }
    """
    build = cpu_build(tmp_path, source)
    assert [k.scheme.name for k in build.kernels] == [CPU_COMBINED]
    text = str(build.module)
    assert "row.test" in text and "iter.body" in text
    assert len([line for line in text.splitlines() if " call " in line and "sqrt" in line]) == 1
