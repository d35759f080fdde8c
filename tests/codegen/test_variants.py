"""`declare variant`, `metadirective` and `dispatch` in generated code (codegen/openmp:
hooks.call_variant, metadirective_code.py, dispatch.py; plans by device in
region_plan.py): what each device's module calls and builds, and what runs."""

from __future__ import annotations

import re
import shutil
import subprocess
import textwrap

import pytest
from program_runs_here import REPO_ROOT, run_on

from omp2gpu import device_driver, driver
from omp2gpu.diagnostics import CompileError

VARIANTS = """
    #include <stdio.h>
    int gpu_scale(int x);
    int cpu_scale(int x);
    #pragma omp declare variant(gpu_scale) match(device={arch("nvptx")})
    #pragma omp declare variant(cpu_scale) match(device={kind(nohost, cpu)})
    int scale(int x) { return 10 * x; }
    int gpu_scale(int x) { return 1000 * x; }
    int cpu_scale(int x) { return 100 * x; }
    int main(void) {
        int on_device = 0, on_host = scale(1);
        #pragma omp target map(from: on_device)
        on_device = scale(1);
        printf("%d %d\\n", on_host, on_device);
        return 0;
    }
"""

METADIRECTIVE = """
    #include <stdio.h>
    #define N 1000
    int main(void) {
        double a[N];
        #pragma omp target map(from: a)
        {
            #pragma omp metadirective when(device={arch("nvptx")}: teams distribute parallel for) \\
                default(parallel for)
            for (int i = 0; i < N; i++) a[i] = 0.5 * i;
        }
        double s = 0;
        for (int i = 0; i < N; i++) s += a[i];
        printf("%.1f\\n", s);
        return 0;
    }
"""


def _translate(tmp_path, source: str, **options):
    path = tmp_path / "prog.c"
    path.write_text(textwrap.dedent(source))
    return driver.translate(path, driver.CompileOptions(**options), cpu=True)


def _called(module_text: str) -> set[str]:
    return set(re.findall(r"call \w+ @\"?([\w.$]+)", module_text))


def test_each_device_module_calls_its_variant(tmp_path):
    translation = _translate(tmp_path, VARIANTS)
    gpu = _called(str(translation.device.module))
    assert "gpu_scale" in gpu and not {"scale", "cpu_scale"} & gpu
    cpu = _called(str(translation.cpu.module))
    assert "cpu_scale" in cpu and "gpu_scale" not in cpu
    host = _called(str(translation.host))
    assert "scale" in host and not {"gpu_scale", "cpu_scale"} & host     # the host version: the base


def test_the_control_loop_calls_the_gpu_variant(tmp_path):
    """The control loop's own hooks compile for the GPU too: a call in its kernel turns into
    the GPU's variant (it kept the base function: the suite's device_type(nohost) tests)."""
    translation = _translate(tmp_path, VARIANTS, scheme="control-loop")
    assert [k.scheme.name for k in translation.device.kernels] == ["control-loop"]
    gpu = _called(str(translation.device.module))
    assert "gpu_scale" in gpu and not {"scale", "cpu_scale"} & gpu


def test_each_device_runs_its_variant(tmp_path):
    assert run_on(tmp_path, VARIANTS, "host") == "10 10\n"
    assert run_on(tmp_path, VARIANTS, "cpu") == "10 100\n"


def test_a_metadirective_picks_a_scheme_per_device(tmp_path):
    translation = _translate(tmp_path, METADIRECTIVE)
    assert [k.scheme.name for k in translation.device.kernels] == ["combined"]
    (cpu_kernel,) = translation.cpu.kernels
    assert cpu_kernel.plan.one_team and not translation.device.kernels[0].plan.one_team
    assert run_on(tmp_path, METADIRECTIVE, "host") == run_on(tmp_path, METADIRECTIVE, "cpu") == "249750.0\n"
    # --explain says what each device made of it
    assert any(r.endswith("remark: metadirective on the GPU: 'teams distribute parallel for'")
               for r in translation.device.remarks)
    assert any(r.endswith("remark: metadirective on the CPU device: 'parallel for'") for r in translation.cpu.remarks)


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
@pytest.mark.parametrize("scheme", ["auto", "control-loop"])
def test_variant_and_metadirective_ptx_assembles(tmp_path, scheme):
    for source in (VARIANTS, METADIRECTIVE):
        translation = _translate(tmp_path, source, scheme=scheme)
        ptx = device_driver.device_ptx(translation.device, driver.CompileOptions(scheme=scheme))
        (tmp_path / "k.ptx").write_text(ptx)
        done = subprocess.run(["ptxas", "-arch=sm_90", str(tmp_path / "k.ptx"), "-o", "/dev/null"],
                              capture_output=True, text=True)
        assert done.returncode == 0, done.stderr


RUN_TIME_CHOICE = """
    #include <omp.h>
    #include <stdio.h>
    int main(int argc, char **argv) {
        int n = argc * 100, inside = -1;
        #pragma omp metadirective when(user={condition(n > 150)}: parallel num_threads(2)) default(nothing)
        { if (omp_get_thread_num() == 0) inside = omp_in_parallel(); }
        printf("%d %d\\n", n, inside);
        #pragma omp metadirective when(target_device={kind(nohost)}: target map(from: inside)) \\
            default(nothing)
        inside = omp_is_initial_device();
        printf("%d\\n", inside);
        return 0;
    }
"""


def test_a_metadirective_decided_at_run_time(tmp_path):
    assert run_on(tmp_path, RUN_TIME_CHOICE, "host") == "100 0\n1\n"
    assert run_on(tmp_path, RUN_TIME_CHOICE, "cpu", "x") == "200 1\n0\n"


DISPATCH = """
    #include <stdio.h>
    void fast(int *x);
    #pragma omp declare variant(fast) match(construct={dispatch})
    void slow(int *x) { *x = 1; }
    void fast(int *x) { *x = 2; }
    int main(int argc, char **argv) {
        int a = 0, b = 0, c = 0, d = 0;
        slow(&a);
        #pragma omp dispatch
        slow(&b);
        #pragma omp dispatch novariants(argc > 0)
        slow(&c);
        #pragma omp dispatch nocontext(argc > 5)
        slow(&d);
        printf("%d %d %d %d\\n", a, b, c, d);
        return 0;
    }
"""


def test_dispatch_clauses(tmp_path):
    assert run_on(tmp_path, DISPATCH, "host") == "1 2 1 2\n"


@pytest.mark.parametrize("source, message", [
    ("void dev(void);\n#pragma omp declare target to(dev) device_type(nohost)\nvoid dev(void) {}\n"
     "int main(void) { dev(); return 0; }\n",
     "'dev' is 'declare target device_type(nohost)': it has no host version to call here"),
    ("void cpu_only(void) {}\n#pragma omp declare target to(cpu_only) device_type(host)\n"
     "int main(void) {\n#pragma omp target\ncpu_only();\nreturn 0; }\n",
     "'cpu_only' is 'declare target device_type(host)': it has no device version to call in a target region"),
])
def test_device_type_calls_without_a_version(tmp_path, source, message):
    with pytest.raises(CompileError) as info:
        _translate(tmp_path, source)
    assert info.value.message == message


CORPUS = REPO_ROOT / "tests" / "programs"


def test_the_corpus_variant_program_calls_each_devices_variant():
    """tests/programs/declare_variant_device_kernels.c prints the same on every device;
    here, which function each device's kernels call."""
    translation = driver.translate(CORPUS / "declare_variant_device_kernels.c", driver.CompileOptions(), cpu=True)
    gpu, cpu = _called(str(translation.device.module)), _called(str(translation.cpu.module))
    assert "spring_force_gpu" in gpu and not {"spring_force", "spring_force_cpu"} & gpu
    assert "spring_force_cpu" in cpu and not {"spring_force", "spring_force_gpu"} & cpu
    host = _called(str(translation.host))
    assert "spring_force" in host and not {"spring_force_gpu", "spring_force_cpu"} & host


def test_the_corpus_metadirective_program_takes_the_gpu_path_and_the_cpu_path():
    """tests/programs/metadirective_stencil_paths.c: SPMD kernels on the GPU, one team of
    `parallel for simd` on the CPU device."""
    translation = driver.translate(CORPUS / "metadirective_stencil_paths.c", driver.CompileOptions(), cpu=True)
    assert [k.scheme.name for k in translation.device.kernels] == ["combined", "combined"]
    assert all(not k.plan.one_team for k in translation.device.kernels)
    assert all(k.plan.one_team and k.plan.construct.body.block_items[0].directive.kind == "parallel for simd"
               for k in translation.cpu.kernels)


NOHOST_CHAIN = """
    #include <stdio.h>
    int g(int x) { return x + 1; }
    int f(int x) { return g(x) * 2; }
    #pragma omp declare target enter(f, g) device_type(nohost)
    int main(void) {
        int r = 0;
        #pragma omp target map(tofrom: r)
        r = f(3);
        printf("%d\\n", r);
        return 0;
    }
"""


def test_nohost_functions_call_each_other_and_run_in_target_regions(tmp_path):
    """The host copy of a nohost function is no host code: its calls are not checked."""
    assert run_on(tmp_path, NOHOST_CHAIN, "cpu") == run_on(tmp_path, NOHOST_CHAIN, "host") == "8\n"
