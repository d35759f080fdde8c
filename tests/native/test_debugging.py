"""Tools on omp2gpu's native executables (docs/debugging.md): built with -g, gdb stops at a
line inside a target region, on the host (the host fallback) and on the CPU device, and
prints the region's variables (and a program's blocks, statics, globals and variable-length
arrays); valgrind's memcheck runs the host fallback and reports no
error in a correct program, and the line of a bug in a wrong one; the line table names the
source file. On a GPU (marker `gpu`): compute-sanitizer and ncu run the executable, and
compute-sanitizer names the line of a kernel's read past its array (the PTX's -g lines).

Tools that are not installed skip their test, naming the tool."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
PROGRAMS = HERE / "programs"
REPO_ROOT = HERE.parents[1]
TIMEOUT_S = 300
HEAT = PROGRAMS / "debug_heat.c"
BREAK = "/* BREAK */"          # the line inside its target region where gdb stops
# What the heat program prints (gcc -fopenmp prints the same).
HEAT_OUTPUT = "cells 32 steps 4 total 100.000000 middle 27.343750\n"

pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C toolchain (cc) to link")


def needs(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"{tool} is not installed")
    return path


def marked_line(source: Path, marker: str) -> int:
    return next(number for number, line in enumerate(source.read_text().splitlines(), 1) if marker in line)


def omp2gpu(*args: str, cwd: Path) -> str:
    """The command's standard output; it must succeed."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))}
    done = subprocess.run([sys.executable, "-m", "omp2gpu.tools.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=TIMEOUT_S)
    assert done.returncode == 0, done.stderr
    return done.stdout


def build(work: Path, source: Path, *flags: str) -> Path:
    omp2gpu("compile", "--native", *flags, str(source), "-o", source.stem, cwd=work)
    return work / source.stem


def gdb_batch(program: Path, *commands: str, env: dict | None = None) -> str:
    """gdb's output for `commands` run in batch mode on `program` (skips where the machine
    lets no process trace another)."""
    gdb = needs("gdb")
    arguments = [gdb, "-nx", "-batch"]
    for command in commands:
        arguments += ["-ex", command]
    done = subprocess.run([*arguments, str(program)], capture_output=True, text=True, timeout=TIMEOUT_S,
                          env=env, stdin=subprocess.DEVNULL)
    if "ptrace: Operation not permitted" in done.stderr:
        pytest.skip("gdb may not trace processes here (ptrace not permitted)")
    return done.stdout + done.stderr


@pytest.fixture(scope="module")
def heat(tmp_path_factory) -> Path:
    """debug_heat.c built with -g -O0, as one builds a program to debug it."""
    return build(tmp_path_factory.mktemp("heat"), HEAT, "-g", "-O0")


def device_env(device: str) -> dict:
    """The program's environment to run its regions on `device` ("host": the host fallback)."""
    env = {**os.environ, "OMP_NUM_THREADS": "2"}
    if device == "host":
        env["OMP_TARGET_OFFLOAD"] = "DISABLED"
    else:
        env.update(OMP2GPU_DEVICES=device, OMP_TARGET_OFFLOAD="MANDATORY")
    return env


@pytest.mark.parametrize("device, frame", [("host", r"main\._omp_fn"), ("cpu", r"__omp_offloading_main_l\d+\.wg")])
def test_gdb_prints_variables_inside_a_target_region(heat, device, frame):
    """`break debug_heat.c:LINE if i == 16` inside the region's loop: at the first time step
    the rod's hot middle cell, whose flux is diffusivity * (0 - 2 * 100 + 0) = -50."""
    line = marked_line(HEAT, BREAK)
    out = gdb_batch(heat, f"break debug_heat.c:{line} if i == 16", "run", "print flux", "print diffusivity",
                    "print t[i]", "print cells", "print left + right", "backtrace 1", env=device_env(device))
    assert re.search(rf"hit Breakpoint 1(\.\d+)?, {frame} \(.*\) at debug_heat\.c:{line}", out), out
    values = re.findall(r"^\$\d+ = (.*)$", out, re.M)
    assert values == ["-50", "0.25", "100", "32", "0"], out
    assert re.search(rf"#0 +{frame} \(.*\) at debug_heat\.c:{line}", out), out


def test_gdb_sees_each_blocks_variables_statics_globals_and_vlas(tmp_path):
    """Lexical blocks, a static local, file-scope objects, a variable-length array."""
    source = PROGRAMS / "debug_scopes.c"
    program = build(tmp_path, source, "-g", "-O0")
    out = gdb_batch(program, f"break debug_scopes.c:{marked_line(source, '/* LOOP */')} if i == 101", "run",
                    "print i", "print doubled", "print config", "print histogram", "print grid[2]", "print grid[1][2]",
                    "delete", f"break debug_scopes.c:{marked_line(source, '/* STATIC */')}", "continue", "print issued",
                    "delete", f"break debug_scopes.c:{marked_line(source, '/* INNER */')}", "continue", "print total",
                    "print blocks_entered", env=device_env("host"))
    values = re.findall(r"^\$\d+ = (.*)$", out, re.M)
    assert values == ["101", "202", "{steps = 3, dt = 0.5}", "{0, 1, 4, 9}", "{20, 21, 22}", "12", "41", "83",
                      "1"], out


def test_gdb_lists_the_region_line_on_both_devices(heat):
    """One breakpoint, two places: the host fallback's outlined loop and the CPU device's
    work-group function (the device image has its own line table)."""
    line = marked_line(HEAT, BREAK)
    out = gdb_batch(heat, f"break debug_heat.c:{line}", "info breakpoints")
    functions = set(re.findall(r"in (\S+) at debug_heat\.c:" + str(line), out))
    assert any(name.startswith("main._omp_fn") for name in functions), out
    assert any(name.endswith(".wg") for name in functions), out


def test_gdb_stops_in_an_omp2gpu_object_linked_by_gcc(tmp_path):
    """`omp2gpu compile --native -c -g` makes an object whose device image has its lines too:
    a gcc-built main linking it stops inside the object's target region on the CPU device."""
    needs("gdb")
    library = PROGRAMS / "vector_library.c"
    omp2gpu("compile", "--native", "-c", "-g", "-O0", str(library), "-o", "library.o", cwd=tmp_path)
    flags = omp2gpu("link-flags", cwd=tmp_path).split()
    subprocess.run(["gcc", "-g", str(PROGRAMS / "gcc_main.c"), "library.o", *flags, "-o", "main"], cwd=tmp_path,
                   check=True)
    line = marked_line(library, "y[i] = a * x[i] + y[i];")
    out = gdb_batch(tmp_path / "main", f"break vector_library.c:{line} if i == 5", "run", "print x[i]", "print a",
                    env=device_env("cpu"))
    assert re.search(rf"__omp_offloading_\w+_saxpy_l\d+\.wg \(.*\) at vector_library\.c:{line}", out), out
    assert re.findall(r"^\$\d+ = (.*)$", out, re.M) == ["5", "3"], out       # gcc_main.c's x[5] and a


def test_the_line_table_names_the_source_file(heat, tmp_path):
    readelf = needs("readelf")
    lines = subprocess.run([readelf, "--debug-dump=line", str(heat)], capture_output=True, text=True).stdout
    assert "debug_heat.c" in lines
    decoded = subprocess.run([readelf, "--debug-dump=decodedline", str(heat)], capture_output=True, text=True).stdout
    assert re.search(rf"debug_heat\.c +{marked_line(HEAT, BREAK)} ", decoded)
    plain = build(tmp_path, HEAT)                     # without -g: no debug sections at all
    sections = subprocess.run([readelf, "-S", str(plain)], capture_output=True, text=True).stdout
    assert ".debug_line" not in sections and ".debug_info" not in sections


def memcheck(program: Path, device: str) -> subprocess.CompletedProcess:
    """valgrind's memcheck on the program. What counts as an error: memcheck's own (invalid
    reads and writes, uses of uninitialised values, bad frees) and memory definitely lost;
    not the thread stacks libgomp keeps for its pool ("possibly lost"), nor what is still
    reachable at exit. tests/native/valgrind.supp holds suppressions for reports in the
    OpenMP runtime's own code (none are needed with glibc 2.36's libgomp today)."""
    valgrind = needs("valgrind")
    return subprocess.run(
        [valgrind, "--error-exitcode=99", "--leak-check=full", "--errors-for-leak-kinds=definite",
         f"--suppressions={HERE / 'valgrind.supp'}", str(program)],
        capture_output=True, text=True, timeout=TIMEOUT_S, env=device_env(device))


@pytest.mark.parametrize("device", ["host", "cpu"])
def test_valgrind_finds_no_error_in_a_correct_program(heat, device):
    done = memcheck(heat, device)
    assert done.returncode == 0, done.stderr
    assert done.stdout == HEAT_OUTPUT
    assert "ERROR SUMMARY: 0 errors" in done.stderr, done.stderr


def test_valgrind_reports_the_line_of_a_read_past_the_array(tmp_path):
    """The host fallback of a region reading one element past its array: memcheck's report
    names the source line (the test that the one above can fail)."""
    source = PROGRAMS / "debug_off_by_one.c"
    done = memcheck(build(tmp_path, source, "-g", "-O0"), "host")
    assert done.returncode == 99, done.stderr
    assert "Invalid read of size 8" in done.stderr, done.stderr
    assert f"debug_off_by_one.c:{marked_line(source, '/* OVERRUN */')})" in done.stderr, done.stderr


@pytest.mark.gpu
def test_compute_sanitizer_and_ncu_run_the_native_executable(tmp_path):
    """On the GPU: compute-sanitizer's memcheck finds no error in the heat program's kernels,
    and ncu profiles its kernels (by their omp2gpu names)."""
    sanitizer, ncu = needs("compute-sanitizer"), needs("ncu")
    program = build(tmp_path, HEAT, "-g")
    env = device_env("gpu")
    done = subprocess.run([sanitizer, "--error-exitcode=99", str(program)], capture_output=True, text=True,
                          timeout=TIMEOUT_S, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert HEAT_OUTPUT in done.stdout and "ERROR SUMMARY: 0 errors" in done.stdout, done.stdout
    done = subprocess.run([ncu, "--launch-count", "2", str(program)], capture_output=True, text=True,
                          timeout=TIMEOUT_S, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert HEAT_OUTPUT in done.stdout, done.stdout
    assert re.search(r"__omp_offloading_\w*main_l\d+", done.stdout), done.stdout


@pytest.mark.gpu
def test_compute_sanitizer_names_the_line_of_a_kernels_bad_read(tmp_path):
    """With -g the PTX carries .loc lines, loaded with the driver's line information: the
    report of the region's read one element past its mapped array names the source line."""
    sanitizer = needs("compute-sanitizer")
    source = PROGRAMS / "debug_off_by_one.c"
    program = build(tmp_path, source, "-g")
    env = {**os.environ, "OMP2GPU_DEVICES": "gpu"}
    done = subprocess.run([sanitizer, "--error-exitcode=99", str(program)], capture_output=True, text=True,
                          timeout=TIMEOUT_S, env=env)
    report = done.stdout + done.stderr
    assert done.returncode == 99, report
    assert "Invalid __global__ read of size 8" in report, report
    assert f"debug_off_by_one.c:{marked_line(source, '/* OVERRUN */')}" in report, report


def test_valgrind_runs_vectorised_code_built_for_a_portable_processor(tmp_path):
    """-march=x86-64-v3 (AVX2, which valgrind runs; a host with AVX-512 would otherwise get
    AVX-512 code from the default -march=native): the heat program built -O2, on the host
    fallback and the CPU device, memcheck-clean with gcc's output."""
    program = build(tmp_path, HEAT, "-O2", "-march=x86-64-v3")
    for device in ("host", "cpu"):
        done = memcheck(program, device)
        assert done.returncode == 0 and done.stdout == HEAT_OUTPUT, done.stderr
