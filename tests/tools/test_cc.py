"""omp2gpu-cc's behaviour as gcc's (tools/cc.py): a.out by default, objects linked with
another compiler's, -E and -dM, dependency files equal to gcc's, -v's steps, -###,
-foffload=disable running no region on a device, -fno-openmp serial code, the GNU identity
that CMake reads. The flags one by one: test_cc_flags.py; CMake and make: tests/examples/
test_build_systems.py."""

from __future__ import annotations

import importlib
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from omp2gpu.tools import cc

needs_gcc = pytest.mark.skipif(shutil.which("gcc") is None, reason="gcc is the reference")

PROGRAM = r"""
#include <stdio.h>
#include <omp.h>
#include "scale.h"
int triple(int);
int main(void) {
    int n = 100, sum = 0;
    #pragma omp target teams distribute parallel for reduction(+:sum) map(tofrom: sum)
    for (int i = 0; i < n; i++) sum += SCALE * i;
#ifdef _OPENMP
    printf("openmp %d\n", _OPENMP);
#endif
    #pragma omp parallel num_threads(3)
    printf("thread\n");
    printf("sum %d triple %d\n", sum, triple(sum));
    return 0;
}
"""


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scale.h").write_text("#define SCALE 2\n")
    (tmp_path / "prog.c").write_text(PROGRAM)
    (tmp_path / "triple.c").write_text("int triple(int x) { return 3 * x; }\n")
    return tmp_path


def _run(path, env=None):
    return subprocess.run([str(path)], capture_output=True, text=True, env=env, check=False)


@needs_gcc
def test_objects_a_out_and_another_compilers_object(project, monkeypatch):
    """-c writes prog.o; without -o the link writes a.out; gcc's object links in."""
    subprocess.run(["gcc", "-c", "triple.c", "-o", "triple.o"], check=True)
    assert cc.main(["-c", "-O2", "-Wall", "prog.c"]) == 0 and (project / "prog.o").is_file()
    assert cc.main(["prog.o", "triple.o"]) == 0
    done = _run(project / "a.out", env={"OMP_NUM_THREADS": "3", "OMP2GPU_DEVICES": "cpu"})
    assert done.stdout == "openmp 201511\n" + "thread\n" * 3 + "sum 9900 triple 29700\n"


@needs_gcc
def test_dependency_files_are_gccs(project):
    """-MMD -MP beside the object, -M -MF -MT to a file: the text gcc writes for them."""
    assert cc.main(["-MMD", "-MP", "-c", "prog.c", "-o", "obj.o"]) == 0
    subprocess.run(["gcc", "-MMD", "-MP", "-MF", "gcc.d", "-E", "prog.c", "-MT", "obj.o", "-o", "/dev/null"],
                   check=True)
    assert (project / "obj.d").read_text() == (project / "gcc.d").read_text()
    assert "scale.h" in (project / "obj.d").read_text()
    assert cc.main(["-M", "-MF", "all.d", "-MT", "target", "prog.c"]) == 0
    rule = (project / "all.d").read_text()
    assert rule.startswith("target: prog.c") and "omp.h" in rule and "scale.h" in rule


def test_forced_includes(project, capsys):
    """-include reads a header before the first line, -imacros takes only its macros (before
    -include's, as gcc); a dependency rule names the forced header."""
    (project / "forced.h").write_text("#define SCALE 5\nint forced_declaration;\n")
    (project / "plain.c").write_text('#include <stdio.h>\nint main(void) { printf("%d\\n", SCALE); }\n')
    assert cc.main(["-include", "forced.h", "plain.c", "-o", "with_include"]) == 0
    assert _run(project / "with_include").stdout == "5\n"
    assert cc.main(["-imacros", "forced.h", "-E", "plain.c"]) == 0
    text = capsys.readouterr().out
    assert "printf(\"%d\\n\", 5)" in text and "forced_declaration" not in text
    assert cc.main(["-include", "forced.h", "-MM", "plain.c"]) == 0
    assert "forced.h" in capsys.readouterr().out


def test_preprocessing_and_predefined_macros(project, capsys):
    """-E expands macros; -dM -E lists the GNU identity and _OPENMP, which -fno-openmp drops."""
    assert cc.main(["-E", "prog.c"]) == 0
    assert "sum += 2 * i" in capsys.readouterr().out
    assert cc.main(["-dM", "-E", "prog.c"]) == 0
    macros = capsys.readouterr().out
    assert "#define __GNUC__ 12\n" in macros and "#define _OPENMP 201511\n" in macros
    assert cc.main(["-dM", "-E", "-fno-openmp", "prog.c"]) == 0
    assert "_OPENMP" not in capsys.readouterr().out


def test_identity_answers(capsys):
    assert cc.main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("omp2gpu-cc (omp2gpu ")
    assert cc.main(["-dumpversion"]) == 0 and capsys.readouterr().out == "12\n"
    assert cc.main(["-dumpmachine"]) == 0 and capsys.readouterr().out == "x86_64-linux-gnu\n"
    assert cc.main(["-v"]) == 0 and "gcc version 12.2.0 compatible" in capsys.readouterr().err
    assert cc.main([]) == 1 and "no input files" in capsys.readouterr().err


def test_offload_disable_runs_no_region_on_a_device(project, tmp_path):
    """-foffload=disable: target regions are host code, so the offload log stays empty; the
    same program built without it launches its kernel on the CPU device."""
    (project / "scale.h").write_text("#define SCALE 1\n")
    env = {"OMP2GPU_DEVICES": "cpu", "OMP_NUM_THREADS": "2"}
    for flags, launches in ((["-foffload=disable"], 0), ([], 1)):
        log = tmp_path / f"log{launches}"
        assert cc.main([*flags, "prog.c", "triple.c", "-o", "prog"]) == 0
        done = _run(project / "prog", env={**env, "OMP2GPU_OFFLOAD_LOG": str(log)})
        assert "sum 4950 triple 14850" in done.stdout
        assert (len(log.read_text().splitlines()) if log.exists() else 0) == launches


def test_fno_openmp_builds_serial_code(project):
    assert cc.main(["-fno-openmp", "prog.c", "triple.c", "-o", "serial"]) == 0
    done = _run(project / "serial", env={"OMP_NUM_THREADS": "3"})
    assert done.stdout == "thread\nsum 9900 triple 29700\n"


def test_verbose_steps_and_dry_run(project, capsys):
    assert cc.main(["-###", "prog.c", "triple.c", "-o", "prog"]) == 0
    assert '"omp2gpu-cc" link prog from prog.c triple.c' in capsys.readouterr().err
    assert not (project / "prog").exists()
    assert cc.main(["-v", "-c", "triple.c"]) == 0
    err = capsys.readouterr().err
    assert "#include <...> search starts here:" in err
    assert "omp2gpu-cc: compile triple.c -> triple.o:" in err and "preprocess " in err and "codegen " in err


def test_unknown_flags_are_warned_of_not_fatal(project, capsys):
    assert cc.main(["-frobnicate", "--frobnicate", "-mtune=generic", "-E", "triple.c"]) == 0
    err = capsys.readouterr().err
    assert "-frobnicate has no effect" in err and "unknown flag '--frobnicate'" in err and "-mtune=generic" in err


def test_what_autoconf_checks(project, capsys):
    """The compiler checks of an autotools ./configure with CC=omp2gpu-cc (AC_PROG_CC,
    AC_PROG_CPP, depcomp's gcc3 mode), run as configure runs them."""
    (project / "conftest.c").write_text("#include <limits.h>\n#include <assert.h>\nint main(void) {\n"
                                        "#ifndef __GNUC__\n  choke me\n#endif\n  return 0;\n}\n")
    (project / "missing.c").write_text("#include <ac_nonexistent.h>\n")
    assert cc.main(["-g", "-O2", "conftest.c"]) == 0 and _run(project / "a.out").returncode == 0
    assert cc.main(["-std=gnu11", "-c", "conftest.c"]) == 0 and (project / "conftest.o").is_file()
    assert cc.main(["-E", "conftest.c"]) == 0
    assert cc.main(["-E", "missing.c"]) == 1
    assert "ac_nonexistent.h: No such file or directory" in capsys.readouterr().err
    assert cc.main(["-MT", "conftest.o", "-MD", "-MP", "-MF", "conftest.Tpo", "-c", "-o", "conftest.o",
                    "conftest.c"]) == 0
    assert (project / "conftest.Tpo").read_text().startswith("conftest.o: conftest.c")


def test_assembly_temporaries_libraries_and_stdin(project, monkeypatch, capsys):
    assert cc.main(["-S", "-save-temps", "triple.c"]) == 0
    assert "triple:" in (project / "triple.s").read_text() and "int triple" in (project / "triple.i").read_text()
    assert cc.main(["-shared", "-fPIC", "triple.c", "-Wl,-soname,libtriple.so.1", "-o", "libtriple.so"]) == 0
    dynamic = subprocess.run(["readelf", "-d", "libtriple.so"], capture_output=True, text=True).stdout
    assert "libtriple.so.1" in dynamic
    monkeypatch.setattr("sys.stdin", open(project / "scale.h"))
    assert cc.main(["-E", "-x", "c", "-"]) == 0 and "# 1" in capsys.readouterr().out
    assert cc.main(["-"]) == 1 and "-E or -x is required" in capsys.readouterr().err


def test_the_console_script_is_declared():
    """`pip install` makes `omp2gpu-cc` (pyproject.toml's [project.scripts])."""
    pyproject = (Path(cc.__file__).parents[2] / "pyproject.toml").read_text()
    module, function = re.search(r'^omp2gpu-cc = "([\w.]+):(\w+)"', pyproject, re.MULTILINE).groups()
    assert getattr(importlib.import_module(module), function) is cc.main


def test_omp2gpu_cc_and_doctor_are_omp2gpu_commands(project, capsys):
    from omp2gpu.tools import cli

    assert cli.main(["--help"]) == 0
    text = capsys.readouterr().out
    assert "omp2gpu cc ARGS..." in text and "omp2gpu doctor" in text
    assert cli.main(["cc", "-E", "triple.c"]) == 0 and "int triple" in capsys.readouterr().out
    assert cli.main(["doctor", "extra"]) == 2
