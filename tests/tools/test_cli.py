"""The omp2gpu command line and the driver behind it, on real C programs.

Every test runs in its own temporary directory (the cwd, where default output
names land) with a private runtime IR cache (OMP2GPU_CACHE_DIR), so the host
runtime is compiled afresh where a test needs to see that happen. Runs whose
target regions might offload, and every `run --device`/`--scheme` run (the
CLI sets OMP_TARGET_OFFLOAD in its process), go through a subprocess.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from gpu_presence import gpu_present

from omp2gpu import driver, native_link
from omp2gpu.tools import cli

REPO_ROOT = Path(__file__).resolve().parents[2]

# argv[1], argc, a runtime-only value (omp_get_thread_limit is defined by
# runtime/host/omp_api.c, not the program) and macros from -D/-I/-std.
HELLO = r"""
#include <stdio.h>
#include <omp.h>
int main(int argc, char **argv) {
    printf("hello %s argc=%d limit=%d\n", argc > 1 ? argv[1] : "-", argc, omp_get_thread_limit());
    return 300;
}
"""

INITIAL_DEVICE = r"""
#include <stdio.h>
#include <omp.h>
int main(void) { printf("initial device %d\n", omp_get_initial_device()); return 0; }
"""

OPTIONS_PROGRAM = r"""
#include <stdio.h>
#include "greeting.h"
int main(int argc, char **argv) {
#if N == 1 && !defined(GONE)
    printf("%s %s argc=%d std=%ld\n", GREETING, argv[1], argc, (long)__STDC_VERSION__);
#endif
    return 300;
}
"""

OWN_WTIME = r"""
#include <stdio.h>
#include <omp.h>
double omp_get_wtime(void) { return 42.5; }
int main(void) {
    printf("wtime=%.1f limit=%d\n", omp_get_wtime(), omp_get_thread_limit());
    return 0;
}
"""

NO_MAIN = "int helper(int x) { return x + 1; }\n"

# One target region of each scheme: combined (line 8), serial (line 11) and
# one the GPU cannot run yet, so it runs on the host (line 13).
VADD = r"""
#include <stdio.h>
#define N 1000
int main(void) {
    double a[N], b[N], c[N], total = 0;
    int i, flag = 0;
    for (i = 0; i < N; i++) { a[i] = i; b[i] = 2 * i; }
    #pragma omp target teams distribute parallel for map(to: a, b) map(from: c)
    for (i = 0; i < N; i++)
        c[i] = a[i] + b[i];
    #pragma omp target map(tofrom: flag)
    flag = 42;
    #pragma omp target map(tofrom: c)
    {
        #pragma omp parallel for schedule(dynamic, 64)
        for (i = 0; i < N; i++)
            c[i] = c[i] * 2;
    }
    for (i = 0; i < N; i++) total += c[i];
    printf("total=%.1f flag=%d\n", total, flag);
    return 0;
}
"""
VADD_OUTPUT = "total=2997000.0 flag=42\n"

# Only the combined region: what `run --device gpu` needs to be able to offload.
COMBINED_ONLY = r"""
#include <stdio.h>
int main(void) {
    int a[256], i, sum = 0;
    #pragma omp target teams distribute parallel for map(from: a)
    for (i = 0; i < 256; i++)
        a[i] = 3 * i;
    for (i = 0; i < 256; i++) sum += a[i];
    printf("sum=%d\n", sum);
    return 0;
}
"""

HOST_ONLY_TARGET = r"""
int main(void) {
    int x[8], i;
    #pragma omp target map(from: x)
    {
        #pragma omp parallel for
        for (i = 0; i < 8; i++) x[i] = i;
    }
    return x[7] - 7;
}
"""


@pytest.fixture(autouse=True)
def workspace(monkeypatch, tmp_path):
    """The cwd and a private runtime cache."""
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("OMP_TARGET_OFFLOAD", raising=False)   # restored even if a run sets it
    monkeypatch.delenv("OMP2GPU_DEBUG", raising=False)
    monkeypatch.chdir(tmp_path)
    yield tmp_path


def _source(root: Path, name: str, text: str) -> str:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return str(path)


def _python_path() -> str:
    """This checkout first, then whatever PYTHONPATH already holds (say, carried wheels)."""
    return os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))


def _omp2gpu(*argv, cwd=None, env_extra=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=_python_path(), **(env_extra or {}))
    return subprocess.run([sys.executable, "-m", "omp2gpu", *argv], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=300)


def _ptxas():
    from omp2gpu.targets import nvptx
    return nvptx.find_ptxas()


needs_ptxas = pytest.mark.skipif(_ptxas() is None, reason="ptxas not found")


# --- option parsing ----------------------------------------------------------

def test_c_compiler_style_options():
    args, program_args = cli.parse_command_line(
        ["run", "prog.c", "-O3", "-std=gnu99", "-DFOO", "-D", "BAR=2", "-DBAZ=x y", "-Iinc", "-I", "inc2",
         "-U", "NDEBUG", "-fopenmp", "-lm", "-w", "-Wall", "--dump=ast,ir", "--dump", "opt-ir",
         "--", "alpha", "-x", "--"])
    options = cli.compile_options(args)
    assert args.input == "prog.c"
    assert program_args == ["alpha", "-x", "--"]
    assert options == driver.CompileOptions(
        include_dirs=("inc", "inc2"), defines=("FOO", "BAR=2", "BAZ=x y"), undefines=("NDEBUG",),
        opt_level=3, std="gnu99", warnings_enabled=False, dump=frozenset({"ast", "ir", "opt-ir"}))


@pytest.mark.parametrize("flag, level", [("-O0", 0), ("-O1", 1), ("-O2", 2), ("-O3", 3), ("-O", 1),
                                         ("-Os", 2), ("-Ofast", 3)])
def test_optimisation_levels(flag, level):
    args, _ = cli.parse_command_line(["compile", flag, "prog.c"])
    assert args.opt_level == level


def test_defaults():
    args, program_args = cli.parse_command_line(["compile", "prog.c"])
    assert cli.compile_options(args) == driver.CompileOptions()
    assert program_args == [] and not args.emit_llvm and args.output is None
    assert not args.device_assembly and not args.explain
    run_args, _ = cli.parse_command_line(["run", "prog.c"])
    assert run_args.device == "auto"


def test_offload_options():
    args, _ = cli.parse_command_line(["compile", "prog.c", "-S", "--emit-llvm", "--explain",
                                      "--scheme", "serial", "--offload-arch", "sm_80"])
    assert args.device_assembly and args.emit_llvm and args.explain
    options = cli.compile_options(args)
    assert (options.scheme, options.offload_arch, options.offload) == ("serial", "sm_80", True)
    args, _ = cli.parse_command_line(["run", "prog.c", "--device", "gpu"])
    assert args.device == "gpu"


@pytest.mark.parametrize("argv", [
    ["run", "prog.c", "-O7"],
    ["run", "prog.c", "-std=c77"],
    ["run", "prog.c", "--dump=regionz"],
    ["run", "prog.c", "--bogus"],
    ["run", "prog.c", "--device", "fpga"],
    ["run", "prog.c", "-S"],
    ["compile", "prog.c", "--scheme", "spmd"],
    ["compile", "prog.c", "--device", "gpu"],
    ["compile", "prog.c", "--", "arg"],
    ["run"],
    [],
])
def test_bad_command_lines_exit_2(argv, capsys):
    assert cli.main(argv) == 2
    assert "usage:" in capsys.readouterr().err


def test_help_and_version(capsys):
    assert cli.main(["--help"]) == 0
    assert cli.main(["--version"]) == 0
    assert "omp2gpu 0.1.0" in capsys.readouterr().out


# --- errors ------------------------------------------------------------------

def test_missing_input(capsys, tmp_path):
    missing = str(tmp_path / "x.c")
    assert cli.main(["run", missing]) == 1
    assert capsys.readouterr().err == f"omp2gpu: error: no such file: {missing}\n"


def test_compile_error_is_formatted_with_location(workspace, capsys):
    src = _source(workspace, "bad.c", "int x;\n#error nope\n")
    assert cli.main(["run", src]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{src}:2:2: error: #error nope\n#error nope\n ^")
    assert "Traceback" not in err


def test_semantic_error_is_located(workspace, capsys):
    src = _source(workspace, "undeclared.c", "int main(void) {\n    return missing + 1;\n}\n")
    assert cli.main(["compile", src]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{src}:2:12: error: ") and "missing" in err
    assert err.endswith("\n    return missing + 1;\n           ^\n") and "Traceback" not in err


def _crash(*args, **kwargs):
    raise ZeroDivisionError("the front end fell over")


def test_internal_error_exit_2_without_traceback(workspace, capsys, monkeypatch):
    monkeypatch.setattr(driver, "translate", _crash)
    src = _source(workspace, "hello.c", HELLO)
    assert cli.main(["compile", src]) == 2
    err = capsys.readouterr().err
    assert "omp2gpu: internal compiler error: ZeroDivisionError: the front end fell over" in err
    assert "report" in err and "Traceback" not in err


def test_internal_error_traceback_with_debug(workspace, capsys, monkeypatch):
    monkeypatch.setattr(driver, "translate", _crash)
    monkeypatch.setenv("OMP2GPU_DEBUG", "1")
    src = _source(workspace, "hello.c", HELLO)
    assert cli.main(["compile", src, "-S"]) == 2
    err = capsys.readouterr().err
    assert "Traceback" in err and "ZeroDivisionError" in err


def test_missing_main(workspace, capsys):
    src = _source(workspace, "lib.c", NO_MAIN)
    assert cli.main(["run", src]) == 1
    assert f"{src}: undefined reference to 'main'" in capsys.readouterr().err


def test_unwritable_output(workspace, capsys):
    src = _source(workspace, "hello.c", HELLO)
    assert cli.main(["compile", src, "-o", str(workspace / "no" / "such" / "dir.o")]) == 1
    assert "omp2gpu: error: cannot write" in capsys.readouterr().err


# --- the host pipeline through the CLI ---------------------------------------

def test_run_links_runtime_passes_args_and_masks_status(workspace, capfd):
    src = _source(workspace, "hello.c", HELLO)
    assert cli.main(["run", src, "--", "world", "b"]) == 300 & 0xFF
    assert capfd.readouterr().out == "hello world argc=3 limit=2147483647\n"


def test_run_passes_preprocessor_options(workspace, capfd, monkeypatch):
    from omp2gpu import pipeline  # where the driver's steps call preprocess
    real, calls = pipeline.preprocess, []

    def spy(path, include_dirs, defines, undefines, std, **keywords):
        calls.append((path, include_dirs, defines, undefines, std, keywords.get("forced")))
        return real(path, include_dirs, defines, undefines, std, **keywords)
    monkeypatch.setattr(pipeline, "preprocess", spy)

    _source(workspace, "inc/greeting.h", '#define GREETING "hi"\n')
    src = _source(workspace, "opts.c", OPTIONS_PROGRAM)
    _source(workspace, "forced.h", "#define FORCED 1\n")
    status = cli.main(["run", src, "-DN=1", "-DGONE", "-UGONE", "-Iinc", "-std=c11", "-O1",
                       "-include", "forced.h", "--", "world", "b"])
    assert status == 300 & 0xFF
    assert capfd.readouterr().out == "hi world argc=3 std=201112\n"
    forced = (("-include", str(workspace / "forced.h")),)
    assert (src, ["inc"], ["N=1", "GONE"], ["GONE"], "c11", forced) in calls


def test_runtime_ir_is_cached(workspace, monkeypatch, capfd):
    src = _source(workspace, "hello.c", HELLO)
    assert cli.main(["run", src, "--", "x"]) == 44
    cached = list((workspace / "cache").glob("host-runtime-*.ll"))
    assert len(cached) == 1 and "omp_get_initial_device" in cached[0].read_text()

    def no_recompiling():
        raise AssertionError("the runtime was recompiled despite a current cache")
    with monkeypatch.context() as patch:
        patch.setattr(driver, "compile_host_runtime", no_recompiling)
        assert cli.main(["run", src, "--", "x"]) == 44
    assert capfd.readouterr().out == "hello x argc=2 limit=2147483647\n" * 2

    # Editing the runtime changes the key, so it is compiled afresh (a copy of
    # the runtime tree, edited, stands in for the real one).
    from omp2gpu import runtime_files
    runtime = workspace / "runtime"
    shutil.copytree(runtime_files.runtime_root(), runtime)
    monkeypatch.setattr(runtime_files, "runtime_root", lambda: runtime)
    api = runtime / "host" / "omp_api.c"
    api.write_text(api.read_text().replace("int omp_get_initial_device(void) { return omp_get_num_devices(); }",
                                           "int omp_get_initial_device(void) { return 77; }"))
    assert "77" in api.read_text()
    fresh = driver.host_runtime_ir()
    assert fresh != cached[0].read_text()
    assert len(list((workspace / "cache").glob("host-runtime-*.ll"))) == 2
    initial = _source(workspace, "initial.c", INITIAL_DEVICE)
    assert cli.main(["run", initial]) == 0
    assert capfd.readouterr().out == "initial device 77\n"


def test_program_definition_wins_over_runtime(workspace, capfd):
    src = _source(workspace, "own.c", OWN_WTIME)
    assert cli.main(["run", src]) == 0
    assert capfd.readouterr().out == "wtime=42.5 limit=2147483647\n"


def test_compile_emit_llvm_to_stdout(workspace, capsys):
    src = _source(workspace, "hello.c", HELLO)
    assert cli.main(["compile", src, "--emit-llvm", "-o", "-", "-O2"]) == 0
    out = capsys.readouterr().out
    assert "i32 @main(" in out and "target triple" in out
    assert re.search(r"^define .*i32 @omp_get_num_devices\(\)", out, re.M)  # the runtime's, linked in


def test_compile_default_output_names(workspace):
    src = _source(workspace / "src", "hello.c", HELLO)  # not in the cwd
    assert cli.main(["compile", src, "--emit-llvm"]) == 0
    assert "i32 @main(" in (workspace / "hello.ll").read_text()
    assert cli.main(["compile", "-c", src]) == 0
    assert (workspace / "hello.o").read_bytes()[:4] == b"\x7fELF"
    assert not (workspace / "src" / "hello.o").exists()


@pytest.mark.parametrize("program, args, expected", [
    (HELLO, ["there"], (44, "hello there argc=2 limit=2147483647\n")),
    (VADD, [], (0, VADD_OUTPUT)),
], ids=["hello", "target-regions"])
def test_compile_object_file_runs_when_linked(workspace, program, args, expected):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to link the object file with")
    src = _source(workspace, "prog.c", program)
    assert cli.main(["compile", "-c", src, "-o", "prog.o"]) == 0
    # `omp2gpu link-flags`: the offload runtime and the host's OpenMP runtime
    subprocess.run([cc, "prog.o", "-o", "prog", *native_link.runtime_link_flags(), "-lm"], check=True, cwd=workspace)
    done = subprocess.run(["./prog", *args], capture_output=True, text=True, cwd=workspace)
    assert (done.returncode, done.stdout) == expected


def test_dump_stages_print_banners(workspace, capfd):
    src = _source(workspace, "hello.c", HELLO)
    assert cli.main(["run", src, "--dump=ast,ir,opt-ir", "--", "x"]) == 44
    captured = capfd.readouterr()
    err = captured.err
    assert captured.out == "hello x argc=2 limit=2147483647\n"
    for stage in ("ast", "ir", "opt-ir"):
        assert f"===== omp2gpu dump: {stage} ({src}) =====" in err
        assert f"===== end of {stage} =====" in err
    assert "FileAST: " in err and "from hello.c" in err and "FuncDef" in err
    assert err.index("dump: ast") < err.index("dump: ir ") < err.index("dump: opt-ir")
    ir_dump = err[err.index("dump: ir "):err.index("end of ir ")]
    assert re.search(r'^define i32 @"?main"?\(', ir_dump, re.M)
    assert not re.search(r'^define .*@"?omp_get_thread_limit', ir_dump, re.M)  # before linking


def test_runtime_build_does_not_dump(workspace, capfd):
    src = _source(workspace, "hello.c", HELLO)
    assert not (workspace / "cache").exists()  # so this run compiles the runtime
    assert cli.main(["run", src, "--dump=ir", "--", "x"]) == 44
    assert list((workspace / "cache").glob("host-runtime-*.ll"))
    assert capfd.readouterr().err.count("===== omp2gpu dump") == 1


def test_runs_as_module(tmp_path):
    env = dict(os.environ, PYTHONPATH=_python_path())
    for module in ("omp2gpu", "omp2gpu.tools.cli"):
        done = subprocess.run([sys.executable, "-m", module, "run", str(tmp_path / "x.c")],
                              capture_output=True, text=True, env=env)
        assert (done.returncode, done.stderr) == (1, f"omp2gpu: error: no such file: {tmp_path / 'x.c'}\n")


def test_exit_status_and_flushed_output(workspace):
    src = _source(workspace, "bye.c", '#include <stdio.h>\n#include <stdlib.h>\n'
                                      'int main(void) { printf("bye"); exit(3); }\n')
    done = _omp2gpu("run", src)
    assert (done.returncode, done.stdout, done.stderr) == (3, "bye", "")


# --- device code: compile -S, --emit-llvm, --explain, --offload-arch ---------

def test_compile_ptx_default_arch(workspace):
    from omp2gpu.targets import nvptx
    src = _source(workspace, "vadd.c", VADD)
    assert cli.main(["compile", "-S", src, "-o", "x.ptx"]) == 0
    ptx = (workspace / "x.ptx").read_text()
    assert ".entry" in ptx and "__omp_offloading_main_l8" in ptx
    assert f".target {nvptx.default_arch()}" in ptx
    if not gpu_present():
        assert ".target sm_90" in ptx


def test_compile_ptx_default_output_name(workspace):
    src = _source(workspace / "src", "vadd.c", VADD)
    assert cli.main(["compile", "-S", src]) == 0
    assert ".entry" in (workspace / "vadd.ptx").read_text()


def test_compile_ptx_offload_arch(workspace):
    src = _source(workspace, "vadd.c", VADD)
    assert cli.main(["compile", "-S", src, "-o", "x.ptx", "--offload-arch", "sm_80"]) == 0
    ptx = (workspace / "x.ptx").read_text()
    assert ".target sm_80" in ptx and ".target sm_90" not in ptx


@needs_ptxas
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_compiled_ptx_assembles(workspace, arch):
    src = _source(workspace, "vadd.c", VADD)
    assert cli.main(["compile", "-S", src, "-o", "x.ptx", "--offload-arch", arch]) == 0
    done = subprocess.run([str(_ptxas()), f"-arch={arch}", "-o", "x.cubin", "x.ptx"],
                          capture_output=True, text=True, cwd=workspace)
    assert done.returncode == 0, done.stderr
    assert (workspace / "x.cubin").read_bytes()[:4] == b"\x7fELF"


def test_unknown_offload_arch_is_a_clean_error(workspace, capsys):
    src = _source(workspace, "vadd.c", VADD)
    status = cli.main(["compile", "-S", src, "-o", "x.ptx", "--offload-arch", "sm_12"])
    err = capsys.readouterr().err
    assert "internal compiler error" not in err and "Traceback" not in err
    assert "sm_12" in err and status == 1
    assert not (workspace / "x.ptx").exists()


def test_compile_device_llvm(workspace):
    src = _source(workspace, "vadd.c", VADD)
    assert cli.main(["compile", "-S", "--emit-llvm", src, "-o", "device.ll"]) == 0
    text = (workspace / "device.ll").read_text()
    assert "nvptx64-nvidia-cuda" in text and "__omp_offloading_main_l8" in text
    assert cli.main(["compile", "-S", "--emit-llvm", src]) == 0  # default name: FILE.device.ll
    assert "nvptx64-nvidia-cuda" in (workspace / "vadd.device.ll").read_text()


def test_compile_device_llvm_to_stdout(workspace, capsys):
    src = _source(workspace, "vadd.c", VADD)
    assert cli.main(["compile", "-S", "--emit-llvm", src, "-o", "-"]) == 0
    out = capsys.readouterr().out
    assert "nvptx64-nvidia-cuda" in out and "define i32 @main(" not in out


def test_explain_names_each_regions_scheme(workspace, capsys):
    src = _source(workspace, "vadd.c", VADD)
    assert cli.main(["compile", "--explain", src]) == 0
    captured = capsys.readouterr()
    remarks = captured.err.strip().splitlines()
    assert len(remarks) == 3, remarks
    assert remarks[0].startswith(f"{src}:8:") and "combined scheme" in remarks[0]
    assert remarks[1].startswith(f"{src}:11:") and "serial scheme" in remarks[1]
    assert remarks[2].startswith(f"{src}:13:") and "spmdized scheme" in remarks[2]
    assert all(": remark: target region" in remark for remark in remarks)
    assert not list(workspace.glob("*.o")) and not list(workspace.glob("*.ptx"))  # explains only


def test_explain_follows_scheme_option(workspace, capsys):
    src = _source(workspace, "vadd.c", VADD)
    assert cli.main(["compile", "--explain", "--scheme", "serial", src]) == 0
    remarks = capsys.readouterr().err.strip().splitlines()
    assert len(remarks) == 3
    assert "serial scheme" not in remarks[0] and "runs on the host" in remarks[0]
    assert "serial scheme" in remarks[1] and "runs on the host" in remarks[2]
    assert cli.main(["compile", "--explain", "--scheme", "host", src]) == 0
    remarks = capsys.readouterr().err.strip().splitlines()
    assert len(remarks) == 3 and all("runs on the host" in remark for remark in remarks)


def test_explain_with_ptx(workspace, capsys):
    src = _source(workspace, "vadd.c", VADD)
    assert cli.main(["compile", "--explain", "-S", src, "-o", "x.ptx"]) == 0
    assert capsys.readouterr().err.count("remark: target region") == 3
    assert ".entry" in (workspace / "x.ptx").read_text()


BOUNDARY_SWITCH = r"""
void limit(int n, const int *mask, const int *west, const double *v, double *out) {
    int i;
    #pragma omp target teams distribute parallel for map(to: mask[0:n], west[0:n], v[0:n]) map(from: out[0:n])
    for (i = 0; i < n; i++) {
        const int m = mask[i];
        double left = 0.0;
        switch (m & 3) {
        case 0:  left = v[west[i]]; break;
        case 1:  left = v[i]; break;
        default: left = 0.0;
        }
        out[i] = v[i] - left;
    }
}
int main(void) { return 0; }
"""


def test_explain_names_the_statements_whose_loads_are_speculated(workspace, capsys):
    src = _source(workspace, "limit.c", BOUNDARY_SWITCH)
    assert cli.main(["compile", "--explain", src]) == 0
    remarks = capsys.readouterr().err.strip().splitlines()
    assert remarks[-1].startswith(f"{src}:8:9: remark: every arm of this statement runs"), remarks
    assert cli.main(["compile", "--explain", "-fno-speculate-mapped-loads", src]) == 0
    assert "every arm" not in capsys.readouterr().err


def test_explain_without_target_regions(workspace, capsys):
    src = _source(workspace, "hello.c", HELLO)
    assert cli.main(["compile", "--explain", src]) == 0
    assert capsys.readouterr().err == f"{src}: no target regions\n"


@pytest.mark.parametrize("program", [HELLO, HOST_ONLY_TARGET], ids=["no-target", "host-only-target"])
def test_compile_device_code_without_gpu_regions_is_an_error(workspace, capsys, program):
    src = _source(workspace, "prog.c", program)
    assert cli.main(["compile", "-S", "--scheme", "host", src, "-o", "x.ptx"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("omp2gpu: error: ") and "no target region runs on the GPU" in err
    assert "Traceback" not in err and not (workspace / "x.ptx").exists()


# --- running target regions: run --device / --scheme ------------------------

@pytest.mark.parametrize("options", [[], ["--device", "host"], ["--scheme", "host"],
                                     ["--scheme", "serial"], ["--device", "auto"]])
def test_run_target_program(workspace, options):
    src = _source(workspace, "vadd.c", VADD)
    done = _omp2gpu("run", src, *options)
    assert (done.returncode, done.stdout, done.stderr) == (0, VADD_OUTPUT, "")


def test_run_device_host_ignores_the_environment(workspace):
    src = _source(workspace, "vadd.c", COMBINED_ONLY)
    done = _omp2gpu("run", src, "--device", "host", env_extra={"OMP_TARGET_OFFLOAD": "MANDATORY"})
    assert (done.returncode, done.stdout, done.stderr) == (0, "sum=97920\n", "")


def test_run_sets_the_programs_environment_not_its_own(workspace, capfd):
    """--device and --cpu-schedule are the program's environment (config.child_environment),
    not the compiler's: a later compilation in the same process does not see them."""
    src = _source(workspace, "vadd.c", COMBINED_ONLY)
    assert cli.main(["run", src, "--device", "cpu", "--cpu-schedule", "dynamic,2"]) == 0
    assert capfd.readouterr().out == "sum=97920\n"
    assert not {"OMP_TARGET_OFFLOAD", "OMP2GPU_DEVICES", "OMP2GPU_CPU_SCHEDULE"} & set(os.environ)


def test_a_bad_setting_is_an_error_before_any_work(workspace, capsys, monkeypatch):
    """A variable the compiler reads deep in a build (here, only when a cache is looked up) is
    checked when the command starts (command_guard, config.check_compiler_settings)."""
    src = _source(workspace, "hello.c", HELLO)
    monkeypatch.setenv("OMP2GPU_CODE_CACHE", "sometimes")
    assert cli.main(["compile", "-c", src]) == 1
    assert capsys.readouterr().err == ("omp2gpu: error: OMP2GPU_CODE_CACHE=sometimes: must be 1 or 0 "
                                         "(true/false, yes/no, on/off)\n")
    assert not (workspace / "hello.o").exists()


def test_a_bad_cpu_schedule_is_an_error_naming_the_variable(workspace):
    src = _source(workspace, "vadd.c", COMBINED_ONLY)
    done = _omp2gpu("run", src, "--device", "cpu", env_extra={"OMP2GPU_CPU_SCHEDULE": "fastest"})
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    assert done.stderr == ("omp2gpu: error: OMP2GPU_CPU_SCHEDULE=fastest: unknown CPU schedule policy 'fastest' "
                           "(choose from static, dynamic, guided, steal)\n")
    done = _omp2gpu("run", src, "--cpu-schedule", "fastest")
    assert done.returncode == 1 and done.stderr.startswith("omp2gpu: error: --cpu-schedule: unknown CPU schedule")
    done = _omp2gpu("run", src, "--device", "cpu", "--cpu-schedule", "guided",
                    env_extra={"OMP2GPU_CPU_SCHEDULE": "fastest"})    # the flag's value is the program's
    assert (done.returncode, done.stdout) == (0, "sum=97920\n"), done.stderr


@pytest.mark.no_gpu
def test_run_device_gpu_without_a_gpu_fails(workspace):
    src = _source(workspace, "combined.c", COMBINED_ONLY)
    done = _omp2gpu("run", src, "--device", "gpu")
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert "OMP_TARGET_OFFLOAD=MANDATORY" in done.stderr
    assert "Traceback" not in done.stderr and "sum=" not in done.stdout


@pytest.mark.gpu
def test_run_device_gpu_with_a_gpu(workspace):
    src = _source(workspace, "combined.c", COMBINED_ONLY)
    done = _omp2gpu("run", src, "--device", "gpu")
    assert (done.returncode, done.stdout) == (0, "sum=97920\n"), done.stderr


def test_no_loads_are_speculated_under_unified_shared_memory(workspace, capsys):
    """A region may read past the sections it maps then: clamping its indices would change
    what it reads."""
    src = _source(workspace, "limit.c", "#pragma omp requires unified_shared_memory\n" + BOUNDARY_SWITCH)
    assert cli.main(["compile", "--explain", src]) == 0
    assert "every arm" not in capsys.readouterr().err
