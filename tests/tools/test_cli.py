"""The omp2gpu command line and the driver behind it.

Until the front end and codegen land, `fake_pipeline` stands in for them: a
"C file" holds LLVM IR, preprocess/parse pass it through and emit_module
returns it. That exercises everything the driver owns (stages, dumps, runtime
linking and its cache, the JIT, errors) without them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from omp2gpu import driver
from omp2gpu.diagnostics import CompileError, SourceLocation
from omp2gpu.tools import cli

REPO_ROOT = Path(__file__).resolve().parents[2]

HELLO = r"""
@fmt = constant [17 x i8] c"hello %s argc=%d\00"
@nl = constant [2 x i8] c"\0A\00"
declare i32 @printf(ptr, ...)
declare i32 @omp_get_num_devices()
define i32 @main(i32 %argc, ptr %argv) {
  %p = getelementptr ptr, ptr %argv, i32 1
  %a = load ptr, ptr %p
  %n = call i32 @omp_get_num_devices()
  %t = add i32 %n, %argc
  call i32 (ptr, ...) @printf(ptr @fmt, ptr %a, i32 %t)
  call i32 (ptr, ...) @printf(ptr @nl)
  ret i32 300
}
"""

NO_MAIN = "define i32 @helper() { ret i32 1 }\n"
RUNTIME_C = "define i32 @omp_get_num_devices() { ret i32 100 }\n"


@pytest.fixture
def fake_pipeline(monkeypatch, tmp_path):
    """Fake frontend/codegen modules, a fake runtime tree and a private cache."""
    calls = []

    def preprocess(path, include_dirs, defines, undefines, std):
        calls.append(("preprocess", path, include_dirs, defines, undefines, std))
        text = Path(path).read_text()
        if "#error" in text:
            line = text[:text.index("#error")].count("\n") + 1
            raise CompileError("#error in input", SourceLocation(path, line, 1))
        if "#crash" in text:
            raise ZeroDivisionError("the front end fell over")
        return text

    def parse(text, filename):
        return types.SimpleNamespace(text=text, filename=filename,
                                     show=lambda buf, **kw: buf.write(f"FileAST of {filename}\n"))

    def emit_module(ast, module_name, openmp):
        calls.append(("emit_module", module_name, type(openmp).__name__))
        return _IRText(ast.text)

    fakes = {
        "omp2gpu.frontend.preprocess": {"preprocess": preprocess},
        "omp2gpu.frontend.parse": {"parse": parse},
        "omp2gpu.frontend.pragmas": {"attach_pragmas": lambda ast: ast},
        "omp2gpu.codegen.module": {"emit_module": emit_module},
        "omp2gpu.codegen.openmp.host": {"HostOpenMP": type("HostOpenMP", (), {})},
    }
    for name, attrs in fakes.items():
        module = types.ModuleType(name)
        module.__dict__.update(attrs)
        monkeypatch.setitem(sys.modules, name, module)

    runtime = tmp_path / "runtime"
    (runtime / "include").mkdir(parents=True)
    (runtime / "include" / "omp.h").write_text("int omp_get_num_devices(void);\n")
    (runtime / "host").mkdir()
    (runtime / "host" / "devices.c").write_text(RUNTIME_C)
    monkeypatch.setattr("omp2gpu.runtime_files.runtime_root", lambda: runtime)
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)
    return types.SimpleNamespace(calls=calls, root=tmp_path, runtime=runtime)


class _IRText:
    """Stands in for llvmlite.ir.Module: the driver only needs str()."""

    def __init__(self, text):
        self.text = text

    def __str__(self):
        return self.text


def _source(root: Path, name: str, text: str) -> str:
    path = root / name
    path.write_text(text)
    return str(path)


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


@pytest.mark.parametrize("argv", [
    ["run", "prog.c", "-O7"],
    ["run", "prog.c", "-std=c77"],
    ["run", "prog.c", "--dump=regionz"],
    ["run", "prog.c", "--bogus"],
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


def test_compile_error_is_formatted_with_location(fake_pipeline, capsys):
    src = _source(fake_pipeline.root, "bad.c", "int x;\n#error nope\n")
    assert cli.main(["run", src]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{src}:2:1: error: #error in input\n#error nope\n^")
    assert "Traceback" not in err


def test_internal_error_exit_2_without_traceback(fake_pipeline, capsys, monkeypatch):
    monkeypatch.delenv("OMP2GPU_DEBUG", raising=False)
    src = _source(fake_pipeline.root, "crash.c", "#crash\n")
    assert cli.main(["compile", src]) == 2
    err = capsys.readouterr().err
    assert "omp2gpu: internal compiler error: ZeroDivisionError: the front end fell over" in err
    assert "report" in err and "Traceback" not in err


def test_internal_error_traceback_with_debug(fake_pipeline, capsys, monkeypatch):
    monkeypatch.setenv("OMP2GPU_DEBUG", "1")
    src = _source(fake_pipeline.root, "crash.c", "#crash\n")
    assert cli.main(["compile", src]) == 2
    assert "Traceback" in capsys.readouterr().err


def test_missing_main(fake_pipeline, capsys):
    src = _source(fake_pipeline.root, "lib.c", NO_MAIN)
    assert cli.main(["run", src]) == 1
    assert f"{src}: undefined reference to 'main'" in capsys.readouterr().err


def test_unwritable_output(fake_pipeline, capsys):
    src = _source(fake_pipeline.root, "hello.c", HELLO)
    assert cli.main(["compile", src, "-o", str(fake_pipeline.root / "no" / "such" / "dir.o")]) == 1
    assert "omp2gpu: error: cannot write" in capsys.readouterr().err


# --- the pipeline through the CLI --------------------------------------------

def test_run_links_runtime_passes_args_and_masks_status(fake_pipeline, capfd):
    src = _source(fake_pipeline.root, "hello.c", HELLO)
    status = cli.main(["run", src, "-DN=1", "-Iinc", "-std=c11", "-O1", "--", "world", "b"])
    assert status == 300 & 0xFF
    assert capfd.readouterr().out == "hello world argc=103\n"
    assert ("preprocess", src, ["inc"], ["N=1"], [], "c11") in fake_pipeline.calls
    assert ("emit_module", "hello.c", "HostOpenMP") in fake_pipeline.calls


def test_runtime_ir_is_cached(fake_pipeline, monkeypatch, capfd):
    src = _source(fake_pipeline.root, "hello.c", HELLO)
    assert cli.main(["run", src, "--", "x"]) == 44
    cached = list((fake_pipeline.root / "cache").glob("host-runtime-*.ll"))
    assert len(cached) == 1 and "omp_get_num_devices" in cached[0].read_text()

    def no_recompiling():
        raise AssertionError("the runtime was recompiled despite a current cache")
    with monkeypatch.context() as patch:
        patch.setattr(driver, "compile_host_runtime", no_recompiling)
        assert cli.main(["run", src, "--", "x"]) == 44

    # Editing the runtime changes the key, so it is compiled afresh.
    (fake_pipeline.runtime / "host" / "devices.c").write_text(RUNTIME_C.replace("100", "7"))
    assert driver.host_runtime_ir() != cached[0].read_text()


def test_program_definition_wins_over_runtime(fake_pipeline, capfd):
    own = HELLO.replace("declare i32 @omp_get_num_devices()", "define i32 @omp_get_num_devices() { ret i32 5 }")
    src = _source(fake_pipeline.root, "own.c", own)
    assert cli.main(["run", src, "--", "x"]) == 44
    assert capfd.readouterr().out == "hello x argc=7\n"


def test_compile_emit_llvm_to_stdout(fake_pipeline, capsys):
    src = _source(fake_pipeline.root, "hello.c", HELLO)
    assert cli.main(["compile", src, "--emit-llvm", "-o", "-", "-O2"]) == 0
    out = capsys.readouterr().out
    assert "i32 @main(" in out and "target triple" in out
    assert "ret i32 100" in out  # the runtime's definition was linked in


def test_compile_default_output_names(fake_pipeline):
    src = _source(fake_pipeline.root / "runtime", "hello.c", HELLO)  # not in the cwd
    assert cli.main(["compile", src, "--emit-llvm"]) == 0
    assert "i32 @main(" in (fake_pipeline.root / "hello.ll").read_text()
    assert cli.main(["compile", "-c", src]) == 0
    assert (fake_pipeline.root / "hello.o").read_bytes()[:4] == b"\x7fELF"


def test_compile_object_file_runs_when_linked(fake_pipeline):
    import shutil
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler to link the object file with")
    src = _source(fake_pipeline.root, "hello.c", HELLO)
    assert cli.main(["compile", "-c", src, "-o", "hello.o"]) == 0
    subprocess.run([cc, "hello.o", "-o", "hello", "-lm"], check=True, cwd=fake_pipeline.root)
    done = subprocess.run(["./hello", "there"], capture_output=True, text=True, cwd=fake_pipeline.root)
    assert (done.returncode, done.stdout) == (44, "hello there argc=102\n")


def test_dump_stages_print_banners(fake_pipeline, capfd):
    src = _source(fake_pipeline.root, "hello.c", HELLO)
    assert cli.main(["run", src, "--dump=ast,ir,opt-ir", "--", "x"]) == 44
    err = capfd.readouterr().err
    for stage in ("ast", "ir", "opt-ir"):
        assert f"===== omp2gpu dump: {stage} ({src}) =====" in err
    assert "FileAST of" in err
    assert err.index("dump: ast") < err.index("dump: ir ") < err.index("dump: opt-ir")


def test_runtime_build_does_not_dump(fake_pipeline, capfd):
    src = _source(fake_pipeline.root, "hello.c", HELLO)
    assert cli.main(["run", src, "--dump=ir", "--", "x"]) == 44
    assert capfd.readouterr().err.count("===== omp2gpu dump") == 1


def test_runs_as_module(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT))
    for module in ("omp2gpu", "omp2gpu.tools.cli"):
        done = subprocess.run([sys.executable, "-m", module, "run", str(tmp_path / "x.c")],
                              capture_output=True, text=True, env=env)
        assert (done.returncode, done.stderr) == (1, f"omp2gpu: error: no such file: {tmp_path / 'x.c'}\n")


# --- end to end, once the real front end and codegen exist -------------------

def test_real_pipeline_hello(tmp_path, capfd, monkeypatch):
    for stage in ("frontend.preprocess", "frontend.parse", "frontend.pragmas",
                  "codegen.module", "codegen.openmp.host"):
        pytest.importorskip(f"omp2gpu.{stage}")
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(tmp_path / "cache"))
    src = _source(tmp_path, "hello.c",
                  '#include <stdio.h>\nint main(int argc, char **argv) {\n'
                  '  printf("hi %s %d\\n", argv[1], argc);\n  return 7;\n}\n')
    assert cli.main(["run", src, "--", "there"]) == 7
    assert capfd.readouterr().out == "hi there 2\n"


def test_real_pipeline_exit_status_and_flushed_output(tmp_path):
    for stage in ("frontend.preprocess", "frontend.parse", "frontend.pragmas",
                  "codegen.module", "codegen.openmp.host"):
        pytest.importorskip(f"omp2gpu.{stage}")
    src = _source(tmp_path, "bye.c", '#include <stdio.h>\n#include <stdlib.h>\n'
                                     'int main(void) { printf("bye"); exit(3); }\n')
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT), OMP2GPU_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-m", "omp2gpu", "run", src], capture_output=True, text=True, env=env)
    assert (done.returncode, done.stdout, done.stderr) == (3, "bye", "")
