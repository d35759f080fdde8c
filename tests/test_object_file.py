"""omp2gpu objects, static libraries and executables (omp2gpu/object_file.py), built
and run through the command line as a Makefile would: `compile -c`, `ar rcs`,
`run main.o libx.a`, `compile *.o -o prog` then `./prog`."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from omp2gpu import object_file
from omp2gpu.diagnostics import CompileError

REPO = Path(__file__).resolve().parent.parent
HEAT = REPO / "tests" / "programs" / "multi_file_heat"

LIBRARY_A = r"""
#pragma omp declare target
double scale = 3.0;
double twice(double x) { return 2.0 * x * scale; }
#pragma omp end declare target
static int helper(void) { return 1; }          /* the same static name in main.c */
int from_a(void) { return helper(); }
"""
LIBRARY_B = r"""
int from_b(void) { return 20; }
int unused_duplicate_of_a(void) { return 0; }
"""
UNUSED = r"""
int from_a(void) { return -1; }   /* would be a multiple definition, were it pulled in */
"""
MAIN = r"""
#include <stdio.h>
#pragma omp declare target
extern double scale;
double twice(double x);
#pragma omp end declare target
int from_a(void);
int from_b(void);
static int helper(void) { return 100; }
int main(int argc, char **argv) {
    double y[8];
    #pragma omp target teams distribute parallel for map(from: y[0:8])
    for (int i = 0; i < 8; i++) y[i] = twice(i);
    printf("%s %g %d\n", argc > 1 ? argv[1] : "-", y[7], from_a() + from_b() + helper());
    return 3;
}
"""
EXPECTED = "hello 42 121\n"


def omp2gpu(*args, cwd, check=True):
    env = {**os.environ, "PYTHONPATH": str(REPO), "OMP2GPU_CACHE_DIR": str(cwd / "cache")}
    done = subprocess.run([sys.executable, "-m", "omp2gpu", *map(str, args)], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)
    if check:
        assert done.returncode == 0, done.stderr
    return done


@pytest.fixture
def project(tmp_path):
    for name, text in {"a.c": LIBRARY_A, "b.c": LIBRARY_B, "unused.c": UNUSED, "main.c": MAIN}.items():
        (tmp_path / name).write_text(text)
    return tmp_path


@pytest.mark.parametrize("device", ["host", "cpu"])
def test_objects_and_a_static_library_link_and_run(project, device):
    if shutil.which("ar") is None:
        pytest.skip("no ar")
    omp2gpu("compile", "-c", "a.c", "b.c", "unused.c", cwd=project)
    omp2gpu("compile", "-c", "main.c", "-o", "main.o", cwd=project)
    assert (project / "a.o").read_bytes()[:4] == b"\x7fELF"
    subprocess.run(["ar", "rcs", "libab.a", "a.o", "b.o"], cwd=project, check=True)
    subprocess.run(["ar", "rcs", "libunused.a", "unused.o"], cwd=project, check=True)
    # libunused.a comes first and defines from_a, not yet used: ld leaves it out, so do we.
    done = omp2gpu("run", "--device", device, "libunused.a", "main.o", "libab.a", "--", "hello",
                   cwd=project, check=False)
    assert (done.returncode, done.stdout) == (3, EXPECTED), done.stderr
    done = omp2gpu("run", "--device", device, "a.o", "b.o", "main.o", "--", "hello", cwd=project, check=False)
    assert (done.returncode, done.stdout) == (3, EXPECTED), done.stderr


def test_a_static_library_named_with_l_links_as_ld_finds_it(project):
    """`-L DIR -lNAME` finds libNAME.a (a Makefile's `-L. -lab`), for run and for an
    executable; the archive comes after the inputs, as ld takes it."""
    omp2gpu("compile", "-c", "a.c", "b.c", "main.c", cwd=project)
    members = [(name, (project / name).read_bytes()) for name in ("a.o", "b.o")]
    (project / "lib").mkdir()
    (project / "lib" / "libab.a").write_bytes(object_file.archive(members))
    done = omp2gpu("run", "main.o", "-L", "lib", "-lab", "--", "hello", cwd=project, check=False)
    assert (done.returncode, done.stdout) == (3, EXPECTED), done.stderr
    omp2gpu("compile", "main.o", "-Llib", "-lab", "-o", "prog", cwd=project)
    env = {**os.environ, "PYTHONPATH": str(REPO), "OMP2GPU_CACHE_DIR": str(project / "cache")}
    done = subprocess.run(["./prog", "hello"], cwd=project, env=env, capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stdout) == (3, EXPECTED), done.stderr


def test_an_object_pulled_in_twice_is_a_multiple_definition(project):
    omp2gpu("compile", "-c", "a.c", "b.c", "unused.c", "main.c", cwd=project)
    done = omp2gpu("run", "a.o", "unused.o", "b.o", "main.o", cwd=project, check=False)
    assert done.returncode == 1
    assert "unused.o: multiple definition of 'from_a'; a.o: first defined here" in done.stderr
    assert "Traceback" not in done.stderr


def test_executable_runs_like_a_program(project):
    omp2gpu("compile", "-c", "a.c", "b.c", cwd=project)
    omp2gpu("compile", "main.c", "a.o", "b.o", "-o", "prog", cwd=project)
    env = {**os.environ, "PYTHONPATH": str(REPO), "OMP2GPU_CACHE_DIR": str(project / "cache")}
    done = subprocess.run(["./prog", "hello"], cwd=project, env=env, capture_output=True, text=True,
                          timeout=300)
    assert (done.returncode, done.stdout) == (3, EXPECTED), done.stderr


def test_linking_an_executable_reports_link_errors_now(project):
    done = omp2gpu("compile", "a.c", "b.c", "-o", "prog", cwd=project, check=False)
    assert done.returncode == 1 and "undefined reference to 'main'" in done.stderr
    assert not (project / "prog").exists()


def test_multi_file_corpus_program_from_objects(tmp_path):
    for source in sorted(HEAT.glob("*.c")):
        omp2gpu("compile", "-c", "-I", HEAT, source, cwd=tmp_path)
    done = omp2gpu("run", "--device", "cpu", *sorted(p.name for p in tmp_path.glob("*.o")),
                   "--", "alpha", "42", cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "corner 0.000000 centre 61.506469"


def test_an_object_of_another_compiler_is_refused(tmp_path):
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    (tmp_path / "f.c").write_text("int f(void) { return 1; }\n")
    subprocess.run([cc, "-c", "f.c"], cwd=tmp_path, check=True)
    with pytest.raises(CompileError, match=r"f\.o: not an omp2gpu object"):
        object_file.read_unit((tmp_path / "f.o").read_bytes(), "f.o")


def test_archive_members_long_names_and_odd_sizes():
    members = [("short.o", b"abc"), ("x.o", b"")]
    assert object_file.archive_members(object_file.archive(members), "t.a") == members
    # GNU long names: "//" table, members named "/offset".
    long_name = b"a_rather_long_member_name.o/\n"
    table = b"//" + b" " * 46 + f"{len(long_name):<10}".encode() + b"`\n" + long_name
    member = b"/0" + b" " * 14 + b"0" * 1 + b" " * 11 + b"0     0     644     " + b"2         `\n" + b"hi"
    data = object_file.AR_MAGIC + table + (b"\n" if len(long_name) & 1 else b"") + member
    assert object_file.archive_members(data, "t.a") == [("a_rather_long_member_name.o", b"hi")]


MAKEFILE = """CC = {omp2gpu} compile
CFLAGS = -O2
prog: main.o grid.o stencil.o diagnostics.o
\t$(CC) $^ -o $@
"""


def test_a_makefile_builds_with_it(tmp_path):
    """The README's recipe: make's built-in `$(CC) $(CFLAGS) -c` rule, then a link."""
    if shutil.which("make") is None:
        pytest.skip("no make")
    for source in HEAT.iterdir():
        shutil.copy(source, tmp_path)
    (tmp_path / "Makefile").write_text(MAKEFILE.format(omp2gpu=f"{sys.executable} -m omp2gpu"))
    env = {**os.environ, "PYTHONPATH": str(REPO), "OMP2GPU_CACHE_DIR": str(tmp_path / "cache")}
    subprocess.run(["make", "-s"], cwd=tmp_path, env=env, check=True, capture_output=True, timeout=300)
    done = subprocess.run(["./prog", "alpha", "42"], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.stdout.splitlines()[-1] == "corner 0.000000 centre 61.506469", done.stderr
