"""examples/make, examples/cmake and examples/autotools built with CC=omp2gpu-cc from a clean build folder, as
a user would, and the programs run on the CPU device against gcc's build: CMake identifies
the compiler as GNU, find_package(OpenMP) finds OpenMP 4.5 and OpenMP::OpenMP_C links an
offloading program; the Makefile's dependency files make a second `make` do nothing and an
edited header rebuild what includes it; autotools' configure passes its compiler checks
(C11, dependency style, OpenMP, headers, functions, sizes) and its build prints gcc's numbers.
.ci/run installs autoconf and automake where they are missing."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = REPO_ROOT / "examples"


@pytest.fixture
def omp2gpu_cc(tmp_path) -> Path:
    """omp2gpu-cc as an executable (the console script where installed, else a wrapper
    running this checkout's omp2gpu with this interpreter)."""
    wrapper = tmp_path / "bin" / "omp2gpu-cc"
    wrapper.parent.mkdir()
    wrapper.write_text(f'#!/bin/sh\nPYTHONPATH="{REPO_ROOT}${{PYTHONPATH:+:$PYTHONPATH}}" '
                       f'exec "{sys.executable}" -m omp2gpu.tools.cc "$@"\n')
    wrapper.chmod(0o755)
    return wrapper


def _env(**extra) -> dict:
    return {**os.environ, "OMP2GPU_DEVICES": "cpu", "OMP_NUM_THREADS": "2", **extra}


def _run(command, cwd, **extra) -> subprocess.CompletedProcess:
    done = subprocess.run(command, cwd=cwd, env=_env(**extra), capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, f"{command}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_makefile_project(tmp_path, omp2gpu_cc):
    project = tmp_path / "make"
    shutil.copytree(EXAMPLES / "make", project)
    _run(["make", f"CC={omp2gpu_cc}"], project)
    log = tmp_path / "offload.log"
    got = _run(["./heat", "50"], project, OMP2GPU_OFFLOAD_LOG=str(log)).stdout
    assert len(log.read_text().splitlines()) == 50                  # each step's region on the CPU device
    if shutil.which("gcc"):
        subprocess.run(["gcc", "-O2", "-fopenmp", "-foffload=disable", "heat.c", "grid.c", "-o", "heat_gcc"],
                       cwd=project, check=True)
        assert got.replace("(1 devices)", "") == _run(["./heat_gcc", "50"], project).stdout.replace(
            "(0 devices)", "")
    again = _run(["make", f"CC={omp2gpu_cc}"], project).stdout
    assert "omp2gpu-cc" not in again, again                            # nothing compiled or linked
    os.utime(project / "grid.h")
    rebuilt = _run(["make", f"CC={omp2gpu_cc}"], project).stdout
    assert "-c heat.c" in rebuilt and "-c grid.c" in rebuilt


@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed")
def test_cmake_project(tmp_path, omp2gpu_cc):
    build = tmp_path / "build"
    configured = _run(["cmake", "-S", str(EXAMPLES / "cmake"), "-B", str(build)], tmp_path, CC=str(omp2gpu_cc))
    assert "The C compiler identification is GNU 12.2.0" in configured.stdout
    assert 'Found OpenMP_C: -fopenmp (found version "4.5")' in configured.stdout
    _run(["cmake", "--build", str(build)], tmp_path)
    log = tmp_path / "offload.log"
    got = _run([str(build / "saxpy"), "1000"], tmp_path, OMP2GPU_OFFLOAD_LOG=str(log)).stdout
    assert got == "_OPENMP 201511, 1 devices, ran on the device, max error 0\n"
    assert "device='cpu'" in log.read_text()


@pytest.mark.skipif(shutil.which("autoreconf") is None, reason="autoconf/automake are not installed")
def test_autotools_project(tmp_path, omp2gpu_cc):
    project = tmp_path / "autotools"
    shutil.copytree(EXAMPLES / "autotools", project)
    _run(["autoreconf", "-fi"], project)
    configured = _run(["./configure", f"CC={omp2gpu_cc}"], project).stdout
    for check in ("accepts -g... yes", "option to enable C11 features... none needed",
                  "dependency style of", "size of double... 8", "for getopt.h... yes"):
        assert check in configured, configured
    assert "dependency style of " + str(omp2gpu_cc) + "... gcc3" in configured
    _run(["make"], project)
    log = tmp_path / "offload.log"
    done = _run(["./particles", "-n", "2000", "-s", "10"], project, OMP2GPU_OFFLOAD_LOG=str(log))
    assert "10 of 10 steps ran on a device" in done.stderr
    assert len(log.read_text().splitlines()) >= 10
    if shutil.which("gcc"):
        reference = tmp_path / "reference"
        shutil.copytree(project, reference)
        _run(["make", "distclean"], reference)
        _run(["./configure", "CC=gcc"], reference)
        _run(["make"], reference)
        assert done.stdout == _run(["./particles", "-n", "2000", "-s", "10"], reference).stdout
    again = _run(["make"], project).stdout
    assert "omp2gpu-cc" not in again, again


@pytest.mark.gpu
@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed")
def test_cmake_project_on_the_gpu(tmp_path, omp2gpu_cc):
    """The same build on a GPU machine: the kernel runs on GPU 0 (device 0: only the GPUs
    are numbered where there are some)."""
    build = tmp_path / "build"
    _run(["cmake", "-S", str(EXAMPLES / "cmake"), "-B", str(build)], tmp_path, CC=str(omp2gpu_cc))
    _run(["cmake", "--build", str(build)], tmp_path)
    log = tmp_path / "offload.log"
    env = {key: value for key, value in _env().items() if key != "OMP2GPU_DEVICES"}
    done = subprocess.run([str(build / "saxpy")], env={**env, "OMP2GPU_OFFLOAD_LOG": str(log)},
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "ran on the device, max error 0" in done.stdout, done.stderr
    assert "device='cpu'" not in log.read_text() and log.read_text()
